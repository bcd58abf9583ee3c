import _MessagingShims

/// What a receiver or a token needs of an observation, whatever its message type.
@usableFromInline
protocol _ObservationHandle: AnyObject {
    /// Whether the observation is still active (an atomic read).
    var _isActive: Bool { get }

    /// Ends the observation: `true` for the one caller that ended it, which must then call
    /// `_detachFromMessenger()` unless the messenger is going away.
    func _deactivate() -> Bool

    /// Removes the observation from its messenger's delivery table.
    func _detachFromMessenger()
}

/// A handler in either of the forms a caller can write, or a sink that the library feeds.
@usableFromInline
enum _Handler<Message> {
    case message((Message) -> Void)
    case messageAndAuthor((Message, AnyObject) -> Void)
    /// Messages go into an object that is also told when the observable ends the observation (see
    /// ``_MessageSink``). As large as a closure: a reference and a witness table.
    case sink(any _MessageSink<Message>)
    /// Library code that passes messages on, such as a standalone transform: it also receives the
    /// actor the delivery runs on, so that the message it sends in turn reaches handlers isolated
    /// to that actor at once, as the original message would have.
    case forward((Message, AnyObject, (any Actor)?) -> Void)
}

/// What a ``_Handler/sink(_:)`` observation feeds: library code that stores messages for a
/// consumer elsewhere, such as the buffer behind an async sequence of messages.
///
/// A closure cannot be told that its observation ended; a sink can, so a consumer waiting for the
/// next message learns that none will come.
@usableFromInline
protocol _MessageSink<Message>: AnyObject {
    associatedtype Message

    /// Stores one message; called on the delivering thread, outside every lock of the messenger.
    func _receive(_ message: Message)

    /// Called once, outside every lock, when the observable's side ended the observation: its
    /// messenger died, or `stopBeingObserved()` ended it. Not called when the sink's own side
    /// ended it.
    func _observableDidEnd()
}

/// The fields of an observation, the header of its buffer.
@usableFromInline
struct _ObservationFields<Message> {
    /// The sequence number of the first message this observation may receive (under the core's
    /// lock).
    @usableFromInline var firstSequence: UInt64 = 0
    /// Position in the messenger's delivery table, or -1 when not in it (under the core's lock).
    @usableFromInline var slot = -1
    /// The observer (an ``Observer``), for listing a messenger's observers; `nil` for a token.
    /// Weak: the observer owns the observation through its receiver, not the other way round. One
    /// word rather than an existential's two: it is read only to list observers.
    @usableFromInline weak var observer: AnyObject?
    /// Where the handler must run, or `nil` when it may run on any thread.
    @usableFromInline let target: _ActorQueue?
    /// Strong: the core is never referenced weakly, so its reference counting stays cheap. The
    /// messenger's `deinit` empties the core's table, which breaks the cycle.
    @usableFromInline let core: _MessengerCore<Message>
    /// The handler, as the caller wrote it: two words and a tag, whichever form.
    @usableFromInline let handler: _Handler<Message>
    /// Whether an ``ObservationToken`` owns it (and no observer). Last, beside the handler's tag
    /// byte, where it costs no padding.
    @usableFromInline let isToken: Bool

    @inlinable
    init(
        observer: AnyObject?,
        target: _ActorQueue?,
        core: _MessengerCore<Message>,
        handler: _Handler<Message>,
        isToken: Bool
    ) {
        self.observer = observer
        self.target = target
        self.core = core
        self.handler = handler
        self.isToken = isToken
    }
}

/// One observation: one handler registered on one messenger, by a receiver or a token.
///
/// One allocation: the fields are the buffer's header and the "active" flag is its one element,
/// whose address never moves, so it can be read and cleared atomically.
///
/// An observation is referenced from two places: the messenger's delivery table (which decides who
/// gets a message) and its owner (a receiver's table, or a token). Either side may end it; the
/// atomic flag makes the end take effect at once for a delivery already in progress on another
/// thread, and lets exactly one party win. The winner also counts the end in its core's
/// `endsStarted`, so that a delivery only reads the flags after some observation has ended.
@usableFromInline
final class _Observation<Message>: ManagedBuffer<_ObservationFields<Message>, Int>, _ObservationHandle {
    // Shared between threads although `ManagedBuffer` is not `Sendable` (the types that hold it
    // are `@unchecked Sendable` and point here): the flag is atomic; `firstSequence` and `slot`
    // are guarded by the core's lock; the rest is immutable. The handlers are not `Sendable` when they belong to an actor: the library calls
    // them only on that actor (`_deliverIsolated`), which is what makes sharing the record between
    // threads safe.

    static func make(
        observer: (any Observer)?,
        messenger: Messenger<Message>,
        target: _ActorQueue?,
        handler: _Handler<Message>
    ) -> _Observation<Message> {
        let observation = unsafeDowncast(
            create(minimumCapacity: 1) { _ in
                _ObservationFields(
                    observer: observer,
                    target: target,
                    core: messenger._core,
                    handler: handler,
                    isToken: observer == nil
                )
            },
            to: _Observation<Message>.self
        )
        observation.withUnsafeMutablePointerToElements { $0.initialize(to: 1) }
        return observation
    }

    /// A token's observation: no observer, handlers on the delivering thread. Inlinable, so that a
    /// client's `subscribe` is specialized and finds the observation's type without a run-time
    /// lookup.
    @inlinable
    static func makeToken(core: _MessengerCore<Message>, handler: _Handler<Message>) -> _Observation<Message> {
        let observation = unsafeDowncast(
            create(minimumCapacity: 1) { _ in
                _ObservationFields(observer: nil, target: nil, core: core, handler: handler, isToken: true)
            },
            to: _Observation<Message>.self
        )
        observation.withUnsafeMutablePointerToElements { $0.initialize(to: 1) }
        return observation
    }

    @inlinable
    final var _fields: UnsafeMutablePointer<_ObservationFields<Message>> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    @inlinable
    final var _flag: UnsafeMutablePointer<Int> {
        withUnsafeMutablePointerToElements { $0 }
    }

    @inlinable
    final var _firstSequence: UInt64 {
        get { _fields.pointee.firstSequence }
        set { _fields.pointee.firstSequence = newValue }
    }

    @inlinable
    final var _slot: Int {
        get { _fields.pointee.slot }
        set { _fields.pointee.slot = newValue }
    }

    @inlinable
    final var _target: _ActorQueue? { _fields.pointee.target }

    final var _observer: (any Observer)? { _fields.pointee.observer as? any Observer }

    final var _isToken: Bool { _fields.pointee.isToken }

    final var _core: _MessengerCore<Message> { _fields.pointee.core }

    @inlinable
    final var _isActive: Bool { _messaging_flag_is_set(_flag) }

    /// Counts the end, then clears the flag. Returns `true` for the one caller that ended the
    /// observation; that caller must then remove it from the messenger's table (which counts the
    /// end as applied), unless the messenger is going away.
    ///
    /// The count comes first so that the end takes effect at one point in the messenger's order of
    /// messages: a delivery reads the flags only while the count differs from its baseline, so if
    /// the flag were cleared first, a thread paused between the two steps would let deliveries
    /// that skip the flag (and so deliver) follow deliveries that read it (and so skip), and the
    /// observation would receive a message, miss the next, and receive the one after. Counted
    /// first, every delivery that can see the cleared flag reads it. A caller that loses the race
    /// takes its count back; meanwhile deliveries merely read flags they could have skipped.
    @inlinable
    final func _deactivate() -> Bool {
        guard _messaging_flag_is_set(_flag) else { return false }
        let endsStarted = _fields.pointee.core._endsStarted
        _messaging_counter_increment(endsStarted)
        guard _messaging_flag_clear(_flag) else {
            _messaging_counter_decrement(endsStarted)
            return false
        }
        return true
    }

    @usableFromInline
    func _detachFromMessenger() {
        _core.remove(self)
    }

    /// Calls the handler on this thread, which runs on `isolation` (the actor of the delivery).
    @inlinable
    func _call(_ message: Message, _ author: AnyObject, _ isolation: (any Actor)?) {
        let fields = _fields
        switch fields.pointee.handler {
        case .message(let receive): receive(message)
        case .messageAndAuthor(let receive): receive(message, author)
        case .sink(let sink): sink._receive(message)
        case .forward(let forward): forward(message, author, isolation)
        }
    }

    /// Tells a sink that the observable's side ended this observation; the caller is the one that
    /// ended it (`_deactivate()` returned `true`), so this runs at most once. Call outside every
    /// lock.
    final func _observableDidEnd() {
        if case .sink(let sink) = _fields.pointee.handler { sink._observableDidEnd() }
    }

    /// Delivers to a handler that belongs to an actor, from a delivery running in `current`.
    ///
    /// When the delivery already runs on the handler's actor, runs the calls waiting in that
    /// actor's queue and then the handler, at once; otherwise appends the call to the actor's one
    /// queue, which runs it on the actor after everything posted before it, from any messenger.
    @usableFromInline
    func _deliverIsolated(_ message: Message, _ author: AnyObject, from current: (any Actor)?) {
        guard let queue = _target else { return }
        let waiting = queue.post(
            _ActorJob(run: { [self] in
                if self._isActive { self._call(message, author, nil) }
            }),
            onActor: queue.isCurrent(current)
        )
        guard let waiting else { return }
        // On the actor: the calls that were waiting came first.
        for job in waiting { job.run() }
        if _isActive { _call(message, author, current) }
        queue.finishRunningNow()
    }
}
