/// Something waiting for a promise's value: a handler, a link to a promise made by composition,
/// or a suspended task.
@usableFromInline
enum _PromiseWaiter<Value: Sendable>: Sendable {
    /// A ``Promise/whenFulfilled(_:)`` handler.
    case handler(@Sendable (Value) -> Void)
    /// A step of a composition (`then`, `and`, `map` ...): it fulfils the promise it leads to and
    /// returns that promise's deliveries instead of making them, so that a chain of any length is
    /// delivered by a loop (see ``_PromiseWork``), not by nested calls.
    case link(@Sendable (Value) -> _PromiseWork)
    /// A task awaiting ``Promise/value``.
    case task(UnsafeContinuation<Value, Never>)
    /// A task awaiting ``Promise/valueUnlessCancelled``; removed from the promise if it is
    /// cancelled first.
    case cancellableTask(UnsafeContinuation<Value, any Error>)
}
