/// One element of the array a ``PropertyFilteredArrayView`` filters: the element, the observable
/// property that says whether it is included, the property's value as the view last applied it,
/// and the observation of the property.
///
/// Every mutable field is guarded by the lock of the ``_PropertyFilterState`` that made it, except
/// the first write of `isIncluded`, made before the slot is reachable from another thread or under
/// the property's messenger lock in the step that starts its observation (which orders it before
/// every delivery to the slot).
final class _PropertyFilterSlot<Element: Sendable, Property: ObservableCache & Sendable>: _IndexHintedSlot,
    _PropertySlot, @unchecked Sendable
where Property.Message == Update<Bool> {  // guarded by the state's `_lock`
    let element: Element
    /// Held so that a property made on demand lives as long as its observation.
    let property: Property
    /// The property's value: as read when the observation started, then following each update.
    @exclusivity(unchecked) var isIncluded: Bool?
    /// Whether the slot is in the state's list (its updates are reported); before that, updates
    /// are stored silently, and the change that installs the slot reports the element if included.
    @exclusivity(unchecked) var isInstalled = false
    /// Whether the slot left the list, or was never installed: its updates are ignored.
    @exclusivity(unchecked) var isDead = false
    /// The observation of the property; taken when the slot dies, and ended outside the lock.
    @exclusivity(unchecked) var observation: _Observation<Update<Bool>>?

    init(element: Element, property: Property) {
        self.element = element
        self.property = property
    }

    /// Whether an installed slot is included. Call under the state's lock.
    var installedBit: Bool {
        guard let isIncluded else {
            preconditionFailure("PropertyFilteredArrayView: a slot is installed before its property is read")
        }
        return isIncluded
    }
}

/// Where a change of the array lands: a modification's offset and number of removed elements, and
/// the slots of the elements it inserts (their observations started).
struct _PropertyFilterEdit<Element: Sendable, Property: ObservableCache & Sendable>: _SlotEdit, @unchecked Sendable
where Property.Message == Update<Bool> {  // the slots are guarded by the state's `_lock`
    var offset: Int
    var oldCount: Int
    var slots: [_PropertyFilterSlot<Element, Property>]
}

/// The state of a ``PropertyFilteredArrayView`` while it is observed: one slot per element of the
/// array, in order, the inclusion bits in a tree that counts them, the outbox that sends the
/// view's changes in the order they were made, and the outbox of its count steps (every change of
/// the array with the count after it, and every change of the count), which an expression's group
/// follows while it observes them.
///
/// Every field is guarded by `_lock`. Lock order: no array's or property's lock is held while this
/// one is taken, and none is taken under it; no user code runs (`select`) and no element or
/// property is released under it: what leaves the slots leaves the lock in locals or inside the
/// change it sends.
final class _PropertyFilterState<Element: Sendable, Property: ObservableCache & Sendable>: @unchecked Sendable
where Property.Message == Update<Bool> {  // guarded by `_lock`
    typealias Slot = _PropertyFilterSlot<Element, Property>
    typealias Edit = _PropertyFilterEdit<Element, Property>
    typealias Queued = (edits: [Edit], change: ArrayChange<Element>, author: AnyObject)

    let _lock = _Lock()
    let _outbox: _Outbox<ArrayChange<Element>>
    let _steps: _Outbox<_ViewCountStep<Element>>
    /// The groups waiting for a snapshot of the contents and the count, by their tokens: served
    /// as soon as the slots are seeded.
    @exclusivity(unchecked) var _snapshotRequests: [ObjectIdentifier] = []
    /// The slots, in the order of the array; `nil` while not observed or seeding.
    @exclusivity(unchecked) var _slots: [Slot]?
    /// One bit per slot, set where the element is included; `nil` when `_slots` is.
    @exclusivity(unchecked) var _bits: _CountedBits?
    @exclusivity(unchecked) var _isSeeding = false
    /// The array's changes that arrived during the seeding.
    @exclusivity(unchecked) var _queued: [Queued] = []
    /// Counts the starts and ends of the observation, so that work prepared for an older one is
    /// dropped.
    @exclusivity(unchecked) var _epoch: UInt64 = 0

    init(core: _MessengerCore<ArrayChange<Element>>, stepsCore: _MessengerCore<_ViewCountStep<Element>>) {
        _outbox = _Outbox(core: core, lock: _lock)
        _steps = _Outbox(core: stepsCore, lock: _lock)
    }

    /// Whether a group observes the count steps: only then are they posted. Call under the lock
    /// (the steps' messenger lock is taken under it, never the other way round).
    var _postsSteps: Bool { _steps._core.observationCount > 0 }

    /// The contents and the count in one step, while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(*n*).
    var currentSnapshot: (contents: [Element], count: Int)? {
        _lock.withLock {
            guard !_isSeeding, let slots = _slots, let bits = _bits else { return nil }
            return (slots.map(\.element), bits.onesCount)
        }
    }

    /// Posts a snapshot of the contents and the count to the count steps, for the group whose
    /// token it is, once the slots are seeded: at once if they are.
    ///
    /// - Complexity: O(*n*) when it posts.
    func requestSnapshot(for token: ObjectIdentifier, isolation: (any Actor)?) {
        let runs = _lock.withLock { () -> Bool in
            guard !_isSeeding, _slots != nil else {
                _snapshotRequests.append(token)
                return false
            }
            return _postSnapshots(for: [token])
        }
        if runs { _steps.send(isolation: isolation) }
    }

    /// Posts a snapshot per token. Call under the lock, while seeded.
    func _postSnapshots(for tokens: [ObjectIdentifier]) -> Bool {
        guard let slots = _slots, let bits = _bits, !tokens.isEmpty else { return false }
        let contents = slots.map(\.element)
        var runs = false
        for token in tokens
        where _steps.post(.snapshot(token, contents: contents, count: bits.onesCount), author: _steps) {
            runs = true
        }
        return runs
    }

    /// The epoch of the current observation, for work prepared outside the lock.
    var epoch: UInt64 { _lock.withLock { _epoch } }

    /// The included elements while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(*n*).
    var currentContents: [Element]? {
        _lock.withLock {
            guard !_isSeeding, let slots = _slots else { return nil }
            return slots.compactMap { $0.installedBit ? $0.element : nil }
        }
    }

    /// The number of included elements while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(1).
    var currentCount: Int? {
        _lock.withLock { _isSeeding ? nil : _bits?.onesCount }
    }

    /// Starts a seeding: the array's changes are queued until
    /// ``finishSeeding(_:epoch:isolation:)``. Call before the observation of the array starts.
    func beginSeeding() -> UInt64 {
        let (epoch, slots, bits, queued) = _lock.withLock {
            _epoch &+= 1
            _isSeeding = true
            defer {
                _slots = nil
                _bits = nil
                _queued = []
            }
            return (_epoch, _slots, _bits, _queued)
        }
        _endSlots(slots ?? [])
        _endSlots(queued.flatMap { $0.edits.flatMap(\.slots) })
        withExtendedLifetime(bits) {}
        return epoch
    }

    /// Installs the slots of the contents read at the start, then the changes that arrived
    /// meanwhile, which it sends. Drops them all if a newer start or an end came first.
    func finishSeeding(_ slots: [Slot], epoch: UInt64, isolation: (any Actor)?) {
        var dropped: [Slot] = []
        var removed: [Slot] = []
        var queued: [Queued] = []
        let runs = _lock.withLock { () -> _Posted in
            guard _epoch == epoch, _isSeeding else {
                dropped = slots
                return _Posted()
            }
            for slot in slots { slot.isInstalled = true }
            slots._hintAll()
            _bits = _CountedBits(slots.lazy.map(\.installedBit))
            _slots = slots
            _isSeeding = false
            swap(&queued, &_queued)
            var runs = _Posted()
            var requests: [ObjectIdentifier] = []
            swap(&requests, &_snapshotRequests)
            runs.steps = _postSnapshots(for: requests)
            for change in queued {
                runs.formUnion(_post(change.edits, change: change.change, author: change.author, removed: &removed))
            }
            return runs
        }
        _endSlots(dropped)
        _endSlots(removed)
        withExtendedLifetime(queued) {}  // released here, outside the lock
        _send(runs, isolation: isolation)
    }

    /// Sends what the outboxes that `posted` names hold.
    func _send(_ posted: _Posted, isolation: (any Actor)?) {
        if posted.changes { _outbox.send(isolation: isolation) }
        if posted.steps { _steps.send(isolation: isolation) }
    }

    /// Applies a change of the array (its `edits`, whose inserted slots are observed) and sends the
    /// view's change; queues it during a seeding; drops it if `epoch` is over.
    func arrayChanged(
        _ edits: [Edit], change: ArrayChange<Element>, author: AnyObject, epoch: UInt64, isolation: (any Actor)?
    ) {
        var removed: [Slot] = []
        let runs = _lock.withLock { () -> _Posted in
            guard _epoch == epoch else {
                removed = edits.flatMap(\.slots)
                return _Posted()
            }
            if _isSeeding {
                _queued.append((edits, change, author))
                return _Posted()
            }
            guard _slots != nil else {
                removed = edits.flatMap(\.slots)
                return _Posted()
            }
            return _post(edits, change: change, author: author, removed: &removed)
        }
        _endSlots(removed)
        _send(runs, isolation: isolation)
    }

    /// Moves the element of `slot` into the view or out of it when its property changes to
    /// `isIncluded`: an insertion or a removal at its position among the included elements.
    ///
    /// The updates of one slot's observation never overlap, and only they change its bit once it
    /// is installed.
    ///
    /// - Complexity: O(*d*) to find the slot's index among *n* slots, for a slot *d* places from
    ///   where it was last found (O(*n*) at most), and O(log *n*) to set its bit and count the
    ///   included elements before it.
    func propertyChanged(_ isIncluded: Bool, of slot: Slot, author: AnyObject, isolation: (any Actor)?) {
        let runs = _lock.withLock { () -> _Posted in
            guard !slot.isDead else { return _Posted() }
            guard slot.isInstalled else {
                // Not installed yet: the change that installs it reports it as it is then.
                slot.isIncluded = isIncluded
                return _Posted()
            }
            guard slot.isIncluded != isIncluded, let bits = _bits,
                let index = _index(of: slot)
            else { return _Posted() }
            slot.isIncluded = isIncluded
            let countBefore = bits.onesCount
            bits.set(isIncluded, at: index)
            var change = ArrayChange<Element>(countBefore: countBefore)
            if isIncluded {
                change._new.append(slot.element)
            } else {
                change._old.append(slot.element)
            }
            change._closeSpan(at: bits.rank(index))
            var runs = _Posted()
            if _postsSteps { runs.steps = _steps.post(.countChanged(bits.onesCount), author: author) }
            runs.changes = _outbox.post(change, author: author)
            return runs
        }
        _send(runs, isolation: isolation)
    }

    /// Applies a change of the array to the slots and the bits, and posts the view's change and,
    /// while a group follows them, the count step. Call under the lock.
    ///
    /// - Complexity: O(*n*) for the slots after the first edit (moving them), plus O(*k* log *n*)
    ///   for *k* elements removed and inserted.
    func _post(_ edits: [Edit], change arrayChange: ArrayChange<Element>, author: AnyObject, removed: inout [Slot])
        -> _Posted
    {
        let countBefore = arrayChange.countBefore
        guard var slots = _slots.take(), let bits = _bits else { return _Posted() }
        precondition(
            slots.count == countBefore && bits.count == countBefore,
            "PropertyFilteredArrayView: a change of \(countBefore) elements does not follow the \(slots.count) the view knows"
        )
        var change = ArrayChange<Element>(countBefore: bits.onesCount)
        // The view's offset of each edit, in the contents before the change: the edits after it
        // do not move the bits before it, so they are applied from the last.
        var viewOffsets = [Int](repeating: 0, count: edits.count)
        for (index, edit) in edits.enumerated().reversed() {
            viewOffsets[index] = bits.rank(edit.offset)
            for _ in 0..<edit.oldCount { bits.remove(at: edit.offset) }
            for (step, slot) in edit.slots.enumerated() {
                slot.isInstalled = true
                bits.insert(slot.installedBit, at: edit.offset + step)
            }
        }
        for (index, edit) in edits.enumerated() {
            for slot in slots[edit.offset..<(edit.offset + edit.oldCount)] where slot.installedBit {
                change._old.append(slot.element)
            }
            for slot in edit.slots where slot.installedBit {
                change._new.append(slot.element)
            }
            change._closeSpan(at: viewOffsets[index])
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
        var runs = _Posted()
        if _postsSteps { runs.steps = _steps.post(.arrayChanged(arrayChange, count: bits.onesCount), author: author) }
        if !change.isEmpty { runs.changes = _outbox.post(change, author: author) }
        return runs
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
        let forgotten: ([Slot]?, _CountedBits?, [Queued]) = _lock.withLock {
            guard isUnobserved() else { return (nil, nil, []) }
            _epoch &+= 1
            _isSeeding = false
            // A request comes from an observation of the steps, which has ended by now.
            _snapshotRequests = []
            defer {
                _slots = nil
                _bits = nil
                _queued = []
            }
            return (_slots, _bits, _queued)
        }
        _endSlots(forgotten.0 ?? [])
        _endSlots(forgotten.2.flatMap { $0.edits.flatMap(\.slots) })
    }

    /// Marks the slots dead and ends their observations. Call without the lock.
    func _endSlots(_ slots: [Slot]) {
        _endObservations(of: slots) { body in _lock.withLock(body) }
    }
}

/// Which of a state's outboxes a step posted to, and so must send once unlocked.
struct _Posted {
    var changes = false
    var steps = false

    mutating func formUnion(_ other: _Posted) {
        changes = changes || other.changes
        steps = steps || other.steps
    }
}
