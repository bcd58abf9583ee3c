/// The messages of an observable as an `AsyncSequence` with one consumer, received from the moment
/// the stream is made: a loop that starts later, in a task, still gets every message sent since.
///
/// ```swift
/// let incoming = chat.makeMessageStream()  // receives from here on
/// Task {
///     for await message in incoming {
///         show(message)
///     }
/// }
/// chat.send("Hello")  // reaches the loop, however late the task starts
/// ```
///
/// Get one from ``ObservableSource/makeMessageStream(bufferingPolicy:)``.
///
/// - **Start.** Making the stream starts its observation and its buffer, as `AsyncStream` buffers
///   from its creation: every message sent from then on waits, by the ``MessageBuffering`` policy
///   given, until the loop takes it, in the order it was sent. ``ObservableMessages`` instead starts
///   an observation when an iterator is made, so `Task { for await m in chat.messages { ... } }`
///   misses what is sent before the task gets to its loop.
/// - **One consumer.** The first iterator made from the stream, or from any of its copies, receives
///   its messages. Any other iterator is empty: its `next()` returns `nil` at once, and the first
///   one still receives every message. Make one stream for each loop.
/// - **End.** The stream ends (`next()` returns `nil`) after the buffered messages when the
///   observable ends the observation: when its messenger dies, or when
///   ``ObservableSource/stopBeingObserved()`` ends every observation.
/// - **Cancellation.** The observation ends at once and buffered messages are dropped when the loop
///   is left (`break`, `return`, a thrown error: the iterator is released), when the task is
///   cancelled (at once if it is waiting for a message, otherwise at its next call to `next()`,
///   which returns `nil`), or when the stream's last copy is released before any iterator was made
///   from it. The messenger's ``Messenger/observationCount`` no longer counts the observation as
///   soon as it ended.
///
/// A stream that is kept but not iterated keeps buffering: with ``MessageBuffering/unbounded`` its
/// buffer grows with every message. Neither the stream nor its iterator keeps the observable or its
/// messenger alive, and the observable does not keep the stream alive.
///
/// Iterating needs `Message` to be `Sendable`: messages cross from the sending thread to the task
/// that iterates. The stream is `Sendable`, so a task can capture it; its iterator is not.
public struct MessageStream<Message: Sendable>: AsyncSequence, Sendable {
    /// The element type: the observable's message.
    public typealias Element = Message
    /// Iterating never throws.
    public typealias Failure = Never

    /// The started buffer, shared by the stream's copies.
    @usableFromInline let _storage: _MessageStreamStorage<Message>

    @inlinable
    init(_ storage: _MessageStreamStorage<Message>) {
        _storage = storage
    }

    /// Returns the iterator that receives the stream's messages: the first one made from the
    /// stream or its copies; any other is empty.
    ///
    /// - Returns: The stream's one consumer, or an empty iterator if one was made already.
    /// - Complexity: O(1).
    public func makeAsyncIterator() -> Iterator {
        Iterator(_storage._makeConsumer())
    }

    /// The iterator of ``MessageStream``: the stream's one consumer. Releasing it ends the
    /// observation.
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
extension MessageStream.Iterator: Sendable {}

extension ObservableSource where Message: Sendable {
    /// Starts receiving this observable's messages and returns them as an `AsyncSequence` for one
    /// loop, which may start later: nothing sent in between is missed.
    ///
    /// ```swift
    /// @MainActor func showMessages(of chat: Chat) {
    ///     let incoming = chat.makeMessageStream()
    ///     Task {
    ///         for await message in incoming {
    ///             transcript.append(message)  // on the main actor
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// See ``MessageStream`` for when the stream ends, and why one loop only.
    ///
    /// - Parameter bufferingPolicy: What the stream keeps until the loop takes it;
    ///   ``MessageBuffering/unbounded`` by default.
    /// - Returns: A stream whose observation has started.
    /// - Complexity: O(1) amortized.
    public func makeMessageStream(bufferingPolicy: MessageBuffering = .unbounded) -> MessageStream<Message> {
        MessageStream(_MessageStreamStorage(messenger._startBuffer(bufferingPolicy, seed: nil)))
    }
}
