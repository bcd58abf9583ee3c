/// What the stages of one chain observation that run later or elsewhere (after a hop to an actor,
/// after a debounce's wait) ask right before they go on: whether the observation is still active.
///
/// The engine checks an observation's flag before it calls the handler; a stage that defers the
/// rest of the chain must check again when the rest runs, since the observation may have ended
/// meanwhile. The gate refers to its observation weakly: the observation owns the composed handler,
/// which owns the gate, and an observation that is gone is not active.
///
/// `@unchecked Sendable`: `observation` is written once, before the observation is inserted into
/// its messenger's table (whose lock publishes it to every delivering thread), and only loaded
/// afterwards; the runtime makes weak loads atomic.
@usableFromInline
final class _ChainGate: @unchecked Sendable {
    weak var observation: _ObservationRecord?

    @usableFromInline
    init() {}

    /// The gate given to the stages of a chain that has no stage needing one; never asked.
    @usableFromInline
    static let unused = _ChainGate()

    /// Whether the observation is still active: its flag, read under its messenger's lock.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    var isActive: Bool { observation?._isActive ?? false }
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
    observer._record(observation, of: source, messenger: messenger) { messenger._core.insert(observation) }
}
