/// Transforms applied to the messages of one observation, before its handler.
///
/// Start one with `observe(_:)` without a handler, add transforms, and end it with a handler:
///
/// ```swift
/// observer.observe(title).new().unwrap("Untitled").map { $0.count } { length in
///     // the new title's length
/// }
/// ```
///
/// The whole chain is one observation of the observable: its transforms are functions composed
/// when the chain ends, not observables, so a transform costs no object, no lock and no table, and
/// the chain ends with the observation. A chain that is never given a handler observes nothing.
///
/// Every transform has a second form that also takes the handler and ends the chain, which keeps
/// the trailing-closure syntax (`.map { ... } { result in ... }`); `receive(_:)`
/// ends a chain whose last transform takes no closure. With two closures, write the first in
/// parentheses (`.map({ $0.count }) { length in ... }`) or label the second
/// (`.map { $0.count } receive: { length in ... }`).
///
/// The observer's kind decides the closures' kind, as for `observe` with a handler: for an
/// ``Observer`` they are `@Sendable` and run on the thread that delivers; a ``MainActorObserver``
/// or an ``ActorObserver`` gets an ``IsolatedObservationChain`` instead, whose closures run on its
/// actor and may use its state.
///
/// The transforms of one chain run one message at a time, in order: a stateful transform
/// (``distinct()``, ``discard(first:)``) keeps its state per observation.
public struct ObservationChain<Observing: Observer, Source: ObservableSource, Output> {
    /// The observation to be, and its transforms so far.
    @usableFromInline let _core: _ChainCore<Observing, Source, Output>

    @inlinable
    init(_core: _ChainCore<Observing, Source, Output>) {
        self._core = _core
    }
}

/// Transforms applied to the messages of one observation by a ``MainActorObserver`` or an
/// ``ActorObserver``, before its handler; they run on the observer's actor.
///
/// It is an ``ObservationChain`` whose closures are not `@Sendable`: written in the observer's
/// main-actor or actor code, they may use its state. It can only be started there, by the
/// observer's own `observe(_:)`. See ``ObservationChain`` for the transforms.
public struct IsolatedObservationChain<Observing: Observer, Source: ObservableSource, Output> {
    /// The observation to be, and its transforms so far.
    @usableFromInline let _core: _ChainCore<Observing, Source, Output>

    @inlinable
    init(_core: _ChainCore<Observing, Source, Output>) {
        self._core = _core
    }
}

/// What both kinds of chain are: an observer, an observable, where the handler runs, and the
/// composed handler.
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
    /// Whether a stage needs the observation's gate (a hop or a time stage); without one, the
    /// observation gets none and costs nothing more than any other.
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
    /// wait, that the observation is still active.
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

    @inlinable
    func discard(first count: Int) -> _ChainCore<Observing, Source, Output> {
        precondition(count >= 0, "discard(first:) needs a count of zero or more, not \(count)")
        return appending { downstream in
            let left = _TransformState(count)
            return { output, author in
                guard left.value == 0 else {
                    left.value -= 1
                    return
                }
                downstream(output, author)
            }
        }
    }

    @inlinable
    func filter(author: AnyObject, isIncluded: Bool) -> _ChainCore<Observing, Source, Output> {
        let expected = _WeakAuthor(author)
        return appending { downstream in
            { output, author in
                if (expected.object === author) == isIncluded { downstream(output, author) }
            }
        }
    }
}

// MARK: - Starting a chain

extension Observer {
    /// Starts a chain of transforms on the messages of `observable`; the chain's handler makes it
    /// an observation.
    ///
    /// ```swift
    /// observe(numbers).filter { $0 > 9 }.map { "\($0)" } { text in
    ///     // a number of two digits or more, as text
    /// }
    /// ```
    ///
    /// - Parameter observable: The observable to observe.
    /// - Returns: A chain with no transform yet; nothing is observed until it gets a handler.
    /// - Complexity: O(1).
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source
    ) -> ObservationChain<Self, Source, Source.Message> {
        ObservationChain(_core: .start(self, observable, on: nil))
    }
}

extension MainActorObserver {
    /// Starts a chain of transforms on the messages of `observable`; the transforms and the
    /// handler run on the main actor.
    ///
    /// - Parameter observable: The observable to observe.
    /// - Returns: A chain with no transform yet; nothing is observed until it gets a handler.
    /// - Complexity: O(1).
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source
    ) -> IsolatedObservationChain<Self, Source, Source.Message> {
        IsolatedObservationChain(_core: .start(self, observable, on: _mainActorQueue()))
    }
}

extension ActorObserver {
    /// Starts a chain of transforms on the messages of `observable`; the transforms and the
    /// handler run on this actor.
    ///
    /// - Parameter observable: The observable to observe.
    /// - Returns: A chain with no transform yet; nothing is observed until it gets a handler.
    /// - Complexity: O(1).
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source
    ) -> IsolatedObservationChain<Self, Source, Source.Message> {
        IsolatedObservationChain(_core: .start(self, observable, on: _actorQueue(of: self)))
    }
}

/// The main actor's queue, for a chain's target.
@usableFromInline
func _mainActorQueue() -> AnyObject { _ActorQueue.main }

/// An actor's queue, for a chain's target.
@usableFromInline
func _actorQueue(of actor: any Actor) -> AnyObject { _ActorQueue.of(actor) }

// MARK: - State of stateful transforms

/// The state of one stateful transform in one observation.
///
/// `@unchecked Sendable`: only the observation's composed handler touches it, and a messenger
/// never runs one observation's handler twice at once (deliveries on a messenger are serial, and
/// an actor runs its queue one call at a time); each delivery is ordered after the previous one by
/// the messenger's lock or the actor's queue.
@usableFromInline
final class _TransformState<Value>: @unchecked Sendable {
    /// Accessed by one delivery at a time (see above), so the run-time exclusivity check, about 60
    /// instructions per message, is left out.
    @exclusivity(unchecked) @usableFromInline var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

/// An author held weakly, for the author filters: a transform does not keep an author alive.
///
/// `@unchecked Sendable`: a weak reference is only loaded, which the runtime makes atomic.
@usableFromInline
final class _WeakAuthor: @unchecked Sendable {
    @usableFromInline weak var object: AnyObject?

    @inlinable
    init(_ object: AnyObject) {
        self.object = object
    }
}
