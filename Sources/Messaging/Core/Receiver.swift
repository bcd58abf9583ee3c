import GeneralObserver

/// What makes an object an ``Observer``: it keeps the object's observations alive.
///
/// ```swift
/// class Dog: Observer {
///     let receiver = Receiver()
/// }
/// ```
///
/// An observer owns its receiver. When the observer dies, the receiver dies with it and ends every
/// observation it holds: nothing of the observer remains in any messenger. Share a receiver
/// between objects only if they should start and stop observing together.
public final class Receiver: @unchecked Sendable {  // `_observed` is guarded by `_lock`
    let _ledger = SubscriptionLedger()
    private let _lock = _Lock()
    /// The observations, grouped by messenger.
    private var _observed: [ObjectIdentifier: _ObservedSource] = [:]

    /// Creates a receiver that holds no observations.
    public init() {}

    deinit {
        // The observer is gone. End what it observed, without callbacks: there is no observer left
        // to call back (the ledger's own deinit removes the relationships).
        let observed = _lock.withLock { () -> [ObjectIdentifier: _ObservedSource] in
            var taken: [ObjectIdentifier: _ObservedSource] = [:]
            swap(&taken, &_observed)
            return taken
        }
        for source in observed.values {
            for observation in source.observations where observation._deactivate() {
                observation._detachFromMessenger()
            }
        }
    }

    /// Records a new observation of `source` and, if it is the first of this observer on that
    /// source, the relationship in both ledgers.
    ///
    /// - Returns: `true` if the relationship is new (the caller then runs the callbacks).
    func _add<Source: ObservableSource>(
        _ observation: _Observation<Source.Message>,
        of source: Source,
        by observer: some Observer
    ) -> Bool {
        let key = ObjectIdentifier(source.messenger)
        let isNewRelationship = _lock.withLock { () -> Bool in
            if _observed[key] != nil {
                _observed[key]!.observations.append(observation)
                return false
            }
            _observed[key] = _ObservedSource(
                source: source,
                messenger: source.messenger,
                observations: [observation]
            )
            // Under this lock, so that a concurrent stop of the same pair cannot interleave.
            return SubscriptionLedger.recordSubscription(of: observer, to: source)
        }
        source.messenger._core.insert(observation)
        return isNewRelationship
    }

    /// Ends every observation of the messenger identified by `key` and the relationship with
    /// `source`.
    ///
    /// - Returns: Whether there was anything to end; and whether a relationship was erased (the
    ///   caller then runs the callbacks).
    func _stopObserving(
        _ source: some GeneralObservable,
        key: ObjectIdentifier?,
        by observer: some Observer
    ) -> (endedAny: Bool, erasedRelationship: Bool) {
        let (removed, erased) = _lock.withLock { () -> (_ObservedSource?, Bool) in
            let removed = key.flatMap { _observed.removeValue(forKey: $0) }
            return (removed, SubscriptionLedger.eraseSubscription(of: observer, from: source))
        }
        for observation in removed?.observations ?? [] where observation._deactivate() {
            observation._detachFromMessenger()
        }
        return (removed != nil || erased, erased)
    }

    /// Forgets every observation of a messenger that is going away.
    ///
    /// - Complexity: O(1): the observations of one messenger are one entry.
    func _forgetMessenger(_ key: ObjectIdentifier) {
        let forgotten = _lock.withLock { _observed.removeValue(forKey: key) }
        _ = forgotten  // released here, outside the lock
    }

    /// Whether any observation of the messenger identified by `key` is active.
    func _isObserving(_ key: ObjectIdentifier) -> Bool {
        _lock.withLock { _observed[key]?.observations.contains { $0._isActive } ?? false }
    }

    /// The sources with at least one observation.
    /// The messengers whose observable source died while they live on: their observations
    /// continue, but the source can no longer be named to end them.
    func _messengersOfDeadSources() -> [any GeneralObservable] {
        // The weak loads make strong references; they leave the lock inside the result.
        _lock.withLock {
            _observed.values.compactMap { entry in entry.source == nil ? entry.messenger : nil }
        }
    }
}

/// The observations one receiver holds on one messenger.
struct _ObservedSource {
    /// The object that was observed: a custom ``ObservableSource``, or the messenger itself.
    weak var source: (any GeneralObservable)?
    /// The source's messenger, which shares its ledger and outlives it if someone else keeps it.
    weak var messenger: (any GeneralObservable)?
    var observations: [_ObservationRecord]
}
