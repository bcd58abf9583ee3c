import _MessagingShims

/// One observation: one handler that one receiver registered on one messenger.
///
/// A record is referenced from two tables: the messenger's delivery table (which decides who gets
/// a message) and the receiver's table (which answers `isObserving` and ends the observations when
/// the observer dies). Either side may end it; the atomic `_flag` makes the end take effect at
/// once for a delivery already in progress on another thread, and lets exactly one party win. The
/// winner also counts the end in its messenger's `_endsStarted`, so that a delivery only reads
/// the flags after some observation has ended.
@usableFromInline
class _ObservationRecord: @unchecked Sendable {
    // `_flag` and `_endsStarted` are atomic; `_slot` and `_firstSequence` are guarded by the
    // messenger's lock; `_receiver` is written once, in `init`.

    /// The sequence number of the first message this observation may receive.
    @usableFromInline var _firstSequence: UInt64 = 0

    /// 1 while the observation is active; cleared once, atomically, when it ends.
    @usableFromInline let _flag: UnsafeMutablePointer<Int>

    /// The messenger core's count of ended observations, which the core outlives the record.
    @usableFromInline let _endsStarted: UnsafeMutablePointer<Int>

    /// Position in the messenger's delivery table, or -1 when not in it.
    @usableFromInline var _slot = -1

    weak var _receiver: Receiver?

    /// The identity of the messenger the observation belongs to; the receiver's table key.
    let _messengerKey: ObjectIdentifier

    init(receiver: Receiver, messengerKey: ObjectIdentifier, endsStarted: UnsafeMutablePointer<Int>) {
        _endsStarted = endsStarted
        _flag = .allocate(capacity: 1)
        _flag.initialize(to: 1)
        _receiver = receiver
        _messengerKey = messengerKey
    }

    deinit {
        _flag.deallocate()
    }

    @inlinable
    final var _isActive: Bool { _messaging_flag_is_set(_flag) }

    /// Clears the flag and counts the end. Returns `true` for the one caller that ended the
    /// observation; that caller must then remove it from the messenger's table (which counts the
    /// end as applied), unless the messenger is going away.
    @inlinable
    final func _deactivate() -> Bool {
        guard _messaging_flag_clear(_flag) else { return false }
        _messaging_counter_increment(_endsStarted)
        return true
    }

    /// Removes the record from its messenger's delivery table, if both still exist.
    func _detachFromMessenger() {}
}

/// A typed observation: the handler and the isolation it was registered from.
@usableFromInline
final class _Observation<Message>: _ObservationRecord, @unchecked Sendable {
    // Immutable after `init`, except `_mailbox`'s contents, which it guards itself.

    /// Exactly one of the two handlers is the caller's; `_wantsAuthor` says which. Both are
    /// non-optional so that calling one is a plain load and call, with no retain of its context.
    @usableFromInline let _receive: (Message) -> Void
    @usableFromInline let _receiveWithAuthor: (Message, AnyObject) -> Void
    @usableFromInline let _wantsAuthor: Bool

    /// The actor the handler was registered from, or `nil` for a nonisolated handler.
    @usableFromInline let _isolation: (any Actor)?

    /// `_isolation != nil`, kept apart so the delivery loop tests a byte, not an existential.
    @usableFromInline let _isIsolated: Bool

    /// Queue of messages waiting to be run on `_isolation`; only for isolated handlers.
    let _mailbox: _Mailbox<Message>?

    /// Strong: the core is never referenced weakly, so its reference counting stays cheap. The
    /// messenger's `deinit` empties the core's table, which breaks the cycle.
    let _core: _MessengerCore<Message>

    init(
        receiver: Receiver,
        messenger: Messenger<Message>,
        isolation: (any Actor)?,
        receive: ((Message) -> Void)?,
        receiveWithAuthor: ((Message, AnyObject) -> Void)?
    ) {
        _receive = receive ?? { _ in }
        _receiveWithAuthor = receiveWithAuthor ?? { _, _ in }
        _wantsAuthor = receiveWithAuthor != nil
        _isolation = isolation
        _isIsolated = isolation != nil
        _mailbox = isolation == nil ? nil : _Mailbox()
        _core = messenger._core
        super.init(
            receiver: receiver,
            messengerKey: ObjectIdentifier(messenger),
            endsStarted: messenger._core._endsStarted
        )
    }

    override func _detachFromMessenger() {
        _core.remove(self)
    }

    @inlinable
    func _call(_ message: Message, _ author: AnyObject) {
        if _wantsAuthor {
            _receiveWithAuthor(message, author)
        } else {
            _receive(message)
        }
    }

    /// Delivers to an actor-isolated handler from the delivering context `current`.
    ///
    /// Runs the handler at once when the caller is already on the handler's actor and no earlier
    /// message waits in the mailbox; otherwise queues it and lets one task drain the mailbox on the
    /// actor, in order.
    @usableFromInline
    func _deliverIsolated(_ message: Message, _ author: AnyObject, from current: (any Actor)?) {
        guard let isolation = _isolation, let mailbox = _mailbox else { return }
        let onActor = isolation === current || (isolation === MainActor.shared && _messaging_is_main_thread())
        switch mailbox._post(message, author, canRunNow: onActor) {
        case .runNow:
            _call(message, author)
        case .queued:
            break
        case .scheduleDrain:
            Task { await self._drainMailbox(on: isolation) }
        }
    }

    private func _drainMailbox(on isolation: isolated any Actor) {
        guard let mailbox = _mailbox else { return }
        while true {
            let batch = mailbox._takePending()
            if batch.isEmpty { return }
            for (message, author) in batch where _isActive {
                _call(message, author)
            }
        }
    }
}

/// The messages waiting for one actor-isolated handler.
///
/// At most one drain runs at a time, so the handler never runs twice at once and sees messages in
/// the order they were posted. Batches are taken out whole, so that releasing delivered messages
/// (which may run a `deinit`) happens outside the lock.
final class _Mailbox<Message>: @unchecked Sendable {  // all state is guarded by `_lock`
    enum PostAction { case runNow, queued, scheduleDrain }

    private let _lock = _Lock()
    private var _pending: [(Message, AnyObject)] = []
    private var _isDraining = false

    func _post(_ message: Message, _ author: AnyObject, canRunNow: Bool) -> PostAction {
        _lock.withLock {
            if !_isDraining && canRunNow { return .runNow }
            _pending.append((message, author))
            if _isDraining { return .queued }
            _isDraining = true
            return .scheduleDrain
        }
    }

    /// Takes every waiting message; an empty result ends the drain.
    func _takePending() -> [(Message, AnyObject)] {
        _lock.withLock {
            if _pending.isEmpty { _isDraining = false }
            var batch: [(Message, AnyObject)] = []
            swap(&batch, &_pending)
            return batch
        }
    }
}
