import _MessagingShims

/// The words of a messenger core that need a fixed address: its lock, the atomic count of ended
/// observations, and the ledger, made on first use.
@usableFromInline
struct _CoreWords {
    /// First, so that the words' address is the lock's.
    @usableFromInline var lock = _messaging_lock_t()
    /// How many observations have ended (atomic; see `_Observation._deactivate()`).
    ///
    /// A delivery compares it with the state's `endsApplied` when it takes its snapshot: if they
    /// are equal, no observation in the snapshot had ended then, and while the counter keeps that
    /// value none has ended since, so the loop can skip reading each observation's flag.
    @usableFromInline var endsStarted = 0
    /// The messenger's relationship ledger, made when first asked for; guarded by the lock.
    @usableFromInline var ledger: SubscriptionLedger?

    @inlinable
    init() {}
}

/// The delivery engine of one ``Messenger``: its lock, its state, and the loop that calls handlers.
///
/// One allocation: the delivery state is the buffer's header, and the lock word, the ends counter and
/// the ledger are its one element, whose address never moves.
///
/// It is a separate object so that observations can point back to it strongly: an object that is
/// ever referenced weakly pays for every retain and release through a side table, several times
/// the normal cost, and the messenger itself is referenced weakly by the relationship ledgers. The
/// core and its observations reference each other; the messenger breaks that cycle when it dies.
///
/// Every state change happens in ``_DeliveryState`` under the lock; handlers run after unlocking.
@usableFromInline
final class _MessengerCore<Message>: ManagedBuffer<_DeliveryState<Message>, _CoreWords> {
    // Shared between threads although `ManagedBuffer` is not `Sendable`: the header and `ledger`
    // are only accessed under the lock, `endsStarted` atomically, `_isUnchanged` only read after
    // it is set at creation. The types that hold a core say so where they are `@unchecked Sendable`.

    /// For a variable's messenger: whether an update changes nothing (`old == new`), so that it is
    /// dropped. Set once, before the messenger is shared; evaluated outside the lock, right before
    /// delivery, for the messages sent with `checksChange`.
    @usableFromInline var _isUnchanged: ((Message) -> Bool)? {
        get { _state.pointee.isUnchanged }
        set { _state.pointee.isUnchanged = newValue }
    }

    /// Makes a core with no observations and no delivery table yet.
    @usableFromInline
    static func make() -> _MessengerCore<Message> {
        let core = unsafeDowncast(
            create(minimumCapacity: 1) { _ in _DeliveryState() },
            to: _MessengerCore<Message>.self
        )
        core.withUnsafeMutablePointerToElements { $0.initialize(to: _CoreWords()) }
        return core
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) }
    }

    /// The delivery state; access it under the lock only.
    @inlinable
    final var _state: UnsafeMutablePointer<_DeliveryState<Message>> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    @inlinable
    final var _words: UnsafeMutablePointer<_CoreWords> {
        withUnsafeMutablePointerToElements { $0 }
    }

    @inlinable
    final var _lockWord: UnsafeMutablePointer<_messaging_lock_t> {
        UnsafeMutableRawPointer(_words).assumingMemoryBound(to: _messaging_lock_t.self)
    }

    /// The atomic count of ended observations.
    @inlinable
    final var _endsStarted: UnsafeMutablePointer<Int> {
        (UnsafeMutableRawPointer(_words) + MemoryLayout<_CoreWords>.offset(of: \_CoreWords.endsStarted)!)
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
            if let ledger = _words.pointee.ledger { return ledger }
            let ledger = SubscriptionLedger()
            _words.pointee.ledger = ledger
            return ledger
        }
    }

    /// Takes the ledger out, for release outside the lock when the messenger dies.
    final func takeLedger() -> SubscriptionLedger? {
        withLock {
            defer { _words.pointee.ledger = nil }
            return _words.pointee.ledger
        }
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

    // MARK: Sending

    /// Sends `message`: delivers it now, or queues it behind a running delivery.
    ///
    /// - Parameters:
    ///   - checksChange: Whether `_isUnchanged` may drop the message, right before delivery.
    ///   - isolation: The actor of the sender; handlers isolated to it run synchronously.
    /// - Complexity: O(*n*) for *n* observations; O(1) when the message is queued.
    @inlinable
    final func send(
        _ message: Message,
        author: AnyObject,
        checksChange: Bool,
        isolation: (any Actor)?
    ) {
        sendChange(author: author, checksChange: checksChange, isolation: isolation) { message }
    }

    /// Makes a message from state that `produce` changes under the lock, and sends it.
    ///
    /// The change and the numbering of the message are one atomic step, so messages describing
    /// successive changes go out in the order of the changes, whichever threads make them.
    /// `produce` is library code that only moves values; it must not call out to user code.
    @inlinable
    final func sendChange(
        author: AnyObject,
        checksChange: Bool,
        isolation: (any Actor)?,
        _ produce: () -> Message
    ) {
        sendChange(author: author, checksChange: checksChange, isolation: isolation, isUnchanged: nil, produce)
    }

    /// ``sendChange(author:checksChange:isolation:_:)`` with the "unchanged" test at hand, so that
    /// a message delivered at once is tested by the caller's specialised code rather than by the
    /// stored `_isUnchanged` (a queued message is tested with that one, by whoever delivers it).
    @inlinable
    final func sendChange(
        author: AnyObject,
        checksChange: Bool,
        isolation: (any Actor)?,
        isUnchanged: ((Message) -> Bool)?,
        _ produce: () -> Message
    ) {
        _lock()
        let message = produce()
        let action = _state.pointee.send(message, author: author, checksChange: checksChange)
        let baseline = _cleanEndsBaseline()
        _unlock()
        guard case .deliver(let table, let sequence) = action else { return }
        let unchanged = checksChange && ((isUnchanged ?? _isUnchanged)?(message) ?? false)
        if !unchanged {
            _deliver(message, author: author, sequence: sequence, to: table, baseline, isolation)
        }
        _drainQueue(isolation: isolation)
    }

    /// Delivers the messages queued while this thread was delivering, until the queue is empty.
    @inlinable
    final func _drainQueue(isolation: (any Actor)?) {
        while true {
            _lock()
            let action = _state.pointee.finishDelivery()
            let baseline = _cleanEndsBaseline()
            _unlock()
            // Tables retired during the delivery are released here, outside the lock.
            switch consume action {
            case .idle(let retired, let discarded):
                _ = consume retired
                _ = consume discarded
                return
            case .deliverNext(let next, let retired):
                _ = consume retired
                _deliverQueued(next, baseline, isolation: isolation)
            }
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
        if envelope.checksChange, _isUnchanged?(envelope.message) ?? false { return }
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
        _ isolation: (any Actor)?
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
                            observation._deliverIsolated(message, author, from: isolation)
                        } else {
                            observation._call(message, author)
                        }
                    }
                }
            }
        }
    }

    // MARK: Observations

    /// Adds an observation unless it already ended (a concurrent `stopObserving` may win the race).
    func insert(_ observation: _Observation<Message>) {
        withLock {
            if observation._isActive { _state.pointee.insert(observation) }
        }
    }

    /// Removes an observation from the delivery table; the caller keeps it alive.
    func remove(_ observation: _Observation<Message>) {
        withLock { _state.pointee.remove(observation) }
    }

    /// The observations that tokens own, for ending them; released by the caller, outside the lock.
    func tokenObservations() -> [_Observation<Message>] {
        withLock {
            guard let table = _state.pointee._table else { return [] }
            return table.withUnsafeMutablePointers { count, slots in
                (0..<count.pointee).compactMap { index in
                    slots[index].flatMap { $0._isToken ? $0 : nil }
                }
            }
        }
    }

    /// Empties the delivery table; the result is released by the caller, outside the lock.
    func removeAll() -> _ObservationTable<Message>? {
        withLock { _state.pointee.removeAll() }
    }
}
