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
    // messenger's lock; `_receiver` and `_messengerKey` are written once, in `init`.

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

    init(receiver: Receiver?, messengerKey: ObjectIdentifier, endsStarted: UnsafeMutablePointer<Int>) {
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

/// A typed observation: the handler, and the actor it must run on, if any.
///
/// The handler is stored as the caller wrote it: a message-only handler in `_receive`, an
/// author-receiving one in `_receiveWithAuthor` (then `_receive` is an empty function, which
/// allocates nothing). Calling either is a load and an indirect call.
@usableFromInline
final class _Observation<Message>: _ObservationRecord, @unchecked Sendable {
    // Immutable after `init`. The handlers are not `Sendable` when they belong to an actor: the
    // library calls them only on that actor (`_deliverIsolated`), which is what makes sharing the
    // record between threads safe.

    @usableFromInline let _receive: (Message) -> Void
    @usableFromInline let _receiveWithAuthor: ((Message, AnyObject) -> Void)?

    /// Where the handler must run, or `nil` when it may run on any thread.
    @usableFromInline let _target: _ActorQueue?

    /// Strong: the core is never referenced weakly, so its reference counting stays cheap. The
    /// messenger's `deinit` empties the core's table, which breaks the cycle.
    let _core: _MessengerCore<Message>

    init(
        receiver: Receiver?,
        messenger: Messenger<Message>,
        target: _ActorQueue?,
        receive: @escaping (Message) -> Void
    ) {
        _receive = receive
        _receiveWithAuthor = nil
        _target = target
        _core = messenger._core
        super.init(
            receiver: receiver,
            messengerKey: ObjectIdentifier(messenger),
            endsStarted: messenger._core._endsStarted
        )
    }

    init(
        receiver: Receiver?,
        messenger: Messenger<Message>,
        target: _ActorQueue?,
        receiveWithAuthor: @escaping (Message, AnyObject) -> Void
    ) {
        _receive = { _ in }
        _receiveWithAuthor = receiveWithAuthor
        _target = target
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
        if let receiveWithAuthor = _receiveWithAuthor {
            receiveWithAuthor(message, author)
        } else {
            _receive(message)
        }
    }

    /// Delivers to a handler that belongs to an actor, from a delivery running in `current`.
    ///
    /// Runs the handler at once when the delivery already runs on the handler's actor and nothing
    /// waits in that actor's queue; otherwise appends it to the actor's one queue, which runs it
    /// on the actor after everything posted before it, from any messenger.
    @usableFromInline
    func _deliverIsolated(_ message: Message, _ author: AnyObject, from current: (any Actor)?) {
        guard let queue = _target else { return }
        let runNow = queue.post(
            _ActorJob(run: { [self] in
                if self._isActive { self._call(message, author) }
            }),
            runNowIfIdle: queue.isCurrent(current)
        )
        if runNow {
            _call(message, author)
            queue.finishRunningNow()
        }
    }
}
