/// A message on its way, with what delivery needs to know about it.
@usableFromInline
struct _Envelope<Message> {
    @usableFromInline var message: Message
    @usableFromInline var author: AnyObject
    /// Messages are numbered when sent; an observation only receives numbers from its
    /// `_firstSequence` on, so an observer added after a send never receives that message.
    @usableFromInline var sequence: UInt64
    /// Whether the core's `_isUnchanged` may drop the message, just before delivery.
    @usableFromInline var checksChange: Bool

    @inlinable
    init(message: Message, author: AnyObject, sequence: UInt64, checksChange: Bool) {
        self.message = message
        self.author = author
        self.sequence = sequence
        self.checksChange = checksChange
    }
}

/// One queued message and the observers it goes to, once its turn has come.
@usableFromInline
struct _Delivery<Message> {
    @usableFromInline var envelope: _Envelope<Message>
    /// The delivery table as it was when this message's turn came; see `_ObservationTable`.
    @usableFromInline var table: Unmanaged<_ObservationTable<Message>>

    @inlinable
    init(envelope: _Envelope<Message>, table: Unmanaged<_ObservationTable<Message>>) {
        self.envelope = envelope
        self.table = table
    }
}

/// The delivery table: the observations in delivery order, with `nil` holes where some ended.
///
/// A delivery reads the table without retaining it, and the state never changes a table that a
/// delivery is reading: the first change during a delivery moves that table to a retired list
/// (which keeps it alive) and continues on a copy; the retired table is released when the
/// delivery finishes, outside the lock. The common case, a send while nothing changes, thus costs
/// no reference counting at all. The header is the number of slots in use.
@usableFromInline
final class _ObservationTable<Message>: ManagedBuffer<Int, _Observation<Message>?> {
    /// A table with room for at least `capacity` slots, none in use.
    @inlinable
    static func make(capacity: Int) -> _ObservationTable<Message> {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in 0 }, to: _ObservationTable<Message>.self)
    }

    deinit {
        withUnsafeMutablePointers { count, slots in
            _ = slots.deinitialize(count: count.pointee)
        }
    }

    /// A new table holding the same slots, with room for at least `capacity`.
    @inlinable
    func copy(capacity: Int) -> _ObservationTable<Message> {
        let copy = Self.make(capacity: Swift.max(capacity, header))
        withUnsafeMutablePointers { count, slots in
            copy.withUnsafeMutablePointers { copyCount, copySlots in
                copySlots.initialize(from: slots, count: count.pointee)
                copyCount.pointee = count.pointee
            }
        }
        return copy
    }
}

/// What the messenger does after ``_DeliveryState/send(_:author:checksChange:)``.
@usableFromInline
enum _SendAction<Message> {
    /// Deliver the message now, to this table (read unretained: the state keeps it alive and
    /// unchanged until ``_DeliveryState/finishDelivery()``).
    case deliver(table: Unmanaged<_ObservationTable<Message>>, sequence: UInt64)
    /// A delivery is running; it will deliver the message, in order.
    case queued
    /// Nobody has ever observed the messenger: there is nobody to deliver to, now or later.
    case dropped
}

/// What the messenger does after ``_DeliveryState/finishDelivery()``.
@usableFromInline
enum _FinishAction<Message> {
    /// Deliver the next queued message; release the retired tables after unlocking.
    case deliverNext(_Delivery<Message>, retired: [_ObservationTable<Message>])
    /// The messenger is idle; release the retired tables, and any queued messages that could not
    /// be delivered because the messenger died meanwhile, after unlocking.
    case idle(retired: [_ObservationTable<Message>], discarded: [_Envelope<Message>?] = [])
}

/// Where a messenger is: states that exclude each other.
@usableFromInline
enum _DeliveryPhase {
    /// No delivery runs.
    case idle
    /// A delivery runs and reads the current table, which must therefore not change in place.
    case deliveringFromTable
    /// A delivery runs and reads a table that was retired meanwhile; the current one is its own.
    case deliveringFromRetiredTable
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
    /// `nil` until the first observation: a messenger nobody observes allocates no table.
    @usableFromInline var _table: _ObservationTable<Message>?
    /// The table; only where `_table` is known to exist.
    @inlinable
    var table: _ObservationTable<Message> {
        get { _table.unsafelyUnwrapped }
        set { _table = newValue }
    }
    /// For a variable's messenger, see `_MessengerCore._isUnchanged`. Set once, at creation.
    @usableFromInline var isUnchanged: ((Message) -> Bool)?
    @usableFromInline var phase = _DeliveryPhase.idle
    /// Tables that deliveries were reading when the state moved on; released after the delivery.
    @usableFromInline var retiredTables: [_ObservationTable<Message>] = []
    @usableFromInline var liveCount = 0
    /// How many ended observations have been taken out of the table (or were never put in). When
    /// it equals the core's `_endsStarted`, no ended observation is left in the table.
    @usableFromInline var endsApplied = 0
    @usableFromInline var _nextSequence: UInt64 = 0
    /// Queued messages; delivered ones are moved out, leaving `nil`, until the queue drains.
    @usableFromInline var _queue: [_Envelope<Message>?] = []
    @usableFromInline var _queueHead = 0

    @inlinable
    init() {}

    /// Numbers the message, and either starts delivering it, queues it, or drops it.
    ///
    /// Only a queued message is stored, so the common case copies and retains nothing.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func send(_ message: Message, author: AnyObject, checksChange: Bool) -> _SendAction<Message> {
        let sequence = _nextSequence
        _nextSequence &+= 1
        guard let table = _table else { return .dropped }
        guard case .idle = phase else {
            _queue.append(
                _Envelope(message: message, author: author, sequence: sequence, checksChange: checksChange)
            )
            return .queued
        }
        phase = .deliveringFromTable
        return .deliver(table: Unmanaged.passUnretained(table), sequence: sequence)
    }

    /// Called when a delivery finished: hands out the next queued message, or makes the messenger
    /// idle; either way with the tables retired during the delivery, for release after unlocking.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func finishDelivery() -> _FinishAction<Message> {
        var retired: [_ObservationTable<Message>] = []
        swap(&retired, &retiredTables)
        guard _queueHead < _queue.count, _table != nil else {
            phase = .idle
            var discarded: [_Envelope<Message>?] = []
            if _queueHead < _queue.count {
                // The messenger died during the delivery: nobody is left to deliver to.
                swap(&discarded, &_queue)
            } else if !_queue.isEmpty {
                // Every element was moved out already: this frees only the buffer.
                _queue.removeAll(keepingCapacity: _queue.count <= 64)
            }
            _queueHead = 0
            return .idle(retired: retired, discarded: discarded)
        }
        let envelope = _queue[_queueHead].take().unsafelyUnwrapped
        _queueHead += 1
        if _queueHead > 64, _queueHead * 2 > _queue.count {
            // Under sustained sending the queue may never run empty: drop the delivered prefix,
            // which holds only `nil`s, so that it does not grow for as long as the senders go on.
            _queue.removeFirst(_queueHead)
            _queueHead = 0
        }
        phase = .deliveringFromTable
        return .deliverNext(_Delivery(envelope: envelope, table: Unmanaged.passUnretained(table)), retired: retired)
    }

    /// Makes `table` safe to change: if a delivery is reading it, retires it and continues on a
    /// copy with room for at least `capacity` slots.
    @inlinable
    mutating func _prepareToChange(capacity: Int) {
        if case .deliveringFromTable = phase {
            let copy = table.copy(capacity: capacity)
            retiredTables.append(table)
            table = copy
            phase = .deliveringFromRetiredTable
        } else if table.capacity < capacity {
            let grown = _ObservationTable<Message>.make(capacity: Swift.max(capacity, table.capacity * 2))
            table.withUnsafeMutablePointers { count, slots in
                grown.withUnsafeMutablePointers { grownCount, grownSlots in
                    grownSlots.moveInitialize(from: slots, count: count.pointee)
                    grownCount.pointee = count.pointee
                    count.pointee = 0
                }
            }
            // The old table now holds nothing: releasing it frees only its memory.
            table = grown
        }
    }

    /// Adds an observation at the end of the delivery order.
    ///
    /// - Complexity: O(1) amortized (O(*n*) once if a delivery is reading the table).
    @inlinable
    mutating func insert(_ observation: _Observation<Message>) {
        if _table == nil { _table = .make(capacity: 4) }
        _prepareToChange(capacity: table.header + 1)
        observation._firstSequence = _nextSequence
        table.withUnsafeMutablePointers { count, slots in
            observation._slot = count.pointee
            (slots + count.pointee).initialize(to: observation)
            count.pointee += 1
        }
        liveCount += 1
    }

    /// Removes an ended observation if it is still in the table, and counts its end as applied.
    ///
    /// Called exactly once for each observation that ended while its messenger lives. The caller
    /// keeps its own reference to `observation`, so this never frees it.
    ///
    /// - Complexity: O(1) amortized (O(*n*) once if a delivery is reading the table).
    @inlinable
    mutating func remove(_ observation: _Observation<Message>) {
        endsApplied &+= 1
        guard _table != nil else { return }
        let slot = observation._slot
        let isInTable = table.withUnsafeMutablePointers { count, slots in
            slot >= 0 && slot < count.pointee && slots[slot] === observation
        }
        guard isInTable else { return }
        _prepareToChange(capacity: table.header)
        table.withUnsafeMutablePointers { _, slots in slots[slot] = nil }
        observation._slot = -1
        liveCount -= 1
        if table.header > 32, liveCount * 2 < table.header { _compact() }
    }

    /// Empties the table and returns it, for release outside the lock.
    @inlinable
    mutating func removeAll() -> _ObservationTable<Message>? {
        var removed: _ObservationTable<Message>?
        swap(&removed, &_table)
        liveCount = 0
        if case .deliveringFromTable = phase, let removed {
            // A delivery still reads it: it stays alive until that delivery finishes.
            retiredTables.append(removed)
            phase = .deliveringFromRetiredTable
        }
        removed?.withUnsafeMutablePointers { count, slots in
            for index in 0..<count.pointee { slots[index]?._slot = -1 }
        }
        return removed
    }

    /// Closes the holes, keeping the order; no element is copied or released.
    @inlinable
    mutating func _compact() {
        _prepareToChange(capacity: table.header)
        table.withUnsafeMutablePointers { count, slots in
            var write = 0
            for read in 0..<count.pointee {
                guard let observation = slots[read] else { continue }
                if read != write {
                    (slots + write).moveUpdate(from: slots + read, count: 1)
                    (slots + read).initialize(to: nil)
                    observation._slot = write
                }
                write += 1
            }
            // Everything past `write` is `nil` now.
            (slots + write).deinitialize(count: count.pointee - write)
            count.pointee = write
        }
    }
}
