/// How many messages wait for a consumer that has not taken them yet, and which ones are kept when
/// that many are waiting: for an async sequence of messages, and for a handler of a
/// ``MainActorObserver`` or an ``ActorObserver`` whose messages wait for its actor.
///
/// ```swift
/// for await message in messenger.messages { ... }                                   // unbounded
/// for await frame in camera.messages(bufferingPolicy: .newest(1)) { render(frame) } // the latest
/// for await job in queue.messages(bufferingPolicy: .oldest(100)) { run(job) }       // the first 100
/// observe(model.progress, buffering: .newest(1)) { self.show($0.new) }              // the latest
/// ```
///
/// For an async sequence, a message that arrives while the consumer waits in `next()` goes
/// straight to it and is never counted. The others wait in the consumer's buffer:
///
/// - ``unbounded``: every message waits until the consumer takes it; nothing is dropped, and a
///   consumer that falls behind makes the buffer grow.
/// - ``newest(_:)``: at most `limit` messages wait; a new message pushes out the oldest waiting
///   one. The consumer sees the most recent state and skips what it was too slow for.
/// - ``oldest(_:)``: at most `limit` messages wait; a message that arrives when `limit` are waiting
///   is dropped. The consumer sees the first messages in full and misses the later ones.
///
/// Each consumer has its own buffer, so one slow consumer neither slows nor drops messages for
/// another, and the sender never waits for a consumer.
///
/// For an actor observer's handler (``MainActorObserver/observe(_:buffering:counting:_:)``,
/// ``ActorObserver/observe(_:buffering:counting:_:)``), the waiting messages are the observation's
/// calls in its actor's queue; a message sent on the actor while no handler runs there is handled
/// at once and never counted. Those functions say where in the actor's order a kept message runs,
/// and a ``MessageDropCounter`` counts what was dropped.
///
/// - Complexity: Making and comparing policies is O(1).
public struct MessageBuffering: Sendable, Hashable {
    /// How many messages may wait; `Int.max` when unbounded.
    @usableFromInline let _limit: Int
    /// Whether a full buffer drops its oldest message (rather than the new one).
    @usableFromInline let _keepsNewest: Bool

    @inlinable
    init(_limit: Int, keepsNewest: Bool) {
        self._limit = _limit
        self._keepsNewest = keepsNewest
    }

    /// Keeps every message until the consumer takes it. The default.
    ///
    /// - Complexity: O(1) to read.
    public static let unbounded = MessageBuffering(_limit: .max, keepsNewest: false)

    /// Keeps at most `limit` messages, dropping the oldest waiting one for each new message.
    ///
    /// `newest(1)` keeps only the latest message. `newest(0)` keeps none: a message reaches the
    /// consumer only if it is waiting for one when the message is sent.
    ///
    /// - Parameter limit: How many messages may wait; not negative. `Int.max` means ``unbounded``.
    /// - Returns: The policy.
    /// - Precondition: `limit >= 0`.
    /// - Complexity: O(1).
    public static func newest(_ limit: Int) -> MessageBuffering {
        precondition(limit >= 0, "MessageBuffering.newest(_:) needs a limit of 0 or more, not \(limit)")
        return limit == .max ? .unbounded : MessageBuffering(_limit: limit, keepsNewest: true)
    }

    /// Keeps at most `limit` messages, dropping each new message while `limit` are waiting.
    ///
    /// `oldest(0)` keeps none: a message reaches the consumer only if it is waiting for one when
    /// the message is sent.
    ///
    /// - Parameter limit: How many messages may wait; not negative. `Int.max` means ``unbounded``.
    /// - Returns: The policy.
    /// - Precondition: `limit >= 0`.
    /// - Complexity: O(1).
    public static func oldest(_ limit: Int) -> MessageBuffering {
        precondition(limit >= 0, "MessageBuffering.oldest(_:) needs a limit of 0 or more, not \(limit)")
        return limit == .max ? .unbounded : MessageBuffering(_limit: limit, keepsNewest: false)
    }

    /// The most messages that may wait, or `nil` when unbounded.
    ///
    /// - Complexity: O(1).
    public var limit: Int? { _limit == .max ? nil : _limit }
}
