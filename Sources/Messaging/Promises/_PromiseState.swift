/// The rules of a promise, without threads: it is pending, with the waiters registered so far, or
/// fulfilled, with its value; it is fulfilled once, and a waiter is handed out exactly once.
///
/// The owner (``Promise``) calls these methods under its lock and performs the returned action
/// after unlocking: waiters leave the state in the actions, so they are called, resumed and
/// released outside the lock.
///
/// Waiters are kept in the order they were added, each with a number: `0` for a waiter that is
/// never removed before the fulfilment, a number from ``reserveWaiterID()`` for one that may be
/// (a waiting task that can be cancelled).
@usableFromInline
struct _PromiseState<Value, Waiter> {
    /// What to do with a waiter offered to ``add(_:id:isCancelled:)``.
    @usableFromInline
    enum AddAction {
        /// The state keeps it until the fulfilment.
        case added
        /// The promise is fulfilled already: call the waiter with the value now.
        case runNow(Waiter, Value)
        /// The waiting task was cancelled before it could wait: end it with a cancellation.
        case cancelled(Waiter)
    }

    /// What ``reserveWaiterID()`` found.
    @usableFromInline
    enum Reservation {
        /// The promise is fulfilled already: no need to wait.
        case fulfilled(Value)
        /// The number under which to add the waiter, and later to remove it.
        case pending(id: UInt64)
    }

    /// What to do after ``fulfill(_:)``.
    @usableFromInline
    enum FulfillAction {
        /// The promise is fulfilled now: call these waiters, in this order, with the value.
        case deliver([Waiter])
        /// It had been fulfilled before: nothing changed, the offered value is not used.
        case alreadyFulfilled
    }

    /// The value, once the promise is fulfilled.
    @usableFromInline var value: Value?
    @usableFromInline var waiters: [Waiter] = []
    /// The number of each waiter, by position in `waiters`: kept apart so that the fulfilment
    /// hands out `waiters` as it is, and empty while every number is `0` (no waiter can be
    /// removed), so that a promise nobody awaits with cancellation allocates no list of numbers.
    @usableFromInline var ids: [UInt64] = []
    @usableFromInline var lastID: UInt64 = 0

    @inlinable
    init() {}

    /// Whether the promise is fulfilled.
    @inlinable
    var isFulfilled: Bool { value != nil }

    /// The number of waiters kept.
    @inlinable
    var waiterCount: Int { waiters.count }

    /// Adds a waiter, unless the promise is fulfilled or `isCancelled`.
    ///
    /// - Parameters:
    ///   - id: `0`, or the number ``reserveWaiterID()`` gave, under which ``removeWaiter(id:)``
    ///     finds the waiter.
    ///   - isCancelled: Whether the task that would wait is cancelled (read under the owner's
    ///     lock, so that a cancellation handler that runs later finds the waiter).
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func add(_ waiter: Waiter, id: UInt64 = 0, isCancelled: Bool = false) -> AddAction {
        if let value { return .runNow(waiter, value) }
        if isCancelled { return .cancelled(waiter) }
        waiters.append(waiter)
        if id != 0 || !ids.isEmpty {
            if ids.count < waiters.count - 1 {
                ids.append(contentsOf: repeatElement(0, count: waiters.count - 1 - ids.count))
            }
            ids.append(id)
        }
        return .added
    }

    /// Gives out a number for a waiter that may be removed, or the value if there is one.
    @inlinable
    mutating func reserveWaiterID() -> Reservation {
        if let value { return .fulfilled(value) }
        lastID &+= 1
        return .pending(id: lastID)
    }

    /// Removes the waiter added with `id`, if it is still waiting.
    ///
    /// - Returns: The waiter, to be ended by the owner; `nil` if it was never added (its task was
    ///   cancelled first), or has been handed out by the fulfilment.
    /// - Complexity: O(*n*) for *n* waiters.
    @inlinable
    mutating func removeWaiter(id: UInt64) -> Waiter? {
        guard id != 0, let index = ids.lastIndex(of: id) else { return nil }
        ids.remove(at: index)
        return waiters.remove(at: index)
    }

    /// Hands out the waiters of a promise that dies unfulfilled.
    @inlinable
    mutating func abandon() -> [Waiter] {
        var handedOut: [Waiter] = []
        swap(&handedOut, &waiters)
        ids = []
        return handedOut
    }

    /// Fulfils the promise with `value`, unless it is fulfilled already.
    ///
    /// - Complexity: O(1); the waiters are handed out, not copied.
    @inlinable
    mutating func fulfill(_ value: Value) -> FulfillAction {
        guard self.value == nil else { return .alreadyFulfilled }
        self.value = value
        var handedOut: [Waiter] = []
        swap(&handedOut, &waiters)
        ids = []
        return .deliver(handedOut)
    }
}

extension _PromiseState.AddAction: Equatable where Value: Equatable, Waiter: Equatable {}
extension _PromiseState.Reservation: Equatable where Value: Equatable {}
extension _PromiseState.FulfillAction: Equatable where Waiter: Equatable {}
