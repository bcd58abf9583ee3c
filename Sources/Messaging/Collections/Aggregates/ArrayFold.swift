/// An aggregate of an ``ObservableArray`` kept up to date in proportion to each change: a fold
/// with an inverse.
///
/// A fold starts from an initial result and knows how to add an element to the result and how to
/// take one out again. For each change of the array it takes out the elements the change removed
/// and adds the ones it inserted, so an edit of one element costs two calls, whatever the size of
/// the array. ``ObservableArray/observableSum`` and ``ObservableArray/observableCount(where:)`` are
/// folds; make your own with ``ObservableArray/fold(_:adding:removing:)``:
///
/// ```swift
/// let prices = ObservableArray<Int>([3, 4])
/// let total = prices.fold(0, adding: { $0 + $1 }, removing: { $0 - $1 })
/// observer.observe(total) { update in print(update.old, "→", update.new) }
/// prices.append(5)       // prints 7 → 12
/// prices[0] = 3          // a replacement that keeps the total: prints nothing
/// ```
///
/// It sends `Update(old, new)` when a change of the array changes the result, and nothing when
/// the result stays equal. A transaction's merged change gives one update.
///
/// ## Observed or not
///
/// Like every standalone transform, it observes the array only while it is observed itself. When
/// its first observation starts, it reads the array's contents in the same atomic step that
/// starts its observation of the array, folds them once (O(*n*)), and from then on follows the
/// changes. While nothing observes it, ``value`` folds the current contents each time it is read.
///
/// `adding` and `removing` run outside every lock of the library, on the thread that delivers the
/// array's changes. They must undo each other exactly: with floating-point numbers, a running sum
/// drifts from the sum of the current elements by rounding.
///
/// - Complexity: Per change of the array, while observed: O(*k*) for *k* elements removed and
///   inserted, plus one send. Reading ``value`` is O(1) while observed, O(*n*) otherwise.
public final class ArrayFold<Element: Sendable, Result: Equatable & Sendable>: ObservableCache,
    _StandaloneOperator
{
    /// The messenger that sends the result's updates.
    public let messenger: Messenger<Update<Result>>

    /// The array the fold follows.
    public let array: ObservableArray<Element>

    @usableFromInline let _initial: Result
    @usableFromInline let _adding: @Sendable (Result, Element) -> Result
    @usableFromInline let _removing: @Sendable (Result, Element) -> Result
    @usableFromInline let _state: _FoldState<Element, Result>
    @usableFromInline let _link: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>

    /// Makes a fold of `array`; observing it starts the fold.
    ///
    /// - Parameters:
    ///   - array: The array to fold.
    ///   - initial: The result of an empty array.
    ///   - adding: The result with one more element.
    ///   - removing: The result with one element fewer: the inverse of `adding`.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(
        _ array: ObservableArray<Element>,
        initial: Result,
        adding: @escaping @Sendable (Result, Element) -> Result,
        removing: @escaping @Sendable (Result, Element) -> Result
    ) {
        // The handler and the starter are made here, in the client's code, where they are
        // specialized for its element and result types.
        let messenger = Messenger<Update<Result>>()
        let state = _FoldState<Element, Result>()
        let core = messenger._core
        let apply = { (result: Result, change: ArrayChange<Element>) -> Result in
            Self._apply(change, to: result, adding: adding, removing: removing)
        }
        self.init(
            _array: array, initial: initial, adding: adding, removing: removing, messenger: messenger,
            state: state,
            handler: { change, author, isolation in
                guard let current = state.resultOrQueue(change) else { return }
                let (old, epoch) = current
                let new = apply(old, change)
                guard state.store(new, ifEpochIs: epoch), old != new else { return }
                core.send(Update(old, new), author: author, checksChange: false, isolation: isolation)
            },
            starter: { array, observation, arrayMessenger in
                var contents: [Element]?
                var epoch: UInt64 = 0
                var replaced: (Result?, [ArrayChange<Element>]) = (nil, [])
                arrayMessenger._core.insert(observation) {
                    // Under the array's lock: the contents right before every change the new
                    // observation receives. The fold's state lock is a leaf: nothing else is
                    // taken while it is held.
                    guard observation._isActiveWhileLocked else { return }
                    contents = array._storage
                    (epoch, replaced) = state.beginSeeding()
                }
                withExtendedLifetime(replaced) {}  // what the seeding replaced is released after both locks
                guard let contents else { return }
                var result = contents.reduce(initial, adding)
                while let queued = state.finishSeeding(result, ifEpochIs: epoch) {
                    for change in queued {
                        let old = result
                        result = apply(result, change)
                        if old != result {
                            core.send(Update(old, result), author: array, checksChange: false, isolation: nil)
                        }
                    }
                }
            }
        )
    }

    @usableFromInline
    init(
        _array array: ObservableArray<Element>,
        initial: Result,
        adding: @escaping @Sendable (Result, Element) -> Result,
        removing: @escaping @Sendable (Result, Element) -> Result,
        messenger: Messenger<Update<Result>>,
        state: _FoldState<Element, Result>,
        handler: @escaping (ArrayChange<Element>, AnyObject, (any Actor)?) -> Void,
        starter:
            @escaping (ObservableArray<Element>, _Observation<ArrayChange<Element>>, Messenger<ArrayChange<Element>>)
            -> Void
    ) {
        let core = messenger._core
        self.messenger = messenger
        self.array = array
        _initial = initial
        _adding = adding
        _removing = removing
        _state = state
        _link = _OriginLink(
            array, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 }, handler: handler,
            starter: starter)
        core.keepAliveWhileObserved(self)
    }

    /// The current result.
    ///
    /// - Complexity: O(1) while the fold is observed; otherwise O(*n*) for *n* elements, folding
    ///   the current contents.
    public var value: Result {
        if let result = _state.currentResult { return result }
        return array.value.reduce(_initial, _adding)
    }

    /// The current result as an update whose `old` and `new` are equal, as ``Var`` gives.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: Update<Result> {
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

    @inlinable
    static func _apply(
        _ change: ArrayChange<Element>,
        to result: Result,
        adding: (Result, Element) -> Result,
        removing: (Result, Element) -> Result
    ) -> Result {
        // Each modification's replaced elements come out, then its inserted ones go in, read where
        // the change stores them: no modification value is made for them.
        var result = result
        for span in change._spans {
            for position in span.oldRange { result = removing(result, change._old[position]) }
            for position in span.newRange { result = adding(result, change._new[position]) }
        }
        return result
    }
}

// The array and the closures are immutable and `Sendable`; the running result is guarded by the
// state's lock, the observation of the array by the link's.
extension ArrayFold: @unchecked Sendable {}

/// The running result of an ``ArrayFold``, and the changes that arrive while its first fold of
/// the contents runs.
///
/// Every field is guarded by `_lock`, a leaf: nothing else is locked while it is held, and no user
/// code runs under it. `_epoch` counts the starts and ends of the fold's observation, so that a
/// result computed for an older one is never stored.
@usableFromInline
final class _FoldState<Element, Result>: @unchecked Sendable {  // guarded by `_lock`
    @usableFromInline let _lock = _Lock()
    @exclusivity(unchecked) @usableFromInline var _result: Result?
    @exclusivity(unchecked) @usableFromInline var _isSeeding = false
    @exclusivity(unchecked) @usableFromInline var _queued: [ArrayChange<Element>] = []
    @exclusivity(unchecked) @usableFromInline var _epoch: UInt64 = 0

    @inlinable
    init() {}

    /// The result while the fold is observed and seeded; `nil` otherwise.
    @inlinable
    var currentResult: Result? {
        _lock.withLock { _isSeeding ? nil : _result }
    }

    /// Starts a new fold of the contents: changes are queued until ``finishSeeding(_:ifEpochIs:)``.
    ///
    /// It runs under the array's lock; what it replaces is released after both locks, by the
    /// caller's releasing the returned value.
    @inlinable
    func beginSeeding() -> (epoch: UInt64, replaced: (Result?, [ArrayChange<Element>])) {
        _lock.withLock {
            _epoch &+= 1
            _isSeeding = true
            let replaced = (_result.take(), _queued)
            _queued = []
            return (_epoch, replaced)
        }
    }

    /// Stores `result` and ends the seeding if no change waits, returning `nil`; otherwise hands
    /// out the waiting changes to apply first. Also `nil` when a newer start or an end made the
    /// fold obsolete.
    @inlinable
    func finishSeeding(_ result: Result, ifEpochIs epoch: UInt64) -> [ArrayChange<Element>]? {
        _lock.withLock {
            guard _epoch == epoch else { return nil }
            if _queued.isEmpty {
                _result = result
                _isSeeding = false
                return nil
            }
            defer { _queued = [] }
            return _queued
        }
    }

    /// The result to apply `change` to, with its epoch; or `nil` when the change was queued for
    /// the seeding, or the fold has no result.
    @inlinable
    func resultOrQueue(_ change: ArrayChange<Element>) -> (Result, UInt64)? {
        _lock.withLock {
            if _isSeeding {
                _queued.append(change)
                return nil
            }
            guard let result = _result else { return nil }
            return (result, _epoch)
        }
    }

    /// Stores the result of a change, unless a newer start or an end made it obsolete.
    @inlinable
    func store(_ result: Result, ifEpochIs epoch: UInt64) -> Bool {
        var replaced: Result? = result
        let stored = _lock.withLock { () -> Bool in
            guard _epoch == epoch, !_isSeeding else { return false }
            swap(&replaced, &_result)
            return true
        }
        // The replaced result, or the one not stored, is released here, outside the lock.
        replaced = nil
        return stored
    }

    /// Forgets the result once the fold is no longer observed, so that reads fold the contents.
    ///
    /// `isUnobserved` takes the fold's messenger lock, which is never held while this lock is
    /// taken: checked under this lock, a start that follows it begins its seeding after this.
    @inlinable
    func forgetIfUnobserved(_ isUnobserved: () -> Bool) {
        let forgotten: (Result?, [ArrayChange<Element>]) = _lock.withLock {
            guard isUnobserved() else { return (nil, []) }
            _epoch &+= 1
            _isSeeding = false
            defer {
                _result = nil
                _queued = []
            }
            return (_result, _queued)
        }
        // Released here, outside the lock.
        withExtendedLifetime(forgotten) {}
    }
}
