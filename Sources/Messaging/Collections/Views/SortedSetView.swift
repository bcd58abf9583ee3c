/// The members of an ``ObservableSet`` in sorted order, or the first few of them, kept sorted as
/// the set changes: each inserted or removed member costs O(log *n*), never a new sort.
///
/// ```swift
/// let tags = ObservableSet(["swift", "linux", "async"])
/// let alphabetical = tags.sortedView(by: <)     // ["async", "linux", "swift"]
/// observer.observe(alphabetical) { change in print(change.modifications) }
/// tags.insert("docs")     // prints [.insert("docs", at: 1)]
/// ```
///
/// It sends an ``ArrayChange`` against its own contents, as a ``SortedArrayView`` does, and
/// follows the same rules: the order must be a strict weak ordering; members that are equivalent
/// (neither is ordered before the other) are in an unspecified order when the view starts, and a
/// member inserted later goes after its equivalents. A member that the set replaces by an equal
/// one keeps its place and sends nothing.
///
/// ``FilteredSetView/sortedView(by:)`` makes one that holds only the members a filter includes; it
/// observes the set itself and calls the filter once for each member a change inserts or removes.
///
/// It observes the set only while it is observed itself, sorting the members once when its first
/// observation starts; while nothing observes it, ``value`` sorts the current members each time it
/// is read. The comparator and `==` run outside every lock of the library.
///
/// - Complexity: Per member the set inserts or removes, while observed: O(log *n*) comparisons
///   and steps for *n* members, and one send. Memory: the members and about 3 bytes more per
///   member.
public final class SortedSetView<Element: Hashable & Sendable>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the view's changes.
    public let messenger: Messenger<ArrayChange<Element>>

    /// The set the view sorts.
    public let set: ObservableSet<Element>

    /// How many of the first sorted members the view holds; `nil` for all of them.
    public let limit: Int?

    let _areInIncreasingOrder: @Sendable (Element, Element) -> Bool
    /// The filter of a view made by ``FilteredSetView/sortedView(by:)``: the view holds only the
    /// members it includes. `nil` for all of them.
    let _isIncluded: (@Sendable (Element) -> Bool)?
    let _state: _SortedViewState<Element>
    let _link: _OriginLink<ObservableSet<Element>, SetChange<Element>>

    /// Makes a sorted view of `set`, or of its first `limit` sorted members; observing it starts
    /// the sort.
    ///
    /// - Parameters:
    ///   - set: The set to sort.
    ///   - limit: How many of the first sorted members the view holds: not negative; `nil` for
    ///     all. A negative limit stops the program with a message.
    ///   - areInIncreasingOrder: Whether its first argument goes before its second: a strict weak
    ///     ordering.
    /// - Complexity: O(1).
    public convenience init(
        _ set: ObservableSet<Element>,
        limit: Int? = nil,
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) {
        self.init(set, limit: limit, isIncluded: nil, by: areInIncreasingOrder)
    }

    /// Makes a sorted view of the members of `set` that `isIncluded` includes (all of them if it is
    /// `nil`), or of the first `limit` of them.
    init(
        _ set: ObservableSet<Element>,
        limit: Int?,
        isIncluded: (@Sendable (Element) -> Bool)?,
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) {
        precondition(limit.map { $0 >= 0 } != false, "SortedSetView: the limit (\(limit ?? 0)) is negative")
        let messenger = Messenger<ArrayChange<Element>>()
        let state = _SortedViewState<Element>()
        let core = messenger._core
        let count = limit ?? .max
        self.messenger = messenger
        self.set = set
        self.limit = limit
        _areInIncreasingOrder = areInIncreasingOrder
        _isIncluded = isIncluded
        _state = state
        _link = _OriginLink(
            set, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            handler: { change, author, isolation in
                let change = Self._arrayChange(of: change)
                guard let (tree, epoch) = state.treeOrQueue(change) else { return }
                guard
                    let viewChange = _SortedViewState._apply(
                        change, to: tree, limit: count, by: areInIncreasingOrder, isIncluded: isIncluded,
                        locked: { state.mutate(ifEpochIs: epoch, $0) }),
                    !viewChange.isEmpty
                else { return }
                core.send(viewChange, author: author, checksChange: false, isolation: isolation)
            },
            starter: { set, observation, setMessenger in
                var contents: Set<Element>?
                var epoch: UInt64 = 0
                var replaced: (_SortedCountedTree<Element>?, [ArrayChange<Element>]) = (nil, [])
                setMessenger._core.insert(observation) {
                    // Under the set's lock: the members right before every change the new
                    // observation receives. The view's state lock is a leaf.
                    guard observation._isActiveWhileLocked else { return }
                    contents = set._storage
                    (epoch, replaced) = state.beginSeeding()
                }
                withExtendedLifetime(replaced) {}  // what the seeding replaced is released after both locks
                guard let contents else { return }
                // The tree is nobody else's until it is stored: no lock needed to change it.
                let included = isIncluded.map { contents.filter($0) } ?? contents
                let tree = _SortedCountedTree(sorted: included.sorted(by: areInIncreasingOrder))
                while let queued = state.finishSeeding(tree, ifEpochIs: epoch) {
                    for change in queued {
                        guard
                            let viewChange = _SortedViewState._apply(
                                change, to: tree, limit: count, by: areInIncreasingOrder, isIncluded: isIncluded,
                                locked: { body in
                                    body()
                                    return true
                                }),
                            !viewChange.isEmpty
                        else { continue }
                        core.send(viewChange, author: set, checksChange: false, isolation: nil)
                    }
                }
            })
        core.keepAliveWhileObserved(self)
    }

    /// The set's change as one slice replacement, removed members first: the view looks only at
    /// the elements of a change, never at its offsets.
    static func _arrayChange(of change: SetChange<Element>) -> ArrayChange<Element> {
        ArrayChange(
            countBefore: change.removed.count,
            modifications: CollectionOfOne(.replaceSlice(Array(change.removed), at: 0, with: Array(change.inserted))))
    }

    /// The sorted members (the first ``limit`` of them, if it is set).
    ///
    /// - Complexity: O(*m*) for the *m* members it returns, while the view is observed;
    ///   otherwise O(*n* log *n*) for *n* members of the set, sorting them.
    public var value: [Element] {
        let limit = limit ?? .max
        if let elements = _state.read({ $0.prefix(limit) }) { return elements }
        let members = set.value
        let sorted = (_isIncluded.map { members.filter($0) } ?? members).sorted(by: _areInIncreasingOrder)
        return sorted.count > limit ? Array(sorted.prefix(limit)) : sorted
    }

    /// The number of members of the view: the set's count (of the members the filter includes, for
    /// a sorted view of a ``FilteredSetView``), or ``limit`` if it is smaller.
    ///
    /// - Complexity: O(1); for a sorted view of a ``FilteredSetView`` that is not observed, O(*n*)
    ///   calls of the filter.
    public var count: Int {
        let limit = limit ?? .max
        if let count = _state.read({ $0.count }) { return Swift.min(count, limit) }
        guard let isIncluded = _isIncluded else { return Swift.min(set.count, limit) }
        return Swift.min(set.value.lazy.filter(isIncluded).count, limit)
    }

    /// An observable of the view's count: `Update(old, new)` for every change of the view that
    /// changes its number of members, and nothing for one that keeps it.
    ///
    /// It reads the counts each change of the view carries (``ArrayChange/countBefore`` and
    /// ``ArrayChange/countAfter``): it is an ``ObservableCount`` of the view, which observes the view
    /// (and the view its sources) only while it is observed itself. Its `value` is ``count``, so it
    /// can be a source of an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; per change of the view, O(1) and at most one send.
    public var observableCount: ObservableCount<SortedSetView<Element>> {
        ObservableCount(view: self) { $0.count }
    }

    /// The whole contents as one insertion into an empty array: what a new observation that asks
    /// for the latest message receives first.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: ArrayChange<Element> {
        ArrayChange(insertingContentsOf: value, at: 0, into: [])
    }

    /// A view of the first `maxLength` members of this view, in the same order.
    ///
    /// The new view sorts the set on its own, keeping its own tree of all the members while it is
    /// observed.
    ///
    /// - Parameter maxLength: How many members the new view holds at most; not negative, or the
    ///   program stops with a message.
    /// - Returns: A view of the same set and order, limited to `maxLength` members (or to this
    ///   view's ``limit``, if it is smaller).
    /// - Complexity: O(1).
    public func prefix(_ maxLength: Int) -> SortedSetView<Element> {
        precondition(maxLength >= 0, "SortedSetView.prefix(_:): the length (\(maxLength)) is negative")
        return SortedSetView(
            set, limit: Swift.min(maxLength, limit ?? .max), isIncluded: _isIncluded, by: _areInIncreasingOrder)
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        let core = messenger._core
        _state.forgetIfUnobserved { core.observationCount == 0 }
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The set, the limit, the filter and the comparator are immutable and `Sendable`; the tree is guarded by the
// state's lock, the observation of the set by the link's.
extension SortedSetView: @unchecked Sendable {}

extension ObservableSet {
    /// A view of the members sorted by `areInIncreasingOrder`, kept sorted per change.
    ///
    /// See ``SortedSetView`` for the order of equivalent members and what it sends.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second: a
    ///   strict weak ordering, as for `sorted(by:)`.
    /// - Returns: A ``SortedSetView`` of the set.
    /// - Complexity: O(1) to make; per member inserted or removed, while observed, O(log *n*).
    public func sortedView(
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> SortedSetView<Element> {
        SortedSetView(self, by: areInIncreasingOrder)
    }
}

extension ObservableSet where Element: Comparable {
    /// A view of the members in ascending order, kept sorted per change.
    ///
    /// - Returns: A ``SortedSetView`` of the set by `<`.
    /// - Complexity: O(1) to make; per member inserted or removed, while observed, O(log *n*).
    public func sortedView() -> SortedSetView<Element> {
        SortedSetView(self, by: { $0 < $1 })
    }
}
