/// What the stages of one chain observation that run later or elsewhere (after a hop to an actor,
/// after a debounce's wait) ask right before they go on: whether the observation is still active;
/// and how a stage that ends the observation (`prefix`, `first(where:)`, `timeout`) ends it.
///
/// The engine checks an observation's flag before it calls the handler; a stage that defers the
/// rest of the chain must check again when the rest runs, since the observation may have ended
/// meanwhile. The gate refers to its observation weakly: the observation owns the composed handler,
/// which owns the gate, and an observation that is gone is not active.
///
/// A message that passed a stage before that stage ended the observation still goes on through
/// the hops and waits after it: the gate counts an observation that its own chain ended as active.
/// Messages that come later are dropped by the ending stage itself, which lets nothing through
/// after it ended the observation.
///
/// `@unchecked Sendable`: `observation`, `messengerKey`, `_ending` and `_whenStarted` are written
/// while the chain's stages are made and before the observation is inserted into its messenger's
/// table (whose lock publishes them to every delivering thread), and only read afterwards, but for
/// `_whenStarted`, which only the starting thread reads and empties; the runtime makes weak loads
/// atomic. The flag in `_ending` is guarded by its lock.
@usableFromInline
final class _ChainGate: @unchecked Sendable {
    weak var observation: _ObservationRecord?
    /// The identity of the observed messenger: the observer's receiver files the observation
    /// under it, and a stage that ends the observation removes it from there.
    var messengerKey: ObjectIdentifier?
    /// Whether the chain ended its observation itself; made only for a chain with a stage that
    /// may, while its stages are made (``prepareToEnd()``).
    private var _ending: _ChainEnding?
    /// What the stages asked to do once the observation has started.
    private var _whenStarted: [() -> Void] = []

    @usableFromInline
    init() {}

    /// The gate given to the stages of a chain that has no stage needing one; never asked.
    @usableFromInline
    static let unused = _ChainGate()

    /// Whether the observation is still active (its flag, read under its messenger's lock), or
    /// was ended by a stage of its own chain.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    var isActive: Bool {
        if observation?._isActive == true { return true }
        return _ending?.isEnded ?? false
    }

    /// Runs `action` once the observation has started: right after it is inserted into its
    /// messenger's table, on the thread that starts it. Called while the stages are made (a
    /// timeout starts its first countdown then; a `prefix(0)` ends the observation).
    @usableFromInline
    func whenStarted(_ action: @escaping () -> Void) {
        _whenStarted.append(action)
    }

    /// Lets a stage of this chain end the observation with ``end()``. Called while the stages are
    /// made, before the observation starts.
    @usableFromInline
    func prepareToEnd() {
        if _ending == nil { _ending = _ChainEnding() }
    }

    /// Ends the observation on behalf of one of its stages: it leaves its messenger's table and its
    /// observer's receiver, and with the last observation of the pair the relationship ends, with
    /// its callbacks.
    ///
    /// - Returns: Whether this call ended the observation: `false` if it had ended already (the
    ///   observer stopped it, or the chain did before).
    /// - Complexity: O(*k*) for the observer's *k* observations of the messenger.
    @usableFromInline
    func end() -> Bool {
        guard let ending = _ending else {
            preconditionFailure("a stage ends its observation only after prepareToEnd()")
        }
        guard let observation else { return false }  // released: it ended
        // Marked first: a message that passed the ending stage and is on its way through a hop
        // must find the gate open once the observation has ended.
        guard ending.mark() else { return false }
        let ended: Bool
        if let key = messengerKey, let observer = observation._observer {
            ended = observer.receiver._stopObservation(observation, key: key, by: observer)
        } else {
            ended = observation._end()
        }
        if !ended { ending.unmark() }  // someone else ended it first: what is on its way is dropped
        return ended
    }

    /// Runs what the stages asked to do once the observation has started, and lets it go.
    func _started() {
        let actions = _whenStarted
        _whenStarted = []
        for action in actions { action() }
    }
}

/// Whether a chain ended its observation itself, for its gate.
///
/// `@unchecked Sendable`: `_isEnded` is guarded by `_lock`.
private final class _ChainEnding: @unchecked Sendable {
    private let _lock = _Lock()
    @exclusivity(unchecked) private var _isEnded = false

    var isEnded: Bool { _lock.withLock { _isEnded } }

    /// Marks the observation as ended by its chain; `false` if it was marked already.
    func mark() -> Bool {
        _lock.withLock {
            if _isEnded { return false }
            _isEnded = true
            return true
        }
    }

    func unmark() {
        _lock.withLock { _isEnded = false }
    }
}

/// Starts the observation of a chain with its composed handler; with a gate, links the gate to the
/// observation before anyone can deliver to it.
///
/// Not inlinable, as it reaches the engine. Without a gate it is `observe`'s own path; with one,
/// it takes the same steps as `Observer._observe(_:target:_:)`, with the gate set in between.
@usableFromInline
func _startChainObservation<Observing: Observer, Source: ObservableSource>(
    _ observer: Observing,
    _ source: Source,
    _ target: AnyObject?,
    _ handler: @escaping (Source.Message, AnyObject) -> Void,
    gate: _ChainGate?
) {
    let queue = target.map { $0 as! _ActorQueue }
    guard let gate else {
        observer._observe(source, target: queue, .messageAndAuthor(handler))
        return
    }
    let messenger = source.messenger
    let observation = _Observation.make(
        observer: observer, messenger: messenger, target: queue, handler: .messageAndAuthor(handler)
    )
    gate.observation = observation
    gate.messengerKey = ObjectIdentifier(messenger)
    observer._record(observation, of: source, messenger: messenger) { messenger._core.insert(observation) }
    gate._started()
}
