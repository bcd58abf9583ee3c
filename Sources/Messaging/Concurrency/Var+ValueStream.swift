/// The values of a ``Var`` as an `AsyncSequence` with one consumer, from the moment the stream is
/// made: the value the variable had then, and the new value of every update since, however late the
/// loop starts.
///
/// ```swift
/// let counts = counter.makeValueStream()  // the current value, and every change from here on
/// Task {
///     for await count in counts {
///         label.text = "\(count)"
///     }
/// }
/// counter.value += 1  // reaches the loop, however late the task starts
/// ```
///
/// Get one from ``Var/makeValueStream(bufferingPolicy:)``.
///
/// Making the stream reads the current value and starts its observation in one atomic step, under
/// the variable's lock, as ``VariableValues`` does for each iterator: it misses no change made
/// after that value and repeats none made before. After the first value, each element is an
/// update's ``Update/new``: a value repeats only when ``Var/send(isolation:)`` sends it again.
///
/// Otherwise it is a ``MessageStream``: one consumer (any iterator after the first is empty),
/// the same buffering, end, cancellation and lifetimes; the first value counts against the
/// buffer's limit like any other, so with ``MessageBuffering/newest(_:)`` or
/// ``MessageBuffering/oldest(_:)`` of 0 it is dropped.
public struct VariableValueStream<Value: Equatable & Sendable>: AsyncSequence, Sendable {
    /// The element type: the variable's value.
    public typealias Element = Value
    /// Iterating never throws.
    public typealias Failure = Never

    /// The started buffer, seeded with the value of the moment, shared by the stream's copies.
    @usableFromInline let _storage: _MessageStreamStorage<Update<Value>>

    @inlinable
    init(_ storage: _MessageStreamStorage<Update<Value>>) {
        _storage = storage
    }

    /// Returns the iterator that receives the stream's values: the first one made from the stream
    /// or its copies; any other is empty.
    ///
    /// - Returns: The stream's one consumer, or an empty iterator if one was made already.
    /// - Complexity: O(1).
    public func makeAsyncIterator() -> Iterator {
        Iterator(_storage._makeConsumer())
    }

    /// The iterator of ``VariableValueStream``: the stream's one consumer. Releasing it ends the
    /// observation.
    ///
    /// Not `Sendable`: one task at a time iterates. Its copies share one position.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let _consumer: _MessageConsumer<Update<Value>>

        @inlinable
        init(_ consumer: _MessageConsumer<Update<Value>>) {
            _consumer = consumer
        }

        /// The next value, waiting for one if none is buffered.
        ///
        /// - Returns: The next value; `nil` once the observation ended (after the buffered
        ///   values), or once the task is cancelled.
        /// - Complexity: O(1).
        @inlinable
        public mutating func next() async -> Value? {
            await _consumer.next(isolation: nil)?.new
        }

        /// The next value, waiting for one on the caller's actor if none is buffered.
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The next value; `nil` once the observation ended (after the buffered
        ///   values), or once the task is cancelled.
        /// - Complexity: O(1).
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            await _consumer.next(isolation: actor)?.new
        }
    }
}

@available(*, unavailable)
extension VariableValueStream.Iterator: Sendable {}

extension Var where Value: Sendable {
    /// Reads the current value and starts receiving the variable's changes, in one atomic step, and
    /// returns them as an `AsyncSequence` for one loop, which may start later: nothing changed in
    /// between is missed.
    ///
    /// ```swift
    /// let states = connection.isOnline.makeValueStream()
    /// Task { @MainActor in
    ///     for await isOnline in states {
    ///         banner.isHidden = isOnline
    ///     }
    /// }
    /// ```
    ///
    /// See ``VariableValueStream`` for why no change is missed or repeated, and why one loop only.
    ///
    /// - Parameter bufferingPolicy: What the stream keeps until the loop takes it;
    ///   ``MessageBuffering/unbounded`` by default.
    /// - Returns: A stream whose first element is the current value and whose observation has
    ///   started.
    /// - Complexity: O(1) amortized.
    public func makeValueStream(bufferingPolicy: MessageBuffering = .unbounded) -> VariableValueStream<Value> {
        let buffer = messenger._startBuffer(bufferingPolicy) {
            // Under the core's lock, which guards `_storage`: only copies the value.
            Update(self._storage, self._storage)
        }
        return VariableValueStream(_MessageStreamStorage(buffer))
    }
}
