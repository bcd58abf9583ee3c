/// Counts the messages that actor observations with a bounded ``MessageBuffering`` dropped.
///
/// Pass one to `observe(_:buffering:counting:_:)` of a ``MainActorObserver`` or an
/// ``ActorObserver``, and read ``count`` from any thread:
///
/// ```swift
/// let dropped = MessageDropCounter()
/// observe(sensor.readings, buffering: .oldest(100), counting: dropped) { reading in
///     self.plot(reading)
/// }
/// // later
/// if dropped.count > 0 { showWarning("\(dropped.count) readings were skipped") }
/// ```
///
/// A message counts as dropped when it arrives while the observation's buffer is full: with
/// ``MessageBuffering/oldest(_:)`` the new message, with ``MessageBuffering/newest(_:)`` the oldest
/// waiting one. One counter may serve several observations; it then counts their drops together.
public final class MessageDropCounter: @unchecked Sendable {  // `_count`: `_lock`
    private let _lock = _Lock()
    private var _count = 0

    /// Makes a counter at zero.
    ///
    /// - Complexity: O(1).
    public init() {}

    /// How many messages were dropped so far.
    ///
    /// - Complexity: O(1).
    public var count: Int { _lock.withLock { _count } }

    /// Counts one dropped message.
    func _add() {
        _lock.withLock { _count += 1 }
    }
}
