/// The rest of an ad hoc chain, after ``ObservationChain/on(_:)``: its transforms and its handler
/// run on an actor, which they receive as an `isolated` parameter.
///
/// ```swift
/// actor Tally { var total = 0 }
///
/// observer.observe(amounts).on(tally).filter { _, amount in amount > 0 }.receive { tally, amount in
///     tally.total += amount        // the actor's state, no `await`
/// }
/// ```
///
/// The closures are `@Sendable` and get the actor `isolated`, so the compiler lets them use its
/// state and nothing else that is not `Sendable`. Messages reach them through the actor's one queue
/// (shared with every handler bound for that actor), in the order they reached the hop. The chain
/// holds the actor weakly: once the actor is gone, nothing more is delivered. Right before the
/// rest of a message runs, the observation is checked: once it has ended, nothing more reaches the
/// handler.
///
/// It has the operators of ``ObservationChain``, but for those that need the messages' authors:
/// an author is not `Sendable`, so it does not cross the hop, and the author filters
/// (`filterAuthor(_:)`, ``ObservationChain/from(_:)``, `notFrom(_:)`) and the handler that gets
/// the author (`receive(_:)` with two parameters) do not exist here: filter by author before the
/// hop.
///
/// To run the rest on an executor of your own (a serial dispatch queue, a thread), give an actor
/// that executor as its `unownedExecutor` and hop to the actor.
public struct ActorObservationChain<Observing: Observer, Source: ObservableSource, Isolation: Actor, Output> {
    /// The observation to be, and its stages so far.
    @usableFromInline let _core: _ActorChainCore<Observing, Source, Isolation, Output>

    @inlinable
    init(_core: _ActorChainCore<Observing, Source, Isolation, Output>) {
        self._core = _core
    }
}

/// What an actor chain is: the observation to be, and the composed handler, whose stages after the
/// hop are isolated to `Isolation`.
@usableFromInline
struct _ActorChainCore<Observing: Observer, Source: ObservableSource, Isolation: Actor, Output> {
    @usableFromInline let observer: Observing
    @usableFromInline let source: Source
    /// See ``_MainActorChainCore/target``.
    @usableFromInline let target: AnyObject?
    /// The actor the stages run on, for a time stage, which hops back to it after a wait. Weak: a
    /// chain never keeps its actor alive.
    @usableFromInline weak var actor: Isolation?
    /// Makes the composed handler for one observation from its last step and its gate.
    @usableFromInline let makeSink:
        (@escaping @Sendable (isolated Isolation, Output) -> Void, _ChainGate) -> (Source.Message, AnyObject) -> Void

    @inlinable
    init(
        observer: Observing,
        source: Source,
        target: AnyObject?,
        actor: Isolation?,
        makeSink:
            @escaping (@escaping @Sendable (isolated Isolation, Output) -> Void, _ChainGate) -> (
                Source.Message, AnyObject
            ) -> Void
    ) {
        self.observer = observer
        self.source = source
        self.target = target
        self.actor = actor
        self.makeSink = makeSink
    }

    /// A chain with one more stage, on the actor.
    @inlinable
    func appending<Next>(
        _ makeStage:
            @escaping (@escaping @Sendable (isolated Isolation, Next) -> Void) ->
            @Sendable (isolated Isolation, Output) -> Void
    ) -> _ActorChainCore<Observing, Source, Isolation, Next> {
        let makeSink = makeSink
        return _ActorChainCore<Observing, Source, Isolation, Next>(
            observer: observer, source: source, target: target, actor: actor
        ) { receive, gate in
            makeSink(makeStage(receive), gate)
        }
    }

    /// A chain with one more stage, on the actor, that needs the observation's gate (to end the
    /// observation).
    @inlinable
    func appendingGated<Next>(
        _ makeStage:
            @escaping (@escaping @Sendable (isolated Isolation, Next) -> Void, _ChainGate) ->
            @Sendable (isolated Isolation, Output) -> Void
    ) -> _ActorChainCore<Observing, Source, Isolation, Next> {
        let makeSink = makeSink
        return _ActorChainCore<Observing, Source, Isolation, Next>(
            observer: observer, source: source, target: target, actor: actor
        ) { receive, gate in
            makeSink(makeStage(receive, gate), gate)
        }
    }

    /// A chain with one more time stage, on the actor: `makeStage` gets the rest of the chain
    /// (`downstream`), for the messages that go on at once, from the stage; what the stage sends on
    /// with from its task (`later`): a call posted to the actor's one queue, which runs the rest of
    /// the chain there while the observation is active and the actor alive; and the gate. A chain
    /// whose actor is gone by the time the observation starts gets a stage that does nothing.
    @inlinable
    func appendingTimed<Next: Sendable>(
        _ makeStage:
            @escaping (
                _ downstream: @escaping @Sendable (isolated Isolation, Next) -> Void,
                _ later: @escaping (Next, AnyObject) -> Void, _ gate: _ChainGate
            ) -> @Sendable (isolated Isolation, Output) -> Void
    ) -> _ActorChainCore<Observing, Source, Isolation, Next> {
        let actor = actor
        return appendingGated { [weak actor] downstream, gate in
            guard let actor else { return { _, _ in } }
            let hop = _hopToActor(actor, downstream, gate: gate)
            return makeStage(downstream, { value, _ in hop(value, nil) }, gate)
        }
    }

    /// Ends the chain with `receive`: starts the observation, with a gate for its hops.
    @inlinable
    func finish(_ receive: @escaping @Sendable (isolated Isolation, Output) -> Void) {
        let gate = _ChainGate()
        _startChainObservation(observer, source, target, makeSink(receive, gate), gate: gate)
    }
}
