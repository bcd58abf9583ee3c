import GeneralObserver
import _MessagingShims

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
///
/// Only what every send needs lives here, in the core's own allocation; the rest waits in
/// ``_CoreExtras`` until first needed.
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
    /// `nil` until first needed: see ``_CoreExtras``.
    @usableFromInline var _extras: _CoreExtras<Message>?
    /// The active observations in the table, not counting silent ones (see
    /// ``_CoreExtrasFields/silentCount``).
    @usableFromInline var liveCount = 0
    /// How many ended observations have been taken out of the table (or were never put in). When
    /// it equals the core's `_endsStarted`, no ended observation is left in the table.
    @usableFromInline var endsApplied = 0
    /// Last, so that the core can put its lock word in the padding after it.
    @usableFromInline var phase = _DeliveryPhase.idle

    @inlinable
    init() {}

    /// The extras, made if they do not exist yet.
    @inlinable
    mutating func _madeExtras() -> UnsafeMutablePointer<_CoreExtrasFields<Message>> {
        if let extras = _extras { return extras._fields }
        let extras = _CoreExtras<Message>.make()
        _extras = extras
        return extras._fields
    }

    /// How many messages were ever queued: the sequence number of the next queued message.
    @inlinable
    var _queuedCount: UInt64 { _extras?._fields.pointee.queuedCount ?? 0 }

    /// Starts delivering the message, queues it, or drops it.
    ///
    /// A message delivered at once needs no number: it goes to the table as it is now, which holds
    /// exactly the observations added before it. Only a queued message is numbered and stored, so
    /// the common case copies and retains nothing.
    ///
    /// - Parameters:
    ///   - isUnchanged: Stored with a queued message, to be run right before its delivery.
    ///   - standIn: The messenger, which a queued message keeps as its author instead of an author
    ///     that is being deinitialized (see `_authorToKeep`).
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func send(
        _ message: Message,
        author: AnyObject,
        isUnchanged: ((Message) -> Bool)?,
        standIn: AnyObject? = nil
    ) -> _SendAction<Message> {
        // No reference to the table is held across `_enqueue`, which would have to retain it:
        // that write would bounce the table's first cache line away from the thread delivering.
        guard _table != nil else { return .dropped }
        guard case .idle = phase else {
            _enqueue(message, author: author, isUnchanged: isUnchanged, standIn: standIn)
            return .queued
        }
        phase = .deliveringFromTable
        return .deliver(table: Unmanaged.passUnretained(table))
    }

    /// Queues a message behind the running delivery. Kept out of line, so that the common case of
    /// ``send(_:author:isUnchanged:)`` stays small enough to inline.
    ///
    /// The message keeps its author alive until its delivery, unless the author is being
    /// deinitialized (it sends from its `deinit`): then `standIn` is kept instead, or the message
    /// is dropped if `standIn` is being deinitialized too.
    @inlinable @inline(never)
    mutating func _enqueue(
        _ message: Message,
        author: AnyObject,
        isUnchanged: ((Message) -> Bool)?,
        standIn: AnyObject?
    ) {
        guard let author = _authorToKeep(author, standIn: standIn) else { return }
        let extras = _madeExtras()
        extras.pointee.queue.append(
            _Envelope(message: message, author: author, sequence: extras.pointee.queuedCount, isUnchanged: isUnchanged)
        )
        extras.pointee.queuedCount &+= 1
    }

    /// Called when a delivery finished: hands out the next queued message, or makes the messenger
    /// idle; either way with the table retired during the delivery, if any, for release after
    /// unlocking.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func finishDelivery() -> _FinishAction<Message> {
        if let extras = _extras?._fields, extras.pointee.retired != nil || !extras.pointee.queue.isEmpty {
            return _finishDelivery(extras)
        }
        // Nothing was queued or retired since the queue last ran empty: the common case.
        phase = .idle
        return .idle
    }

    /// Makes the messenger idle if nothing was queued or retired during the delivery that just
    /// finished, and says whether it did; otherwise changes nothing, and the caller goes on with
    /// ``finishDelivery()``. Small enough to inline into every send.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    mutating func finishQuietDelivery() -> Bool {
        if let extras = _extras?._fields, extras.pointee.retired != nil || !extras.pointee.queue.isEmpty {
            return false
        }
        phase = .idle
        return true
    }

    /// ``finishDelivery()`` when a table was retired or the queue is not empty (it may hold only
    /// the `nil`s of delivered messages, and is emptied here once the last one is delivered).
    @inlinable @inline(never)
    mutating func _finishDelivery(
        _ extras: UnsafeMutablePointer<_CoreExtrasFields<Message>>
    ) -> _FinishAction<Message> {
        let retired = extras.pointee.retired.take()
        guard extras.pointee.queueHead < extras.pointee.queue.count, let table = _table else {
            phase = .idle
            var discarded: [_Envelope<Message>?] = []
            if extras.pointee.queueHead < extras.pointee.queue.count {
                // The messenger died during the delivery: nobody is left to deliver to.
                swap(&discarded, &extras.pointee.queue)
            } else if !extras.pointee.queue.isEmpty {
                // Every element was moved out already. A small buffer stays for the next burst; a
                // large one is given back, whatever count the queue ended with: under sustained
                // sending the delivered prefix is dropped as it goes, so a short queue may sit in
                // the buffer of the longest burst ever seen.
                extras.pointee.queue.removeAll(
                    keepingCapacity: extras.pointee.queue.capacity <= Self._keptQueueCapacity)
            }
            extras.pointee.queueHead = 0
            return .idleReleasing(retired: retired, discarded: discarded)
        }
        let envelope = extras.pointee.queue[extras.pointee.queueHead].take().unsafelyUnwrapped
        extras.pointee.queueHead += 1
        if extras.pointee.queueHead > 64, extras.pointee.queueHead * 2 > extras.pointee.queue.count {
            // Under sustained sending the queue may never run empty: drop the delivered prefix,
            // which holds only `nil`s, so that it does not grow for as long as the senders go on.
            if extras.pointee.queueHead == extras.pointee.queue.count {
                // That was the last one: the queue is empty now, and gives its memory back as
                // below.
                extras.pointee.queue.removeAll(
                    keepingCapacity: extras.pointee.queue.capacity <= Self._keptQueueCapacity)
            } else {
                extras.pointee.queue.removeFirst(extras.pointee.queueHead)
            }
            extras.pointee.queueHead = 0
        }
        phase = .deliveringFromTable
        return .deliverNext(_Delivery(envelope: envelope, table: Unmanaged.passUnretained(table)), retired: retired)
    }

    /// The largest queue buffer kept once the queue has drained: enough for the short bursts of
    /// re-entrant sends, without holding the memory of a flood for the messenger's life.
    @inlinable
    static var _keptQueueCapacity: Int { 64 }

    /// Keeps `table`, which the running delivery reads, alive until that delivery finishes.
    @inlinable
    mutating func _retire(_ table: _ObservationTable<Message>) {
        let extras = _madeExtras()
        // Only a delivery that reads the current table retires it, once: nothing is replaced here.
        assert(extras.pointee.retired == nil)
        extras.pointee.retired = table
        phase = .deliveringFromRetiredTable
    }

    /// Makes `table` safe to change: if a delivery is reading it, retires it and continues on a
    /// copy with room for at least `capacity` slots.
    @inlinable
    mutating func _prepareToChange(capacity: Int) {
        if case .deliveringFromTable = phase {
            let copy = table.copy(capacity: capacity)
            _retire(table)
            table = copy
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
    /// - Returns: The registered owner, when this is the only active observation: it is now kept
    ///   alive, and must be told (after unlocking) that it is observed.
    /// - Complexity: O(1) amortized (O(*n*) once if a delivery is reading the table).
    @inlinable @discardableResult
    mutating func insert(_ observation: _Observation<Message>) -> (any _ObservedOwner)? {
        // Room for one: most observables have a single observer (a view and its variable), and a
        // table of one is 24 bytes smaller than one of four. Growth doubles, so a table that
        // reaches n slots was copied about log2(n) times.
        if _table == nil { _table = .make(capacity: 1) }
        _prepareToChange(capacity: table._count + 1)
        observation._firstSequence = _queuedCount
        table.withUnsafeMutablePointers { count, slots in
            observation._slot = count.pointee
            (slots + count.pointee).initialize(to: observation)
            count.pointee += 1
        }
        if observation._isSilent { return Self._countSilent(1, in: &self) }
        liveCount += 1
        // Most messengers have no extras: one branch on a field that is rarely set.
        guard liveCount == 1, let extras = _extras else { return nil }
        return Self._keepOwnerAlive(extras)
    }

    /// Counts a silent observation in or out: it keeps nobody alive.
    @inlinable @inline(never)
    static func _countSilent(_ change: Int, in state: inout _DeliveryState) -> (any _ObservedOwner)? {
        state._madeExtras().pointee.silentCount += change
        return nil
    }

    /// Holds the registered owner, if it lives, from the first active observation on.
    @inlinable @inline(never)
    static func _keepOwnerAlive(
        _ extras: _CoreExtras<Message>
    ) -> (any _ObservedOwner)? {
        let fields = extras._fields
        guard let owner = fields.pointee.owner else { return nil }
        fields.pointee.keptAlive = owner
        return owner
    }

    /// Adds an observation that receives `latest` first, then every message sent after it was
    /// added: one atomic step, so nothing sent meanwhile is missed or received twice.
    ///
    /// If no delivery runs, the caller becomes the delivering thread: no other message can reach
    /// the observation before the caller has delivered `latest` to it. Otherwise `latest` is queued
    /// for this observation alone, ahead of every message sent after it; or, if `postsToActor` (the
    /// observation's handler belongs to the caller's actor), handed back for the caller to post to
    /// the actor's queue before unlocking.
    ///
    /// - Returns: What to deliver, and the registered owner when this is the only active
    ///   observation (see ``insert(_:)``), for the caller to tell after unlocking.
    /// - Complexity: O(1) amortized (O(*n*) once if a delivery is reading the table).
    mutating func insertReplaying(
        _ observation: _Observation<Message>,
        latest: Message,
        author: AnyObject,
        postsToActor: Bool = false
    ) -> (_ReplayAction<Message>, owner: (any _ObservedOwner)?) {
        let owner = insert(observation)
        guard case .idle = phase else {
            // The replay is the observation's own first message: it need not wait for the running
            // delivery, which cannot reach the observation before the caller posts it.
            if postsToActor { return (.postToActor(latest), owner) }
            let extras = _madeExtras()
            extras.pointee.queue.append(
                _Envelope(
                    message: latest,
                    author: author,
                    sequence: extras.pointee.queuedCount,
                    isUnchanged: nil,
                    recipient: observation
                )
            )
            extras.pointee.queuedCount &+= 1
            return (.queued, owner)
        }
        // Delivering, though not from the table, which stays free to change.
        phase = .deliveringFromRetiredTable
        return (.deliver(latest), owner)
    }

    /// Removes an ended observation if it is still in the table, and counts its end as applied.
    ///
    /// Called exactly once for each observation that ended while its messenger lives. The caller
    /// keeps its own reference to `observation`, so this never frees it.
    ///
    /// - Returns: The owner kept alive, when this was the last active observation: the caller
    ///   tells it and releases it after unlocking.
    /// - Complexity: O(1) amortized (O(*n*) once if a delivery is reading the table).
    @inlinable @discardableResult
    mutating func remove(_ observation: _ObservationRecord) -> (any _ObservedOwner)? {
        endsApplied &+= 1
        guard _table != nil else { return nil }
        let slot = observation._slot
        let isInTable = table.withUnsafeMutablePointers { count, slots in
            slot >= 0 && slot < count.pointee && slots[slot] === observation
        }
        guard isInTable else { return nil }
        _prepareToChange(capacity: table._count)
        table.withUnsafeMutablePointers { _, slots in slots[slot] = nil }
        observation._slot = -1
        if observation._isSilent {
            _ = Self._countSilent(-1, in: &self)
        } else {
            liveCount -= 1
        }
        if table._count > 32, (liveCount + (_extras?._fields.pointee.silentCount ?? 0)) * 2 < table._count {
            _compact()
        }
        guard liveCount == 0, !observation._isSilent, let extras = _extras else { return nil }
        return extras._fields.pointee.keptAlive.take()
    }

    /// Empties the table and returns it, for release outside the lock. Messages still queued stay
    /// until the running delivery finishes, which discards them. An owner kept alive stays kept:
    /// take it with ``takeKeptOwner()``.
    @inlinable
    mutating func removeAll() -> _ObservationTable<Message>? {
        var removed: _ObservationTable<Message>?
        swap(&removed, &_table)
        liveCount = 0
        _extras?._fields.pointee.silentCount = 0
        if case .deliveringFromTable = phase, let removed {
            // A delivery still reads it: it stays alive until that delivery finishes.
            _retire(removed)
        }
        removed?.withUnsafeMutablePointers { count, slots in
            for index in 0..<count.pointee { slots[index]?._slot = -1 }
        }
        return removed
    }

    /// Takes out the owner kept alive, if any, for release outside the lock without telling it:
    /// after ``removeAll()``, when the messenger is going away.
    @inlinable
    mutating func takeKeptOwner() -> (any _ObservedOwner)? {
        _extras?._fields.pointee.keptAlive.take()
    }

    /// Closes the holes, keeping the order; no element is copied or released.
    @inlinable
    mutating func _compact() {
        _prepareToChange(capacity: table._count)
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
