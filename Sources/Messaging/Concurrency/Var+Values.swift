/// The values of a ``Var`` as an `AsyncSequence`: the current value, then the new value of every
/// update.
///
/// ```swift
/// for await count in counter.values {
///     label.text = "\(count)"
/// }
/// ```
///
/// Get one from ``Var/values`` or ``Var/values(bufferingPolicy:)``.
///
/// Each iterator made from the sequence reads the current value and starts its observation in one
/// atomic step, under the variable's lock: it misses no change made after that value and repeats
/// none made before, whichever threads change the variable meanwhile. After the first value, each
/// element is an update's ``Update/new``: a value repeats only when ``Var/send(isolation:)`` sends
/// it again.
///
/// A loop inside a new `Task` starts with the value of the moment the task runs its loop, so it
/// skips the changes made between the task's creation and then;
/// ``Var/makeValueStream(bufferingPolicy:)`` starts before the task instead (see
/// ``VariableValueStream``).
///
/// Buffering, the end (the variable's messenger dies, or
/// ``ObservableSource/stopBeingObserved()``), cancellation and lifetimes are those of
/// ``ObservableMessages``; the first value counts against the buffer's limit like any other, so
/// with ``MessageBuffering/newest(_:)`` or ``MessageBuffering/oldest(_:)`` of 0 it is dropped.
public struct VariableValues<Value: Equatable & Sendable>: AsyncSequence, Sendable {
    /// The element type: the variable's value.
    public typealias Element = Value
    /// Iterating never throws.
    public typealias Failure = Never

    /// Weak, so that a stored sequence or a running loop does not keep the variable alive.
    @usableFromInline weak var _variable: Var<Value>?
    @usableFromInline let _buffering: MessageBuffering

    @inlinable
    init(_ variable: Var<Value>, buffering: MessageBuffering) {
        _variable = variable
        _buffering = buffering
    }

    /// Reads the current value and starts an observation, in one atomic step, and returns the
    /// iterator that receives the value and then every update.
    ///
    /// - Returns: An iterator with an observation of its own; an empty one if the variable is gone.
    /// - Complexity: O(1) amortized.
    public func makeAsyncIterator() -> Iterator {
        guard let variable = _variable else { return Iterator(_MessageConsumer(nil)) }
        let consumer = variable.messenger._startConsumer(_buffering) {
            // Under the core's lock, which guards `_storage`: only copies the value.
            Update(variable._storage, variable._storage)
        }
        return Iterator(consumer)
    }

    /// The iterator of ``VariableValues``: one consumer, with an observation and a buffer of its
    /// own. Releasing it ends the observation.
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
extension VariableValues.Iterator: Sendable {}

extension Var where Value: Sendable {
    /// The variable's values as an `AsyncSequence`: the current value, then each new value, with an
    /// ``MessageBuffering/unbounded`` buffer for each consumer.
    ///
    /// ```swift
    /// for await isOnline in connection.isOnline.values {
    ///     banner.isHidden = isOnline
    /// }
    /// ```
    ///
    /// See ``VariableValues`` for why no change is missed or repeated.
    public var values: VariableValues<Value> {
        VariableValues(self, buffering: .unbounded)
    }

    /// The variable's values as an `AsyncSequence`, with the given buffering policy for each
    /// consumer.
    ///
    /// ```swift
    /// for await progress in download.progress.values(bufferingPolicy: .newest(1)) {
    ///     await render(progress)  // always the latest progress, never a stale backlog
    /// }
    /// ```
    ///
    /// - Parameter bufferingPolicy: What each consumer keeps while it is busy.
    /// - Returns: The sequence; each iterator made from it is an observation of its own.
    public func values(bufferingPolicy: MessageBuffering) -> VariableValues<Value> {
        VariableValues(self, buffering: bufferingPolicy)
    }
}
