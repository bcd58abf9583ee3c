/// The members of an ``ObservableSet`` that satisfy a predicate whose parameter is a ``Var``, as an
/// observable set of its own: the tags that start with the text of a search field, kept up to date
/// when the tags change and when the text changes. Made by `filteredElements(matching:where:)`.
///
/// ```swift
/// let prefix = Var("")
/// let found = tags.filteredElements(matching: prefix) { tag, prefix in tag.hasPrefix(prefix) }
/// observer.observe(found) { change in
///     change.apply(to: &shown)
/// }
/// prefix.value = "sw"   // one change: the tags that no longer match are removed
/// tags.insert("swiftui")   // the insertion of "swiftui"
/// ```
///
/// The set's edits are filtered as ``FilteredSetView`` filters them, with the parameter's current
/// value: a removed member leaves the view if it was in it, an inserted one joins it if the
/// predicate includes it. When the parameter changes, the view tests every member again and sends
/// one change: the members that leave the view and those that join it. A change that touches no
/// included member sends nothing. The view applies the set's changes and the parameter's updates
/// one at a time, in the order they reach it, whichever threads make them, and sends its changes
/// in that order, so applying each change to the contents before it always gives the contents
/// after it.
///
/// It is GlueKit's filter by an observable predicate, for sets: a predicate that changes is a
/// fixed function of a value that changes.
///
/// ## Observed or not
///
/// Like every standalone transform, it observes the set and the parameter only while it is
/// observed itself, and keeps itself, the set and the parameter alive while it is. Each
/// observation starts with the source's current value, read under the source's lock in the step
/// that starts it. From then on the view keeps its own copy of the set's members (the ones it must
/// test again when the parameter changes, as of the last change it applied), each with a flag that
/// says whether it is included. ``count`` is the view's count after the last change it sent while
/// it is observed; ``value`` always filters the set's current members with the parameter's current
/// value.
///
/// The predicate runs outside every lock of the library, on the thread that applies the message
/// (the one that delivered it, or one delivering the other source's message at the same time).
/// For a given parameter it must give the same answer for a member every time.
///
/// - Complexity: Per change of the set, while observed: *k* calls of the predicate and O(*k*) on
///   average for *k* members removed and inserted. Per update of the parameter: *n* calls of the
///   predicate for *n* members, rewriting their flags in place, and hashing only the members that
///   leave or join the view, into its change. Memory: one entry per member of the set (the member
///   and its flag) while observed, nothing otherwise.
public final class ParameterFilteredSetView<Element: Hashable & Sendable, Parameter: Equatable & Sendable>:
    ObservableCache, _StandaloneOperator
{
    /// The messenger that sends the view's changes.
    public let messenger: Messenger<SetChange<Element>>

    /// The set the view filters.
    public let set: ObservableSet<Element>

    /// The variable whose value the predicate takes as its second argument.
    public let parameter: Var<Parameter>

    let _isIncluded: @Sendable (Element, Parameter) -> Bool
    let _state: _ParameterSetFilterState<Element, Parameter>
    let _setLink: _OriginLink<ObservableSet<Element>, SetChange<Element>>
    let _parameterLink: _OriginLink<Var<Parameter>, Update<Parameter>>

    /// Makes the view of the members of `set` for which `isIncluded` returns `true` with the
    /// current value of `parameter`; observing it starts observing both.
    ///
    /// - Parameters:
    ///   - set: The set to filter; held strongly.
    ///   - parameter: The variable the predicate depends on; held strongly.
    ///   - isIncluded: Whether a member is in the view for a value of the parameter; the same
    ///     answer for the same two every time.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(
        _ set: ObservableSet<Element>,
        matching parameter: Var<Parameter>,
        where isIncluded: @escaping @Sendable (Element, Parameter) -> Bool
    ) {
        // The per-member code is made here, in the client's code, where it is specialized.
        self.init(
            _set: set, parameter: parameter, isIncluded: isIncluded,
            code: _ParameterSetFilterCode(isIncluded: isIncluded))
    }

    @usableFromInline
    init(
        _set set: ObservableSet<Element>,
        parameter: Var<Parameter>,
        isIncluded: @escaping @Sendable (Element, Parameter) -> Bool,
        code: _ParameterSetFilterCode<Element, Parameter>
    ) {
        let messenger = Messenger<SetChange<Element>>()
        let core = messenger._core
        let state = _ParameterSetFilterState<Element, Parameter>(core: core, code: code)
        self.messenger = messenger
        self.set = set
        self.parameter = parameter
        _isIncluded = isIncluded
        _state = state
        // Each observation of a source gets its own handler, which starts with the source's
        // value, read under its lock in the step that starts the observation.
        _setLink = _OriginLink(
            set, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            handler: { _, _, _ in },
            replayOf: { set in
                let claimed = _FilterGeneration()
                return (
                    { set._latestMessageUnderLock() }, set,
                    { change, author, isolation in
                        state.submit(.members(change), claimed: claimed, author: author, isolation: isolation)
                    }
                )
            })
        _parameterLink = _OriginLink(
            parameter, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            handler: { _, _, _ in },
            replayOf: { parameter in
                let claimed = _FilterGeneration()
                return (
                    { parameter._latestMessageUnderLock() }, parameter,
                    { update, author, isolation in
                        state.submit(.parameter(update.new), claimed: claimed, author: author, isolation: isolation)
                    }
                )
            })
        core.keepAliveWhileObserved(self)
    }

    /// The set's current members that satisfy the predicate with the parameter's current value.
    ///
    /// It reads both sources as they are now, which may hold edits whose changes the view has not
    /// sent yet (while another thread delivers them).
    ///
    /// - Complexity: O(*n*) calls of the predicate for *n* members of the set.
    public var value: Set<Element> {
        let parameter = parameter.value
        return self.set.value.filter { _isIncluded($0, parameter) }
    }

    /// The number of included members: while the view is observed, its count after the last change
    /// it sent; otherwise the count of ``value``.
    ///
    /// - Complexity: O(1) while the view is observed; otherwise O(*n*) calls of the predicate for
    ///   *n* members of the set.
    public var count: Int {
        if let count = _state.currentCount { return count }
        let parameter = parameter.value
        var count = 0
        for member in self.set.value where _isIncluded(member, parameter) { count += 1 }
        return count
    }

    /// Whether no member is included.
    ///
    /// - Complexity: As ``count``.
    public var isEmpty: Bool { count == 0 }

    /// Whether the set has a member equal to `member` that satisfies the predicate with the
    /// parameter's current value.
    ///
    /// - Complexity: O(1) on average, and at most one call of the predicate.
    public func contains(_ member: Element) -> Bool {
        let members = self.set.value
        guard let index = members.firstIndex(of: member) else { return false }
        return _isIncluded(members[index], parameter.value)
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
    /// found.observableCount.subscribe { update in badge.text = "\(update.new)" }
    /// ```
    ///
    /// It observes the view, which observes its sources while it is observed. Each of its
    /// observations starts with the view's count, read in the step that starts it (or in the step
    /// the view first knows it), and moves it by the members each change inserts less those it
    /// removes. It is an ``ObservableCount``: its `value` is ``count``, so it can be a source of
    /// an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; per change of the view, O(1) and at most one send.
    public var observableCount: ObservableCount<ParameterFilteredSetView<Element, Parameter>> {
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
        ParameterFilteredSetView<Element, Parameter>, Element
    > {
        ObservableMembership(self, member: member) { collection, member in collection.contains(member) }
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        _state.forgetIfUnobserved()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_setLink)
        body(_parameterLink)
    }
}

// The set, the parameter and the predicate are immutable and `Sendable`; the members, the
// included members, the parameter's value and the count are guarded by the lock of the view's
// messenger, the observations by the links'.
extension ParameterFilteredSetView: @unchecked Sendable {}

extension ObservableSet {
    /// A view of the members for which `isIncluded` returns `true` with the current value of
    /// `parameter`: the view follows the set's edits, and tests every member again when the
    /// parameter changes.
    ///
    /// ```swift
    /// let prefix = Var("")
    /// let found = tags.filteredElements(matching: prefix) { tag, prefix in tag.hasPrefix(prefix) }
    /// ```
    ///
    /// See ``ParameterFilteredSetView`` for what it sends and what it costs. For a predicate that
    /// never changes, use ``ObservableSet/filteredElements(where:)``.
    ///
    /// - Parameters:
    ///   - parameter: The variable the predicate depends on.
    ///   - isIncluded: Whether a member is in the view for a value of the parameter; the same
    ///     answer for the same two every time.
    /// - Returns: The view; it observes the set and the parameter only while it is observed.
    /// - Complexity: O(1).
    @inlinable
    public func filteredElements<Parameter: Equatable & Sendable>(
        matching parameter: Var<Parameter>,
        where isIncluded: @escaping @Sendable (Element, Parameter) -> Bool
    ) -> ParameterFilteredSetView<Element, Parameter> {
        ParameterFilteredSetView(self, matching: parameter, where: isIncluded)
    }
}
