/// One element of the outer array of a ``FlattenedArray``: the inner array it leads to, the inner
/// elements as the flattened view last reported them, and the observation of the inner array.
///
/// Every mutable field is guarded by the lock of the ``_FlattenState`` that made it.
@usableFromInline
final class _FlattenSlot<Element: Sendable>: @unchecked Sendable {  // guarded by the state's `_lock`
    @usableFromInline let array: ObservableArray<Element>
    /// The inner elements: as read when the observation started, then following each change.
    @exclusivity(unchecked) @usableFromInline var elements: [Element] = []
    /// Whether the slot is in the state's list (its changes are reported); before that, changes
    /// are applied to ``elements`` silently, and the insertion that installs the slot reports them.
    @exclusivity(unchecked) @usableFromInline var isInstalled = false
    /// Whether the slot left the list, or was never installed: its changes are ignored.
    @exclusivity(unchecked) @usableFromInline var isDead = false
    /// The observation of the inner array; taken when the slot dies, and ended outside the lock.
    @exclusivity(unchecked) @usableFromInline var observation: _Observation<ArrayChange<Element>>?

    @inlinable
    init(array: ObservableArray<Element>) {
        self.array = array
    }
}

/// The state of a ``FlattenedArray`` while it is observed: one slot per element of the outer array,
/// in order, and the outbox that sends the flattened changes in the order they were made.
///
/// Every field is guarded by `_lock`. Lock order: an inner or outer array's lock is never held
/// while this one is taken, and no user code runs and no element is released under it (the
/// changes that remove elements still hold them when the lock is released).
@usableFromInline
final class _FlattenState<Outer: Sendable, Element: Sendable>: @unchecked Sendable {  // guarded by `_lock`
    @usableFromInline let _lock = _Lock()
    @usableFromInline let _outbox: _Outbox<ArrayChange<Element>>
    /// The slots, in the order of the outer array; `nil` while not observed or seeding.
    @exclusivity(unchecked) @usableFromInline var _slots: [_FlattenSlot<Element>]?
    /// The number of inner elements of all slots.
    @exclusivity(unchecked) @usableFromInline var _count = 0
    @exclusivity(unchecked) @usableFromInline var _isSeeding = false
    /// The outer changes that arrived during the seeding, with their authors and prepared slots.
    @exclusivity(unchecked) @usableFromInline var _queued:
        [(ArrayChange<Outer>, AnyObject, [[_FlattenSlot<Element>]])] =
            []
    /// Counts the starts and ends of the observation, so that work prepared for an older one is
    /// dropped.
    @exclusivity(unchecked) @usableFromInline var _epoch: UInt64 = 0

    @inlinable
    init(core: _MessengerCore<ArrayChange<Element>>) {
        _outbox = _Outbox(core: core, lock: _lock)
    }

    /// The flattened contents while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(*n*) for *n* inner elements.
    @inlinable
    var currentContents: [Element]? {
        _lock.withLock {
            guard !_isSeeding, let slots = _slots else { return nil }
            return slots.flatMap(\.elements)
        }
    }

    /// Starts a seeding: outer changes are queued until ``finishSeeding(_:epoch:isolation:)``.
    /// Call before the observation of the outer array starts, so that no change it delivers can
    /// come before the seeding.
    @inlinable
    func beginSeeding() -> UInt64 {
        let (epoch, slots, queued) = _lock.withLock {
            _epoch &+= 1
            _isSeeding = true
            defer {
                _slots = nil
                _queued = []
                _count = 0
            }
            return (_epoch, _slots, _queued)
        }
        _endSlots(slots ?? [])
        _endSlots(queued.flatMap { $0.2.joined() })
        return epoch
    }

    /// Installs the slots of the outer contents read at the start, then the outer changes that
    /// arrived meanwhile, which it sends. Drops them all if a newer start or an end came first.
    @inlinable
    func finishSeeding(_ slots: [_FlattenSlot<Element>], epoch: UInt64, isolation: (any Actor)?) {
        var dropped: [_FlattenSlot<Element>] = []
        var removed: [_FlattenSlot<Element>] = []
        let runs = _lock.withLock { () -> Bool in
            guard _epoch == epoch, _isSeeding else {
                dropped = slots
                return false
            }
            for slot in slots where !slot.isDead {
                slot.isInstalled = true
                _count += slot.elements.count
            }
            _slots = slots
            _isSeeding = false
            var runs = false
            for (change, author, prepared) in _queued {
                if _post(change, author: author, prepared: prepared, removed: &removed) { runs = true }
            }
            _queued = []
            return runs
        }
        _endSlots(dropped)
        _endSlots(removed)
        if runs { _outbox.send(isolation: isolation) }
    }

    /// Applies an outer change whose inserted elements' slots are `prepared` (one list per
    /// modification, observations started), and sends the flattened change; queues it during
    /// a seeding; drops it if `epoch` is over.
    @inlinable
    func outerChanged(
        _ change: ArrayChange<Outer>, author: AnyObject, prepared: [[_FlattenSlot<Element>]], epoch: UInt64,
        isolation: (any Actor)?
    ) {
        var removed: [_FlattenSlot<Element>] = []
        let runs = _lock.withLock { () -> Bool in
            guard _epoch == epoch else {
                removed = Array(prepared.joined())
                return false
            }
            if _isSeeding {
                _queued.append((change, author, prepared))
                return false
            }
            guard _slots != nil else {
                removed = Array(prepared.joined())
                return false
            }
            return _post(change, author: author, prepared: prepared, removed: &removed)
        }
        _endSlots(removed)
        if runs { _outbox.send(isolation: isolation) }
    }

    /// Applies an inner change of `slot` and sends it, shifted to the slot's place.
    @inlinable
    func innerChanged(
        _ change: ArrayChange<Element>, of slot: _FlattenSlot<Element>, author: AnyObject, isolation: (any Actor)?
    ) {
        let runs = _lock.withLock { () -> Bool in
            guard !slot.isDead else { return false }
            guard slot.isInstalled, let slots = _slots else {
                // Not installed yet: the insertion that installs it reports the elements as they are then.
                change.apply(to: &slot.elements)
                return false
            }
            var offset = 0
            for other in slots {
                if other === slot { break }
                offset += other.elements.count
            }
            let shifted = ArrayChange(
                countBefore: _count,
                modifications: change.modifications.map { modification in
                    ArrayModification(
                        at: offset + modification.offset, replacing: modification.oldElements,
                        with: modification.newElements)
                })
            change.apply(to: &slot.elements)
            _count = shifted.countAfter
            return _outbox.post(shifted, author: author)
        }
        if runs { _outbox.send(isolation: isolation) }
    }

    /// Applies an outer change to the slots and posts the flattened change. Call under the lock.
    ///
    /// - Complexity: O(*p* + *k*) for *p* outer elements and *k* inner elements removed or inserted.
    @inlinable
    func _post(
        _ change: ArrayChange<Outer>, author: AnyObject, prepared: [[_FlattenSlot<Element>]],
        removed: inout [_FlattenSlot<Element>]
    ) -> Bool {
        guard var slots = _slots.take() else { return false }
        var modifications: [ArrayModification<Element>] = []
        var replacements: [(Range<Int>, [_FlattenSlot<Element>])] = []
        var flatOffset = 0
        var outerOffset = 0
        for (modification, newSlots) in zip(change.modifications, prepared) {
            while outerOffset < modification.offset {
                flatOffset += slots[outerOffset].elements.count
                outerOffset += 1
            }
            let range = modification.oldRange
            let oldElements = slots[range].flatMap(\.elements)
            var newElements: [Element] = []
            for slot in newSlots where !slot.isDead {
                slot.isInstalled = true
                newElements += slot.elements
            }
            if !oldElements.isEmpty || !newElements.isEmpty {
                modifications.append(ArrayModification(at: flatOffset, replacing: oldElements, with: newElements))
            }
            flatOffset += oldElements.count
            outerOffset = range.upperBound
            replacements.append((range, newSlots))
        }
        for (range, newSlots) in replacements.reversed() {
            for slot in slots[range] {
                slot.isDead = true
                removed.append(slot)
            }
            slots.replaceSubrange(range, with: newSlots)
        }
        _slots = slots
        guard !modifications.isEmpty else { return false }
        let flattened = ArrayChange(countBefore: _count, modifications: modifications)
        _count = flattened.countAfter
        return _outbox.post(flattened, author: author)
    }

    /// Ends the observation and forgets the slots once the view is no longer observed.
    @inlinable
    func forgetIfUnobserved(_ isUnobserved: () -> Bool) {
        let forgotten: ([_FlattenSlot<Element>]?, [(ArrayChange<Outer>, AnyObject, [[_FlattenSlot<Element>]])]) =
            _lock.withLock {
                guard isUnobserved() else { return (nil, []) }
                _epoch &+= 1
                _isSeeding = false
                defer {
                    _slots = nil
                    _queued = []
                    _count = 0
                }
                return (_slots, _queued)
            }
        _endSlots(forgotten.0 ?? [])
        _endSlots(forgotten.1.flatMap { $0.2.joined() })
    }

    /// Marks the slots dead and ends their observations. Call without the lock.
    @inlinable
    func _endSlots(_ slots: [_FlattenSlot<Element>]) {
        guard !slots.isEmpty else { return }
        let observations = _lock.withLock {
            slots.compactMap { slot -> _Observation<ArrayChange<Element>>? in
                slot.isDead = true
                return slot.observation.take()
            }
        }
        for observation in observations { _ = observation._end() }
    }
}
