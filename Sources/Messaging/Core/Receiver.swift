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
public final class Receiver: @unchecked Sendable {  // `_observed`, `_changes`, `_isApplying`: `_lock`
    let _ledger = SubscriptionLedger()
    private let _lock = _Lock()
    /// The observations, grouped by messenger.
    private var _observed: [ObjectIdentifier: _ObservedSource] = [:]
    /// Relationship changes waiting to be applied to the ledgers, in the order they were decided.
    private var _changes: [() -> Void] = []
    /// Whether a thread is applying `_changes`.
    private var _isApplying = false

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
            for observation in source.all where observation._deactivate() {
                observation._detachFromMessenger()
            }
        }
    }

    /// Records a new observation of `source` and, if it is the first of this observer on that
    /// source, the relationship in both ledgers, with its callbacks.
    ///
    /// The receiver's lock guards its table only: the ledgers are changed after unlocking, since
    /// recording a relationship reads user-implementable properties (`uuid`, `messenger`) and may
    /// release objects whose `deinit` calls back into the library. See ``_applyChanges()``.
    func _add<Source: ObservableSource>(
        _ observation: _Observation<Source.Message>,
        of source: Source,
        messenger: Messenger<Source.Message>,
        by observer: some Observer
    ) {
        let key = ObjectIdentifier(messenger)
        let isFirst = _lock.withLock { () -> Bool in
            if _observed[key] != nil {
                _observed[key]!.append(observation)
                return false
            }
            _observed[key] = _ObservedSource(source: source, messenger: messenger, first: observation)
            _changes.append {
                if SubscriptionLedger.recordSubscription(of: observer, to: source) {
                    source.observer(observer, didSubscribe: true)
                    observer.subscribedTo(source)
                }
            }
            return true
        }
        messenger._core.insert(observation)
        if isFirst { _applyChanges() }
    }

    /// Ends every observation of the messenger identified by `key` and the relationship with
    /// `source`, with its callbacks.
    ///
    /// - Returns: Whether there was an observation to end, or a relationship to erase. When
    ///   another thread is changing this receiver's relationships at the same moment, the erasure
    ///   is left to that thread, and only the observations count.
    func _stopObserving(
        _ source: some GeneralObservable,
        key: ObjectIdentifier,
        by observer: some Observer
    ) -> Bool {
        let erased = _Flag()
        let removed = _lock.withLock { () -> _ObservedSource? in
            _changes.append {
                if SubscriptionLedger.eraseSubscription(of: observer, from: source) {
                    erased.isSet = true
                    source.observer(observer, didSubscribe: false)
                    observer.unsubscribedFrom(source)
                }
            }
            return _observed.removeValue(forKey: key)
        }
        for observation in removed?.all ?? [] where observation._deactivate() {
            observation._detachFromMessenger()
        }
        // The flag is read only when this thread ran the change that sets it.
        let applied = _applyChanges()
        return removed != nil || (applied && erased.isSet)
    }

    /// Applies the queued relationship changes, in order, outside the lock.
    ///
    /// One thread at a time applies them; a thread that finds another one applying (or a callback
    /// that observes again while its own change is being applied) leaves its change to it. The
    /// order in which the changes were decided under the lock is the order in which the ledgers
    /// see them, so a relationship recorded by one thread and erased by another ends erased,
    /// whichever thread gets to the ledgers first.
    ///
    /// - Returns: `true` if this call applied every change queued before it, on this thread.
    @discardableResult
    private func _applyChanges() -> Bool {
        let batch = _lock.withLock { () -> [() -> Void]? in
            if _isApplying { return nil }
            if _changes.isEmpty { return [] }
            _isApplying = true
            return _takeChanges()
        }
        guard var changes = batch else { return false }
        while !changes.isEmpty {
            for change in changes { change() }
            changes = _lock.withLock { () -> [() -> Void] in
                if _changes.isEmpty { _isApplying = false }
                return _takeChanges()
            }
        }
        return true
    }

    /// Takes the queued changes; call under the lock.
    private func _takeChanges() -> [() -> Void] {
        var taken: [() -> Void] = []
        swap(&taken, &_changes)
        return taken
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
        _lock.withLock { _observed[key]?.containsActive ?? false }
    }

    /// The messengers whose observable source died while they live on: their observations
    /// continue, but the source can no longer be named to end them.
    func _messengersOfDeadSources() -> [any GeneralObservable] {
        // Copying the entries copies weak references; they are loaded, and the strong references
        // they make released, after unlocking: a source may be dying on another thread, and its
        // `deinit` must not run under this lock.
        let entries = _lock.withLock { Array(_observed.values) }
        return entries.compactMap { entry in entry.source == nil ? entry.messenger : nil }
    }
}

/// A flag that a relationship change sets for the thread that queued it.
private final class _Flag {
    var isSet = false
}

/// The observations one receiver holds on one messenger.
struct _ObservedSource {
    /// The object that was observed: a custom ``ObservableSource``, or the messenger itself.
    weak var source: (any GeneralObservable)?
    /// The source's messenger, which shares its ledger and outlives it if someone else keeps it.
    weak var messenger: (any GeneralObservable)?
    /// The first observation, kept inline: most observers observe a messenger once.
    var first: any _ObservationHandle
    var more: [any _ObservationHandle] = []

    mutating func append(_ observation: any _ObservationHandle) {
        more.append(observation)
    }

    var all: [any _ObservationHandle] { [first] + more }

    var containsActive: Bool { first._isActive || more.contains { $0._isActive } }
}
