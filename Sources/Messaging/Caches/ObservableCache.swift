/// An observable that can always tell its latest message.
///
/// ```swift
/// final class Model: Messenger<String>, ObservableCache, @unchecked Sendable {
///     var latestMessage: String { state.value }      // on demand ...
///     let state = Var("initial state")
/// }
/// ```
///
/// A ``Var`` is a cache: its latest message is an ``Update`` whose `old` and `new` both hold the
/// current value. ``ObservableSource/cache()->Cached<Self,Self.Message>`` makes any observable a cache, and the transforms
/// that drop no message (`map`, `new()`, `unwrap(_:)`) of a cache are caches themselves.
///
/// What the latest message is depends on the cache: usually the last message sent, or one that
/// describes the current state. It need not have been sent at all: a cache of state may answer
/// with its state before it ever sends.
///
/// This is SwiftObserver's `ObservableCache`, with the same name.
public protocol ObservableCache<Message>: ObservableSource {
    /// The latest message: what the cache sent last, or what describes its current state.
    ///
    /// Reading it must be cheap and safe from any thread that may observe the cache.
    var latestMessage: Message { get }
}

extension ObservableCache {
    /// Sends the latest message again, with the cache as its author.
    ///
    /// - Parameter isolation: The caller's actor, filled in automatically; handlers isolated to it
    ///   run before `send` returns.
    /// - Complexity: O(*n*) for *n* observations, plus reading ``latestMessage``.
    public func send(isolation: isolated (any Actor)? = #isolation) {
        send(latestMessage, isolation: isolation)
    }

    /// Calls `receive` with the first message that is not `nil`: the latest message at once, if it
    /// is not `nil`, otherwise the first non-`nil` message the cache sends.
    ///
    /// ```swift
    /// let profile = Var<Profile?>(nil)
    /// profile.new().cache().whenCached { profile in show(profile) }
    /// ```
    ///
    /// The wait lasts until that message arrives or the cache dies; nothing else needs to be kept.
    /// It starts observing before it reads the latest message, so a message sent meanwhile is not
    /// missed, and `receive` runs exactly once, even if both find a value.
    ///
    /// - Parameter receive: The handler, called at most once, on the thread that delivers the
    ///   message, or on this thread if the latest message is not `nil`.
    /// - Returns: The free observer that waits; keep it to end the wait early with
    ///   ``Observer/stopObserving()``, or ignore it.
    /// - Complexity: O(1) amortized.
    @discardableResult
    public func whenCached<Wrapped>(
        _ receive: @escaping @Sendable (Wrapped) -> Void
    ) -> FreeObserver where Message == Wrapped? {
        let waiter = FreeObserver()
        let once = _Once()
        // The handler holds the waiter: the messenger keeps both alive until the first value.
        waiter.observe(self) { message in
            guard let value = message, once.claim() else { return }
            waiter.stopObserving()
            receive(value)
        }
        if let value = latestMessage, once.claim() {
            waiter.stopObserving()
            receive(value)
        }
        return waiter
    }
}

/// A flag that exactly one caller can claim, from any thread.
final class _Once: @unchecked Sendable {  // `_claimed` is guarded by `_lock`
    let _lock = _Lock()
    var _claimed = false

    /// `true` for the first caller only.
    func claim() -> Bool {
        _lock.withLock {
            defer { _claimed = true }
            return !_claimed
        }
    }
}
