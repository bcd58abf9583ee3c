/// What an ``ObservationChain`` and an ``IsolatedObservationChain`` are: an observer, an
/// observable, where the handler runs, and the composed handler.
///
/// Inlinable, so that the composed closures are specialized for the client's types: in generic
/// code, each `Output?` would cost a metadata lookup per message.
@usableFromInline
struct _ChainCore<Observing: Observer, Source: ObservableSource, Output> {
    /// The observer that the chain's observation belongs to.
    @usableFromInline let observer: Observing
    /// The observable observed.
    @usableFromInline let source: Source
    /// Where the handler and the transforms run (an actor's queue), or `nil` for the delivering
    /// thread.
    @usableFromInline let target: AnyObject?
    /// Makes the composed handler for one observation from its last step, `receive`, and the
    /// observation's gate: each stage wraps the one after it, so a message goes through one
    /// closure per stage and nothing is returned back up. Called once per observation, so that a
    /// stage may keep state.
    @usableFromInline let makeSink:
        (@escaping (Output, AnyObject) -> Void, _ChainGate) -> (Source.Message, AnyObject) -> Void
    /// Whether a stage needs the observation's gate (a hop, a time stage, a stage that ends the
    /// observation); without one, the observation gets none and costs nothing more than any other.
    @usableFromInline let needsGate: Bool

    @inlinable
    init(
        observer: Observing,
        source: Source,
        target: AnyObject?,
        needsGate: Bool = false,
        makeSink: @escaping (@escaping (Output, AnyObject) -> Void, _ChainGate) -> (Source.Message, AnyObject) -> Void
    ) {
        self.observer = observer
        self.source = source
        self.target = target
        self.needsGate = needsGate
        self.makeSink = makeSink
    }

    /// A chain with no transform yet: the handler receives the messages themselves.
    @inlinable
    static func start(
        _ observer: Observing,
        _ source: Source,
        on target: AnyObject?
    ) -> _ChainCore<Observing, Source, Source.Message> {
        _ChainCore<Observing, Source, Source.Message>(observer: observer, source: source, target: target) {
            receive, _ in receive
        }
    }

    /// A chain with one more stage: `makeStage` turns the next step into what this stage's input
    /// goes to.
    @inlinable
    func appending<Next>(
        _ makeStage: @escaping (@escaping (Next, AnyObject) -> Void) -> (Output, AnyObject) -> Void
    ) -> _ChainCore<Observing, Source, Next> {
        let makeSink = makeSink
        return _ChainCore<Observing, Source, Next>(
            observer: observer, source: source, target: target, needsGate: needsGate
        ) { receive, gate in
            makeSink(makeStage(receive), gate)
        }
    }

    /// A chain with one more stage that needs the observation's gate: to check, after a hop or a
    /// wait, that the observation is still active, or to end it.
    @inlinable
    func appendingGated<Next>(
        _ makeStage: @escaping (@escaping (Next, AnyObject) -> Void, _ChainGate) -> (Output, AnyObject) -> Void
    ) -> _ChainCore<Observing, Source, Next> {
        let makeSink = makeSink
        return _ChainCore<Observing, Source, Next>(
            observer: observer, source: source, target: target, needsGate: true
        ) { receive, gate in
            makeSink(makeStage(receive, gate), gate)
        }
    }

    /// A chain with one more time stage: `makeStage` gets the rest of the chain (`downstream`), for
    /// the messages that go on at once, from the stage; what the stage sends on with from its task
    /// (`later`), which runs the rest of the chain only while the observation is active; and the
    /// gate. On the delivering thread (an ``ObservationChain``)
    /// that is the rest of the chain itself, called from the task, which the stage runs one call at
    /// a time; on an actor (an ``IsolatedObservationChain``) it is a call posted to the actor's
    /// one queue.
    @inlinable
    func appendingTimed<Next>(
        _ makeStage:
            @escaping (
                _ downstream: @escaping (Next, AnyObject) -> Void, _ later: @escaping (Next, AnyObject) -> Void,
                _ gate: _ChainGate
            ) -> (Output, AnyObject) -> Void
    ) -> _ChainCore<Observing, Source, Next> {
        let target = target
        return appendingGated { downstream, gate in
            guard let target else {
                return makeStage(downstream, { value, author in if gate.isActive { downstream(value, author) } }, gate)
            }
            return makeStage(downstream, _postingToQueue(target, downstream, gate: gate), gate)
        }
    }

    /// Ends the chain with `receive`: starts the observation.
    @inlinable
    func finish(_ receive: @escaping (Output, AnyObject) -> Void) {
        if needsGate {
            let gate = _ChainGate()
            _startChainObservation(observer, source, target, makeSink(receive, gate), gate: gate)
        } else {
            _startChainObservation(observer, source, target, makeSink(receive, _ChainGate.unused), gate: nil)
        }
    }

    /// Ends the chain with `receive`, which takes no author: starts the observation.
    @inlinable
    func finish(_ receive: @escaping (Output) -> Void) {
        finish { output, _ in receive(output) }
    }
}
