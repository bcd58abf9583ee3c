/// One member of the set a ``PropertyFilteredSetView`` filters: the member, the observable property
/// that says whether it is included, the property's value as the view last applied it, and the
/// observation of the property.
///
/// `isIncluded` is written only by the runner of the state's drain: once while the slot is made
/// (before it is reachable from another thread, or under the property's messenger lock in the
/// step that starts its observation), then in the step that sends the member's flip. `isDead` and
/// `observation` are guarded by the lock of the view's messenger.
final class _PropertySetFilterSlot<Element: Hashable & Sendable, Property: ObservableCache & Sendable>:
    _PropertySlot, @unchecked Sendable
where Property.Message == Update<Bool> {  // guarded as said above
    let member: Element
    /// Held so that a property made on demand lives as long as its observation.
    let property: Property
    /// The observation of the view's set whose members the slot belongs to.
    let generation: UInt64
    @exclusivity(unchecked) var isIncluded = false
    /// Whether the slot left the view's members, or they were forgotten: its updates are ignored.
    @exclusivity(unchecked) var isDead = false
    /// The observation of the property; taken when the slot dies, and ended outside the lock.
    @exclusivity(unchecked) var observation: _Observation<Update<Bool>>?

    init(member: Element, property: Property, generation: UInt64) {
        self.member = member
        self.property = property
        self.generation = generation
    }
}

/// One message for a ``PropertyFilteredSetView``'s state: a change of the set, with the observation
/// it came from, or an update of one member's property; and its author.
struct _PropertySetFilterEvent<Element: Hashable & Sendable, Property: ObservableCache & Sendable>:
    @unchecked Sendable
where Property.Message == Update<Bool> {
    // The generation object and the slot are guarded by the view's messenger lock; the rest is
    // immutable.
    enum Kind {
        /// A change of the set; `claimed` is the generation its observation claimed, 0 before its
        /// first message, the replay of the members.
        case members(SetChange<Element>, claimed: _FilterGeneration)
        /// The property of a member's slot changed to `isIncluded`.
        case property(_PropertySetFilterSlot<Element, Property>, isIncluded: Bool)
    }

    var kind: Kind
    var author: AnyObject
}

/// The state of a ``PropertyFilteredSetView`` while it is observed: one slot per member of the set
/// (the member, its property and the property's last value), the number of included members, and
/// the queue of messages from the set and from the properties.
///
/// Both kinds of messages go through one ``_SerialDrain``: the first thread to submit one becomes
/// the runner and applies it, then the ones queued meanwhile, in order, and sends each resulting
/// change; so the view's changes go out in the order it applied them, and a property's updates
/// are applied after the change that made its slot.
///
/// The count and the drain are guarded by the lock of the view's messenger, so that publishing
/// the count and numbering the change that moves it are one step, which the view's count
/// observations rely on. Hashing, `select` and the properties' observations are the user's code or
/// take other locks, so none of it runs under that lock: the runner takes the slots out of the
/// state, works on them outside the lock, and puts them back in the step that sends the change.
/// A flip needs only its slot, so it leaves them where they are.
final class _PropertySetFilterState<Element: Hashable & Sendable, Property: ObservableCache & Sendable>:
    _DrainedViewState, _MessengerDeathListener, @unchecked Sendable
where Property.Message == Update<Bool> {  // guarded by the lock of `_core`
    typealias Slot = _PropertySetFilterSlot<Element, Property>
    typealias Event = _PropertySetFilterEvent<Element, Property>

    /// What a message of the set leads to.
    enum _MembersStep {
        case stale
        /// The set's members arrived: make their slots. `replaced`: the slots of an observation
        /// this one overtook.
        case seed(generation: UInt64, replaced: [Element: Slot]?)
        /// The set changed: apply it to the slots.
        case apply([Element: Slot], count: Int)
    }

    let _core: _MessengerCore<SetChange<Element>>
    let _select: @Sendable (Element) -> Property
    let _reader = _PropertyReader<Property, Bool>()
    @exclusivity(unchecked) var _drain = _SerialDrain<Event>(budget: 64)
    /// The slots of the set's members as of the last change the view applied; `nil` until the
    /// set's replay arrives, and while the runner works on them.
    @exclusivity(unchecked) var _slots: [Element: Slot]?
    /// The number of included members as of the last change the view sent; `nil` until the set's
    /// replay is applied.
    @exclusivity(unchecked) var _count: Int?
    /// The running counts of count observations that started before the view knew its count:
    /// they receive it in the step that first sets it.
    @exclusivity(unchecked) var _countWaiters: [_LockedBox<Int?>] = []
    /// The generation of the current observation of the set; 0: none.
    @exclusivity(unchecked) var _generation: UInt64 = 0
    @exclusivity(unchecked) var _lastGeneration: UInt64 = 0

    init(core: _MessengerCore<SetChange<Element>>, select: @escaping @Sendable (Element) -> Property) {
        _core = core
        _select = select
    }

    /// The number of included members while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(1).
    var currentCount: Int? {
        _core.withLock { _count }
    }

    /// A property's messenger died: its member keeps the value it had.
    func _messengerDied(of observation: AnyObject) {}

    /// Queues a message and, if no other thread is applying messages, applies it and every
    /// message queued meanwhile, sending the view's changes. Call without any lock.
    func submit(_ kind: Event.Kind, author: AnyObject, isolation: (any Actor)?) {
        // A queued message may wait for another thread; an author sending from its `deinit`
        // cannot wait with it.
        let event = Event(kind: kind, author: _authorToKeep(author, standIn: nil) ?? _noAuthor)
        _submit(event, isolation: isolation)
    }

    static var _handOffLabel: String { "Messaging.PropertyFilteredSetView" }

    func _withDrain<Result>(_ body: (inout _SerialDrain<Event>) -> Result) -> Result {
        _core.withLock { body(&_drain) }
    }

    /// Applies one message and sends the view's change, if any. Only the drain's runner calls it.
    func _apply(_ event: Event, isolation: (any Actor)?) {
        switch event.kind {
        case .members(let change, let claimed):
            _applyMembers(change, claimed: claimed, author: event.author, isolation: isolation)
        case .property(let slot, let isIncluded):
            _applyFlip(of: slot, to: isIncluded, author: event.author, isolation: isolation)
        }
    }

    func _applyMembers(
        _ change: SetChange<Element>, claimed: _FilterGeneration, author: AnyObject, isolation: (any Actor)?
    ) {
        let step = _core.withLock { () -> _MembersStep in
            if claimed._value == 0 {
                _lastGeneration &+= 1
                claimed._value = _lastGeneration
                _generation = _lastGeneration
                _count = nil
                return .seed(generation: _generation, replaced: _slots.take())
            }
            guard claimed._value == _generation, let slots = _slots.take(), let count = _count else { return .stale }
            return .apply(slots, count: count)
        }
        switch consume step {
        case .stale:
            return
        case .seed(let generation, let replaced):
            _endSlots(replaced.map { Array($0.values) } ?? [])
            // The observation's first message is the replay of every member, as one insertion.
            var slots = [Element: Slot](minimumCapacity: change.inserted.count)
            var count = 0
            for member in change.inserted {
                let slot = _makeSlot(member, generation: generation)
                if slot.isIncluded { count += 1 }
                slots[member] = slot
            }
            _store(slots, count: count, generation: generation, sending: nil, author: author, isolation: isolation)
        case .apply(var slots, let count):
            var removed = Set<Element>()
            var inserted = Set<Element>()
            var ended: [Slot] = []
            // Removals first: a member in both is replaced, in the view or out of it.
            for member in change.removed {
                guard let slot = slots.removeValue(forKey: member) else {
                    preconditionFailure("PropertyFilteredSetView: the removed member \(member) is unknown")
                }
                if slot.isIncluded { removed.insert(member) }
                ended.append(slot)
            }
            let generation = claimed._value
            for member in change.inserted {
                let slot = _makeSlot(member, generation: generation)
                let replaced = slots.updateValue(slot, forKey: member)
                precondition(replaced == nil, "PropertyFilteredSetView: the inserted member \(member) is known")
                if slot.isIncluded { inserted.insert(member) }
            }
            let viewChange = SetChange(removed: removed, inserted: inserted)
            _store(
                slots, count: count + inserted.count - removed.count, generation: generation,
                sending: viewChange, author: author, isolation: isolation)
            _endSlots(ended)
        }
    }

    /// Moves a member into the view or out of it when its property changes to `isIncluded`.
    func _applyFlip(of slot: Slot, to isIncluded: Bool, author: AnyObject, isolation: (any Actor)?) {
        let flips = _core.withLock {
            slot.generation == _generation && !slot.isDead && _count != nil && slot.isIncluded != isIncluded
        }
        guard flips else { return }
        // Hashed here, outside the lock.
        let change =
            isIncluded ? SetChange(inserted: [slot.member]) : SetChange<Element>(removed: [slot.member])
        _core.sendChangeIfMade(author: author, isolation: isolation) {
            // Only this runner flips the slot and moves the count; an end of the observation may
            // have come meanwhile.
            guard slot.generation == _generation, !slot.isDead, let count = _count else { return nil }
            slot.isIncluded = isIncluded
            _count = count + (isIncluded ? 1 : -1)
            return change
        }
    }

    /// Makes the slot of a member and starts observing its property, reading its value in the same
    /// step where the property allows it. Only the runner calls it, without locks: `select` is
    /// user code.
    func _makeSlot(_ member: Element, generation: UInt64) -> Slot {
        let property = _select(member)
        let slot = Slot(member: member, property: property, generation: generation)
        let core = property.messenger._core
        let observation = _Observation<Update<Bool>>._makeForwarding(
            core: core,
            handler: .forward({ [weak self] update, author, isolation in
                self?.submit(.property(slot, isIncluded: update.new), author: author, isolation: isolation)
            }),
            listener: self)
        slot.observation = observation
        if let read = _reader.readUnderLock {
            core.insert(observation) {
                guard observation._isActiveWhileLocked else { return }
                slot.isIncluded = read(property)
            }
        } else {
            // Not under its messenger's lock: read just after the observation starts, so that
            // every update after the read arrives, and one racing the read is applied again.
            core.insert(observation)
            slot.isIncluded = property.latestMessage.new
        }
        return slot
    }

    /// Puts the runner's slots back if the observation that led to them is still current, with the
    /// count, and sends `change` unless it is `nil` or empty, in the same step; otherwise ends
    /// them. The first count also goes to the count observations waiting for it.
    func _store(
        _ slots: [Element: Slot], count: Int, generation: UInt64,
        sending change: SetChange<Element>?, author: AnyObject, isolation: (any Actor)?
    ) {
        var slots = Optional(slots)
        var waiters: [_LockedBox<Int?>] = []
        // Called under the lock.
        func store() -> Bool {
            guard generation == _generation else { return false }
            swap(&slots, &_slots)
            if _count == nil {
                swap(&waiters, &_countWaiters)
                for waiter in waiters { _ = waiter.exchange(count) }
            }
            _count = count
            return true
        }
        if let change, !change.isEmpty {
            // Checked and numbered in one step: a change meant for an observation that ended
            // meanwhile never reaches one that started after it.
            _core.sendChangeIfMade(author: author, isolation: isolation) { store() ? change : nil }
        } else {
            _ = _core.withLock(store)
        }
        // Slots that were not put back are ended; the waiters are released here, outside the lock.
        _endSlots(slots.map { Array($0.values) } ?? [])
        withExtendedLifetime(waiters) {}
    }

    /// The count a new count observation starts with, read in the step that starts it; if the
    /// view does not know it yet, the observation's running count receives it when it does. Call
    /// under the lock of the view's messenger.
    func _startCount(_ running: _LockedBox<Int?>) {
        if let count = _count {
            _ = running.exchange(count)
        } else {
            _countWaiters.append(running)
        }
    }

    /// Ends the slots' observations and forgets them and the count once the view is no longer
    /// observed, and makes the observation of the set that follows them obsolete.
    func forgetIfUnobserved() {
        let forgotten = _core.withLock { () -> ([Element: Slot]?, [_LockedBox<Int?>])? in
            guard _core._state.pointee.liveCount == 0 else { return nil }
            _generation = 0
            _count = nil
            var waiters: [_LockedBox<Int?>] = []
            swap(&waiters, &_countWaiters)
            return (_slots.take(), waiters)
        }
        guard let forgotten else { return }
        _endSlots(forgotten.0.map { Array($0.values) } ?? [])
    }

    /// Marks the slots dead and ends their observations. Call without any lock.
    func _endSlots(_ slots: [Slot]) {
        _endObservations(of: slots) { body in _core.withLock(body) }
    }
}
