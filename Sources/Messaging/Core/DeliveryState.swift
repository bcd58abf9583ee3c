/// A message on its way, with what delivery needs to know about it.
@usableFromInline
struct _Envelope<Message> {
    @usableFromInline var message: Message
    @usableFromInline var author: AnyObject
    /// Messages are numbered when sent; an observation only receives numbers from its
    /// `_firstSequence` on, so an observer added after a send never receives that message.
    @usableFromInline var sequence: UInt64
    /// Checked once, outside the lock, just before delivery; `false` drops the message.
    @usableFromInline var shouldDeliver: ((Message) -> Bool)?

    @inlinable
    init(message: Message, author: AnyObject, sequence: UInt64, shouldDeliver: ((Message) -> Bool)?) {
        self.message = message
        self.author = author
        self.sequence = sequence
        self.shouldDeliver = shouldDeliver
    }
}

/// One queued message and the observers it goes to, once its turn has come.
@usableFromInline
struct _Delivery<Message> {
    @usableFromInline var envelope: _Envelope<Message>
    /// The delivery table as it was when this message's turn came: a copy-on-write snapshot, so
    /// taking it costs one retain and changes made during the delivery never disturb it.
    @usableFromInline var observations: ContiguousArray<_Observation<Message>?>

    @inlinable
    init(envelope: _Envelope<Message>, observations: ContiguousArray<_Observation<Message>?>) {
        self.envelope = envelope
        self.observations = observations
    }
}

/// The rules of delivery, as a value type that knows nothing of threads or locks.
///
/// ``Messenger`` runs every mutating method inside its lock and performs the returned delivery
/// after unlocking. The rules:
/// - one delivery at a time per messenger; a message sent while one is running (re-entrantly from
///   a handler, or from another thread) is queued and delivered after it, first in, first out;
/// - every message goes to the observations in the order they were added;
/// - an observation added while messages are queued receives only those sent after it was added.
///
/// No method releases the last reference to an observation or a message: whatever leaves the
/// state is returned, so that its `deinit` runs after the caller has unlocked.
@usableFromInline
struct _DeliveryState<Message> {
    @usableFromInline var observations: ContiguousArray<_Observation<Message>?> = []
    @usableFromInline var liveCount = 0
    /// How many ended observations have been taken out of the table (or were never put in). When
    /// it equals the core's `_endsStarted`, no ended observation is left in the table.
    @usableFromInline var endsApplied = 0
    @usableFromInline var _nextSequence: UInt64 = 0
    @usableFromInline var isDelivering = false
    /// Queued messages; delivered ones are moved out, leaving `nil`, until the queue drains.
    @usableFromInline var _queue: [_Envelope<Message>?] = []
    @usableFromInline var _queueHead = 0

    @inlinable
    init() {}

    /// Numbers the message, and either starts delivering it or queues it.
    ///
    /// - Returns: The snapshot of observations and the message's number if the caller should
    ///   deliver it now; `nil` if it was queued behind a running delivery (only then is the message
    ///   stored, so the common case copies and retains nothing).
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func send(
        _ message: Message,
        author: AnyObject,
        shouldDeliver: ((Message) -> Bool)?
    ) -> (observations: ContiguousArray<_Observation<Message>?>, sequence: UInt64)? {
        let sequence = _nextSequence
        _nextSequence &+= 1
        if isDelivering {
            _queue.append(
                _Envelope(message: message, author: author, sequence: sequence, shouldDeliver: shouldDeliver)
            )
            return nil
        }
        isDelivering = true
        return (observations, sequence)
    }

    /// Called when a delivery finished: the next queued message, or `nil` when the queue is empty
    /// (and the messenger is idle again).
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func finishDelivery() -> _Delivery<Message>? {
        guard _queueHead < _queue.count else {
            isDelivering = false
            if !_queue.isEmpty {
                // Every element was moved out already: this frees only the buffer.
                _queue.removeAll(keepingCapacity: _queue.count <= 64)
                _queueHead = 0
            }
            return nil
        }
        let envelope = _queue[_queueHead].take().unsafelyUnwrapped
        _queueHead += 1
        return _Delivery(envelope: envelope, observations: observations)
    }

    /// Adds an observation at the end of the delivery order.
    ///
    /// - Complexity: O(1) amortized (O(*n*) once if a delivery holds a snapshot of the table).
    @inlinable
    mutating func insert(_ observation: _Observation<Message>) {
        observation._firstSequence = _nextSequence
        observation._slot = observations.count
        observations.append(observation)
        liveCount += 1
    }

    /// Removes an ended observation if it is still in the table, and counts its end as applied.
    ///
    /// Called exactly once for each observation that ended while its messenger lives. The caller
    /// keeps its own reference to `observation`, so this never frees it.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func remove(_ observation: _Observation<Message>) {
        endsApplied &+= 1
        let slot = observation._slot
        guard slot >= 0, slot < observations.count, observations[slot] === observation else { return }
        observations[slot] = nil
        observation._slot = -1
        liveCount -= 1
        if observations.count > 32, liveCount * 2 < observations.count { _compact() }
    }

    /// Empties the table and returns what it held, for release outside the lock.
    @inlinable
    mutating func removeAll() -> ContiguousArray<_Observation<Message>?> {
        var removed: ContiguousArray<_Observation<Message>?> = []
        swap(&removed, &observations)
        liveCount = 0
        for case let observation? in removed { observation._slot = -1 }
        return removed
    }

    /// Closes the holes in place, keeping the order; no element is copied or released.
    @inlinable
    mutating func _compact() {
        var write = 0
        for read in observations.indices {
            guard let observation = observations[read] else { continue }
            if read != write {
                observations.swapAt(write, read)
                observation._slot = write
            }
            write += 1
        }
        observations.removeLast(observations.count - write)
    }
}
