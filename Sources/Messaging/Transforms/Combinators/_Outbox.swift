/// The messages of a combination or a follower waiting to be sent: "run now, or queue behind the
/// runner", with ``_SerialDrain``'s rules.
///
/// A message is posted under the owner's lock, in the order of the changes, and sent after
/// unlocking by one thread at a time: a thread that finds another sending leaves its message for
/// that thread, which sends it before it stops. So messages go out in the order they were made, and
/// the last one sent is always the latest. A caller's own call sends at most ``_budget`` messages
/// that other posts left; the rest go on, in order, from a runner of their own (see `_HandOffs`),
/// so that no `send` is held for as long as other threads keep changing the sources.
///
/// `@unchecked Sendable`: `_drain` is guarded by `_lock`, the owner's lock; `_running` is written
/// under it by the thread that becomes the runner and read by that thread alone, before the drain
/// can have another runner.
@usableFromInline
final class _Outbox<Message>: @unchecked Sendable {
    /// How many queued messages a caller's own call sends before it hands the rest off.
    @usableFromInline static var _budget: Int { 64 }

    @usableFromInline let _lock: _Lock
    @exclusivity(unchecked) @usableFromInline var _drain = _SerialDrain<_Authored<Message>>(budget: _Outbox._budget)
    /// The message that made the caller the runner, from ``post(_:author:)`` to ``send(isolation:)``.
    @exclusivity(unchecked) @usableFromInline var _running: _Authored<Message>?
    @usableFromInline let _core: _MessengerCore<Message>

    @inlinable
    init(core: _MessengerCore<Message>, lock: _Lock) {
        _core = core
        _lock = lock
    }

    /// Queues a message; `true` if the caller is now the runner and must send
    /// (``send(isolation:)``). Call under the lock.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    func post(_ message: Message, author: AnyObject) -> Bool {
        // A message may wait for the thread that sends them; an author sending from its `deinit`
        // cannot wait with it.
        let authored = _Authored(value: message, author: _authorToKeep(author, standIn: nil) ?? _noAuthor)
        guard let now = _drain.submit(authored) else { return false }
        _running = now
        return true
    }

    /// Sends the message that made the caller the runner, then the queued ones, in order. Call
    /// without the lock, from code that runs on `isolation`, after ``post(_:author:)`` returned
    /// `true`.
    ///
    /// - Complexity: O(*k*) for the *k* messages sent by this call, at most ``_budget`` + 1.
    @inlinable
    func send(isolation: (any Actor)?) {
        if let first = _running.take() {
            _core.send(first.value, author: first.author, checksChange: false, isolation: isolation)
        }
        _sendQueued(isolation: isolation, handsOff: true)
    }

    /// Sends the queued messages; a caller's own call (`handsOff`) stops after the budget and hands
    /// the rest to a runner of their own, which sends them all.
    @inlinable
    func _sendQueued(isolation: (any Actor)?, handsOff: Bool) {
        var sent = 0
        while true {
            let step = _lock.withLock { _drain.next(afterRunning: sent, handsOff: handsOff) }
            switch consume step {
            case .finished:
                return
            case .handOff:
                _handOff()
                return
            case .run(let batch):
                sent += batch.count
                for message in batch {
                    _core.send(message.value, author: message.author, checksChange: false, isolation: isolation)
                }
            }
        }
    }

    /// Hands the queued messages to a runner of their own.
    @usableFromInline @inline(never)
    func _handOff() {
        _HandOffs.run(label: "Messaging.Outbox") {
            self._sendQueued(isolation: nil, handsOff: false)
        }
    }
}
