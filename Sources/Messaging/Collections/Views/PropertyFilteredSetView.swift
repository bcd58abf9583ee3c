/// The members of an ``ObservableSet`` whose observable `Bool` property is currently `true`, as an
/// observable set of its own: the open issues of a set of issues, where each issue's `isOpen` is a
/// ``Var``. Made by `filteredElements(by:)`.
///
/// ```swift
/// final class Issue: Hashable, Sendable {
///     let title: String
///     let isOpen: Var<Bool>
///     // Equal by identity: ==, hash(into:)
/// }
/// let open = issues.filteredElements(by: \.isOpen)
/// observer.observe(open) { change in
///     change.apply(to: &openRows)
/// }
/// bug.isOpen.value = false   // the removal of `bug` from the view
/// bug.isOpen.value = true    // its insertion
/// ```
///
/// It sends a ``SetChange`` of the view's own members: a member whose property becomes `true` is
/// inserted, one whose property becomes `false` is removed, and the set's edits are filtered as
/// ``FilteredSetView`` filters them, with each member's property as the predicate (a removed
/// member leaves the view if it was in it, an inserted one joins it if its property is `true`; a
/// transaction's merged change gives one change of the view). A change that touches no included
/// member sends nothing. The view applies the set's changes and the properties' updates one at a
/// time, in the order they reach it, whichever threads make them, and sends its changes in that
/// order, so applying each change to the contents before it always gives the contents after it.
///
/// It is GlueKit's set filter by an observable property of each element.
///
/// ## Observed or not
///
/// Like every standalone transform, it observes the set and the properties only while it is
/// observed itself, and keeps itself and the set alive while it is. When its first observation
/// starts, it observes the set, reading the members in the step that starts that observation,
/// then calls `select` for each member (outside every lock of the library) and observes each
/// property; a ``Var``'s value is read in the step that starts its observation. From then on it
/// keeps one slot per member (the member, its property and the property's last value). Once a
/// member leaves the set, the view stops observing its property and lets the member go.
/// ``count`` is the view's count after the last change it sent while it is observed; ``value``
/// always reads the set's current members and their properties.
///
/// `select`, hashing and comparing members run outside every lock of the library, on the thread
/// that applies the message (the one that delivered it, or one delivering another message to the
/// view at the same time). `select` is called once per member when the member arrives, not again:
/// it should return the same observable for the same member, as a stored property does.
///
/// - Complexity: Per update of a property, while observed: O(1), hashing the member once into the
///   view's change. Per change of the set: O(*k*) on average for *k* members removed and
///   inserted, with one call of `select` and one new observation per inserted member. Memory: one
///   slot and one observation per member while observed, nothing otherwise.
public final class PropertyFilteredSetView<Element: Hashable & Sendable, Property: ObservableCache & Sendable>:
    ObservableCache, _StandaloneOperator
where Property.Message == Update<Bool> {
    /// The messenger that sends the view's changes.
    public let messenger: Messenger<SetChange<Element>>

    /// The set the view filters.
    public let set: ObservableSet<Element>

    let _select: @Sendable (Element) -> Property
    let _state: _PropertySetFilterState<Element, Property>
    let _link: _OriginLink<ObservableSet<Element>, SetChange<Element>>

    /// Makes the view of the members of `set` whose property, which `select` leads to, is `true`;
    /// observing it starts observing the set and the properties.
    ///
    /// - Parameters:
    ///   - set: The set to filter; held strongly.
    ///   - select: The observable property of a member; called outside every lock, when a member
    ///     arrives while the view is observed, and for each member whenever ``value``, ``count``
    ///     or ``contains(_:)`` reads the sources.
    /// - Complexity: O(1).
    public init(_ set: ObservableSet<Element>, select: @escaping @Sendable (Element) -> Property) {
        let messenger = Messenger<SetChange<Element>>()
        let core = messenger._core
        let state = _PropertySetFilterState<Element, Property>(core: core, select: select)
        self.messenger = messenger
        self.set = set
        _select = select
        _state = state
        // Each observation of the set gets its own handler, which starts with the set's members,
        // read under its lock in the step that starts the observation.
        _link = _OriginLink(
            set, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            handler: { _, _, _ in },
            replayOf: { set in
                let claimed = _FilterGeneration()
                return (
                    { set._latestMessageUnderLock() }, set,
                    { change, author, isolation in
                        state.submit(.members(change, claimed: claimed), author: author, isolation: isolation)
                    }
                )
            })
        core.keepAliveWhileObserved(self)
    }

    /// The set's current members whose property is `true` now.
    ///
    /// It reads the sources as they are now, which may hold edits and flips whose changes the view
    /// has not sent yet (while another thread delivers them).
    ///
    /// - Complexity: O(*n*) for *n* members of the set, with one call of `select` and one read of
    ///   a latest message per member.
    public var value: Set<Element> {
        self.set.value.filter { _select($0).latestMessage.new }
    }

    /// The number of included members: while the view is observed, its count after the last change
    /// it sent; otherwise the count of ``value``.
    ///
    /// - Complexity: O(1) while the view is observed; otherwise as ``value``.
    public var count: Int {
        if let count = _state.currentCount { return count }
        var count = 0
        for member in self.set.value where _select(member).latestMessage.new { count += 1 }
        return count
    }

    /// Whether no member is included.
    ///
    /// - Complexity: As ``count``.
    public var isEmpty: Bool { count == 0 }

    /// Whether the set has a member equal to `member` whose property is `true` now.
    ///
    /// - Complexity: O(1) on average, and at most one call of `select`.
    public func contains(_ member: Element) -> Bool {
        let members = self.set.value
        guard let index = members.firstIndex(of: member) else { return false }
        return _select(members[index]).latestMessage.new
    }

    /// The whole contents of the view (``value``) as one insertion into an empty set: what a new
    /// observation that asks for the latest message receives first.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: SetChange<Element> {
        SetChange(inserted: value)
    }

    /// An observable of the view's count: `Update(old, new)` for every change of the view that
    /// changes its number of members, and nothing for one that keeps it.
    ///
    /// ```swift
    /// open.observableCount.subscribe { update in badge.text = "\(update.new)" }
    /// ```
    ///
    /// It observes the view, which observes its sources while it is observed. Each of its
    /// observations starts with the view's count, read in the step that starts it (or in the step
    /// the view first knows it), and moves it by the members each change inserts less those it
    /// removes. It is an ``ObservableCount``: its `value` is ``count``, so it can be a source of
    /// an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; per change of the view, O(1) and at most one send.
    public var observableCount: ObservableCount<PropertyFilteredSetView<Element, Property>> {
        ObservableCount(
            self, observing: self,
            start: { view, count in
                // Under the view's messenger lock, which guards its count: the count is read, or
                // waited for, in the step that starts the observation.
                view._state._startCount(count)
                return SetChange()
            }, read: { $0.count })
    }

    /// An observable of whether the view has a member equal to `member`: it sends
    /// `Update(old, new)` whenever a change of the view inserts or removes it.
    ///
    /// It is an ``ObservableMembership`` of the view, which observes the view only while it is
    /// observed itself; its `value` is ``contains(_:)``.
    ///
    /// - Parameter member: The member to watch. It is hashed and compared on the delivering
    ///   thread, outside every lock.
    /// - Returns: The observable of the membership of `member` in the view, a cache.
    /// - Complexity: O(1) to make; per change of the view, while observed, O(1) on average and at
    ///   most one send.
    public func observableContains(_ member: Element) -> ObservableMembership<
        PropertyFilteredSetView<Element, Property>, Element
    > {
        ObservableMembership(self, member: member) { collection, member in collection.contains(member) }
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        _state.forgetIfUnobserved()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The set and the closure are immutable and `Sendable`; the slots, the count and the queue of
// messages are guarded by the lock of the view's messenger, the observation of the set by the
// link's.
extension PropertyFilteredSetView: @unchecked Sendable {}

extension ObservableSet {
    /// A view of the members whose observable `Bool` property at `keyPath` is currently `true`: a
    /// member moves in or out of the view as its property changes.
    ///
    /// ```swift
    /// let open = issues.filteredElements(by: \.isOpen)   // isOpen: Var<Bool>
    /// ```
    ///
    /// See ``PropertyFilteredSetView`` for what it sends and what it costs. For a predicate on the
    /// member's value, which never changes in place, use ``ObservableSet/filteredElements(where:)``.
    ///
    /// - Parameter keyPath: Leads from a member to its observable property, whose messages are
    ///   updates of a `Bool` (a ``Var``).
    /// - Returns: The view; it observes the set and the properties only while it is observed.
    /// - Complexity: O(1).
    public func filteredElements<Property: ObservableCache & Sendable>(
        by keyPath: KeyPath<Element, Property> & Sendable
    ) -> PropertyFilteredSetView<Element, Property> where Property.Message == Update<Bool> {
        PropertyFilteredSetView(self) { $0[keyPath: keyPath] }
    }

    /// A view of the members whose observable `Bool` property that `select` returns is currently
    /// `true`: a member moves in or out of the view as its property changes.
    ///
    /// ```swift
    /// let open = issues.filteredElements(by: { issue in issue.isOpen })
    /// ```
    ///
    /// See ``PropertyFilteredSetView`` for what it sends and what it costs.
    ///
    /// - Parameter select: Returns a member's observable property, whose messages are updates of a
    ///   `Bool`; the same one for the same member every time.
    /// - Returns: The view; it observes the set and the properties only while it is observed.
    /// - Complexity: O(1).
    public func filteredElements<Property: ObservableCache & Sendable>(
        by select: @escaping @Sendable (Element) -> Property
    ) -> PropertyFilteredSetView<Element, Property> where Property.Message == Update<Bool> {
        PropertyFilteredSetView(self, select: select)
    }
}
