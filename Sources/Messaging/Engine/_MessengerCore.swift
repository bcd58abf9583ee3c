import _MessagingShims

/// The delivery engine of one ``Messenger``: its lock, its state, and the loop that calls handlers.
///
/// It is a separate object so that observations can point back to it strongly: an object that is
/// ever referenced weakly pays for every retain and release through a side table, several times
/// the normal cost, and the messenger itself is referenced weakly by the relationship ledgers. The
/// core and its observations reference each other; the messenger breaks that cycle when it dies.
///
/// Every state change happens in ``_DeliveryState`` inside `_lock`; handlers run after unlocking.
@usableFromInline
final class _MessengerCore<Message>: @unchecked Sendable {  // `_state` is only accessed under `_lock`
    @usableFromInline let _lock = _Lock()

    /// The state lives behind a pointer: a class's stored `var` would pay a dynamic exclusivity
    /// check on every access, and the lock already makes access exclusive.
    @usableFromInline let _state: UnsafeMutablePointer<_DeliveryState<Message>>

    /// How many observations have ended (atomic; see `_ObservationRecord._deactivate()`).
    ///
    /// A delivery compares it with the state's `endsApplied` when it takes its snapshot: if they
    /// are equal, no observation in the snapshot had ended then, and while the counter keeps that
    /// value none has ended since, so the loop can skip reading each observation's flag.
    @usableFromInline let _endsStarted: UnsafeMutablePointer<Int>

    @usableFromInline
    init() {
        _state = .allocate(capacity: 1)
        _state.initialize(to: _DeliveryState())
        _endsStarted = .allocate(capacity: 1)
        _endsStarted.initialize(to: 0)
    }

    deinit {
        _state.deinitialize(count: 1)
        _state.deallocate()
        _endsStarted.deallocate()
    }

    /// The value of `_endsStarted` under which no flag needs reading, or -1 if every flag must be
    /// read (an ended observation may still be in the table). Call under the lock.
    @inlinable
    final func _cleanEndsBaseline() -> Int {
        let started = _messaging_counter_load(_endsStarted)
        return started == _state.pointee.endsApplied ? started : -1
    }

    /// The number of active observations.
    var observationCount: Int { _lock.withLock { _state.pointee.liveCount } }

    // MARK: Sending

    /// Sends `message`: delivers it now, or queues it behind a running delivery.
    ///
    /// - Parameters:
    ///   - shouldDeliver: Evaluated once, outside the lock, right before delivery.
    ///   - isolation: The actor of the sender; handlers isolated to it run synchronously.
    /// - Complexity: O(*n*) for *n* observations; O(1) when the message is queued.
    @inlinable
    final func send(
        _ message: Message,
        author: AnyObject,
        shouldDeliver: ((Message) -> Bool)?,
        isolation: (any Actor)?
    ) {
        sendChange(author: author, shouldDeliver: shouldDeliver, isolation: isolation) { message }
    }

    /// Makes a message from state that `produce` changes under the lock, and sends it.
    ///
    /// The change and the numbering of the message are one atomic step, so messages describing
    /// successive changes go out in the order of the changes, whichever threads make them.
    /// `produce` is library code that only moves values; it must not call out to user code.
    @inlinable
    final func sendChange(
        author: AnyObject,
        shouldDeliver: ((Message) -> Bool)?,
        isolation: (any Actor)?,
        _ produce: () -> Message
    ) {
        _lock.lock()
        let message = produce()
        let start = _state.pointee.send(message, author: author, shouldDeliver: shouldDeliver)
        let baseline = _cleanEndsBaseline()
        _lock.unlock()
        guard let (table, sequence) = start else { return }
        if shouldDeliver?(message) ?? true {
            _deliver(message, author: author, sequence: sequence, to: table, baseline, isolation)
        }
        _drainQueue(isolation: isolation)
    }

    /// Delivers the messages queued while this thread was delivering, until the queue is empty.
    @inlinable
    final func _drainQueue(isolation: (any Actor)?) {
        while true {
            _lock.lock()
            let (next, retired) = _state.pointee.finishDelivery()
            let baseline = _cleanEndsBaseline()
            _lock.unlock()
            // Tables retired during the delivery are released here, outside the lock.
            _ = consume retired
            guard let next else { return }
            _deliverQueued(next, baseline, isolation: isolation)
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
        if let shouldDeliver = envelope.shouldDeliver, !shouldDeliver(envelope.message) { return }
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
        _lock.withLock {
            if observation._isActive { _state.pointee.insert(observation) }
        }
    }

    /// Removes an observation from the delivery table; the caller keeps it alive.
    func remove(_ observation: _Observation<Message>) {
        _lock.withLock { _state.pointee.remove(observation) }
    }

    /// Empties the delivery table; the result is released by the caller, outside the lock.
    func removeAll() -> _ObservationTable<Message> {
        _lock.withLock { _state.pointee.removeAll() }
    }
}
