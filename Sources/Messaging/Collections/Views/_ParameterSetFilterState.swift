/// The code of a ``ParameterFilteredSetView`` that runs once per member, made in the client's code
/// by the view's inlinable initializer, where it is specialized for the member and parameter types.
///
/// The view keeps each member of the set with a flag, `true` where the predicate includes it.
/// Testing every member again walks the dictionary's storage and rewrites the flags in place, so it
/// hashes only the members that join or leave the view, into the change.
@usableFromInline
struct _ParameterSetFilterCode<Element: Hashable & Sendable, Parameter: Sendable>: Sendable {
    /// The members with their flags, all `false` while the parameter is not known, and the number
    /// of included members (`nil` without a parameter).
    @usableFromInline let seed: @Sendable (Set<Element>, Parameter?) -> (flags: [Element: Bool], count: Int?)
    /// Applies a change of the set to the flags; with a parameter, returns the view's change: the
    /// included members it removes and the members it inserts that the predicate includes.
    @usableFromInline let apply: @Sendable (SetChange<Element>, inout [Element: Bool], Parameter?) -> SetChange<Element>
    /// Tests every member again with a new parameter, and returns the number of included members
    /// and, if asked, the view's change: the members that leave and those that join.
    @usableFromInline let refilter:
        @Sendable (inout [Element: Bool], Parameter, _ countBefore: Int, _ makesChange: Bool) -> (
            change: SetChange<Element>, count: Int
        )

    @inlinable
    init(isIncluded: @escaping @Sendable (Element, Parameter) -> Bool) {
        seed = { members, parameter in
            var flags = [Element: Bool](minimumCapacity: members.count)
            guard let parameter else {
                for member in members { flags[member] = false }
                return (flags, nil)
            }
            var count = 0
            for member in members {
                let included = isIncluded(member, parameter)
                if included { count += 1 }
                flags[member] = included
            }
            return (flags, count)
        }
        apply = { change, flags, parameter in
            var removed = Set<Element>()
            var inserted = Set<Element>()
            // Removals first: a member in both is replaced, in the view or out of it.
            for member in change.removed {
                let wasIncluded = flags.removeValue(forKey: member)
                precondition(wasIncluded != nil, "ParameterFilteredSetView: the removed member \(member) is unknown")
                if wasIncluded == true { removed.insert(member) }
            }
            for member in change.inserted {
                let included = parameter.map { isIncluded(member, $0) } ?? false
                let replaced = flags.updateValue(included, forKey: member)
                precondition(replaced == nil, "ParameterFilteredSetView: the inserted member \(member) is known")
                if included { inserted.insert(member) }
            }
            return SetChange(removed: removed, inserted: inserted)
        }
        refilter = { flags, parameter, countBefore, makesChange in
            var removed = Set<Element>()
            var inserted = Set<Element>()
            if makesChange {
                removed.reserveCapacity(countBefore)
                inserted.reserveCapacity(flags.count - countBefore)
            }
            var count = 0
            var index = flags.startIndex
            while index != flags.endIndex {
                let (member, wasIncluded) = flags[index]
                let included = isIncluded(member, parameter)
                if included { count += 1 }
                if included != wasIncluded {
                    flags.values[index] = included
                    if makesChange {
                        if included { inserted.insert(member) } else { removed.insert(member) }
                    }
                }
                flags.formIndex(after: &index)
            }
            return (SetChange(removed: removed, inserted: inserted), count)
        }
    }
}

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
/// last applied them, each with a flag that says whether it is included, the parameter they were
/// filtered with, the count of included members, and the queue of messages from the set and the
/// parameter.
///
/// Both sources' messages go through one ``_SerialDrain``: the first thread to submit one becomes
/// the runner and applies it, then the ones queued meanwhile, in order, and sends each resulting
/// change; so the view's changes go out in the order it applied them.
///
/// Every field is guarded by the lock of the view's messenger, so that publishing the count and
/// numbering the change that moves it are one step, which the view's count observations rely on.
/// Hashing and the predicate are the user's code, so none of it runs under that lock: the runner
/// takes the members out of the state, works on them outside the lock (they are then its own, so
/// an edit is O(1) on average, with no copy), and puts them back in the step that sends the change.
/// Only the runner takes them, so nothing else misses them meanwhile; a reader of the view's count
/// reads `_count`, which stays.
final class _ParameterSetFilterState<Element: Hashable & Sendable, Parameter: Sendable>:
    _DrainedViewState, @unchecked Sendable
{  // guarded by the lock of `_core`
    typealias Event = _ParameterSetFilterEvent<Element, Parameter>

    /// What a message of the set leads to.
    enum _MembersStep {
        case stale
        /// The set's members arrived; filter them with `parameter` if it is known.
        case seed(parameter: Parameter?)
        /// The set changed: apply it, filtering what it inserts with `parameter` if it is known.
        case apply([Element: Bool], parameter: Parameter?, count: Int?)
    }

    /// What an update of the parameter leads to.
    enum _ParameterStep {
        case stale
        /// The members are not known yet: keep the parameter.
        case keep
        /// Filter every member again; `count` is `nil` before the first filtering.
        case refilter([Element: Bool], count: Int?)
    }

    let _core: _MessengerCore<SetChange<Element>>
    let _code: _ParameterSetFilterCode<Element, Parameter>
    @exclusivity(unchecked) var _drain = _SerialDrain<Event>(budget: 64)
    /// The set's members as of the last change the view applied, each with whether it is
    /// included (all `false` until the parameter is known); `nil` until the set's replay arrives,
    /// and while the runner works on them.
    @exclusivity(unchecked) var _members: [Element: Bool]?
    /// The parameter the flags were set with; `nil` until its replay arrives.
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

    init(core: _MessengerCore<SetChange<Element>>, code: _ParameterSetFilterCode<Element, Parameter>) {
        _core = core
        _code = code
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
        _submit(event, isolation: isolation)
    }

    static var _handOffLabel: String { "Messaging.ParameterFilteredSetView" }

    func _withDrain<Result>(_ body: (inout _SerialDrain<Event>) -> Result) -> Result {
        _core.withLock { body(&_drain) }
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
            return .apply(members, parameter: _parameter, count: _count)
        }
        switch consume step {
        case .stale:
            return
        case .seed(let parameter):
            // The observation's first message is the replay of every member, as one insertion.
            // Only the runner changes the parameter, so it is still the one read.
            let (members, count) = _code.seed(change.inserted, parameter)
            _store(members, count: count, parameter: nil, generation: (claimed, nil))
        case .apply(var members, let parameter, let count):
            let viewChange = _code.apply(change, &members, count == nil ? nil : parameter)
            let newCount = count.map { $0 + viewChange.inserted.count - viewChange.removed.count }
            _store(
                members, count: newCount, parameter: nil, generation: (claimed, nil),
                sending: viewChange, author: event.author, isolation: isolation)
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
            return .refilter(members, count: _count)
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
        case .refilter(var members, let countBefore):
            // Before the first filtering every flag is `false` and the view has nothing to report
            // against.
            let (change, count) = _code.refilter(&members, parameter, countBefore ?? 0, countBefore != nil)
            _store(
                members, count: count, parameter: parameter, generation: (nil, claimed),
                sending: countBefore == nil ? nil : change, author: event.author, isolation: isolation)
        }
    }

    /// Puts the runner's members (and a new parameter) back if the observations that led to them
    /// are still current, with the count, and sends `change` unless it is `nil` or empty, in the
    /// same step. The first count also goes to the count observations waiting for it.
    func _store(
        _ members: [Element: Bool], count: Int?, parameter: Parameter?,
        generation: (members: _FilterGeneration?, parameter: _FilterGeneration?),
        sending change: SetChange<Element>? = nil, author: AnyObject = _noAuthor, isolation: (any Actor)? = nil
    ) {
        var members = Optional(members)
        var parameter = parameter
        var waiters: [_LockedBox<Int?>] = []
        // Called under the lock.
        func store() -> Bool {
            guard _isCurrent(generation) else { return false }
            swap(&members, &_members)
            if parameter != nil { swap(&parameter, &_parameter) }
            if _count == nil, let count {
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
        // What was not put back, a replaced parameter and the waiters are released here, outside
        // the lock.
        withExtendedLifetime((members, parameter, waiters)) {}
    }

    /// Whether the observations that led to a result are still the current ones. Call under the
    /// lock.
    func _isCurrent(_ generation: (members: _FilterGeneration?, parameter: _FilterGeneration?)) -> Bool {
        if let members = generation.members, members._value != _membersGeneration { return false }
        if let parameter = generation.parameter, parameter._value != _parameterGeneration { return false }
        return true
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
        let forgotten = _core.withLock { () -> ([Element: Bool]?, Parameter?, [_LockedBox<Int?>])? in
            guard _core._state.pointee.liveCount == 0 else { return nil }
            _membersGeneration = 0
            _parameterGeneration = 0
            _count = nil
            var waiters: [_LockedBox<Int?>] = []
            swap(&waiters, &_countWaiters)
            return (_members.take(), _parameter.take(), waiters)
        }
        withExtendedLifetime(forgotten) {}  // released here, outside the lock
    }
}
