/// The rest of an ad hoc chain, after ``ObservationChain/onMainActor()``: its transforms and its
/// handler run on the main actor, and may use main-actor state.
///
/// ```swift
/// observer.observe(downloads).filter { $0.isFinished }.onMainActor().map { $0.name }.receive { name in
///     statusLabel.text = name      // main-actor state
/// }
/// ```
///
/// The closures are `@MainActor` and `@Sendable`: they may touch main-actor state, and what they
/// capture from the code that builds the chain must be `Sendable`, as the compiler checks. Messages
/// reach them through the main actor's one queue, in the order they reached the hop; a message
/// sent from the main actor reaches them before `send` returns. Right before the rest of a message
/// runs, the observation is checked: once it has ended, nothing more reaches the handler.
///
/// It has the operators of ``ObservationChain``, but for those that need the messages' authors:
/// an author is not `Sendable`, so it does not cross the hop, and the author filters
/// (`filterAuthor(_:)`, ``ObservationChain/from(_:)``, `notFrom(_:)`) and the handler that gets
/// the author (`receive(_:)` with two parameters) do not exist here: filter by author before the
/// hop. Nor does `onMainActor()`: the chain runs on the main actor already; ``on(_:)`` moves on
/// to an actor.
public struct MainActorObservationChain<Observing: Observer, Source: ObservableSource, Output> {
    /// The observation to be, and its stages so far.
    @usableFromInline let _core: _MainActorChainCore<Observing, Source, Output>

    @inlinable
    init(_core: _MainActorChainCore<Observing, Source, Output>) {
        self._core = _core
    }
}

/// What a main-actor chain is: the observation to be, and the composed handler, whose stages after
/// the hop are main-actor closures.
@usableFromInline
struct _MainActorChainCore<Observing: Observer, Source: ObservableSource, Output> {
    @usableFromInline let observer: Observing
    @usableFromInline let source: Source
    /// Where the handler runs (an actor's queue), or `nil` for the delivering thread: the start of
    /// the chain, before its first hop.
    @usableFromInline let target: AnyObject?
    /// Makes the composed handler for one observation from its last step and its gate.
    @usableFromInline let makeSink:
        (@escaping @MainActor @Sendable (Output) -> Void, _ChainGate) -> (Source.Message, AnyObject) -> Void

    @inlinable
    init(
        observer: Observing,
        source: Source,
        target: AnyObject?,
        makeSink:
            @escaping (@escaping @MainActor @Sendable (Output) -> Void, _ChainGate) -> (
                Source.Message, AnyObject
            ) -> Void
    ) {
        self.observer = observer
        self.source = source
        self.target = target
        self.makeSink = makeSink
    }

    /// A chain with one more stage, on the main actor.
    @inlinable
    func appending<Next>(
        _ makeStage: @escaping (@escaping @MainActor @Sendable (Next) -> Void) -> @MainActor @Sendable (Output) -> Void
    ) -> _MainActorChainCore<Observing, Source, Next> {
        let makeSink = makeSink
        return _MainActorChainCore<Observing, Source, Next>(observer: observer, source: source, target: target) {
            receive, gate in
            makeSink(makeStage(receive), gate)
        }
    }

    /// A chain with one more stage, on the main actor, that needs the observation's gate (to end
    /// the observation).
    @inlinable
    func appendingGated<Next>(
        _ makeStage:
            @escaping (@escaping @MainActor @Sendable (Next) -> Void, _ChainGate) ->
            @MainActor @Sendable (Output) ->
            Void
    ) -> _MainActorChainCore<Observing, Source, Next> {
        let makeSink = makeSink
        return _MainActorChainCore<Observing, Source, Next>(observer: observer, source: source, target: target) {
            receive, gate in
            makeSink(makeStage(receive, gate), gate)
        }
    }

    /// A chain with one more time stage, on the main actor: `makeStage` gets the rest of the chain
    /// (`downstream`), for the messages that go on at once, from the stage; what the stage sends on
    /// with from its task (`later`): a call posted to the main actor's one queue, which runs the rest
    /// of the chain there while the observation is active; and the gate.
    @inlinable
    func appendingTimed<Next: Sendable>(
        _ makeStage:
            @escaping (
                _ downstream: @escaping @MainActor @Sendable (Next) -> Void,
                _ later: @escaping (Next, AnyObject) -> Void, _ gate: _ChainGate
            ) -> @MainActor @Sendable (Output) -> Void
    ) -> _MainActorChainCore<Observing, Source, Next> {
        appendingGated { downstream, gate in
            let hop = _hopToMainActor(downstream, gate: gate)
            return makeStage(downstream, { value, _ in hop(value, nil) }, gate)
        }
    }

    /// Ends the chain with `receive`: starts the observation, with a gate for its hops.
    @inlinable
    func finish(_ receive: @escaping @MainActor @Sendable (Output) -> Void) {
        let gate = _ChainGate()
        _startChainObservation(observer, source, target, makeSink(receive, gate), gate: gate)
    }
}
