/// One element of the array a ``FollowedElements`` follows: the observable property it leads to,
/// the property's value as the view last reported it, and the observation of the property. It does
/// not hold the element.
///
/// Every mutable field is guarded by the lock of the ``_FollowEachState`` that made it, except the
/// first write of `value`, made before the slot is reachable from another thread or under the
/// property's messenger lock in the step that starts its observation (which orders it before every
/// delivery to the slot).
final class _FollowEachSlot<Property: ObservableCache, Value: Equatable & Sendable>: _IndexHintedSlot,
    _PropertySlot, @unchecked Sendable
where Property.Message == Update<Value> {  // guarded by the state's `_lock`
    /// Held so that a property made on demand lives as long as its observation.
    let property: Property
    /// The value: as read when the observation started, then following each update.
    @exclusivity(unchecked) var value: Value?
    /// Whether the slot is in the state's list (its updates are reported); before that, updates
    /// are stored silently, and the insertion that installs the slot reports the value.
    @exclusivity(unchecked) var isInstalled = false
    /// Whether the slot left the list, or was never installed: its updates are ignored.
    @exclusivity(unchecked) var isDead = false
    /// The observation of the property; taken when the slot dies, and ended outside the lock.
    @exclusivity(unchecked) var observation: _Observation<Update<Value>>?

    init(property: Property) {
        self.property = property
    }

    /// The value of an installed slot. Call under the state's lock.
    var installedValue: Value {
        guard let value else {
            preconditionFailure("FollowedElements: a slot is installed before its value is read")
        }
        return value
    }
}

/// Where a change of the array lands: a modification's offset and number of removed elements, and
/// the slots of the elements it inserts (their observations started). It holds no element.
struct _FollowEachEdit<Property: ObservableCache, Value: Equatable & Sendable>: _SlotEdit, @unchecked Sendable
where Property.Message == Update<Value> {  // the slots are guarded by the state's `_lock`
    var offset: Int
    var oldCount: Int
    var slots: [_FollowEachSlot<Property, Value>]
}

/// The state of a ``FollowedElements`` while it is observed: one slot per element of the array, in
/// order, and the outbox that sends the view's changes in the order they were made.
///
/// Every field is guarded by `_lock`. Lock order: no array's or property's lock is held while this
/// one is taken, and none is taken under it; no user code runs (`select`, `==`) and no value or
/// property is released under it.
final class _FollowEachState<Property: ObservableCache, Value: Equatable & Sendable>: @unchecked Sendable
where Property.Message == Update<Value> {  // guarded by `_lock`
    typealias Slot = _FollowEachSlot<Property, Value>
    typealias Edit = _FollowEachEdit<Property, Value>

    let _lock = _Lock()
    let _outbox: _Outbox<ArrayChange<Value>>
    /// The slots, in the order of the array; `nil` while not observed or seeding.
    @exclusivity(unchecked) var _slots: [Slot]?
    @exclusivity(unchecked) var _isSeeding = false
    /// The array's changes that arrived during the seeding: their edits, counts and authors.
    @exclusivity(unchecked) var _queued: [(edits: [Edit], countBefore: Int, author: AnyObject)] = []
    /// Counts the starts and ends of the observation, so that work prepared for an older one is
    /// dropped.
    @exclusivity(unchecked) var _epoch: UInt64 = 0

    init(core: _MessengerCore<ArrayChange<Value>>) {
        _outbox = _Outbox(core: core, lock: _lock)
    }

    /// The epoch of the current observation, for work prepared outside the lock.
    var epoch: UInt64 { _lock.withLock { _epoch } }

    /// The values while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(*n*).
    var currentContents: [Value]? {
        _lock.withLock {
            guard !_isSeeding, let slots = _slots else { return nil }
            return slots.map(\.installedValue)
        }
    }

    /// The number of values while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(1).
    var currentCount: Int? {
        _lock.withLock {
            guard !_isSeeding, let slots = _slots else { return nil }
            return slots.count
        }
    }

    /// Starts a seeding: the array's changes are queued until
    /// ``finishSeeding(_:epoch:isolation:)``. Call before the observation of the array starts, so
    /// that no change it delivers can come before the seeding.
    func beginSeeding() -> UInt64 {
        let (epoch, slots, queued) = _lock.withLock {
            _epoch &+= 1
            _isSeeding = true
            defer {
                _slots = nil
                _queued = []
            }
            return (_epoch, _slots, _queued)
        }
        _endSlots(slots ?? [])
        _endSlots(queued.flatMap { $0.edits.flatMap(\.slots) })
        return epoch
    }

    /// Installs the slots of the contents read at the start, then the changes that arrived
    /// meanwhile, which it sends. Drops them all if a newer start or an end came first.
    func finishSeeding(_ slots: [Slot], epoch: UInt64, isolation: (any Actor)?) {
        var dropped: [Slot] = []
        var removed: [Slot] = []
        var queued: [(edits: [Edit], countBefore: Int, author: AnyObject)] = []
        let runs = _lock.withLock { () -> Bool in
            guard _epoch == epoch, _isSeeding else {
                dropped = slots
                return false
            }
            for slot in slots { slot.isInstalled = true }
            slots._hintAll()
            _slots = slots
            _isSeeding = false
            swap(&queued, &_queued)
            var runs = false
            for change in queued {
                if _post(change.edits, countBefore: change.countBefore, author: change.author, removed: &removed) {
                    runs = true
                }
            }
            return runs
        }
        _endSlots(dropped)
        _endSlots(removed)
        withExtendedLifetime(queued) {}  // the authors are released here, outside the lock
        if runs { _outbox.send(isolation: isolation) }
    }

    /// Applies a change of the array (its `edits`, whose inserted slots are observed) and sends the
    /// view's change; queues it during a seeding; drops it if `epoch` is over.
    func arrayChanged(
        _ edits: [Edit], countBefore: Int, author: AnyObject, epoch: UInt64, isolation: (any Actor)?
    ) {
        var removed: [Slot] = []
        let runs = _lock.withLock { () -> Bool in
            guard _epoch == epoch else {
                removed = edits.flatMap(\.slots)
                return false
            }
            if _isSeeding {
                _queued.append((edits, countBefore, author))
                return false
            }
            guard _slots != nil else {
                removed = edits.flatMap(\.slots)
                return false
            }
            return _post(edits, countBefore: countBefore, author: author, removed: &removed)
        }
        _endSlots(removed)
        if runs { _outbox.send(isolation: isolation) }
    }

    /// Reports the property of `slot` changing to `new`: a replacement at the slot's index, or
    /// nothing if it equals the value the view holds.
    ///
    /// The updates of one slot's observation never overlap, and only they change its value once
    /// it is installed, so the value read before comparing is still the slot's when it is replaced.
    ///
    /// - Complexity: O(*d*) to find the slot's index among *n* slots, for a slot *d* places from
    ///   where it was last found (O(*n*) at most), and one `==`.
    func propertyChanged(_ new: Value, of slot: Slot, author: AnyObject, isolation: (any Actor)?) {
        var stored: Value?
        let old = _lock.withLock { () -> Value? in
            guard !slot.isDead else { return nil }
            guard slot.isInstalled else {
                // Not installed yet: the insertion that installs it reports the value as it is then.
                stored = new
                swap(&stored, &slot.value)
                return nil
            }
            return slot.value
        }
        withExtendedLifetime(stored) {}  // the replaced value is released here, outside the lock
        guard let old, old != new else { return }
        let runs = _lock.withLock { () -> Bool in
            guard !slot.isDead, let index = _index(of: slot) else { return false }
            slot.value = new
            var change = ArrayChange<Value>(countBefore: _slots?.count ?? 0)
            change._old.append(old)
            change._new.append(new)
            change._closeSpan(at: index)
            return _outbox.post(change, author: author)
        }
        if runs { _outbox.send(isolation: isolation) }
    }

    /// Applies a change of the array to the slots and posts the view's change. Call under the lock.
    ///
    /// - Complexity: O(*n*) for the slots after the first edit (moving them), plus O(*k*) for *k*
    ///   elements removed and inserted.
    func _post(_ edits: [Edit], countBefore: Int, author: AnyObject, removed: inout [Slot]) -> Bool {
        guard var slots = _slots.take() else { return false }
        precondition(
            slots.count == countBefore,
            "FollowedElements: a change of \(countBefore) elements does not follow the \(slots.count) the view knows")
        var change = ArrayChange<Value>(countBefore: countBefore)
        for edit in edits {
            for slot in slots[edit.offset..<(edit.offset + edit.oldCount)] {
                change._old.append(slot.installedValue)
            }
            for slot in edit.slots {
                slot.isInstalled = true
                change._new.append(slot.installedValue)
            }
            change._closeSpan(at: edit.offset)
        }
        for edit in edits.reversed() {
            let range = edit.offset..<(edit.offset + edit.oldCount)
            for slot in slots[range] {
                slot.isDead = true
                removed.append(slot)
            }
            slots.replaceSubrange(range, with: edit.slots)
        }
        Array._hintInserted(by: edits)
        _slots = slots
        guard !change.isEmpty else { return false }
        return _outbox.post(change, author: author)
    }

    /// The index of `slot` among the slots, searched from where it was last found. Call under
    /// the lock.
    ///
    /// - Complexity: O(*d*) for an element *d* places away from where it was last found; O(*n*)
    ///   at most.
    func _index(of slot: Slot) -> Int? {
        _slots?._index(ofHinted: slot)
    }

    /// Ends the observations and forgets the slots once the view is no longer observed.
    func forgetIfUnobserved(_ isUnobserved: () -> Bool) {
        let forgotten: ([Slot]?, [(edits: [Edit], countBefore: Int, author: AnyObject)]) = _lock.withLock {
            guard isUnobserved() else { return (nil, []) }
            _epoch &+= 1
            _isSeeding = false
            defer {
                _slots = nil
                _queued = []
            }
            return (_slots, _queued)
        }
        _endSlots(forgotten.0 ?? [])
        _endSlots(forgotten.1.flatMap { $0.edits.flatMap(\.slots) })
    }

    /// Marks the slots dead and ends their observations. Call without the lock.
    func _endSlots(_ slots: [Slot]) {
        _endObservations(of: slots) { body in _lock.withLock(body) }
    }
}
