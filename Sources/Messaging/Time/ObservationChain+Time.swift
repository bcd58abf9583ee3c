// Time stages of ad hoc chains: `debounce` and `throttle` as transforms of one observation, with
// their state per observation. They run the rules of the standalone `Debounced` and `Throttled`
// (`_DebounceState`, `_ThrottleState`), without an observable of their own.

extension ObservationChain where Output: Sendable {
    /// Lets a message go on only once the chain has received nothing for `interval`: the latest
    /// message of each burst, and its author.
    ///
    /// ```swift
    /// observer.observe(query).new().debounce(for: .milliseconds(300)).receive { text in
    ///     search(for: text)
    /// }
    /// ```
    ///
    /// Every message restarts the countdown; when it ends, the latest message goes on to the rest
    /// of the chain from a task of its own (hop with ``onMainActor()`` or ``on(_:)`` after this
    /// stage to run the rest on an actor). The countdown and the latest message belong to the
    /// observation. Once the observation has ended, nothing more goes on, and releasing the
    /// observation cancels the countdown: its task never keeps the observer alive. An `interval`
    /// of zero or less lets each burst's latest message go on as soon as its task runs.
    ///
    /// - Parameters:
    ///   - interval: How long the chain must receive nothing before its latest message goes on.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more and no allocation while a countdown runs: a
    ///   burst costs one task, however many messages it has.
    @inlinable
    public func debounce(
        for interval: Duration,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> ObservationChain<Observing, Source, Output> {
        .init(
            _core: _core.appendingGated { downstream, gate in
                _debounceStage(interval: interval, clock: clock, gate: gate, downstream)
            })
    }

    /// Lets a message go on only if at least `interval` has passed since the last one that went
    /// on, and drops it otherwise.
    ///
    /// ```swift
    /// observer.observe(position).throttle(for: .milliseconds(100)).receive { point in
    ///     redraw(at: point)
    /// }
    /// ```
    ///
    /// Leading edge only, as ``ObservableSource/throttle(for:clock:)``: the first message of a
    /// burst goes on at once, on the thread that delivers it, and the others within the interval
    /// are dropped. The time of the last message that went on belongs to the observation.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two messages that go on.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more and no allocation.
    @inlinable
    public func throttle(
        for interval: Duration,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> ObservationChain<Observing, Source, Output> {
        .init(
            _core: _core.appending { downstream in
                _throttleStage(interval: interval, clock: clock, downstream)
            })
    }
}

// MARK: - After a hop

extension MainActorObservationChain where Output: Sendable {
    /// Lets a message go on only once the chain has received nothing for `interval`: the latest
    /// message of each burst, on the main actor.
    ///
    /// ```swift
    /// observer.observe(query).new().onMainActor().map { $0.trimmed }.debounce(for: .milliseconds(300))
    ///     .receive { text in viewModel.search(for: text) }
    /// ```
    ///
    /// As ``ObservationChain/debounce(for:clock:)``, with the countdown and the latest message kept
    /// per observation; when the countdown ends, the latest message goes back to the main actor's
    /// one queue and on to the rest of the chain. Once the observation has ended, nothing more
    /// goes on.
    ///
    /// - Parameters:
    ///   - interval: How long the chain must receive nothing before its latest message goes on.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more and no allocation while a countdown runs: a
    ///   burst costs one task and one queued call.
    @inlinable
    public func debounce(
        for interval: Duration,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> MainActorObservationChain<Observing, Source, Output> {
        .init(
            _core: _core.appendingGated { downstream, gate in
                _mainActorDebounceStage(interval: interval, clock: clock, gate: gate, downstream)
            })
    }

    /// Lets a message go on only if at least `interval` has passed since the last one that went
    /// on, and drops it otherwise; on the main actor.
    ///
    /// As ``ObservationChain/throttle(for:clock:)``: leading edge only, the time of the last
    /// message that went on kept per observation.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two messages that go on.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more and no allocation.
    @inlinable
    public func throttle(
        for interval: Duration,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> MainActorObservationChain<Observing, Source, Output> {
        .init(
            _core: _core.appending { downstream in _mainActorThrottleStage(interval: interval, clock: clock, downstream)
            })
    }
}

extension ActorObservationChain where Output: Sendable {
    /// Lets a message go on only once the chain has received nothing for `interval`: the latest
    /// message of each burst, on the actor.
    ///
    /// As ``ObservationChain/debounce(for:clock:)``, with the countdown and the latest message kept
    /// per observation; when the countdown ends, the latest message goes back to the actor's one
    /// queue and on to the rest of the chain. Once the observation has ended, or the actor is
    /// gone, nothing more goes on.
    ///
    /// - Parameters:
    ///   - interval: How long the chain must receive nothing before its latest message goes on.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more and no allocation while a countdown runs: a
    ///   burst costs one task and one queued call.
    @inlinable
    public func debounce(
        for interval: Duration,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> ActorObservationChain<Observing, Source, Isolation, Output> {
        .init(
            _core: _core.appendingGated { downstream, gate, actor in
                _actorDebounceStage(interval: interval, clock: clock, gate: gate, actor: actor, downstream)
            })
    }

    /// Lets a message go on only if at least `interval` has passed since the last one that went
    /// on, and drops it otherwise; on the actor.
    ///
    /// As ``ObservationChain/throttle(for:clock:)``: leading edge only, the time of the last
    /// message that went on kept per observation.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two messages that go on.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more and no allocation.
    @inlinable
    public func throttle(
        for interval: Duration,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> ActorObservationChain<Observing, Source, Isolation, Output> {
        .init(
            _core: _core.appending { downstream in _actorThrottleStage(interval: interval, clock: clock, downstream) })
    }
}
