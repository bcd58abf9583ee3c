/// The state of one consumer's buffer, as a value: its mutating methods decide under the buffer's
/// lock and return what must happen after unlocking (resuming the consumer, ending the observation,
/// releasing messages), so that no continuation is resumed and no message is released while the
/// lock is held.
///
/// Invariant: a consumer waits (``waiting`` is set) only while no message is buffered and the
/// observation is active.
@usableFromInline
struct _MessageBufferState<Message: Sendable> {
    /// Where the buffer is in its life.
    @usableFromInline
    enum _Phase {
        /// The observation is active; messages arrive.
        case observing
        /// The observable's side ended the observation; buffered messages can still be taken.
        case finished
        /// The consumer ended it; nothing more is handed out.
        case cancelled
    }

    /// The messages waiting for the consumer.
    @usableFromInline var ring = _Ring<Message>()
    /// The consumer, when it waits for a message.
    @usableFromInline var waiting: UnsafeContinuation<Message?, Never>?
    /// The observation that feeds the buffer, while it is active: the consumer ends it through
    /// this reference. Dropped when either side ends it, which breaks the cycle through the
    /// observation's handler.
    @usableFromInline var observation: _Observation<Message>?
    @usableFromInline var phase = _Phase.observing
    /// Whether an iterator took the buffer as its own: set by ``claim()``, which only a stream
    /// (``MessageStream``, ``VariableValueStream``) calls; the buffer of an ``ObservableMessages``
    /// iterator belongs to its consumer from the start and never reads it.
    @usableFromInline var isClaimed = false
    /// How many messages may wait; `Int.max` when unbounded.
    @usableFromInline let limit: Int
    /// Whether a full buffer drops its oldest message for a new one, or the new one.
    @usableFromInline let keepsNewest: Bool

    @inlinable
    init(_ buffering: MessageBuffering) {
        limit = buffering._limit
        keepsNewest = buffering._keepsNewest
    }

    /// Whether the consumer takes every buffered message at once (see ``take(into:)``).
    @inlinable
    var takesAll: Bool { limit == .max }

    // MARK: Producer side

    /// What ``push(_:)`` leaves to do after unlocking.
    @usableFromInline
    enum PushAction {
        case none
        /// Hand the message to the waiting consumer.
        case resume(UnsafeContinuation<Message?, Never>, Message)
        /// Release a message the buffer dropped to make room.
        case release(Message)
    }

    /// Stores a message, or hands it to the waiting consumer, by the buffering policy.
    ///
    /// A message that arrives after the observation ended (a delivery that had begun on another
    /// thread) is ignored.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func push(_ message: Message) -> PushAction {
        guard case .observing = phase else { return .none }
        if let consumer = waiting {
            waiting = nil
            return .resume(consumer, message)
        }
        if ring.count < limit {
            ring.append(message)
            return .none
        }
        // Full. Keeping the oldest drops the new message, which the caller still owns.
        guard keepsNewest, let oldest = ring.popFirst() else { return .none }
        ring.append(message)
        return .release(oldest)
    }

    /// The observable's side ended the observation: what to resume and release after unlocking.
    ///
    /// - Returns: The waiting consumer, to resume with `nil`, and the observation, to release;
    ///   both `nil` if the buffer had ended already.
    @inlinable
    mutating func finish() -> (waiting: UnsafeContinuation<Message?, Never>?, observation: _Observation<Message>?) {
        guard case .observing = phase else { return (nil, nil) }
        phase = .finished
        defer { waiting = nil }
        return (waiting, observation.take())
    }

    // MARK: Consumer side

    /// What ``take(into:)`` found.
    @usableFromInline
    enum TakeAction {
        /// Every buffered message moved into the consumer's ring.
        case tookAll
        /// One message (a bounded buffer hands them out one at a time).
        case message(Message)
        /// Nothing buffered, and nothing more will come.
        case finished
        /// Nothing buffered yet: the consumer must wait (``wait(_:)``).
        case wait
    }

    /// Takes what is buffered.
    ///
    /// An unbounded buffer swaps its whole ring with the consumer's empty one, so that the
    /// consumer takes a burst of messages in one lock round and the buffer keeps the consumer's
    /// slots for the next burst. A bounded buffer hands out one message, so that its limit
    /// always counts every message the consumer has not taken.
    ///
    /// - Parameter consumed: The consumer's ring; empty.
    /// - Complexity: O(1).
    @inlinable
    mutating func take(into consumed: inout _Ring<Message>) -> TakeAction {
        if !ring.isEmpty {
            if takesAll {
                swap(&ring, &consumed)
                return .tookAll
            }
            return .message(ring.popFirst()!)
        }
        if case .observing = phase { return .wait }
        return .finished
    }

    /// What ``wait(_:)`` leaves to do after unlocking.
    @usableFromInline
    enum WaitAction {
        /// The continuation is stored; a message or the end resumes it.
        case suspended
        /// Resume the continuation at once with this message, or `nil` at the end.
        case resume(Message?)
    }

    /// Stores the consumer's continuation, unless a message or the end came since ``take(into:)``.
    ///
    /// - Complexity: O(1).
    @inlinable
    mutating func wait(_ consumer: UnsafeContinuation<Message?, Never>) -> WaitAction {
        if let message = ring.popFirst() { return .resume(message) }
        guard case .observing = phase else { return .resume(nil) }
        waiting = consumer
        return .suspended
    }

    /// What ``cancel()`` leaves to do after unlocking.
    @usableFromInline
    struct CancelAction {
        /// The consumer, if it was waiting, to resume with `nil`.
        @usableFromInline var waiting: UnsafeContinuation<Message?, Never>?
        /// The observation, if it was active, to end.
        @usableFromInline var observation: _Observation<Message>?
        /// The messages nobody will take, to release.
        @usableFromInline var dropped: _Ring<Message>

        @inlinable
        init(
            waiting: UnsafeContinuation<Message?, Never>?,
            observation: _Observation<Message>?,
            dropped: consuming _Ring<Message>
        ) {
            self.waiting = waiting
            self.observation = observation
            self.dropped = dropped
        }
    }

    /// An iterator asks to take the buffer of a stream: the first one gets it, any other one
    /// gets nothing.
    ///
    /// - Returns: Whether the caller is the buffer's consumer from now on.
    /// - Complexity: O(1).
    @inlinable
    mutating func claim() -> Bool {
        if isClaimed { return false }
        isClaimed = true
        return true
    }

    /// The stream that held the buffer was released: ends the buffer as ``cancel()`` does, unless
    /// an iterator claimed it, which then owns it.
    ///
    /// - Returns: What to do after unlocking, or `nil` if an iterator claimed the buffer.
    /// - Complexity: O(1).
    @inlinable
    mutating func abandon() -> CancelAction? {
        if isClaimed { return nil }
        isClaimed = true
        return cancel()
    }

    /// The consumer's side ended: its task was cancelled, or it let go of its iterator. Nothing
    /// more is handed out; buffered messages are dropped.
    ///
    /// - Complexity: O(1).
    @inlinable
    mutating func cancel() -> CancelAction {
        if case .cancelled = phase { return CancelAction(waiting: nil, observation: nil, dropped: _Ring()) }
        phase = .cancelled
        var dropped = _Ring<Message>()
        swap(&dropped, &ring)
        defer { waiting = nil }
        return CancelAction(waiting: waiting, observation: observation.take(), dropped: dropped)
    }
}
