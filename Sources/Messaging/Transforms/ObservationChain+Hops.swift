// Hops: stages after which the rest of a chain, and its handler, run on an actor. The stages
// before a hop run where the chain's messages arrive (the delivering thread, for an ``Observer``);
// the hop posts each message that reaches it to the target actor's one queue, and the rest runs
// there, one message at a time, in order. See `_ChainHop.swift` for the hop itself, and
// `MainActorObservationChain.swift`, `ActorObservationChain.swift` for the chains after a hop.

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
