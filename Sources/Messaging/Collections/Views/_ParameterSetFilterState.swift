/// One message for a ``ParameterFilteredSetView``'s state: a change of the set or an update of the
/// parameter, with the observation it came from and its author.
struct _ParameterSetFilterEvent<Element: Hashable & Sendable, Parameter: Sendable>: @unchecked Sendable {
    // The generation object is guarded by the view's messenger lock; the rest is immutable.
    enum Kind {
        case members(SetChange<Element>)
        case parameter(Parameter)
    }

    var kind: Kind
    /// The generation the observation that delivered the message claimed; 0 before its first
    /// message, the replay of the members or of the parameter's value.
    var claimed: _FilterGeneration
    var author: AnyObject
}

/// The state of a ``ParameterFilteredSetView`` while it is observed: the set's members as the view
/// last applied them, the included ones, the parameter they were filtered with, and the queue of
/// messages from the set and the parameter.
///
/// Both sources' messages go through one ``_SerialDrain``: the first thread to submit one becomes
/// the runner and applies it, then the ones queued meanwhile, in order, and sends each resulting
/// change; so the view's changes go out in the order it applied them.
///
/// Every field is guarded by the lock of the view's messenger, so that publishing the included
/// count and numbering the change that moves it are one step, which the view's count observations
/// rely on. Hashing and the predicate are the user's code, so none of it runs under that lock:
/// the runner takes the two sets out of the state, works on them outside the lock (they are then
/// its own, so each edit is O(1) on average, with no copy), and puts them back in the step that
/// sends the change. Only the runner takes them, so nothing else misses them meanwhile; a reader
/// of the view's count reads `_count`, which stays.
final class _ParameterSetFilterState<Element: Hashable & Sendable, Parameter: Sendable>:
    @unchecked Sendable
{  // guarded by the lock of `_core`
    typealias Event = _ParameterSetFilterEvent<Element, Parameter>

    /// What a message of the set leads to.
    enum _MembersStep {
        case stale
        /// The set's members arrived; filter them with `parameter` if it is known.
        case seed(parameter: Parameter?)
        /// The set changed before the parameter is known: only the members follow it.
        case follow(Set<Element>)
        /// The set changed: filter what it inserts, then apply it to both sets.
        case filter(Set<Element>, included: Set<Element>, parameter: Parameter)
    }

    /// What an update of the parameter leads to.
    enum _ParameterStep {
        case stale
        /// The members are not known yet: keep the parameter.
        case keep
        /// Filter every member again; `included` is `nil` until the first filtering.
        case refilter(Set<Element>, included: Set<Element>?)
    }

    let _core: _MessengerCore<SetChange<Element>>
    let _isIncluded: @Sendable (Element, Parameter) -> Bool
    @exclusivity(unchecked) var _drain = _SerialDrain<Event>(budget: 64)
    /// The set's members as of the last change the view applied; `nil` until its replay arrives,
    /// and while the runner works on them.
    @exclusivity(unchecked) var _members: Set<Element>?
    /// The members included with `_parameter`; `nil` until both are known, and while the runner
    /// works on them.
    @exclusivity(unchecked) var _included: Set<Element>?
    /// The parameter the included members were filtered with; `nil` until its replay arrives.
    @exclusivity(unchecked) var _parameter: Parameter?
    /// The number of included members as of the last change the view sent; `nil` until both
    /// sources are known.
    @exclusivity(unchecked) var _count: Int?
    /// The running counts of count observations that started before the view knew its count:
    /// they receive it in the step that first sets it.
    @exclusivity(unchecked) var _countWaiters: [_LockedBox<Int?>] = []
    /// The generations of the current observations of the set and of the parameter; 0: none.
    @exclusivity(unchecked) var _membersGeneration: UInt64 = 0
    @exclusivity(unchecked) var _parameterGeneration: UInt64 = 0
    @exclusivity(unchecked) var _lastGeneration: UInt64 = 0

    init(core: _MessengerCore<SetChange<Element>>, isIncluded: @escaping @Sendable (Element, Parameter) -> Bool) {
        _core = core
        _isIncluded = isIncluded
    }

    /// The number of included members while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(1).
    var currentCount: Int? {
        _core.withLock { _count }
    }

    /// Queues a message and, if no other thread is applying messages, applies it and every
    /// message queued meanwhile, sending the view's changes. Call without any lock.
    func submit(_ kind: Event.Kind, claimed: _FilterGeneration, author: AnyObject, isolation: (any Actor)?) {
        // A queued message may wait for another thread; an author sending from its `deinit`
        // cannot wait with it.
        let event = Event(kind: kind, claimed: claimed, author: _authorToKeep(author, standIn: nil) ?? _noAuthor)
        guard let now = _core.withLock({ _drain.submit(event) }) else { return }
        _apply(now, isolation: isolation)
        _runQueued(isolation: isolation, handsOff: true)
    }

    /// Applies the queued messages; a caller's own call (`handsOff`) stops after the drain's budget
    /// and hands the rest to a runner of their own, which applies them all.
    func _runQueued(isolation: (any Actor)?, handsOff: Bool) {
        var ran = 0
        while true {
            let step = _core.withLock { _drain.next(afterRunning: ran, handsOff: handsOff) }
            switch consume step {
            case .finished:
                return
            case .handOff:
                _HandOffs.run(label: "Messaging.ParameterFilteredSetView") {
                    self._runQueued(isolation: nil, handsOff: false)
                }
                return
            case .run(let batch):
                ran += batch.count
                for event in batch { _apply(event, isolation: isolation) }
            }
        }
    }

    /// Applies one message and sends the view's change, if any. Only the drain's runner calls it.
    func _apply(_ event: Event, isolation: (any Actor)?) {
        switch event.kind {
        case .members(let change): _applyMembers(change, event, isolation: isolation)
        case .parameter(let parameter): _applyParameter(parameter, event, isolation: isolation)
        }
    }

    func _applyMembers(_ change: SetChange<Element>, _ event: Event, isolation: (any Actor)?) {
        let claimed = event.claimed
        let step = _core.withLock { () -> _MembersStep in
            if claimed._value == 0 {
                _lastGeneration &+= 1
                claimed._value = _lastGeneration
                _membersGeneration = _lastGeneration
                return .seed(parameter: _parameter)
            }
            guard claimed._value == _membersGeneration, let members = _members.take() else { return .stale }
            guard let parameter = _parameter, let included = _included.take() else { return .follow(members) }
            return .filter(members, included: included, parameter: parameter)
        }
        switch consume step {
        case .stale:
            return
        case .seed(let parameter):
            // The observation's first message is the replay of every member, as one insertion.
            let members = change.inserted
            let included = parameter.map { parameter in members.filter { _isIncluded($0, parameter) } }
            _install(members: members, included: included, parameter: nil, generation: (claimed, nil))
        case .follow(var members):
            change.apply(to: &members)
            _install(members: members, included: nil, parameter: nil, generation: (claimed, nil))
        case .filter(var members, var included, let parameter):
            // A removed member leaves the view if it was in it; an inserted one joins it if the
            // predicate includes it. A member in both is replaced, in the view or out of it.
            let removed = change.removed.filter { included.contains($0) }
            let inserted = change.inserted.filter { _isIncluded($0, parameter) }
            change.apply(to: &members)
            included.subtract(removed)
            for member in inserted { included.update(with: member) }
            _send(
                SetChange(removed: removed, inserted: inserted), members: members, included: included,
                parameter: nil, generation: (claimed, nil), author: event.author, isolation: isolation)
        }
    }

    func _applyParameter(_ parameter: Parameter, _ event: Event, isolation: (any Actor)?) {
        let claimed = event.claimed
        let step = _core.withLock { () -> _ParameterStep in
            if claimed._value == 0 {
                _lastGeneration &+= 1
                claimed._value = _lastGeneration
                _parameterGeneration = _lastGeneration
            }
            guard claimed._value == _parameterGeneration else { return .stale }
            guard let members = _members.take() else { return .keep }
            return .refilter(members, included: _included.take())
        }
        switch consume step {
        case .stale:
            return
        case .keep:
            var replaced: Parameter? = parameter
            _core.withLock {
                guard claimed._value == _parameterGeneration else { return }
                swap(&replaced, &_parameter)
            }
            withExtendedLifetime(replaced) {}  // released here, outside the lock
        case .refilter(let members, let old):
            let included = members.filter { _isIncluded($0, parameter) }
            guard let old else {
                // The first filtering: the view had nothing to report against.
                _install(members: members, included: included, parameter: parameter, generation: (nil, claimed))
                return
            }
            _send(
                SetChange(from: old, to: included), members: members, included: included,
                parameter: parameter, generation: (nil, claimed), author: event.author, isolation: isolation)
        }
    }

    /// Puts the runner's sets (and a new parameter) back if the observation that led to them is
    /// still current, and publishes the count when the included members become known. Sends
    /// nothing.
    func _install(
        members: Set<Element>, included: Set<Element>?, parameter: Parameter?,
        generation: (members: _FilterGeneration?, parameter: _FilterGeneration?)
    ) {
        var members = Optional(members)
        var included = included
        var parameter = parameter
        var waiters: [_LockedBox<Int?>] = []
        _core.withLock {
            guard _isCurrent(generation) else { return }
            _putBack(&members, &included, &parameter)
            if let count = _included?.count, _count == nil {
                _count = count
                swap(&waiters, &_countWaiters)
                for waiter in waiters { _ = waiter.exchange(count) }
            }
        }
        // What was not put back, a replaced parameter and the waiters are released here, outside
        // the lock.
        withExtendedLifetime((members, included, parameter, waiters)) {}
    }

    /// Sends `change` unless it is empty, putting the runner's sets back and moving the count in
    /// the step that numbers it.
    func _send(
        _ change: SetChange<Element>, members: Set<Element>, included: Set<Element>, parameter: Parameter?,
        generation: (members: _FilterGeneration?, parameter: _FilterGeneration?),
        author: AnyObject, isolation: (any Actor)?
    ) {
        guard !change.isEmpty else {
            _install(members: members, included: included, parameter: parameter, generation: generation)
            return
        }
        var members = Optional(members)
        var included = Optional(included)
        var parameter = parameter
        // An observation that ended meanwhile (the view is no longer observed) sends nothing.
        guard _core.withLock({ _isCurrent(generation) }) else {
            withExtendedLifetime((members, included, parameter)) {}  // released here, outside the lock
            return
        }
        _core.sendChange(author: author, checksChange: false, isolation: isolation) {
            if _isCurrent(generation) {
                _putBack(&members, &included, &parameter)
                _count = _included?.count
            }
            return change
        }
        withExtendedLifetime((members, included, parameter)) {}  // released here, outside the lock
    }

    /// Whether the observations that led to a result are still the current ones. Call under the
    /// lock.
    func _isCurrent(_ generation: (members: _FilterGeneration?, parameter: _FilterGeneration?)) -> Bool {
        if let members = generation.members, members._value != _membersGeneration { return false }
        if let parameter = generation.parameter, parameter._value != _parameterGeneration { return false }
        return true
    }

    /// Moves the runner's sets into the state and swaps a new parameter in; what it replaces is
    /// left in the arguments, for release outside the lock. Call under the lock.
    func _putBack(_ members: inout Set<Element>?, _ included: inout Set<Element>?, _ parameter: inout Parameter?) {
        swap(&members, &_members)
        if included != nil { swap(&included, &_included) }
        if parameter != nil { swap(&parameter, &_parameter) }
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

    /// Forgets the members, the parameter and the count once the view is no longer observed, and
    /// makes the observations that follow them obsolete.
    func forgetIfUnobserved() {
        let forgotten = _core.withLock { () -> (Set<Element>?, Set<Element>?, Parameter?, [_LockedBox<Int?>])? in
            guard _core._state.pointee.liveCount == 0 else { return nil }
            _membersGeneration = 0
            _parameterGeneration = 0
            _count = nil
            var waiters: [_LockedBox<Int?>] = []
            swap(&waiters, &_countWaiters)
            return (_members.take(), _included.take(), _parameter.take(), waiters)
        }
        withExtendedLifetime(forgotten) {}  // released here, outside the lock
    }
}
