import _MessagingShims

/// One consumer's buffer: the state machine of ``_MessageBufferState`` behind a one-word lock, in
/// one allocation (the state is the header, the lock word the one element).
///
/// It is the sink of one token-like observation: the delivering thread stores each message here
/// (``_receive(_:)``), with no allocation beyond the ring's slots, and the observable tells it when
/// it ends the observation (``_observableDidEnd()``). Continuations are resumed, observations ended
/// and dropped messages released only after unlocking.
@usableFromInline
final class _MessageBuffer<Message: Sendable>: ManagedBuffer<_MessageBufferState<Message>, _messaging_lock_t>,
    _MessageSink
{
    // Shared between threads although `ManagedBuffer` is not `Sendable` (the observation that
    // feeds it lives in its messenger's core; `_SharedBuffer` carries it into a cancellation
    // handler and into a stream's storage): the state is only accessed under the lock word, its
    // one element, except by `_seed(_:)`, before any other thread can reach the buffer.

    /// Makes a buffer and the observation that feeds it; the observation is not inserted yet.
    @inlinable
    static func make(
        _ buffering: MessageBuffering,
        core: _MessengerCore<Message>
    ) -> (_MessageBuffer<Message>, _Observation<Message>) {
        let buffer = unsafeDowncast(
            create(minimumCapacity: 1) { _ in _MessageBufferState(buffering) },
            to: _MessageBuffer<Message>.self
        )
        buffer.withUnsafeMutablePointerToElements { $0.initialize(to: _messaging_lock_t()) }
        let observation = _Observation.makeToken(core: core, handler: .sink(buffer))
        buffer.withUnsafeMutablePointerToHeader { $0.pointee.observation = observation }
        return (buffer, observation)
    }

    @inlinable
    final func _withLock<Result>(_ body: (inout _MessageBufferState<Message>) -> Result) -> Result {
        withUnsafeMutablePointers { state, lock in
            _messaging_lock_lock(lock)
            defer { _messaging_lock_unlock(lock) }
            return body(&state.pointee)
        }
    }

    /// Stores a first message before the buffer is published: call it only while no other thread
    /// can reach the buffer (under the core's lock, in the step that inserts its observation).
    @inlinable
    final func _seed(_ message: Message) {
        // No waiting consumer and an empty ring: the action is `.none`, or `.release` of nothing.
        _ = withUnsafeMutablePointerToHeader { $0.pointee.push(message) }
    }

    // MARK: _MessageSink

    @inlinable
    final func _receive(_ message: Message) {
        switch _withLock({ $0.push(message) }) {
        case .none, .release: break
        case .resume(let consumer, let message): consumer.resume(returning: message)
        }
    }

    @usableFromInline
    final func _observableDidEnd() {
        let (waiting, observation) = _withLock { $0.finish() }
        waiting?.resume(returning: nil)
        // Released here, after unlocking.
        _ = consume observation
    }

    // MARK: Consumer side

    /// Ends the consumer's side: ends the observation at once (so the messenger's
    /// ``Messenger/observationCount`` no longer counts it), resumes a waiting consumer with `nil`,
    /// and releases what was buffered.
    @usableFromInline
    final func _cancel() {
        let action = _withLock { $0.cancel() }
        _ = action.observation?._end()
        action.waiting?.resume(returning: nil)
    }

    /// Takes a stream's buffer for an iterator: `true` for the first caller only.
    @usableFromInline
    final func _claim() -> Bool {
        _withLock { $0.claim() }
    }

    /// Ends the buffer as ``_cancel()`` does, unless an iterator claimed it: for a stream that is
    /// released.
    @usableFromInline
    final func _abandon() {
        guard let action = _withLock({ $0.abandon() }) else { return }
        _ = action.observation?._end()
        action.waiting?.resume(returning: nil)
        // The dropped messages are released here, after unlocking.
    }

    /// Waits for the next message, or `nil` at the end; cancelling the task ends the buffer.
    @usableFromInline
    final func _waitForMessage(isolation actor: isolated (any Actor)?) async -> Message? {
        let shared = _SharedBuffer(buffer: self)
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (consumer: UnsafeContinuation<Message?, Never>) in
                if case .resume(let message) = _withLock({ $0.wait(consumer) }) {
                    consumer.resume(returning: message)
                }
            }
        } onCancel: {
            shared.buffer._cancel()
        }
    }
}

/// A buffer, for a closure that another thread may run (a task's cancellation handler), or for a
/// stream's storage, which any task may hold.
@usableFromInline
struct _SharedBuffer<Message: Sendable>: @unchecked Sendable {  // the buffer's state is guarded by its lock word
    @usableFromInline let buffer: _MessageBuffer<Message>
}

/// The consumer's side of a buffer: what an iterator holds.
///
/// It keeps the messages it took out of an unbounded buffer in one lock round in a ring of its
/// own, and hands them out without locking. Releasing it (the iterator's last copy) ends the
/// observation at once.
@usableFromInline
final class _MessageConsumer<Message: Sendable> {
    /// `nil` when the observable was gone before the iteration began.
    @usableFromInline let _buffer: _MessageBuffer<Message>?
    /// Messages taken out of the buffer and not handed out yet. The iterator that holds the
    /// consumer is not `Sendable`, so one task at a time calls `next`: the access needs no run-time
    /// exclusivity check.
    @exclusivity(unchecked) @usableFromInline var _taken = _Ring<Message>()
    /// Whether `next` returned `nil`: it returns `nil` from then on.
    @exclusivity(unchecked) @usableFromInline var _isDone: Bool

    @usableFromInline
    init(_ buffer: _MessageBuffer<Message>?) {
        _buffer = buffer
        _isDone = buffer == nil
    }

    deinit {
        _buffer?._cancel()
    }

    /// The next message, or `nil` once the observation ended and every buffered message was
    /// handed out, or once the task is cancelled.
    ///
    /// - Complexity: O(1); one lock round per burst of messages in an unbounded buffer, per
    ///   message in a bounded one.
    @inlinable
    final func next(isolation actor: isolated (any Actor)?) async -> Message? {
        if _isDone { return nil }
        if Task.isCancelled {
            _end()
            return nil
        }
        if let message = _taken.popFirst() { return message }
        return await _refill(isolation: actor)
    }

    /// Takes the buffered messages, or waits for one.
    @usableFromInline
    final func _refill(isolation actor: isolated (any Actor)?) async -> Message? {
        guard let buffer = _buffer else { return nil }
        switch buffer._withLock({ $0.take(into: &_taken) }) {
        case .tookAll: return _taken.popFirst()
        case .message(let message): return message
        case .finished:
            _isDone = true
            return nil
        case .wait:
            let message = await buffer._waitForMessage(isolation: actor)
            if message == nil { _isDone = true }
            return message
        }
    }

    /// Ends the consumer's side after its task was cancelled.
    @usableFromInline
    final func _end() {
        _isDone = true
        _taken = _Ring()
        _buffer?._cancel()
    }
}

@available(*, unavailable)
extension _MessageConsumer: Sendable {}

extension Messenger where Message: Sendable {
    /// Starts one consumer's observation: a buffer, and a token-like observation that feeds it.
    ///
    /// - Parameters:
    ///   - buffering: The buffering policy.
    ///   - seed: Runs under the core's lock, in the step that inserts the observation, and returns
    ///     the first message to buffer, or `nil`; library code that only copies values.
    /// - Complexity: O(1) amortized.
    @usableFromInline
    final func _startConsumer(
        _ buffering: MessageBuffering,
        seed: (() -> Message)? = nil
    ) -> _MessageConsumer<Message> {
        _MessageConsumer(_startBuffer(buffering, seed: seed))
    }

    /// Starts a buffer and the token-like observation that feeds it, for a consumer made now or
    /// later; see ``_startConsumer(_:seed:)``.
    ///
    /// - Complexity: O(1) amortized.
    @usableFromInline
    final func _startBuffer(
        _ buffering: MessageBuffering,
        seed: (() -> Message)?
    ) -> _MessageBuffer<Message> {
        let (buffer, observation) = _MessageBuffer.make(buffering, core: _core)
        if let seed {
            _core.insert(observation) { buffer._seed(seed()) }
        } else {
            _core.insert(observation)
        }
        return buffer
    }
}

/// What a stream (``MessageStream``, ``VariableValueStream``) holds: a started buffer that the
/// first iterator claims. Releasing the stream's last copy ends the buffer's observation unless an
/// iterator claimed it.
@usableFromInline
final class _MessageStreamStorage<Message: Sendable>: Sendable {
    /// The buffer; whether it is claimed is part of its state, under its lock word.
    @usableFromInline let _shared: _SharedBuffer<Message>

    @usableFromInline
    init(_ buffer: _MessageBuffer<Message>) {
        _shared = _SharedBuffer(buffer: buffer)
    }

    deinit {
        _shared.buffer._abandon()
    }

    /// The consumer of the buffer for the first caller; an empty consumer for any other.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    final func _makeConsumer() -> _MessageConsumer<Message> {
        let buffer = _shared.buffer
        return _MessageConsumer(buffer._claim() ? buffer : nil)
    }
}
