import GeneralObserver

/// What makes an object an ``Observer``: it keeps the object's observations alive.
///
/// ```swift
/// final class Dog: Observer {
///     let receiver = Receiver()
/// }
/// ```
///
/// An observer owns its receiver. When the observer dies, the receiver dies with it and ends every
/// observation it holds: nothing of the observer remains in any messenger. Share a receiver
/// between objects only if they should start and stop observing together.
///
/// A receiver is also where an observer's relationships live: which observables it observes is
/// read from its observations, not kept in a second table beside them (a `subscribe(_:)` without
/// messages is an observation that receives nothing). Its
/// ``GeneralTrackingSubscriber/subscriptionLedger`` is made only when asked for: for the
/// observer's ``GeneralSubscriber/uuid``, or for a relationship with an observable that is not an
/// ``ObservableSource``.
public final class Receiver: @unchecked Sendable {  // every `var` below is guarded by `_lock`
    // The lock makes every access to the `var`s exclusive, so their run-time exclusivity checks
    // (several per `observe`) are left out.
    private let _lock = _Lock()
    /// The observations of one messenger, kept inline: most observers observe one or two.
    @exclusivity(unchecked) private var _first: _ObservedSource?
    /// The observations of every other messenger, by messenger.
    @exclusivity(unchecked) private var _more: [ObjectIdentifier: _ObservedSource] = [:]
    /// `_more` is swept of entries whose messenger died when it reaches this size.
    @exclusivity(unchecked) private var _sweepThreshold = 16
    /// The ledger, made on first use.
    @exclusivity(unchecked) private var _ledger: SubscriptionLedger?
    /// The relationship callbacks: run by the thread that decided them, or queued, in order,
    /// behind the thread running them; a call runs at most ``_callbackBudget`` queued ones.
    @exclusivity(unchecked) private var _callbacks = _SerialDrain<_RelationshipChange>(budget: Receiver._callbackBudget)
    /// The number the next new entry gets: entries are listed in the order they began.
    @exclusivity(unchecked) private var _nextOrder = 0

    /// Creates a receiver that holds no observations.
    ///
    /// - Complexity: O(1); one allocation for the receiver and one for its lock.
    public init() {}

    deinit {
        // The observer is gone. End what it observed, without callbacks: there is no observer left
        // to call back (the ledger's own deinit removes its relationships).
        // No callbacks, so the order does not matter: the entries are not gathered and sorted.
        var more: [ObjectIdentifier: _ObservedSource] = [:]
        let first = _lock.withLock { () -> _ObservedSource? in
            swap(&more, &_more)
            return _first.take()
        }
        first?.endAll()
        for entry in more.values {
            entry.endAll()
        }
    }

    // MARK: The ledger

    /// The ledger, made now if it was not yet.
    var _ledgerMakingIfNeeded: SubscriptionLedger {
        _lock.withLock {
            if let ledger = _ledger { return ledger }
            let ledger = SubscriptionLedger()
            _ledger = ledger
            return ledger
        }
    }

    /// The ledger if it was made; `nil` means no relationship was ever recorded in it.
    var _existingLedger: SubscriptionLedger? {
        _lock.withLock { _ledger }
    }

    // MARK: Observations

    /// Adds `observation` of `messenger`; the first active one of the pair begins the relationship
    /// of `observer` with `source`, with callbacks after unlocking.
    ///
    /// Whether the relationship begins is decided here, under the receiver's lock, and nowhere
    /// else: observing and `subscribe(_:)` (a ``_SilentObservation``) both come here, so two
    /// threads that begin one pair's relationship at once announce it once.
    ///
    /// - Parameters:
    ///   - onlyIfNew: Adds nothing (and returns `false`) if the pair's relationship exists already:
    ///     `subscribe(_:)` of a pair that is subscribed.
    ///   - insert: Inserts the observation into the messenger's table, after the receiver has
    ///     recorded it and outside its lock: code specialized for the message type, made by the
    ///     caller.
    /// - Returns: Whether the observation was added.
    /// - Complexity: O(1) amortized.
    @discardableResult
    func _add<Source: ObservableSource>(
        _ observation: _Observation<Source.Message>,
        of source: Source,
        messenger: Messenger<Source.Message>,
        by observer: some Observer,
        onlyIfNew: Bool = false,
        insert: () -> Void
    ) -> Bool {
        let key = ObjectIdentifier(messenger)
        let isolated = _IsolatedRelationshipCallbacks.of(observer)
        // An observation that targets the observer's own actor is made by that observer's
        // `observe`, which is isolated to the actor: the caller runs there.
        let callerIsOnTheActor = isolated != nil && observation._target === isolated?.queue
        var schedulesIsolated = false
        var beginsAtOnce = false
        let (added, decision, released) = _lock.withLock { () -> (Bool, _ChangeDecision, [_ObservedSource]) in
            var released: [_ObservedSource] = []
            let isFirst = _update(key) { entry -> Bool? in
                if entry?.containsActive == true {
                    if onlyIfNew { return nil }
                    entry!.append(observation)
                    return false
                }
                // A new pair, or an entry left by a messenger that died at this address.
                if let stale = entry.take() { released.append(stale) }
                entry = _ObservedSource(
                    key: key, order: _nextOrder, source: source, messenger: messenger, first: observation)
                _nextOrder += 1
                return true
            }
            guard let isFirst else { return (false, .nothing, released) }
            if isFirst, _more.count >= _sweepThreshold {
                released += _sweepEndedEntries()
            }
            guard isFirst else { return (true, .nothing, released) }
            // Before the observation is in the messenger's table: ahead of its handler calls.
            if callerIsOnTheActor, isolated?.takeQueueForBeginningAtOnce() == true {
                beginsAtOnce = true
            } else {
                schedulesIsolated = isolated?.postBeginning(with: ObjectIdentifier(source)) ?? false
            }
            let decision = _decide(_RelationshipChange(source: source, observer: observer, isSubscribed: true))
            return (true, decision, released)
        }
        if schedulesIsolated { isolated?.queue.scheduleDrain() }
        if beginsAtOnce { isolated?.runBeginningAtOnce(with: ObjectIdentifier(source)) }
        if added { insert() }
        _ = consume released  // released here, outside the lock
        _run(decision)
        return added
    }

    /// Ends every observation of the messenger `key` (a `subscribe(_:)` included, which is one),
    /// and with the last the relationship.
    ///
    /// The end is announced to the observable that the relationship began with, while it lives
    /// (else to its messenger): the caller's `source` may be another face of it, such as its
    /// messenger or a ``Weak`` of it.
    ///
    /// - Returns: Whether a relationship ended.
    /// - Complexity: O(*k*) for the *k* observations that end.
    func _stopObserving(
        _ source: some GeneralObservable,
        key: ObjectIdentifier,
        by observer: some Observer
    ) -> Bool {
        let isolated = _IsolatedRelationshipCallbacks.of(observer)
        var schedulesIsolated = false
        let (removed, decision) = _lock.withLock { () -> (_ObservedSource?, _ChangeDecision) in
            // Moved out, never copied: a copy would copy the entry's weak references. Released
            // after unlocking, even an entry left by a messenger that died.
            let removed = _update(key) { entry in entry.take() }
            guard case .some(let entry) = consume removed else { return (nil, .nothing) }
            guard entry.containsActive else { return (consume entry, .nothing) }
            schedulesIsolated =
                isolated?.postEnd(with: entry.sourceKey, ending: entry.observations) ?? false
            let change = _RelationshipChange(
                source: entry.beganWith(source) ?? source, observer: observer, isSubscribed: false)
            return (consume entry, _decide(change))
        }
        if schedulesIsolated { isolated?.queue.scheduleDrain() }
        removed?.endAll()
        if case .nothing = decision { return false }
        _run(decision)
        return true
    }

    /// Ends `observation` alone, one of the observations of the messenger `key`: for a chain that
    /// ends its own observation (`prefix`, `first(where:)`, `timeout`). With the last active
    /// observation of the pair the relationship ends, with its callbacks, as in
    /// ``_stopObserving(_:key:by:)``.
    ///
    /// - Returns: Whether this call ended the observation.
    /// - Complexity: O(*k*) for the *k* observations of that messenger.
    func _stopObservation(_ observation: _ObservationRecord, key: ObjectIdentifier, by observer: any Observer) -> Bool {
        let isolated = _IsolatedRelationshipCallbacks.of(observer)
        var postedEnd = false
        var schedulesIsolated = false
        let (removed, decision) = _lock.withLock { () -> (_ObservedSource?, _ChangeDecision) in
            _update(key) { entry -> (_ObservedSource?, _ChangeDecision) in
                // An observation that ended already was taken care of by whoever ended it.
                guard observation._isActive, let othersRemain = entry?.remove(observation) else {
                    return (nil, .nothing)
                }
                if othersRemain, entry?.containsActive == true { return (nil, .nothing) }
                // The last active observation of the pair: the entry goes, released after
                // unlocking, and the relationship ends.
                guard let removed = entry.take() else { return (nil, .nothing) }
                guard let source = removed.liveSource else { return (removed, .nothing) }
                if let isolated {
                    postedEnd = true
                    schedulesIsolated = isolated.postEnd(
                        with: removed.sourceKey, ending: [observation] + removed.observations)
                }
                return (removed, _decide(_RelationshipChange(source: source, observer: observer, isSubscribed: false)))
            }
        }
        if schedulesIsolated { isolated?.queue.scheduleDrain() }
        // The actor's end call may end the observation first; this call decided the end all the
        // same, under the lock.
        let ended = observation._end() || postedEnd
        removed?.endAll()
        _run(decision)
        return ended
    }

    /// Ends every observation; announces the end of each relationship whose observable lives.
    ///
    /// - Returns: The observables it stopped observing.
    /// - Complexity: O(*n*) for *n* observations.
    func _stopObservingAll(by observer: some Observer) -> [any GeneralObservable] {
        var ended: [any GeneralObservable] = []
        let isolated = _IsolatedRelationshipCallbacks.of(observer)
        var schedulesIsolated = false
        let (taken, decisions) = _lock.withLock { () -> ([_ObservedSource], [_ChangeDecision]) in
            let taken = _takeAll()
            var decisions: [_ChangeDecision] = []
            for entry in taken where entry.containsActive {
                guard let source = entry.liveSource else { continue }
                ended.append(source)
                if isolated?.postEnd(with: entry.sourceKey, ending: entry.observations) == true {
                    schedulesIsolated = true
                }
                decisions.append(
                    _decide(_RelationshipChange(source: source, observer: observer, isSubscribed: false))
                )
            }
            return (taken, decisions)
        }
        if schedulesIsolated { isolated?.queue.scheduleDrain() }
        for entry in taken {
            entry.endAll()
        }
        for decision in decisions { _run(decision) }
        return ended
    }

    /// Forgets the observations of a messenger that died, releasing their handlers now rather than
    /// when the table is next swept.
    ///
    /// - Complexity: O(1) on average.
    func _forgetMessenger(_ key: ObjectIdentifier) {
        let forgotten = _lock.withLock { () -> _ObservedSource? in
            _update(key) { entry in
                // Only an entry whose observations all ended: the address may already be reused.
                guard entry?.containsActive == false else { return nil }
                return entry.take()
            }
        }
        _ = forgotten  // released here, outside the lock
    }

    /// Whether an observation of the messenger `key` is active; with `countingSubscriptions`, a
    /// relationship made by `subscribe(_:)` (a ``_SilentObservation``) counts too.
    ///
    /// - Complexity: O(*k*) for *k* observations of that messenger.
    func _isObserving(_ key: ObjectIdentifier, countingSubscriptions: Bool = true) -> Bool {
        // Only the observations are taken out (a copy of the whole entry would copy its weak
        // references too), and their flags are read after unlocking.
        let (first, more) = _lock.withLock { () -> (_ObservationRecord?, [_ObservationRecord]?) in
            if _first?.key == key { return (_first?.first, _first?.more) }
            return (_more[key]?.first, _more[key]?.more)
        }
        guard let first else { return false }
        if countingSubscriptions {
            return first._isActive || more?.contains { $0._isActive } == true
        }
        return (!first._isSilent && first._isActive) || more?.contains { !$0._isSilent && $0._isActive } == true
    }

    /// The observables this receiver observes and that are alive, each once.
    ///
    /// - Complexity: O(*n*) for *n* observations.
    func _observedSources() -> [any GeneralObservable] {
        // The weak references are loaded under the lock, into strong references that are released
        // after unlocking, by the caller.
        _lock.withLock {
            var entries: [_ObservedSource] = []
            if let first = _first { entries.append(first) }
            entries += _more.values
            entries.sort { $0.order < $1.order }
            return entries.compactMap { entry in entry.containsActive ? entry.liveSource : nil }
        }
    }

    // MARK: Storage, under the lock

    /// Runs `body` on the entry for `key`, absent or present, and stores what it leaves.
    private func _update<Result>(
        _ key: ObjectIdentifier,
        _ body: (inout _ObservedSource?) -> Result
    ) -> Result {
        // Asked without copying an entry (which would copy its weak references): the inline entry
        // is read in place, and the dictionary is asked for an index, not a value.
        if _first?.key == key || (_first == nil && _more.index(forKey: key) == nil) {
            return body(&_first)
        }
        return body(&_more[key])
    }

    private func _takeAll() -> [_ObservedSource] {
        var taken: [_ObservedSource] = []
        if let first = _first { taken.append(first) }
        _first = nil
        var more: [ObjectIdentifier: _ObservedSource] = [:]
        swap(&more, &_more)
        taken += more.values
        taken.sort { $0.order < $1.order }
        return taken
    }

    /// Removes the entries whose observations all ended (their messenger died) and returns them,
    /// to be released after unlocking.
    ///
    /// - Complexity: O(*n*); called when the table has doubled, so amortized O(1) per addition.
    private func _sweepEndedEntries() -> [_ObservedSource] {
        var ended: [_ObservedSource] = []
        if let first = _first, !first.containsActive {
            ended.append(first)
            _first = nil
        }
        for (key, entry) in _more where !entry.containsActive {
            ended.append(entry)
            _more[key] = nil
        }
        _sweepThreshold = Swift.max(16, _more.count * 2)
        return ended
    }

    // MARK: Relationship callbacks, in the order they were decided

    /// How many callbacks of other changes one call runs, after its own, before it hands the rest
    /// to a queue of their own: a call that changes a relationship is never held for as long as other threads
    /// keep changing this observer's relationships.
    static let _callbackBudget = 64

    /// Whether no thread or task is running or about to run this receiver's relationship
    /// callbacks: every callback decided so far has run.
    var _callbacksAreIdle: Bool { _lock.withLock { !_callbacks.isRunning } }

    /// Decides, under the lock, whether this thread runs `change` now or another thread that is
    /// running callbacks runs it after the ones before it.
    private func _decide(_ change: consuming _RelationshipChange) -> _ChangeDecision {
        guard let now = _callbacks.submit(change) else { return .queued }
        return .runNow(now)
    }

    /// Runs a decided change, then the changes decided meanwhile, outside the lock, up to the
    /// budget.
    private func _run(_ decision: consuming _ChangeDecision) {
        // Consumed, not copied: a copy of the change retains both sides, objects that are
        // referenced weakly and so counted through their side tables.
        switch consume decision {
        case .nothing, .queued: return
        case .runNow(let change): change.apply()
        }
        _runQueuedCallbacks(handsOff: true)
    }

    /// Runs the queued callbacks in order: a call's own run stops after the budget and hands the
    /// rest to a queue of their own, which runs them all.
    private func _runQueuedCallbacks(handsOff: Bool) {
        var ran = 0
        while true {
            let step = _lock.withLock { _callbacks.next(afterRunning: ran, handsOff: handsOff) }
            switch consume step {
            case .finished:
                return
            case .handOff:
                _HandOffs.run(label: "Messaging.Receiver.callbacks") {
                    self._runQueuedCallbacks(handsOff: false)
                }
                return
            case .run(let batch):
                ran += batch.count
                for change in batch { change.apply() }
            }
        }
    }
}

/// A relationship that began or ended: its callbacks, observable first, as RVS_GeneralObserver
/// promises.
private struct _RelationshipChange {
    let source: any GeneralObservable
    let observer: any Observer
    let isSubscribed: Bool

    func apply() {
        source.observer(observer, didSubscribe: isSubscribed)
        if isSubscribed {
            observer.subscribedTo(source)
        } else {
            observer.unsubscribedFrom(source)
        }
    }
}

/// What the decision under the lock left for after unlocking.
private enum _ChangeDecision {
    /// No relationship began or ended.
    case nothing
    /// Another thread runs the callbacks, after those decided before.
    case queued
    /// This thread runs the callbacks, then any decided meanwhile.
    case runNow(_RelationshipChange)
}

/// An observer's observations of one messenger, and the observable they were made through.
struct _ObservedSource {
    let key: ObjectIdentifier
    /// When the entry began, relative to the receiver's other entries.
    let order: Int
    /// The identity of `source`, which may be compared without loading the weak reference.
    let sourceKey: ObjectIdentifier
    weak var source: (any GeneralObservable)?
    /// The messenger, kept only when it is not the source itself: it may outlive the source.
    weak var separateMessenger: (any GeneralObservable)?
    var first: _ObservationRecord
    var more: [_ObservationRecord] = []

    init(
        key: ObjectIdentifier,
        order: Int,
        source: any GeneralObservable,
        messenger: any GeneralObservable,
        first: _ObservationRecord
    ) {
        self.key = key
        self.order = order
        sourceKey = ObjectIdentifier(source)
        self.source = source
        // A weak reference costs its object a side table once: only made when needed.
        if source !== messenger { separateMessenger = messenger }
        self.first = first
    }

    /// The observable, or its messenger where that outlived it.
    var liveSource: (any GeneralObservable)? { source ?? separateMessenger }

    /// The observable that the relationship began with, while it lives (else its messenger): the
    /// caller's `named` if it is that one, which saves loading the weak reference (a retain and a
    /// release through a side table).
    func beganWith(_ named: any GeneralObservable) -> (any GeneralObservable)? {
        sourceKey == ObjectIdentifier(named) ? named : liveSource
    }

    mutating func append(_ observation: _ObservationRecord) {
        more.append(observation)
    }

    /// Removes `observation` from the entry, unless it is the only one: the caller then removes
    /// the entry. The caller holds the observation, so the reference dropped here is not its last.
    ///
    /// - Returns: `nil` if `observation` is not in the entry; otherwise whether other
    ///   observations remain in it (`false`: it was the only one, and is still there).
    /// - Complexity: O(*k*) for the *k* observations in the entry.
    mutating func remove(_ observation: _ObservationRecord) -> Bool? {
        if first === observation {
            guard !more.isEmpty else { return false }
            first = more.removeFirst()
            return true
        }
        guard let index = more.firstIndex(where: { $0 === observation }) else { return nil }
        more.remove(at: index)
        return true
    }

    /// Ends each observation still active and removes it from its messenger's table.
    ///
    /// - Returns: Whether any was still active.
    @discardableResult
    func endAll() -> Bool {
        var ended = first._end()
        for observation in more where observation._end() { ended = true }
        return ended
    }

    var containsActive: Bool { first._isActive || more.contains { $0._isActive } }

    /// The entry's observations, ended or not.
    var observations: [_ObservationRecord] { [first] + more }
}
