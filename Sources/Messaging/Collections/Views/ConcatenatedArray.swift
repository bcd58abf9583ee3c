/// The elements of one ``ObservableArray`` followed by those of another, as an observable array
/// of its own: made by ``ObservableArray/concatenated(with:)``.
///
/// ```swift
/// let pinned = ObservableArray(["Inbox"])
/// let recent = ObservableArray(["Notes", "Drafts"])
/// let sidebar = pinned.concatenated(with: recent)
/// observer.observe(sidebar) { change in table.apply(change) }
/// recent.append("Trash")   // sends an insertion of "Trash" at 3
/// pinned.insert("Starred", at: 0)   // sends an insertion of "Starred" at 0
/// ```
///
/// It sends an ``ArrayChange`` for each change of either array, exact against the concatenated
/// contents: a change of ``second`` is moved behind ``first``'s elements, and a change of
/// ``first`` counts ``second``'s elements after it. Each change of an array gives one change of
/// the concatenation, with that array's change as its author; an empty change gives none.
///
/// ## Two arrays, one order
///
/// The arrays may be changed on different threads at once. The concatenation keeps the count of
/// each array as its changes have reported it, under a lock of its own, and turns each change into
/// one of the concatenation in one step under that lock; the changes are then sent after
/// unlocking, in the order they were made. So the offset of a change of ``second`` is always the
/// count of ``first`` that the concatenation's earlier changes add up to, never a count that an
/// observer has not been told of: every observer sees one sequence of states, each the contents of
/// the first array at some point followed by those of the second at some point.
///
/// ## Observed or not
///
/// Like every standalone transform, it observes the arrays only while it is observed itself, once
/// each however many observe it. When its first observation starts, it reads each array's count in
/// the same atomic step that starts its observation of that array; a change of one array that
/// arrives before the other array's count is read waits for it. Observing it keeps it and both
/// arrays alive for as long as the observation lasts; it holds its arrays strongly.
///
/// It is an ``ObservableCache``: its latest message inserts the current contents at 0, so an
/// observation that replays it starts from the whole concatenation.
///
/// - Complexity: Per change of an array, while observed: O(*k*) for a change of ``second`` made of
///   *k* modifications, O(1) for a change of ``first``, plus one send. The elements of a change are
///   shared, not copied. Reading ``value`` is O(*n*) for *n* elements; ``count`` is O(1).
public final class ConcatenatedArray<Element: Sendable>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the changes of the concatenation.
    public let messenger: Messenger<ArrayChange<Element>>

    /// The array whose elements come first.
    public let first: ObservableArray<Element>

    /// The array whose elements follow those of ``first``.
    public let second: ObservableArray<Element>

    @usableFromInline let _state: _ConcatenationState<Element>
    @usableFromInline let _firstLink: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>
    @usableFromInline let _secondLink: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>

    /// Makes the concatenation of `first` and `second`; observing it starts following them.
    ///
    /// Prefer ``ObservableArray/concatenated(with:)``.
    ///
    /// - Parameters:
    ///   - first: The array whose elements come first.
    ///   - second: The array whose elements follow.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(_ first: ObservableArray<Element>, _ second: ObservableArray<Element>) {
        // The handlers and the starters are made here, in the client's code, where they are
        // specialized for its element type.
        let messenger = Messenger<ArrayChange<Element>>()
        let state = _ConcatenationState<Element>(core: messenger._core)
        self.init(
            _first: first, second: second, messenger: messenger, state: state,
            firstHandler: Self._handler(state, isSecond: false),
            secondHandler: Self._handler(state, isSecond: true),
            firstStarter: Self._starter(state, isSecond: false),
            secondStarter: Self._starter(state, isSecond: true)
        )
    }

    @usableFromInline
    init(
        _first first: ObservableArray<Element>,
        second: ObservableArray<Element>,
        messenger: Messenger<ArrayChange<Element>>,
        state: _ConcatenationState<Element>,
        firstHandler: @escaping (ArrayChange<Element>, AnyObject, (any Actor)?) -> Void,
        secondHandler: @escaping (ArrayChange<Element>, AnyObject, (any Actor)?) -> Void,
        firstStarter: @escaping _ConcatenationStarter<Element>,
        secondStarter: @escaping _ConcatenationStarter<Element>
    ) {
        let core = messenger._core
        self.messenger = messenger
        self.first = first
        self.second = second
        _state = state
        _firstLink = _OriginLink(
            first, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 }, handler: firstHandler,
            starter: firstStarter)
        _secondLink = _OriginLink(
            second, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 }, handler: secondHandler,
            starter: secondStarter)
        core.keepAliveWhileObserved(self)
    }

    /// The handler of one array's changes: turns each into a change of the concatenation under
    /// the state's lock, and sends it after unlocking.
    @inlinable
    static func _handler(
        _ state: _ConcatenationState<Element>,
        isSecond: Bool
    ) -> (ArrayChange<Element>, AnyObject, (any Actor)?) -> Void {
        { change, author, isolation in
            state._lock.lock()
            let sends = state._receiveUnderLock(change, isSecond: isSecond, author: author)
            state._lock.unlock()
            if sends { state._outbox.send(isolation: isolation) }
        }
    }

    /// The starter of one array's observation: reads the array's count in the atomic step that
    /// inserts the observation, so that its first change fits that count.
    @inlinable
    static func _starter(_ state: _ConcatenationState<Element>, isSecond: Bool) -> _ConcatenationStarter<Element> {
        { array, observation, arrayMessenger in
            var sends = false
            var stale: [_Authored<ArrayChange<Element>>] = []
            arrayMessenger._core.insert(observation) {
                // Under the array's lock; the state's lock is a leaf: nothing else is taken while
                // it is held.
                guard observation._isActiveWhileLocked else { return }
                (sends, stale) = state.seed(count: array._storage.count, isSecond: isSecond)
            }
            withExtendedLifetime(stale) {}  // what the seeding dropped is released after both locks
            if sends { state._outbox.send(isolation: nil) }
        }
    }

    /// The elements of ``first`` followed by those of ``second``, each read as it is now.
    ///
    /// - Complexity: O(*n*) for *n* elements.
    public var value: [Element] {
        first.value + second.value
    }

    /// The number of elements of ``value``.
    ///
    /// - Complexity: O(1).
    public var count: Int {
        first.count + second.count
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
    public var observableCount: ObservableCount<ConcatenatedArray<Element>> {
        ObservableCount(view: self) { $0.count }
    }

    /// The current contents as one insertion at 0 into an empty array, as
    /// ``ObservableArray/latestMessage`` gives.
    ///
    /// - Complexity: O(*n*) for *n* elements.
    public var latestMessage: ArrayChange<Element> {
        ArrayChange(insertingContentsOf: value, at: 0, into: [])
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        let core = messenger._core
        _state.forgetIfUnobserved { core.observationCount == 0 }
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_firstLink)
        body(_secondLink)
    }
}

// The arrays are immutable references; the counts are guarded by the state's lock, the
// observations of the arrays by the links'.
extension ConcatenatedArray: @unchecked Sendable {}

extension ObservableArray {
    /// An observable array of this array's elements followed by those of `other`, which follows
    /// the changes of both; see ``ConcatenatedArray``.
    ///
    /// ```swift
    /// let all = done.concatenated(with: pending)
    /// ```
    ///
    /// An array may be concatenated with itself: each of its changes then gives two changes of the
    /// concatenation, one for each copy.
    ///
    /// - Parameter other: The array whose elements follow this array's.
    /// - Returns: The concatenation.
    /// - Complexity: O(1).
    @inlinable
    public func concatenated(with other: ObservableArray<Element>) -> ConcatenatedArray<Element> {
        ConcatenatedArray(self, other)
    }
}

/// What starts a concatenation's observation of one of its arrays; see ``_OriginLink``.
@usableFromInline
typealias _ConcatenationStarter<Element: Sendable> =
    (ObservableArray<Element>, _Observation<ArrayChange<Element>>, Messenger<ArrayChange<Element>>) -> Void
