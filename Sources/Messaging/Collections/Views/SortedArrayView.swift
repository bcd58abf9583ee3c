/// The elements of an ``ObservableArray`` in sorted order, or the first few of them, kept sorted
/// as the array changes: each inserted or removed element costs O(log *n*), never a new sort.
///
/// ```swift
/// let scores = ObservableArray([30, 10, 20])
/// let ranking = scores.sortedView(by: >)      // [30, 20, 10]
/// let podium = ranking.prefix(2)              // [30, 20]
/// observer.observe(podium) { change in print(change.modifications) }
/// scores.append(25)   // prints [.insert(25, at: 1), .remove(20, at: 2)]
/// ```
///
/// It sends an ``ArrayChange`` against its own contents: applying each change to the view's
/// previous contents gives its new contents, so a table bound to it can animate each row. A view
/// made by ``prefix(_:)`` holds the first elements only: an element inserted among them pushes the
/// last one out, and one removed from among them lets the next one in.
///
/// ## Order
///
/// `areInIncreasingOrder` must be a strict weak ordering (as for `sorted(by:)`): irreflexive,
/// transitive, and with transitive equivalence. Elements that are equivalent (neither is ordered
/// before the other) keep the order in which they came into the view: when the view starts, their
/// order in the array; afterwards, an inserted element goes after the equivalent ones already
/// there. When the array removes an element, the view removes the first element `==` to it among
/// those equivalent to it, so every element must be `==` to itself (a `Double.nan` is not): the
/// program stops with a message if the view finds no such element. An element the array replaces
/// is removed, and the new one inserted; a replacement that keeps an element's rank is one
/// replacement in the view's change.
///
/// ## Observed or not
///
/// Like every standalone transform, it observes the array only while it is observed itself. When
/// its first observation starts, it reads the array's contents in the same atomic step that
/// starts its observation of the array, sorts them once (O(*n* log *n*)), and from then on follows
/// the changes. While nothing observes it, ``value`` sorts the current contents each time it is
/// read. The comparator and `==` run outside every lock of the library, on the thread that
/// delivers the array's changes or reads ``value``.
///
/// - Complexity: Per element the array inserts or removes, while observed: O(log *n*) comparisons
///   and steps for *n* elements (plus, for a removal, one `==` per equivalent element before the
///   removed one), and one send. Memory: the elements and about 3 bytes more per element.
public final class SortedArrayView<Element: Equatable & Sendable>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the view's changes.
    public let messenger: Messenger<ArrayChange<Element>>

    /// The array the view sorts (for a sorted view of a ``FilteredArrayView``, the filtered array:
    /// the view holds the elements the filter includes).
    public let array: ObservableArray<Element>

    /// How many of the first sorted elements the view holds; `nil` for all of them.
    public let limit: Int?

    @usableFromInline let _areInIncreasingOrder: @Sendable (Element, Element) -> Bool
    /// The filter of a view made by ``FilteredArrayView/sortedView(by:)``: the view holds only the
    /// elements it includes. `nil` for all of them.
    @usableFromInline let _isIncluded: (@Sendable (Element) -> Bool)?
    @usableFromInline let _state: _SortedViewState<Element>
    @usableFromInline let _link: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>

    /// Makes a sorted view of `array`, or of its first `limit` sorted elements; observing it starts
    /// the sort.
    ///
    /// - Parameters:
    ///   - array: The array to sort.
    ///   - limit: How many of the first sorted elements the view holds: not negative; `nil` for
    ///     all. A negative limit stops the program with a message.
    ///   - areInIncreasingOrder: Whether its first argument goes before its second: a strict weak
    ///     ordering (see ``SortedArrayView``).
    /// - Complexity: O(1).
    @inlinable
    public convenience init(
        _ array: ObservableArray<Element>,
        limit: Int? = nil,
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) {
        self.init(array, limit: limit, isIncluded: nil, by: areInIncreasingOrder)
    }

    /// Makes a sorted view of the elements of `array` that `isIncluded` includes (all of them if it
    /// is `nil`), or of the first `limit` of them.
    @inlinable
    convenience init(
        _ array: ObservableArray<Element>,
        limit: Int?,
        isIncluded: (@Sendable (Element) -> Bool)?,
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) {
        precondition(limit.map { $0 >= 0 } != false, "SortedArrayView: the limit (\(limit ?? 0)) is negative")
        // The handler and the starter are made here, in the client's code, where they are
        // specialized for its element type.
        let messenger = Messenger<ArrayChange<Element>>()
        let state = _SortedViewState<Element>()
        let core = messenger._core
        let count = limit ?? .max
        self.init(
            _array: array, limit: limit, isIncluded: isIncluded, by: areInIncreasingOrder, messenger: messenger,
            state: state,
            handler: { change, author, isolation in
                guard let (tree, epoch) = state.treeOrQueue(change) else { return }
                guard
                    let viewChange = _SortedViewState._apply(
                        change, to: tree, limit: count, by: areInIncreasingOrder, isIncluded: isIncluded,
                        locked: { state.mutate(ifEpochIs: epoch, $0) }),
                    !viewChange.isEmpty
                else { return }
                core.send(viewChange, author: author, checksChange: false, isolation: isolation)
            },
            starter: { array, observation, arrayMessenger in
                var contents: [Element]?
                var epoch: UInt64 = 0
                var replaced: (_SortedCountedTree<Element>?, [ArrayChange<Element>]) = (nil, [])
                arrayMessenger._core.insert(observation) {
                    // Under the array's lock: the contents right before every change the new
                    // observation receives. The view's state lock is a leaf.
                    guard observation._isActiveWhileLocked else { return }
                    contents = array._storage
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
                        core.send(viewChange, author: array, checksChange: false, isolation: nil)
                    }
                }
            }
        )
    }

    @usableFromInline
    init(
        _array array: ObservableArray<Element>,
        limit: Int?,
        isIncluded: (@Sendable (Element) -> Bool)?,
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool,
        messenger: Messenger<ArrayChange<Element>>,
        state: _SortedViewState<Element>,
        handler: @escaping (ArrayChange<Element>, AnyObject, (any Actor)?) -> Void,
        starter:
            @escaping (ObservableArray<Element>, _Observation<ArrayChange<Element>>, Messenger<ArrayChange<Element>>)
            -> Void
    ) {
        let core = messenger._core
        self.messenger = messenger
        self.array = array
        self.limit = limit
        _areInIncreasingOrder = areInIncreasingOrder
        _isIncluded = isIncluded
        _state = state
        _link = _OriginLink(
            array, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 }, handler: handler,
            starter: starter)
        core.keepAliveWhileObserved(self)
    }

    /// The sorted elements (the first ``limit`` of them, if it is set).
    ///
    /// - Complexity: O(*m*) for the *m* elements it returns, while the view is observed;
    ///   otherwise O(*n* log *n*) for *n* elements of the array, sorting them.
    public var value: [Element] {
        let limit = limit ?? .max
        if let elements = _state.read({ $0.prefix(limit) }) { return elements }
        let sorted = _includedElements().sorted(by: _areInIncreasingOrder)
        return sorted.count > limit ? Array(sorted.prefix(limit)) : sorted
    }

    /// The number of elements of the view: the array's count, or ``limit`` if it is smaller.
    ///
    /// - Complexity: O(1); for a sorted view of a ``FilteredArrayView`` that is not observed,
    ///   O(*n*) calls of the filter.
    public var count: Int {
        let limit = limit ?? .max
        if let count = _state.read({ $0.count }) { return Swift.min(count, limit) }
        guard let isIncluded = _isIncluded else { return Swift.min(array.value.count, limit) }
        return Swift.min(array.value.lazy.filter(isIncluded).count, limit)
    }

    /// The array's current elements that the view holds, in the array's order.
    func _includedElements() -> [Element] {
        let contents = array.value
        return _isIncluded.map { contents.filter($0) } ?? contents
    }

    /// An observable of the view's count: `Update(old, new)` for every change of the view that
    /// changes its number of elements, and nothing for one that keeps it.
    ///
    /// It reads the counts each change of the view carries (``ArrayChange/countBefore`` and
    /// ``ArrayChange/countAfter``): it is an ``ObservableCount`` of the view, which observes the view
    /// (and the view its sources) only while it is observed itself. Its `value` is ``count``, so it
    /// can be a source of an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; per change of the view, O(1) and at most one send.
    public var observableCount: ObservableCount<SortedArrayView<Element>> {
        ObservableCount(view: self) { $0.count }
    }

    /// The whole contents as one insertion into an empty array: what a new observation that asks
    /// for the latest message receives first.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: ArrayChange<Element> {
        ArrayChange(insertingContentsOf: value, at: 0, into: [])
    }

    /// A view of the first `maxLength` elements of this view, in the same order.
    ///
    /// The new view sorts the array on its own: it keeps its own tree of all the elements while it
    /// is observed, whether this view is observed or not.
    ///
    /// - Parameter maxLength: How many elements the new view holds at most; not negative, or the
    ///   program stops with a message.
    /// - Returns: A view of the same array and order, limited to `maxLength` elements (or to this
    ///   view's ``limit``, if it is smaller).
    /// - Complexity: O(1).
    @inlinable
    public func prefix(_ maxLength: Int) -> SortedArrayView<Element> {
        precondition(maxLength >= 0, "SortedArrayView.prefix(_:): the length (\(maxLength)) is negative")
        return SortedArrayView(
            array, limit: Swift.min(maxLength, limit ?? .max), isIncluded: _isIncluded, by: _areInIncreasingOrder)
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

// The array, the limit and the comparator are immutable and `Sendable`; the tree is guarded by
// the state's lock, the observation of the array by the link's.
extension SortedArrayView: @unchecked Sendable {}
