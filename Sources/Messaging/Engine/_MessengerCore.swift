import GeneralObserver
import _MessagingShims

/// The fields of a messenger core, its buffer's header, whose address never moves: the delivery
/// state, the lock word, and the atomic count of ended observations.
///
/// Laid out for size: the state ends with its one-byte phase, and the four-byte lock word fills the
/// padding after it, so the core is 64 bytes with its object header on 64-bit systems.
@usableFromInline
struct _CoreWords<Message> {
    /// Guarded by `lock`.
    @usableFromInline var state = _DeliveryState<Message>()
    @usableFromInline var lock = _messaging_lock_t()
    /// How many observations have ended: written under `lock`, in the critical section that
    /// clears an observation's flag (see `_Observation._clearWhileLocked()`), and read atomically
    /// without it.
    ///
    /// A delivery compares it with the state's `endsApplied` when it takes its snapshot: if they
    /// are equal, no observation in the snapshot had ended then, and while the counter keeps that
    /// value none has ended since, so the loop can skip reading each observation's flag.
    @usableFromInline var endsStarted = 0

    @inlinable
    init() {}

    /// The messenger's relationship ledger, if it was made (it lives in the state's extras);
    /// read it under `lock`.
    @inlinable
    var ledger: SubscriptionLedger? { state._extras?._fields.pointee.ledger }
}

/// The delivery engine of one ``Messenger``: its lock, its state, and the loop that calls handlers.
///
/// One allocation, with the lock word inside (see ``_CoreWords``); what only a busy or a related
/// messenger needs is made later (``_CoreExtras``), and the delivery table on the first observation.
///
/// It is a separate object so that observations can point back to it strongly: an object that is
/// ever referenced weakly pays for every retain and release through a side table, several times
/// the normal cost, and the messenger itself is referenced weakly by the relationship ledgers. The
/// core and its observations reference each other; the messenger breaks that cycle when it dies.
///
/// Every state change happens in ``_DeliveryState`` under the lock; handlers run after unlocking.
@usableFromInline
final class _MessengerCore<Message>: ManagedBuffer<_CoreWords<Message>, Void> {
    // Shared between threads although `ManagedBuffer` is not `Sendable`: the state (and the
    // extras and ledger it holds) is only accessed under the lock, `endsStarted` atomically, the
    // lock word by the lock's own atomic operations. The types that hold a core say so where they
    // are `@unchecked Sendable`.

    /// Makes a core with no observations, no delivery table and no extras yet.
    @usableFromInline
    static func make() -> _MessengerCore<Message> {
        unsafeDowncast(create(minimumCapacity: 0) { _ in _CoreWords() }, to: _MessengerCore<Message>.self)
    }

    @inlinable
    final var _words: UnsafeMutablePointer<_CoreWords<Message>> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    /// The delivery state; access it under the lock only.
    @inlinable
    final var _state: UnsafeMutablePointer<_DeliveryState<Message>> {
        (UnsafeMutableRawPointer(_words) + MemoryLayout<_CoreWords<Message>>.offset(of: \.state)!)
            .assumingMemoryBound(to: _DeliveryState<Message>.self)
    }

    @inlinable
    final var _lockWord: UnsafeMutablePointer<_messaging_lock_t> {
        (UnsafeMutableRawPointer(_words) + MemoryLayout<_CoreWords<Message>>.offset(of: \.lock)!)
            .assumingMemoryBound(to: _messaging_lock_t.self)
    }

    /// The atomic count of ended observations.
    @inlinable
    final var _endsStarted: UnsafeMutablePointer<Int> {
        (UnsafeMutableRawPointer(_words) + MemoryLayout<_CoreWords<Message>>.offset(of: \.endsStarted)!)
            .assumingMemoryBound(to: Int.self)
    }

    @inlinable @inline(__always)
    final func _lock() { _messaging_lock_lock(_lockWord) }

    @inlinable @inline(__always)
    final func _unlock() { _messaging_lock_unlock(_lockWord) }

    @inlinable @inline(__always)
    final func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        _messaging_lock_lock(_lockWord)
        defer { _messaging_lock_unlock(_lockWord) }
        return try body()
    }

    /// The messenger's ledger, made on first use.
    final var ledger: SubscriptionLedger {
        withLock {
            let extras = _state.pointee._madeExtras()
            if let ledger = extras.pointee.ledger { return ledger }
            let ledger = SubscriptionLedger()
            extras.pointee.ledger = ledger
            return ledger
        }
    }

    /// Takes the ledger out, for release outside the lock when the messenger dies.
    final func takeLedger() -> SubscriptionLedger? {
        withLock { _state.pointee._extras?._fields.pointee.ledger.take() }
    }

    /// The value of `_endsStarted` under which no flag needs reading, or -1 if every flag must be
    /// read (an ended observation may still be in the table). Call under the lock.
    @inlinable
    final func _cleanEndsBaseline() -> Int {
        let started = _messaging_counter_load(_endsStarted)
        return started == _state.pointee.endsApplied ? started : -1
    }

    /// The number of active observations.
    var observationCount: Int { withLock { _state.pointee.liveCount } }

    /// Whether no delivery runs (nor waits for the runner it was handed to), which also means that
    /// nothing is queued.
    var _isIdle: Bool {
        withLock {
            if case .idle = _state.pointee.phase { return true }
            return false
        }
    }

    // MARK: Sending

    /// Sends `message`: delivers it now, or queues it behind a running delivery.
    ///
    /// - Parameters:
    ///   - checksChange: Must be `false`: only a message sent with an "unchanged" test
    ///     (``sendChange(author:checksChange:isolation:isUnchanged:_:)``) can be dropped.
    ///   - isolation: The actor of the sender; handlers isolated to it run synchronously.
    /// - Complexity: O(*n*) for *n* observations; O(1) when the message is queued.
    ///   - standIn: The messenger the message is sent through: a message that has to wait keeps
    ///     it as its author instead of an author that is being deinitialized. `nil` from a
    ///     transform, which has no messenger at hand.
    @inlinable
    final func send(
        _ message: Message,
        author: AnyObject,
        checksChange: Bool,
        isolation: (any Actor)?,
        standIn: AnyObject? = nil
    ) {
        assert(!checksChange, "a message without an unchanged test cannot be checked for a change")
        sendChange(author: author, checksChange: false, isolation: isolation, isUnchanged: nil, standIn: standIn) {
            message
        }
    }

    /// Makes a message from state that `produce` changes under the lock, and sends it.
    ///
    /// - Parameters:
    ///   - checksChange: Must be `false`; see ``send(_:author:checksChange:isolation:)``.
    ///   - isolation: The actor of the sender; handlers isolated to it run synchronously.
    ///   - standIn: The messenger; see ``send(_:author:checksChange:isolation:standIn:)``.
    @inlinable
    final func sendChange(
        author: AnyObject,
        checksChange: Bool,
        isolation: (any Actor)?,
        standIn: AnyObject? = nil,
        _ produce: () -> Message
    ) {
        assert(!checksChange, "a message without an unchanged test cannot be checked for a change")
        sendChange(
            author: author, checksChange: false, isolation: isolation, isUnchanged: nil, standIn: standIn, produce)
    }

    /// Makes a message from state that `produce` changes under the lock, and sends it, unless
    /// `checksChange` and `isUnchanged` says the message changes nothing.
    ///
    /// The change and the ordering of the message are one atomic step, so messages describing
    /// successive changes go out in the order of the changes, whichever threads make them.
    /// `produce` is library code that only moves values; it must not call out to user code.
    ///
    /// The "unchanged" test runs outside the lock, right before delivery: here, in the caller's
    /// specialised code, for a message delivered at once; for a queued message, by whichever thread
    /// delivers it, from the copy stored with the message.
    ///
    /// - Parameters:
    ///   - checksChange: Whether `isUnchanged` may drop the message.
    ///   - isolation: The actor of the sender; handlers isolated to it run synchronously.
    ///   - isUnchanged: A variable's `old == new`; a function without captures, so storing it
    ///     with a queued message allocates nothing.
    ///   - standIn: The messenger; see ``send(_:author:checksChange:isolation:standIn:)``.
    /// - Complexity: O(*n*) for *n* observations; O(1) when the message is queued.
    @inlinable
    final func sendChange(
        author: AnyObject,
        checksChange: Bool,
        isolation: (any Actor)?,
        isUnchanged: ((Message) -> Bool)?,
        standIn: AnyObject? = nil,
        _ produce: () -> Message
    ) {
        let test = checksChange ? isUnchanged : nil
        _lock()
        let message = produce()
        let action = _state.pointee.send(message, author: author, isUnchanged: test, standIn: standIn)
        let baseline = _cleanEndsBaseline()
        _unlock()
        guard case .deliver(let table) = action else { return }
        if !(test?(message) ?? false) {
            // Delivered at once, to the table as it is: every observation in it came before.
            _deliver(message, author: author, sequence: .max, to: table, baseline, isolation, standIn: standIn)
        }
        // The common case, nothing queued or retired meanwhile, inline; the rest out of line.
        _lock()
        let isIdle = _state.pointee.finishQuietDelivery()
        _unlock()
        if !isIdle { _drainQueue(isolation: isolation) }
    }

    /// Makes a message from state that `produce` checks and changes under the lock, and sends it;
    /// sends nothing when `produce` returns `nil`, in the same step.
    ///
    /// For a view whose change is made outside the lock but may have been overtaken meanwhile (its
    /// observation ended, or a newer one started): the check and the ordering of the message are
    /// one step, so a change meant for an observation that is over never reaches a newer one.
    /// `produce` is library code that only moves values; it must not call out to user code.
    ///
    /// - Parameter isolation: The actor of the sender; handlers isolated to it run synchronously.
    /// - Complexity: O(*n*) for *n* observations; O(1) when the message is queued or not made.
    @inlinable
    final func sendChangeIfMade(author: AnyObject, isolation: (any Actor)?, _ produce: () -> Message?) {
        _lock()
        guard let message = produce() else {
            _unlock()
            return
        }
        let action = _state.pointee.send(message, author: author, isUnchanged: nil, standIn: nil)
        let baseline = _cleanEndsBaseline()
        _unlock()
        guard case .deliver(let table) = action else { return }
        _deliver(message, author: author, sequence: .max, to: table, baseline, isolation, standIn: nil)
        _lock()
        let isIdle = _state.pointee.finishQuietDelivery()
        _unlock()
        if !isIdle { _drainQueue(isolation: isolation) }
    }

    /// How many messages queued by other threads one send delivers, after its own and those its
    /// own thread queued, before it hands the rest to another runner.
    @inlinable
    static var _foreignBudget: Int { 64 }

    /// Delivers the messages queued while this thread was delivering: every one its own thread
    /// queued, and up to ``_foreignBudget`` from other threads; then, if the queue is not empty,
    /// hands the delivery on to a runner of its own, which delivers the rest in order, so a
    /// send is never held for as long as other threads keep sending.
    @inlinable
    final func _drainQueue(isolation: (any Actor)?) {
        _drainQueue(isolation: isolation, handsOff: true)
    }

    /// ``_drainQueue(isolation:)``; a runner that was handed the delivery (`handsOff == false`)
    /// drains until the queue is empty.
    @inlinable
    final func _drainQueue(isolation: (any Actor)?, handsOff: Bool) {
        let me = _messaging_thread_id()
        var foreign = 0
        while true {
            if handsOff, foreign >= Self._foreignBudget {
                // Still delivering: the runner takes over from the next message, in order.
                _handOffDelivery()
                return
            }
            _lock()
            let action = _state.pointee.finishDelivery()
            let baseline = _cleanEndsBaseline()
            _unlock()
            // A table retired during the delivery is released here, outside the lock.
            switch consume action {
            case .idle:
                return
            case .idleReleasing(let retired, let discarded):
                _ = consume retired
                _ = consume discarded
                return
            case .deliverNext(let next, let retired):
                _ = consume retired
                if next.envelope.sender != me { foreign += 1 }
                _deliverQueued(next, baseline, isolation: isolation)
            }
        }
    }

    /// Hands the running delivery to a runner of its own (see `_HandOffs`), which delivers the
    /// messages left, in order.
    @usableFromInline @inline(never)
    final func _handOffDelivery() {
        let runner = _DeliveryRunner(core: self)
        _HandOffs.run(label: "Messaging.Messenger.delivery") {
            runner.core._drainQueue(isolation: nil, handsOff: false)
        }
    }

    /// Delivers one queued message; it and its snapshot are released here, before the lock is
    /// taken again.
    @inlinable
    final func _deliverQueued(
        _ delivery: consuming _Delivery<Message>,
        _ baseline: Int,
        isolation: (any Actor)?
    ) {
        let envelope = delivery.envelope
        if let recipient = envelope.recipient {
            // A replay, for one observation only.
            if recipient._firstSequence <= envelope.sequence, recipient._isActive {
                _deliverOne(envelope.message, author: envelope.author, to: recipient, isolation)
            }
            return
        }
        if let isUnchanged = envelope.isUnchanged, isUnchanged(envelope.message) { return }
        _deliver(
            envelope.message,
            author: envelope.author,
            sequence: envelope.sequence,
            to: delivery.table,
            baseline,
            isolation
        )
    }

    /// Calls every handler of one message, outside the lock.
    ///
    /// The loop reads the snapshot's references without retaining them: the snapshot keeps every
    /// observation alive until it is released at the end of this function, and skipping a retain
    /// and a release per observer (two atomic operations) is most of the cost of a delivery.
    @inlinable
    final func _deliver(
        _ message: Message,
        author: AnyObject,
        sequence: UInt64,
        to table: Unmanaged<_ObservationTable<Message>>,
        _ baseline: Int,
        _ isolation: (any Actor)?,
        standIn: AnyObject? = nil
    ) {
        let endsStarted = _endsStarted
        // The state keeps the table alive, unchanged, until this delivery has finished.
        table._withUnsafeGuaranteedRef { table in
            table.withUnsafeMutablePointers { count, slots in
                // An `Optional` class reference is one pointer-sized word, zero for `nil`.
                let words = UnsafeRawPointer(slots)
                for index in 0..<count.pointee {
                    let word = words.load(fromByteOffset: index &* MemoryLayout<UInt>.stride, as: UInt.self)
                    guard let pointer = UnsafeRawPointer(bitPattern: word) else { continue }
                    Unmanaged<_Observation<Message>>.fromOpaque(pointer)._withUnsafeGuaranteedRef { observation in
                        guard observation._firstSequence <= sequence else { return }
                        // Read the flag only if an observation ended since the snapshot was taken.
                        if _messaging_counter_load(endsStarted) != baseline, !observation._isActive { return }
                        if observation._target != nil {
                            observation._deliverIsolated(message, author, from: isolation, standIn: standIn)
                        } else {
                            observation._call(message, author, isolation)
                        }
                    }
                }
            }
        }
    }

    /// Calls one observation's handler, or posts the call to its actor.
    @inlinable
    final func _deliverOne(
        _ message: Message,
        author: AnyObject,
        to observation: _Observation<Message>,
        _ isolation: (any Actor)?
    ) {
        if observation._target != nil {
            observation._deliverIsolated(message, author, from: isolation)
        } else {
            observation._call(message, author, isolation)
        }
    }

    // MARK: Observations

    /// Adds an observation that first receives the latest message, which `latest` reads under the
    /// lock, in the same atomic step: nothing sent meanwhile is missed or received twice.
    ///
    /// - Parameters:
    ///   - latest: Library code that reads state the lock guards (a variable's value); it must not
    ///     call out to user code.
    ///   - reread: For a cache whose state the lock does not guard: reads the latest message
    ///     again, outside the lock, when this thread delivers the replay itself (no other
    ///     delivery can run meanwhile, so whatever is sent after the read comes after the replay).
    ///   - author: The author of the replayed message.
    ///   - isolation: The caller's actor; a handler isolated to it gets the message at once.
    /// - Complexity: O(1) amortized, plus a delivery to one observation.
    final func insertReplaying(
        _ observation: _Observation<Message>,
        latest: () -> Message,
        reread: (() -> Message)? = nil,
        author: AnyObject,
        isolation: (any Actor)?
    ) {
        let postsToActor = observation._target?.isCurrent(isolation) ?? false
        _lock()
        guard observation._isActiveWhileLocked else {
            _unlock()
            return
        }
        let (action, owner) = _state.pointee.insertReplaying(
            observation, latest: latest(), author: author, postsToActor: postsToActor)
        // Posted under the lock (the actor queue's lock takes no other), so that the running
        // delivery, which needs this lock for its next message, posts nothing for the observation
        // before the replay.
        var waiting: _SerialDrain<_ActorJob>.Batch?
        if case .postToActor(let message) = action { waiting = observation._postReplay(message, author) }
        _unlock()
        // The owner starts observing its origin first, so that nothing it forwards is missed.
        if let owner { owner._observedChanged() }
        switch consume action {
        case .queued:
            return
        case .postToActor(let message):
            // On the actor, which was not running handlers: run what was waiting (it came first),
            // then the replay, then what was posted meanwhile; otherwise the replay waits its turn.
            guard var waiting, let queue = observation._target else { return }
            while let job = waiting.next() { job.run() }
            if observation._isActive { observation._call(message, author, isolation) }
            queue.finishRunningNow()
        case .deliver(let read):
            if observation._isActive {
                let message = reread?() ?? read
                _deliverOne(message, author: author, to: observation, isolation)
            }
            _drainQueue(isolation: isolation)
        }
    }

    /// Adds an observation unless it already ended (a concurrent `stopObserving` may win the race).
    ///
    /// The first active observation of a messenger with a registered owner keeps the owner alive
    /// and tells it, after unlocking.
    @inlinable
    final func insert(_ observation: _Observation<Message>) {
        let owner = withLock {
            observation._isActiveWhileLocked ? _state.pointee.insert(observation) : nil
        }
        if let owner { owner._observedChanged() }
    }

    /// Removes an observation from the delivery table; the caller keeps it alive.
    ///
    /// The end of the last active observation of a messenger with a registered owner tells the
    /// owner and then releases it, after unlocking.
    func remove(_ observation: _Observation<Message>) {
        let owner = withLock { _state.pointee.remove(observation) }
        if let owner { owner._observedChanged() }
    }

    /// Keeps `owner` alive for as long as the messenger has an active observation, and tells it
    /// (``_ObservedOwner/_observedChanged()``, outside the lock) whenever the number of active
    /// observations leaves or reaches zero. Register before anyone can observe.
    final func keepAliveWhileObserved(_ owner: any _ObservedOwner) {
        withLock {
            let extras = _state.pointee._madeExtras()
            extras.pointee.owner = owner
            if _state.pointee.liveCount > 0 { extras.pointee.keptAlive = owner }
        }
    }

    /// The observations that tokens own, for ending them; released by the caller, outside the lock.
    func tokenObservations() -> [_Observation<Message>] {
        withLock {
            guard let table = _state.pointee._table else { return [] }
            return table.withUnsafeMutablePointers { count, slots in
                (0..<count.pointee).compactMap { index in
                    slots[index].flatMap { $0._isToken ? unsafeDowncast($0, to: _Observation<Message>.self) : nil }
                }
            }
        }
    }

    /// Empties the delivery table; the result is released by the caller, outside the lock.
    func removeAll() -> _ObservationTable<Message>? {
        // A messenger's `deinit` runs this unspecialised, where generic code looks up type
        // metadata at run time; a messenger that was never observed skips all of it (`withLock`
        // included, generic over its result).
        _lock()
        guard _state.pointee._table != nil else {
            _unlock()
            return nil
        }
        let table = _state.pointee.removeAll()
        let owner = _state.pointee.takeKeptOwner()
        _unlock()
        _ = consume owner  // released here, outside the lock
        return table
    }
}

/// A messenger core handed to the runner that takes over its delivery.
@usableFromInline
struct _DeliveryRunner<Message>: @unchecked Sendable {  // the core's state is guarded by its lock
    @usableFromInline let core: _MessengerCore<Message>

    @usableFromInline
    init(core: _MessengerCore<Message>) {
        self.core = core
    }
}
