// Hops: stages after which the rest of a chain, and its handler, run on an actor. The stages
// before a hop run where the chain's messages arrive (the delivering thread, for an ``Observer``);
// the hop posts each message that reaches it to the target actor's one queue, and the rest runs
// there, one message at a time, in order. See `_ChainHop.swift` for the hop itself.
//
// The two hopped chains mirror each other stage for stage, and both mirror ``ObservationChain``:
// change them together.

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
/// sent from the main actor reaches them before `send` returns. They do not get the messages'
/// authors: an author is not `Sendable`, so filter by author (``ObservationChain/from(_:)``)
/// before the hop. Right before the rest of a
/// message runs, the observation is checked: once it has ended, nothing more reaches the handler.
public struct MainActorObservationChain<Observing: Observer, Source: ObservableSource, Output> {
    /// The observation to be, and its stages so far.
    @usableFromInline let _core: _MainActorChainCore<Observing, Source, Output>

    @inlinable
    init(_core: _MainActorChainCore<Observing, Source, Output>) {
        self._core = _core
    }
}

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

    /// A chain with one more stage, on the main actor, that needs the observation's gate (a time
    /// stage, which sends on after a wait).
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

    /// Ends the chain with `receive`: starts the observation, with a gate for its hops.
    @inlinable
    func finish(_ receive: @escaping @MainActor @Sendable (Output) -> Void) {
        let gate = _ChainGate()
        _startChainObservation(observer, source, target, makeSink(receive, gate), gate: gate)
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

    /// A chain with one more stage, on the actor, that needs the observation's gate and the actor
    /// (a time stage, which hops back to the actor after a wait).
    @inlinable
    func appendingGated<Next>(
        _ makeStage:
            @escaping (@escaping @Sendable (isolated Isolation, Next) -> Void, _ChainGate, Isolation?) ->
            @Sendable (isolated Isolation, Output) -> Void
    ) -> _ActorChainCore<Observing, Source, Isolation, Next> {
        let makeSink = makeSink
        let actor = actor
        return _ActorChainCore<Observing, Source, Isolation, Next>(
            observer: observer, source: source, target: target, actor: actor
        ) { [weak actor] receive, gate in
            makeSink(makeStage(receive, gate, actor), gate)
        }
    }

    /// Ends the chain with `receive`: starts the observation, with a gate for its hops.
    @inlinable
    func finish(_ receive: @escaping @Sendable (isolated Isolation, Output) -> Void) {
        let gate = _ChainGate()
        _startChainObservation(observer, source, target, makeSink(receive, gate), gate: gate)
    }
}

// MARK: - Hopping

extension ObservationChain where Output: Sendable {
    /// Runs the rest of the chain, and its handler, on the main actor.
    ///
    /// ```swift
    /// observer.observe(progress).map { Int($0 * 100) }.onMainActor().receive { percent in
    ///     progressLabel.text = "\(percent) %"   // main-actor state
    /// }
    /// ```
    ///
    /// The stages before the hop run on the thread that delivers; each message that passes them is
    /// posted to the main actor's one queue, which every main-actor handler shares, so messages keep
    /// the order in which they were sent, across messengers. A message delivered on the main actor
    /// goes on at once. A message whose observation has ended by the time it would run on the main
    /// actor is dropped. The messages must be `Sendable`, as they cross to the main actor.
    ///
    /// - Returns: The rest of the chain, whose closures are `@MainActor`.
    /// - Complexity: O(1); per message, one queued call (an allocation), or none on the main actor.
    @inlinable
    public func onMainActor() -> MainActorObservationChain<Observing, Source, Output> {
        // The stages before the hop run on the delivering thread.
        .init(_core: _core.hoppingToMainActor(from: { nil }))
    }

    /// Runs the rest of the chain, and its handler, on `actor`, which its closures receive as an
    /// `isolated` parameter.
    ///
    /// ```swift
    /// observer.observe(amounts).on(tally).receive { tally, amount in
    ///     tally.total += amount
    /// }
    /// ```
    ///
    /// Each message that passes the stages before the hop is posted to the actor's one queue, which
    /// every handler bound for that actor shares, so messages keep the order in which they were
    /// sent, across messengers. The chain holds `actor` weakly. A message whose observation has
    /// ended, or whose actor is gone, by the time it would run on the actor is dropped. The
    /// messages must be `Sendable`, as they cross to the actor.
    ///
    /// For a custom executor, hop to an actor whose `unownedExecutor` is that executor. A
    /// `TaskExecutor` is no target: it runs work without isolation, so the rest of the chain could
    /// run on two threads at once.
    ///
    /// - Parameter actor: The actor to run the rest of the chain on.
    /// - Returns: The rest of the chain, whose closures are isolated to `actor`.
    /// - Complexity: O(1); per message, one queued call (an allocation).
    @inlinable
    public func on<Isolation: Actor>(_ actor: Isolation) -> ActorObservationChain<Observing, Source, Isolation, Output>
    {
        .init(_core: _core.hopping(to: actor, from: { nil }))
    }
}

extension _ChainCore where Output: Sendable {
    /// The rest of the chain on the main actor, after the stages so far, which run on the actor
    /// that `current` returns (`nil`: the delivering thread).
    @inlinable
    func hoppingToMainActor(
        from current: @escaping @Sendable () -> (any Actor)?
    ) -> _MainActorChainCore<Observing, Source, Output> {
        let core = self
        return _MainActorChainCore(observer: observer, source: source, target: target) { rest, gate in
            let hop = _hopToMainActor(rest, gate: gate)
            return core.makeSink({ value, _ in hop(value, current()) }, gate)
        }
    }

    /// The rest of the chain on `actor`, after the stages so far, which run on the actor that
    /// `current` returns (`nil`: the delivering thread).
    @inlinable
    func hopping<Isolation: Actor>(
        to actor: Isolation,
        from current: @escaping @Sendable () -> (any Actor)?
    ) -> _ActorChainCore<Observing, Source, Isolation, Output> {
        let core = self
        return _ActorChainCore(observer: observer, source: source, target: target, actor: actor) { rest, gate in
            let hop = _hopToActor(actor, rest, gate: gate)
            return core.makeSink({ value, _ in hop(value, current()) }, gate)
        }
    }
}

extension MainActorObservationChain where Output: Sendable {
    /// Runs the rest of the chain, and its handler, on `actor` instead of the main actor.
    ///
    /// See ``ObservationChain/on(_:)``.
    ///
    /// - Parameter actor: The actor to run the rest of the chain on.
    /// - Returns: The rest of the chain, whose closures are isolated to `actor`.
    /// - Complexity: O(1); per message, one queued call (an allocation).
    @inlinable
    public func on<Isolation: Actor>(_ actor: Isolation) -> ActorObservationChain<Observing, Source, Isolation, Output>
    {
        let core = _core
        return .init(
            _core: _ActorChainCore(observer: core.observer, source: core.source, target: core.target, actor: actor) {
                rest, gate in
                let hop = _hopToActor(actor, rest, gate: gate)
                return core.makeSink({ value in hop(value, MainActor.shared) }, gate)
            })
    }
}

extension ActorObservationChain where Output: Sendable {
    /// Runs the rest of the chain, and its handler, on the main actor instead of this chain's actor.
    ///
    /// See ``ObservationChain/onMainActor()``.
    ///
    /// - Returns: The rest of the chain, whose closures are `@MainActor`.
    /// - Complexity: O(1); per message, one queued call (an allocation).
    @inlinable
    public func onMainActor() -> MainActorObservationChain<Observing, Source, Output> {
        let core = _core
        return .init(
            _core: _MainActorChainCore(observer: core.observer, source: core.source, target: core.target) {
                rest, gate in
                let hop = _hopToMainActor(rest, gate: gate)
                return core.makeSink({ actor, value in hop(value, actor) }, gate)
            })
    }

    /// Runs the rest of the chain, and its handler, on another actor.
    ///
    /// See ``ObservationChain/on(_:)``.
    ///
    /// - Parameter actor: The actor to run the rest of the chain on.
    /// - Returns: The rest of the chain, whose closures are isolated to `actor`.
    /// - Complexity: O(1); per message, one queued call (an allocation), or none when `actor` is
    ///   this chain's actor.
    @inlinable
    public func on<Other: Actor>(_ actor: Other) -> ActorObservationChain<Observing, Source, Other, Output> {
        let core = _core
        return .init(
            _core: _ActorChainCore(observer: core.observer, source: core.source, target: core.target, actor: actor) {
                rest, gate in
                let hop = _hopToActor(actor, rest, gate: gate)
                return core.makeSink({ current, value in hop(value, current) }, gate)
            })
    }
}

// MARK: - Stages after a hop

extension MainActorObservationChain {
    /// Transforms each message, on the main actor.
    ///
    /// - Parameter transform: The transform.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func map<Next>(_ transform: @escaping @MainActor @Sendable (Output) -> Next) -> MainActorObservationChain<
        Observing, Source, Next
    > {
        .init(_core: _core.appending { downstream in { output in downstream(transform(output)) } })
    }

    /// Lets through only the messages for which `isIncluded` returns `true`, on the main actor.
    ///
    /// - Parameter isIncluded: Whether a message goes on.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filter(_ isIncluded: @escaping @MainActor @Sendable (Output) -> Bool) -> MainActorObservationChain<
        Observing, Source, Output
    > {
        .init(_core: _core.appending { downstream in { output in if isIncluded(output) { downstream(output) } } })
    }

    /// Transforms each message on the main actor, and lets through only the results that are not `nil`.
    ///
    /// - Parameter transform: The transform.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func compactMap<Next>(_ transform: @escaping @MainActor @Sendable (Output) -> Next?)
        -> MainActorObservationChain<Observing, Source, Next>
    {
        .init(
            _core: _core.appending { downstream in { output in if let next = transform(output) { downstream(next) } } })
    }

    /// Turns each ``Update`` into its new value.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func new<Value>() -> MainActorObservationChain<Observing, Source, Value> where Output == Update<Value> {
        .init(_core: _core.appending { downstream in { update in downstream(update.new) } })
    }

    /// Lets through only the messages that are not `nil`, unwrapped.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>() -> MainActorObservationChain<Observing, Source, Wrapped> where Output == Wrapped? {
        .init(_core: _core.appending { downstream in { output in if let output { downstream(output) } } })
    }

    /// Unwraps each message, replacing `nil` with `defaultValue`.
    ///
    /// - Parameter defaultValue: The value that replaces `nil`.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped: Sendable>(_ defaultValue: Wrapped) -> MainActorObservationChain<
        Observing, Source, Wrapped
    > where Output == Wrapped? {
        .init(_core: _core.appending { downstream in { output in downstream(output ?? defaultValue) } })
    }

    /// Drops each message that equals the previous one; the first always goes through.
    ///
    /// The previous message is kept per observation, on the main actor.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func distinct() -> MainActorObservationChain<Observing, Source, Output> where Output: Equatable {
        .init(
            _core: _core.appending { downstream in
                let previous = _TransformState<Output?>(nil)
                return { output in
                    if previous.value == output { return }
                    previous.value = output
                    downstream(output)
                }
            })
    }

    /// Drops the first `count` messages, and lets every later one through.
    ///
    /// - Parameter count: How many messages to drop; not negative.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func discard(first count: Int) -> MainActorObservationChain<Observing, Source, Output> {
        precondition(count >= 0, "discard(first:) needs a count of zero or more, not \(count)")
        return .init(
            _core: _core.appending { downstream in
                let left = _TransformState(count)
                return { output in
                    guard left.value == 0 else {
                        left.value -= 1
                        return
                    }
                    downstream(output)
                }
            })
    }

    /// Ends the chain with `receive`: starts the observation. The handler runs on the main actor.
    ///
    /// - Parameter receive: The handler.
    /// - Complexity: O(1) amortized, as `observe`.
    @inlinable
    public func receive(_ receive: @escaping @MainActor @Sendable (Output) -> Void) {
        _core.finish(receive)
    }
}

extension ActorObservationChain {
    /// Transforms each message, on the actor.
    ///
    /// - Parameter transform: The transform.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func map<Next>(_ transform: @escaping @Sendable (isolated Isolation, Output) -> Next)
        -> ActorObservationChain<Observing, Source, Isolation, Next>
    {
        .init(_core: _core.appending { downstream in { actor, output in downstream(actor, transform(actor, output)) } })
    }

    /// Lets through only the messages for which `isIncluded` returns `true`, on the actor.
    ///
    /// - Parameter isIncluded: Whether a message goes on.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (isolated Isolation, Output) -> Bool) -> ActorObservationChain<
        Observing, Source, Isolation, Output
    > {
        .init(
            _core: _core.appending { downstream in
                { actor, output in if isIncluded(actor, output) { downstream(actor, output) } }
            })
    }

    /// Transforms each message on the actor, and lets through only the results that are not `nil`.
    ///
    /// - Parameter transform: The transform.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func compactMap<Next>(_ transform: @escaping @Sendable (isolated Isolation, Output) -> Next?)
        -> ActorObservationChain<Observing, Source, Isolation, Next>
    {
        .init(
            _core: _core.appending { downstream in
                { actor, output in if let next = transform(actor, output) { downstream(actor, next) } }
            })
    }

    /// Turns each ``Update`` into its new value.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func new<Value>() -> ActorObservationChain<Observing, Source, Isolation, Value>
    where Output == Update<Value> {
        .init(_core: _core.appending { downstream in { actor, update in downstream(actor, update.new) } })
    }

    /// Lets through only the messages that are not `nil`, unwrapped.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>() -> ActorObservationChain<Observing, Source, Isolation, Wrapped>
    where Output == Wrapped? {
        .init(_core: _core.appending { downstream in { actor, output in if let output { downstream(actor, output) } } })
    }

    /// Unwraps each message, replacing `nil` with `defaultValue`.
    ///
    /// - Parameter defaultValue: The value that replaces `nil`.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped: Sendable>(_ defaultValue: Wrapped) -> ActorObservationChain<
        Observing, Source, Isolation, Wrapped
    > where Output == Wrapped? {
        .init(_core: _core.appending { downstream in { actor, output in downstream(actor, output ?? defaultValue) } })
    }

    /// Drops each message that equals the previous one; the first always goes through.
    ///
    /// The previous message is kept per observation, on the actor.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func distinct() -> ActorObservationChain<Observing, Source, Isolation, Output>
    where Output: Equatable, Output: Sendable {
        .init(
            _core: _core.appending { downstream in
                let previous = _TransformState<Output?>(nil)
                return { actor, output in
                    if previous.value == output { return }
                    previous.value = output
                    downstream(actor, output)
                }
            })
    }

    /// Drops the first `count` messages, and lets every later one through.
    ///
    /// - Parameter count: How many messages to drop; not negative.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func discard(first count: Int) -> ActorObservationChain<Observing, Source, Isolation, Output> {
        precondition(count >= 0, "discard(first:) needs a count of zero or more, not \(count)")
        return .init(
            _core: _core.appending { downstream in
                let left = _TransformState(count)
                return { actor, output in
                    guard left.value == 0 else {
                        left.value -= 1
                        return
                    }
                    downstream(actor, output)
                }
            })
    }

    /// Ends the chain with `receive`: starts the observation. The handler runs on the actor.
    ///
    /// - Parameter receive: The handler.
    /// - Complexity: O(1) amortized, as `observe`.
    @inlinable
    public func receive(_ receive: @escaping @Sendable (isolated Isolation, Output) -> Void) {
        _core.finish(receive)
    }
}
