// Hops from a chain that already runs on its observer's actor: a main-actor observer's chain can
// move on to another actor, and an actor observer's chain to the main actor or another actor. The
// stages before the hop run on the observer's actor, as the rest of an ``IsolatedObservationChain``
// does; the hop knows that actor, so a hop to the same actor runs the rest at once. See
// `ObservationChain+Hops.swift` for the chains after a hop and `_ChainHop.swift` for the hop.

extension IsolatedObservationChain where Observing: MainActorObserver, Output: Sendable {
    /// Runs the rest of the chain, and its handler, on `actor`, which its closures receive as an
    /// `isolated` parameter; the stages before the hop run on the main actor.
    ///
    /// ```swift
    /// // in a main-actor view model
    /// observe(amounts).filter { $0 > threshold }.on(ledger).receive { ledger, amount in
    ///     ledger.total += amount
    /// }
    /// ```
    ///
    /// See ``ObservationChain/on(_:)`` for the order, the end of the observation and lifetimes.
    ///
    /// - Parameter actor: The actor to run the rest of the chain on.
    /// - Returns: The rest of the chain, whose closures are isolated to `actor`.
    /// - Complexity: O(1); per message, one queued call (an allocation).
    @inlinable
    public func on<Isolation: Actor>(_ actor: Isolation) -> ActorObservationChain<Observing, Source, Isolation, Output>
    {
        // The stages before the hop run on the main actor.
        .init(_core: _core.hopping(to: actor, from: { MainActor.shared }))
    }
}

extension IsolatedObservationChain where Observing: ActorObserver, Output: Sendable {
    /// Runs the rest of the chain, and its handler, on the main actor; the stages before the hop
    /// run on this observer's actor.
    ///
    /// ```swift
    /// // in an actor observer
    /// observe(samples).map { average.adding($0) }.onMainActor().receive { value in
    ///     chart.show(value)
    /// }
    /// ```
    ///
    /// See ``ObservationChain/onMainActor()`` for the order, the end of the observation and
    /// lifetimes.
    ///
    /// - Returns: The rest of the chain, whose closures are `@MainActor`.
    /// - Complexity: O(1); per message, one queued call (an allocation).
    @inlinable
    public func onMainActor() -> MainActorObservationChain<Observing, Source, Output> {
        .init(_core: _core.hoppingToMainActor(from: _core.observer._weakly()))
    }

    /// Runs the rest of the chain, and its handler, on `actor`, which its closures receive as an
    /// `isolated` parameter; the stages before the hop run on this observer's actor.
    ///
    /// See ``ObservationChain/on(_:)`` for the order, the end of the observation and lifetimes.
    ///
    /// - Parameter actor: The actor to run the rest of the chain on.
    /// - Returns: The rest of the chain, whose closures are isolated to `actor`.
    /// - Complexity: O(1); per message, one queued call (an allocation), or none when `actor` is
    ///   this observer.
    @inlinable
    public func on<Isolation: Actor>(_ actor: Isolation) -> ActorObservationChain<Observing, Source, Isolation, Output>
    {
        .init(_core: _core.hopping(to: actor, from: _core.observer._weakly()))
    }
}

extension ActorObserver {
    /// Returns this actor, held weakly: the stages of its chain run on it, and the observation
    /// must not keep its observer alive.
    @usableFromInline
    nonisolated func _weakly() -> @Sendable () -> (any Actor)? {
        { [weak self] in self }
    }
}
