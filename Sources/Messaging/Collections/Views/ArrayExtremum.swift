/// The least element of an ``ObservableArray`` by an order (or, with the order reversed, the
/// greatest), kept up to date in O(log *n*) per changed element.
///
/// ```swift
/// let temperatures = ObservableArray([18, 21, 16])
/// let coldest = temperatures.observableMin
/// observer.observe(coldest) { update in print(update.old, "→", update.new) }
/// temperatures.append(12)        // prints Optional(16) → Optional(12)
/// temperatures.append(20)        // prints nothing
/// temperatures.removeAll()       // prints Optional(12) → nil
/// ```
///
/// It sends `Update(old, new)` only when a change of the array changes the extreme element (by
/// `==`), and `nil` stands for an empty array. A transaction's merged change gives one update.
/// Removing the extreme element does not look at every element: the view keeps all of them
/// ordered, as a ``SortedArrayView`` does, and follows the same rules: the order must be a strict
/// weak ordering, and every element `==` to itself. Among equivalent extreme elements, the one
/// given is the first that came into the view.
///
/// Like every standalone transform, it observes the array only while it is observed itself,
/// sorting the contents once when its first observation starts. While nothing observes it,
/// ``value`` looks at every element each time it is read. An ``ObservableExpression`` that uses it
/// with other extremes or folds of the same array observes them together, so that the formula
/// never mixes two moments of the array.
///
/// - Complexity: Per element the array inserts or removes, while observed: O(log *n*) for *n*
///   elements, plus one send when the extreme element changes. Reading ``value`` is O(1) while
///   observed, O(*n*) otherwise.
public final class ArrayExtremum<Element: Equatable & Sendable>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the extreme element's updates.
    public let messenger: Messenger<Update<Element?>>

    /// The array whose extreme element the observable follows (for the extreme of a
    /// ``FilteredArrayView``, the filtered array: only the elements the filter includes count).
    public let array: ObservableArray<Element>

    @usableFromInline let _areInIncreasingOrder: @Sendable (Element, Element) -> Bool
    /// The filter of an extreme of a ``FilteredArrayView``: only the elements it includes count.
    /// `nil` for all of them.
    @usableFromInline let _isIncluded: (@Sendable (Element) -> Bool)?
    @usableFromInline let _state: _SortedViewState<Element>
    /// How an ``ObservableExpression`` follows this extreme in a group with the other folds and
    /// extremes of the array.
    @usableFromInline let _changeMember: _ArrayChangeMember<Element>
    @usableFromInline let _link: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>

    /// Makes an observable of the least element of `array` by `areInIncreasingOrder`; observing it
    /// starts following the array.
    ///
    /// - Parameters:
    ///   - array: The array to follow.
    ///   - areInIncreasingOrder: Whether its first argument goes before its second: a strict weak
    ///     ordering. Pass a reversed order (`>`) for the greatest element.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(
        leastOf array: ObservableArray<Element>,
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) {
        self.init(leastOf: array, isIncluded: nil, by: areInIncreasingOrder)
    }

    /// Makes an observable of the least element by `areInIncreasingOrder` among the elements of
    /// `array` that `isIncluded` includes (all of them if it is `nil`).
    @inlinable
    convenience init(
        leastOf array: ObservableArray<Element>,
        isIncluded: (@Sendable (Element) -> Bool)?,
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) {
        // The handler and the starter are made here, in the client's code, where they are
        // specialized for its element type.
        let messenger = Messenger<Update<Element?>>()
        let state = _SortedViewState<Element>()
        let core = messenger._core
        self.init(
            _array: array, isIncluded: isIncluded, by: areInIncreasingOrder, messenger: messenger, state: state,
            changeMember: .extremum(isIncluded: isIncluded, by: areInIncreasingOrder),
            handler: { change, author, isolation in
                guard let (tree, epoch) = state.treeOrQueue(change) else { return }
                // Only this handler changes the tree: reading it here, outside the lock, is safe.
                let old = tree.first
                guard
                    _SortedViewState._apply(
                        change, to: tree, limit: 0, by: areInIncreasingOrder, isIncluded: isIncluded,
                        locked: { state.mutate(ifEpochIs: epoch, $0) }) != nil
                else { return }
                let new = tree.first
                guard old != new else { return }
                core.send(Update(old, new), author: author, checksChange: false, isolation: isolation)
            },
            starter: { array, observation, arrayMessenger in
                var contents: [Element]?
                var epoch: UInt64 = 0
                var replaced: (_SortedCountedTree<Element>?, [ArrayChange<Element>]) = (nil, [])
                arrayMessenger._core.insert(observation) {
                    // Under the array's lock: the contents right before every change the new
                    // observation receives. The state lock is a leaf.
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
                        let old = tree.first
                        _ = _SortedViewState._apply(
                            change, to: tree, limit: 0, by: areInIncreasingOrder, isIncluded: isIncluded,
                            locked: { body in
                                body()
                                return true
                            })
                        let new = tree.first
                        if old != new {
                            core.send(Update(old, new), author: array, checksChange: false, isolation: nil)
                        }
                    }
                }
            }
        )
    }

    @usableFromInline
    init(
        _array array: ObservableArray<Element>,
        isIncluded: (@Sendable (Element) -> Bool)?,
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool,
        messenger: Messenger<Update<Element?>>,
        state: _SortedViewState<Element>,
        changeMember: _ArrayChangeMember<Element>,
        handler: @escaping (ArrayChange<Element>, AnyObject, (any Actor)?) -> Void,
        starter:
            @escaping (ObservableArray<Element>, _Observation<ArrayChange<Element>>, Messenger<ArrayChange<Element>>)
            -> Void
    ) {
        let core = messenger._core
        self.messenger = messenger
        self.array = array
        _areInIncreasingOrder = areInIncreasingOrder
        _isIncluded = isIncluded
        _state = state
        _changeMember = changeMember
        _link = _OriginLink(
            array, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 }, handler: handler,
            starter: starter)
        core.keepAliveWhileObserved(self)
    }

    /// The extreme element, or `nil` if the array is empty.
    ///
    /// - Complexity: O(1) while observed; otherwise O(*n*) for *n* elements, looking at each.
    public var value: Element? {
        if let first = _state.read({ $0.first }) { return first }
        guard let isIncluded = _isIncluded else { return array.value.min(by: _areInIncreasingOrder) }
        return array.value.lazy.filter(isIncluded).min(by: _areInIncreasingOrder)
    }

    /// The current extreme element as an update whose `old` and `new` are equal, as ``Var``
    /// gives.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: Update<Element?> {
        let value = value
        return Update(value, value)
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

// The array and the comparator are immutable and `Sendable`; the tree is guarded by the state's
// lock, the observation of the array by the link's.
extension ArrayExtremum: @unchecked Sendable {}
