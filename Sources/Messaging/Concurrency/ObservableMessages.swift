/// The messages of an observable as an `AsyncSequence`: each iteration is an observation of its
/// own, which lasts as long as the loop.
///
/// ```swift
/// for await message in chat.messages {
///     show(message)
/// }
/// ```
///
/// Get one from ``ObservableSource/messages`` or ``ObservableSource/messages(bufferingPolicy:)``.
///
/// - **Broadcast.** Every iterator made from the sequence (every `for await` loop) starts its own
///   observation when it is made and receives every message sent from then on, in the order they
///   were sent, whatever the other iterators do. An iterator made later misses what was sent before.
///   So a loop inside a new `Task` misses what is sent after the task was created and before it
///   runs its loop; ``ObservableSource/makeMessageStream(bufferingPolicy:)`` starts receiving
///   before the task instead (see ``MessageStream``).
/// - **Buffering.** A message that arrives while the consumer is busy waits in that consumer's
///   buffer, by the ``MessageBuffering`` policy given; the sender never waits.
/// - **End.** The sequence ends (`next()` returns `nil`) after the buffered messages when the
///   observable ends the observation: when its messenger dies, or when
///   ``ObservableSource/stopBeingObserved()`` ends every observation.
/// - **Cancellation.** The observation ends at once, and `next()` returns `nil`, when the loop is
///   left (`break`, `return`, a thrown error: the iterator is released), or when the task is
///   cancelled: at once if it is waiting for a message, otherwise at its next call to `next()`.
///   Buffered messages are then dropped. The messenger's ``Messenger/observationCount`` no longer
///   counts the observation as soon as it ended.
///
/// Neither the sequence nor its iterators keep the observable or its messenger alive, and the
/// observable does not keep a consumer alive: an iterator made after the messenger died is empty.
///
/// Iterating needs `Message` to be `Sendable`: messages cross from the sending thread to the task
/// that iterates.
public struct ObservableMessages<Message: Sendable>: AsyncSequence, Sendable {
    /// The element type: the observable's message.
    public typealias Element = Message
    /// Iterating never throws.
    public typealias Failure = Never

    /// Weak, so that a stored sequence or a running loop does not keep the observable alive.
    @usableFromInline weak var _messenger: Messenger<Message>?
    @usableFromInline let _buffering: MessageBuffering

    @inlinable
    init(_ messenger: Messenger<Message>, buffering: MessageBuffering) {
        _messenger = messenger
        _buffering = buffering
    }

    /// Starts an observation and returns the iterator that receives its messages.
    ///
    /// - Returns: An iterator with an observation of its own; an empty one if the observable is
    ///   gone.
    /// - Complexity: O(1) amortized.
    public func makeAsyncIterator() -> Iterator {
        guard let messenger = _messenger else { return Iterator(_MessageConsumer(nil)) }
        return Iterator(messenger._startConsumer(_buffering))
    }

    /// The iterator of ``ObservableMessages``: one consumer, with an observation and a buffer of
    /// its own. Releasing it ends the observation.
    ///
    /// Not `Sendable`: one task at a time iterates. Its copies share one position.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let _consumer: _MessageConsumer<Message>

        @inlinable
        init(_ consumer: _MessageConsumer<Message>) {
            _consumer = consumer
        }

        /// The next message, waiting for one if none is buffered.
        ///
        /// - Returns: The next message; `nil` once the observation ended (after the buffered
        ///   messages), or once the task is cancelled.
        /// - Complexity: O(1).
        @inlinable
        public mutating func next() async -> Message? {
            await _consumer.next(isolation: nil)
        }

        /// The next message, waiting for one on the caller's actor if none is buffered.
        ///
        /// `for await` calls this one, so a loop on an actor (the main actor, say) never leaves
        /// it between messages.
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The next message; `nil` once the observation ended (after the buffered
        ///   messages), or once the task is cancelled.
        /// - Complexity: O(1).
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Message? {
            await _consumer.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension ObservableMessages.Iterator: Sendable {}

extension ObservableSource where Message: Sendable {
    /// The messages of this observable as an `AsyncSequence`, with an ``MessageBuffering/unbounded``
    /// buffer for each consumer.
    ///
    /// ```swift
    /// for await message in messenger.messages {
    ///     print(message)
    /// }
    /// // The loop ends when the messenger dies; `break` or cancelling the task ends the observation.
    /// ```
    ///
    /// See ``ObservableMessages`` for when iteration starts and ends. A loop in a new `Task` starts
    /// when the task runs; to miss nothing sent before that, use
    /// ``makeMessageStream(bufferingPolicy:)``.
    public var messages: ObservableMessages<Message> {
        ObservableMessages(messenger, buffering: .unbounded)
    }

    /// The messages of this observable as an `AsyncSequence`, with the given buffering policy for
    /// each consumer.
    ///
    /// ```swift
    /// for await position in tracker.messages(bufferingPolicy: .newest(1)) {
    ///     await draw(position)  // skips the positions sent while drawing, but the latest
    /// }
    /// ```
    ///
    /// - Parameter bufferingPolicy: What each consumer keeps while it is busy.
    /// - Returns: The sequence; each iterator made from it is an observation of its own.
    public func messages(bufferingPolicy: MessageBuffering) -> ObservableMessages<Message> {
        ObservableMessages(messenger, buffering: bufferingPolicy)
    }
}
