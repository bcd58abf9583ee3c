import _MessagingShims

/// A handler in either of the forms a caller can write, or a sink that the library feeds: what
/// callers pass to ``_Observation/make(observer:messenger:target:handler:isToken:)``, which stores
/// it in the subclass of ``_Observation`` made for its form.
@usableFromInline
enum _Handler<Message> {
    case message((Message) -> Void)
    case messageAndAuthor((Message, AnyObject) -> Void)
    /// Messages go into an object that is also told when the observable ends the observation (see
    /// ``_MessageSink``).
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

/// The part of an observation that does not depend on its message type: what the delivery table,
/// a receiver and a token hold and ask.
///
/// Not generic, so that code that is not specialized for a message type (the delivery state's
/// table operations, a receiver, a token) reads and writes these fields and the table's slots
/// without looking up type metadata at run time. The one subclass, ``_Observation``, adds the
/// messenger's core and the handler.
@usableFromInline
class _ObservationRecord {
    // Shared between threads although it is not `Sendable` (the types that hold it are
    // `@unchecked Sendable` and point here): the `var`s are guarded by the core's lock (they skip
    // the run-time exclusivity check, which the lock makes redundant), the weak reference is
    // loaded atomically by the runtime, and the rest is immutable.

    /// The sequence number of the first message this observation may receive (under the core's
    /// lock; a delivery reads it after taking its snapshot under that lock).
    @exclusivity(unchecked) @usableFromInline final var _firstSequence: UInt64 = 0
    /// Position in the messenger's delivery table, or -1 when not in it (under the core's lock).
    @exclusivity(unchecked) @usableFromInline final var _slot = -1
    /// Whether the observation is active (under the core's lock; see ``_isActive``).
    @exclusivity(unchecked) @usableFromInline final var _isActiveWhileLocked = true
    /// Whether an ``ObservationToken`` owns it (and no observer). Beside the flag, where it costs
    /// no padding.
    @usableFromInline final let _isToken: Bool
    /// Whether it stands for a relationship made by `subscribe(_:)` without messages
    /// (``_SilentObservation``): it counts as a relationship, not as observing.
    @usableFromInline final let _isSilent: Bool
    /// Whether it is a ``_BufferedObservation``, whose calls bound for its actor go through its own
    /// buffer. Beside the other flags, where it costs no padding.
    @usableFromInline final let _isBuffered: Bool
    /// The observer (an ``Observer``), for listing a messenger's observers, or the object told
    /// when a forwarding observation's messenger dies; `nil` for a token. Weak: the observer owns
    /// the observation through its receiver, not the other way round. One word rather than an
    /// existential's two: it is read only to list observers.
    @exclusivity(unchecked) @usableFromInline final weak var _observerObject: AnyObject?
    /// Where the handler must run, or `nil` when it may run on any thread.
    @usableFromInline final let _target: _ActorQueue?

    @inlinable
    init(
        observer: AnyObject?,
        target: _ActorQueue?,
        isToken: Bool,
        isSilent: Bool = false,
        isBuffered: Bool = false
    ) {
        _isToken = isToken
        _isSilent = isSilent
        _isBuffered = isBuffered
        _observerObject = observer
        _target = target
    }

    /// The observer, if the observation belongs to one that is alive.
    final var _observer: (any Observer)? { _observerObject as? any Observer }

    /// Whether the observation is still active: not ended by either side. Takes the messenger's
    /// lock; under that lock, read ``_isActiveWhileLocked`` instead.
    @usableFromInline
    var _isActive: Bool { preconditionFailure("every observation is an _Observation") }

    /// Ends the observation and removes it from its messenger's delivery table, in one step
    /// under the messenger's lock: `true` for the one caller that ended it.
    @usableFromInline
    func _end() -> Bool { preconditionFailure("every observation is an _Observation") }

    /// Ends the observation without touching the delivery table, for a messenger that is going
    /// away (its table was emptied): `true` for the one caller that ended it.
    func _deactivate() -> Bool { preconditionFailure("every observation is an _Observation") }

    /// Tells a sink that the observable's side ended this observation; the caller is the one that
    /// ended it, so this runs at most once. Call outside every lock. Nothing to tell a closure.
    func _observableDidEnd() {}
}

/// One observation: one handler registered on one messenger, by a receiver or a token.
///
/// One allocation. The handler is a `let` of the subclass made for its form
/// (``_MessageObservation``, ``_AuthoredObservation``, ``_SinkObservation``,
/// ``_ForwardObservation``), and a delivery reaches it through one dynamically dispatched
/// ``_call(_:_:_:)``: the compiler calls a `let` closure of an object that the caller keeps alive
/// as it is, where a handler read out of an enum or a `ManagedBuffer` header is copied (a retain,
/// a release and an outlined copy per delivery, about 40 instructions).
///
/// An observation is referenced from two places: the messenger's delivery table (which decides who
/// gets a message) and its owner (a receiver's table, or a token). Either side may end it. Its
/// "active" flag is guarded by its messenger's lock, and ending it (``_end()``) clears the flag,
/// counts the end in the core's atomic `endsStarted` and removes it from the table in one critical
/// section, so exactly one party wins. A delivery skips reading the flags while `endsStarted` keeps
/// the value it had when the delivery took its snapshot, and reads a flag (under the lock) only
/// after some observation has ended: the common delivery takes no lock per observer.
@usableFromInline
class _Observation<Message>: _ObservationRecord {
    // The handlers are not `Sendable` when they belong to an actor: the library calls them only on
    // that actor (`_deliverIsolated`), which is what makes sharing the record between threads safe.

    /// Strong: the core is never referenced weakly, so its reference counting stays cheap. The
    /// messenger's `deinit` empties the core's table, which breaks the cycle.
    @usableFromInline final let _core: _MessengerCore<Message>

    @inlinable
    init(
        observer: AnyObject?,
        target: _ActorQueue?,
        core: _MessengerCore<Message>,
        isToken: Bool,
        isSilent: Bool = false,
        isBuffered: Bool = false
    ) {
        _core = core
        super.init(observer: observer, target: target, isToken: isToken, isSilent: isSilent, isBuffered: isBuffered)
    }

    /// Makes the observation of `messenger` for `handler`, in the subclass for its form; not yet
    /// in the messenger's table.
    static func make(
        observer: AnyObject?,
        messenger: Messenger<Message>,
        target: _ActorQueue?,
        handler: _Handler<Message>,
        isToken: Bool = false
    ) -> _Observation<Message> {
        _make(observer: observer, core: messenger._core, target: target, handler: handler, isToken: isToken)
    }

    /// A token's observation: no observer, handlers on the delivering thread. Inlinable, so that a
    /// client's `subscribe` is specialized and makes the observation without a run-time lookup of
    /// its type.
    @inlinable
    static func makeToken(core: _MessengerCore<Message>, handler: _Handler<Message>) -> _Observation<Message> {
        _make(observer: nil, core: core, target: nil, handler: handler, isToken: true)
    }

    @inlinable
    static func _make(
        observer: AnyObject?,
        core: _MessengerCore<Message>,
        target: _ActorQueue?,
        handler: _Handler<Message>,
        isToken: Bool
    ) -> _Observation<Message> {
        switch handler {
        case .message(let receive):
            _MessageObservation(observer: observer, target: target, core: core, isToken: isToken, receive)
        case .messageAndAuthor(let receive):
            _AuthoredObservation(observer: observer, target: target, core: core, isToken: isToken, receive)
        case .sink(let sink):
            _SinkObservation(observer: observer, target: target, core: core, isToken: isToken, sink)
        case .forward(let forward):
            _ForwardObservation(observer: observer, target: target, core: core, isToken: isToken, forward)
        }
    }

    /// Calls the handler on this thread, which runs on `isolation` (the actor of the delivery).
    /// Each subclass calls its own handler.
    @usableFromInline
    func _call(_ message: Message, _ author: AnyObject, _ isolation: (any Actor)?) {
        preconditionFailure("every observation is made as one of the subclasses for a handler's form")
    }

    @inlinable
    final override var _isActive: Bool {
        _core._lock()
        let isActive = _isActiveWhileLocked
        _core._unlock()
        return isActive
    }

    final override func _deactivate() -> Bool {
        _core._lock()
        let ended = _clearWhileLocked()
        _core._unlock()
        return ended
    }

    /// The last active observation of a messenger with a registered owner tells the owner, after
    /// unlocking.
    ///
    /// - Complexity: O(1) amortized (O(*n*) once if a delivery is reading the table).
    @usableFromInline
    final override func _end() -> Bool {
        _core._lock()
        guard _clearWhileLocked() else {
            _core._unlock()
            return false
        }
        let owner = _core._state.pointee.remove(self)
        _core._unlock()
        if let owner { owner._observedChanged() }
        return true
    }

    /// Clears the flag and counts the end in `endsStarted`, under the core's lock; `false` if the
    /// observation had ended already.
    ///
    /// Both happen in one critical section, and a delivery reads a flag under the same lock, so
    /// an end takes effect at one point in the messenger's order of messages: a delivery that can
    /// see the end has seen the count change (it then reads the flags), and one that skips the
    /// flags ran before the end.
    @inlinable
    final func _clearWhileLocked() -> Bool {
        guard _isActiveWhileLocked else { return false }
        _isActiveWhileLocked = false
        _messaging_counter_increment(_core._endsStarted)
        return true
    }

    /// Delivers to a handler that belongs to an actor, from a delivery running in `current`.
    ///
    /// When the delivery already runs on the handler's actor, runs the calls waiting in that
    /// actor's queue and then the handler, at once; otherwise appends the call to the actor's one
    /// queue, which runs it on the actor after everything posted before it, from any messenger. A
    /// buffered observation's call goes through its buffer instead
    /// (``_BufferedObservation/_deliverBuffered(_:_:on:from:standIn:)``).
    @usableFromInline
    final func _deliverIsolated(
        _ message: Message,
        _ author: AnyObject,
        from current: (any Actor)?,
        standIn: AnyObject? = nil
    ) {
        guard let queue = _target else { return }
        if _isBuffered {
            return unsafeDowncast(self, to: _BufferedObservation<Message>.self)
                ._deliverBuffered(message, author, on: queue, from: current, standIn: standIn)
        }
        let waiting = queue.post(
            // A posted call keeps its author until it runs; an author that sends from its `deinit`
            // cannot be kept past it, so the messenger stands in (or, dying too, the call is dropped).
            _ActorJob(run: { [self, author = _authorToKeep(author, standIn: standIn)] in
                if let author, self._isActive { self._call(message, author, nil) }
            }),
            onActor: queue.isCurrent(current)
        )
        guard var waiting else { return }
        // On the actor: the calls that were waiting came first.
        while let job = waiting.next() { job.run() }
        if _isActive { _call(message, author, current) }
        queue.finishRunningNow()
    }
}

extension _Observation {
    /// Posts a replay to the handler's actor, from code that runs on that actor, under the core's
    /// lock.
    ///
    /// - Returns: `nil` if the call was queued (a handler on the actor is running: the replay
    ///   waits its turn); otherwise the calls that were waiting, which the caller runs after
    ///   unlocking, then the replay, then ``_ActorQueue/finishRunningNow()``.
    final func _postReplay(_ message: Message, _ author: AnyObject) -> _SerialDrain<_ActorJob>.Batch? {
        _target?.post(
            _ActorJob(run: { [self] in
                if self._isActive { self._call(message, author, nil) }
            }),
            onActor: true
        )
    }
}

/// An observation whose handler takes the message.
@usableFromInline
final class _MessageObservation<Message>: _Observation<Message> {
    @usableFromInline let _receive: (Message) -> Void

    @inlinable
    init(
        observer: AnyObject?,
        target: _ActorQueue?,
        core: _MessengerCore<Message>,
        isToken: Bool,
        _ receive: @escaping (Message) -> Void
    ) {
        _receive = receive
        super.init(observer: observer, target: target, core: core, isToken: isToken)
    }

    @usableFromInline
    override func _call(_ message: Message, _ author: AnyObject, _ isolation: (any Actor)?) {
        _receive(message)
    }
}

/// An observation whose handler takes the message and its author.
@usableFromInline
final class _AuthoredObservation<Message>: _Observation<Message> {
    @usableFromInline let _receive: (Message, AnyObject) -> Void

    @inlinable
    init(
        observer: AnyObject?,
        target: _ActorQueue?,
        core: _MessengerCore<Message>,
        isToken: Bool,
        _ receive: @escaping (Message, AnyObject) -> Void
    ) {
        _receive = receive
        super.init(observer: observer, target: target, core: core, isToken: isToken)
    }

    @usableFromInline
    override func _call(_ message: Message, _ author: AnyObject, _ isolation: (any Actor)?) {
        _receive(message, author)
    }
}

/// An observation that feeds a sink, and tells it when the observable's side ends it.
@usableFromInline
final class _SinkObservation<Message>: _Observation<Message> {
    @usableFromInline let _sink: any _MessageSink<Message>

    @inlinable
    init(
        observer: AnyObject?,
        target: _ActorQueue?,
        core: _MessengerCore<Message>,
        isToken: Bool,
        _ sink: any _MessageSink<Message>
    ) {
        _sink = sink
        super.init(observer: observer, target: target, core: core, isToken: isToken)
    }

    @usableFromInline
    override func _call(_ message: Message, _ author: AnyObject, _ isolation: (any Actor)?) {
        _sink._receive(message)
    }

    override func _observableDidEnd() {
        _sink._observableDidEnd()
    }
}

/// An observation of library code that passes messages on with the actor of the delivery.
@usableFromInline
final class _ForwardObservation<Message>: _Observation<Message> {
    @usableFromInline let _forward: (Message, AnyObject, (any Actor)?) -> Void

    @inlinable
    init(
        observer: AnyObject?,
        target: _ActorQueue?,
        core: _MessengerCore<Message>,
        isToken: Bool,
        _ forward: @escaping (Message, AnyObject, (any Actor)?) -> Void
    ) {
        _forward = forward
        super.init(observer: observer, target: target, core: core, isToken: isToken)
    }

    @usableFromInline
    override func _call(_ message: Message, _ author: AnyObject, _ isolation: (any Actor)?) {
        _forward(message, author, isolation)
    }
}

/// An observation with no handler: an ``Observer``'s relationship made by `subscribe(_:)` without
/// messages.
///
/// It sits in the messenger's table and the observer's receiver like any observation, so that one
/// place, the receiver, decides under one lock whether a relationship begins or ends, however it
/// was made; and the messenger lists its observer like any other. A delivery calls it and nothing
/// happens.
final class _SilentObservation<Message>: _Observation<Message> {
    init(observer: AnyObject, core: _MessengerCore<Message>) {
        super.init(observer: observer, target: nil, core: core, isToken: false, isSilent: true)
    }

    override func _call(_ message: Message, _ author: AnyObject, _ isolation: (any Actor)?) {}
}
