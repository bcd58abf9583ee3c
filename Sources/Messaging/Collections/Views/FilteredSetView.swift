/// The members of an ``ObservableSet`` that satisfy a predicate, as an observable set of its own:
/// it sends a ``SetChange`` of the included members for every change of the set that inserts or
/// removes one, at a cost in proportion to the change, never by filtering the whole set again.
///
/// ```swift
/// let tags = ObservableSet(["swift", "linux", "async"])
/// let short = tags.filteredElements { $0.count <= 5 }     // ["swift", "linux", "async"]
/// observer.observe(short) { change in print(change.inserted, change.removed) }
/// tags.insert("concurrency")   // sends nothing: the member is not included
/// tags.insert("docs")          // sends the insertion of "docs"
/// tags.remove("linux")         // sends the removal of "linux"
/// ```
///
/// Each change the view sends is the set's change with the members the predicate excludes left
/// out, so applying it to the view's previous contents gives its new contents. A change that
/// inserts or removes no included member sends nothing; a transaction's merged change gives one
/// change of the view at most.
///
/// Not to be confused with ``ObservableSource/filter(_:)``, which drops whole change messages.
///
/// ## Observed or not
///
/// Like every standalone transform, the view observes the set only while it is observed itself,
/// and keeps itself and the set alive while it is. It holds no members of its own: a set's change
/// names every member it inserts and removes, so the view only filters each change, and
/// ``value`` and ``count`` filter the set's current members when they are read. For a view that
/// stays in memory (sorted, and O(1) to count), observe ``sortedView(by:)`` or
/// ``observableCount``.
///
/// The predicate runs outside every lock of the library, on the thread that delivers the set's
/// changes. It must give the same answer for a member every time: a property that can change is
/// followed only through an edit of the set that replaces the member.
///
/// - Complexity: Per change of the set, while observed: *k* calls of the predicate for *k* members
///   inserted and removed, and one send when an included member is among them. Memory: none of
///   its own beyond the observation of the set.
public final class FilteredSetView<Element: Hashable & Sendable>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the view's changes.
    public let messenger: Messenger<SetChange<Element>>

    /// The set the view filters.
    public let set: ObservableSet<Element>

    let _isIncluded: @Sendable (Element) -> Bool
    let _link: _OriginLink<ObservableSet<Element>, SetChange<Element>>

    /// Makes the view of the members of `set` that satisfy `isIncluded`; observing it starts
    /// following the set.
    ///
    /// - Parameters:
    ///   - set: The set to filter; held strongly.
    ///   - isIncluded: Whether a member is in the view; it must give the same answer for a member
    ///     every time.
    /// - Complexity: O(1).
    public init(_ set: ObservableSet<Element>, where isIncluded: @escaping @Sendable (Element) -> Bool) {
        let messenger = Messenger<SetChange<Element>>()
        let core = messenger._core
        self.messenger = messenger
        self.set = set
        _isIncluded = isIncluded
        _link = _OriginLink(
            set, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            handler: { change, author, isolation in
                let included = Self._included(in: change, by: isIncluded)
                guard !included.isEmpty else { return }
                core.send(included, author: author, checksChange: false, isolation: isolation)
            })
        core.keepAliveWhileObserved(self)
    }

    /// The part of `change` that inserts and removes members `isIncluded` includes.
    static func _included(
        in change: SetChange<Element>,
        by isIncluded: @Sendable (Element) -> Bool
    ) -> SetChange<Element> {
        SetChange(removed: change.removed.filter(isIncluded), inserted: change.inserted.filter(isIncluded))
    }

    /// The set's current members that satisfy the predicate.
    ///
    /// It filters the set's current members, which may already hold edits whose changes the view
    /// has not sent yet (while another thread delivers them).
    ///
    /// - Complexity: O(*n*) calls of the predicate for *n* members of the set.
    public var value: Set<Element> {
        self.set.value.filter(_isIncluded)
    }

    /// The number of the set's current members that satisfy the predicate.
    ///
    /// - Complexity: O(*n*) calls of the predicate for *n* members of the set. Observe
    ///   ``observableCount`` to follow the count in O(1) per change.
    public var count: Int {
        var count = 0
        for member in set.value where _isIncluded(member) { count += 1 }
        return count
    }

    /// Whether no member of the set satisfies the predicate.
    ///
    /// - Complexity: O(*n*) calls of the predicate at most, stopping at the first included member.
    public var isEmpty: Bool {
        !self.set.value.contains(where: _isIncluded)
    }

    /// Whether the set has a member equal to `member` that satisfies the predicate.
    ///
    /// - Complexity: O(1) on average, and at most one call of the predicate.
    public func contains(_ member: Element) -> Bool {
        let members = set.value
        guard let index = members.firstIndex(of: member) else { return false }
        return _isIncluded(members[index])
    }

    /// The whole contents of the view (``value``) as one insertion into an empty set: what a new
    /// observation that asks for the latest message receives first.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: SetChange<Element> {
        SetChange(inserted: value)
    }

    /// An observable of the view's count: `Update(old, new)` whenever an edit of the set changes
    /// the number of included members, and nothing for an edit that keeps it.
    ///
    /// ```swift
    /// short.observableCount.subscribe { update in badge.text = "\(update.new)" }
    /// ```
    ///
    /// It observes the set itself, as ``ObservableSet/observableCount`` does, and counts only the
    /// included members: its observation of the set starts with the set's members, read in the
    /// same step, and each later change moves the count by the included members it inserts less
    /// those it removes. It is an ``ObservableCount``: its `value` is ``count`` (O(*n*) calls of
    /// the predicate), so it can be a source of an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; when its observation starts, O(*n*) calls of the predicate; per
    ///   change of the set, *k* calls of the predicate for *k* members inserted and removed, and at
    ///   most one send.
    public var observableCount: ObservableCount<FilteredSetView<Element>> {
        let isIncluded = _isIncluded
        return ObservableCount(
            self, countingMembersOf: set,
            counts: { change in
                var counts = (inserted: 0, removed: 0)
                for member in change.inserted where isIncluded(member) { counts.inserted += 1 }
                for member in change.removed where isIncluded(member) { counts.removed += 1 }
                return counts
            }, read: { $0.count })
    }

    /// An observable of whether the view has a member equal to `member`: it sends
    /// `Update(old, new)` whenever an edit of the set inserts or removes such a member that the
    /// predicate includes, and never for a member it excludes.
    ///
    /// It is an ``ObservableMembership`` of the view, which observes the view only while it is
    /// observed itself; its `value` is ``contains(_:)``.
    ///
    /// - Parameter member: The member to watch. It is hashed and compared on the delivering
    ///   thread, outside every lock.
    /// - Returns: The observable of the membership of `member` in the view, a cache.
    /// - Complexity: O(1) to make; per change of the view, while observed, O(1) on average and at
    ///   most one send.
    public func observableContains(_ member: Element) -> ObservableMembership<FilteredSetView<Element>, Element> {
        ObservableMembership(
            self, member: member,
            expressionMember: .count(
                of: set, counts: SetChange._moves(of: member, isIncluded: _isIncluded), readsCountAsBool: true)
        ) { collection, member in collection.contains(member) }
    }

    /// A view of the included members sorted by `areInIncreasingOrder`, kept sorted per change.
    ///
    /// ```swift
    /// let shortInOrder = tags.filteredElements { $0.count <= 5 }.sortedView(by: <)
    /// ```
    ///
    /// The sorted view observes the set itself and holds only the included members; it calls the
    /// predicate once for each member a change inserts or removes. See ``SortedSetView``.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second: a
    ///   strict weak ordering, as for `sorted(by:)`.
    /// - Returns: A ``SortedSetView`` of the included members.
    /// - Complexity: O(1) to make; per member inserted or removed, while observed, one call of the
    ///   predicate and, for an included member, O(log *n*) for *n* included members.
    public func sortedView(
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> SortedSetView<Element> {
        SortedSetView(set, limit: nil, isIncluded: _isIncluded, by: areInIncreasingOrder)
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

extension FilteredSetView where Element: Comparable {
    /// A view of the included members in ascending order, kept sorted per change.
    ///
    /// - Returns: A ``SortedSetView`` of the included members by `<`.
    /// - Complexity: As ``sortedView(by:)``.
    public func sortedView() -> SortedSetView<Element> {
        sortedView(by: { $0 < $1 })
    }
}

// The set and the predicate are immutable and `Sendable`; the observation of the set is guarded by
// the link's lock. The view keeps no other state.
extension FilteredSetView: @unchecked Sendable {}

extension ObservableSet {
    /// A view of the members that satisfy `isIncluded`, kept up to date per change: it sends the
    /// set's changes with the excluded members left out.
    ///
    /// ```swift
    /// let short = tags.filteredElements { $0.count <= 5 }
    /// ```
    ///
    /// See ``FilteredSetView`` for what it sends and when it observes the set. Unlike
    /// ``ObservableSource/filter(_:)``, which keeps or drops whole change messages, it filters the
    /// members.
    ///
    /// - Parameter isIncluded: Whether a member is in the view; it must give the same answer for a
    ///   member every time.
    /// - Returns: The view; observe it to follow the set.
    /// - Complexity: O(1) to make; per change, while observed, *k* calls of `isIncluded` for *k*
    ///   members inserted and removed.
    public func filteredElements(
        where isIncluded: @escaping @Sendable (Element) -> Bool
    ) -> FilteredSetView<Element> {
        FilteredSetView(self, where: isIncluded)
    }
}
