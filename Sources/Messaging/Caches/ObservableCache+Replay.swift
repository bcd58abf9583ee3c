/// How an observation that starts with the latest message gets it: read under the messenger's
/// lock where the cache keeps its state there, or read before the observation starts.
struct _Replay<Message> {
    /// Called under the messenger's lock: library code only.
    let latest: () -> Message
    /// For a cache whose state the lock does not guard: reads ``ObservableCache/latestMessage``
    /// again when the replay is delivered at once, after the observation (and a transform's
    /// observation of its origin) has started.
    var reread: (() -> Message)? = nil
    let author: AnyObject
    /// The actor of the caller that starts the observation.
    let isolation: (any Actor)?

    /// The replay of `cache`'s latest message.
    static func of<Cache: ObservableCache>(
        _ cache: Cache,
        isolation: (any Actor)?
    ) -> _Replay<Message> where Cache.Message == Message {
        if let locked = cache as? any _LatestUnderLock<Message> {
            return _Replay(latest: { locked._latestMessageUnderLock() }, author: cache, isolation: isolation)
        }
        // Any other cache: its state is not under the messenger's lock. Its latest message is read
        // before the observation starts, for a replay queued behind another thread's delivery,
        // and again once it has started, when this thread delivers the replay itself.
        let latest = cache.latestMessage
        return _Replay(latest: { latest }, reread: { cache.latestMessage }, author: cache, isolation: isolation)
    }
}

/// A cache whose latest message is state guarded by its messenger's lock, so that replaying it and
/// starting an observation are one atomic step.
protocol _LatestUnderLock<Message>: ObservableCache {
    /// The latest message; call only while holding the lock of `messenger`'s core.
    func _latestMessageUnderLock() -> Message
}

extension Var: _LatestUnderLock {
    func _latestMessageUnderLock() -> Update<Value> { Update(_storage, _storage) }
}

extension ObservableCache {
    /// Starts an observation that lasts as long as the returned token and, if asked, first
    /// receives the latest message.
    ///
    /// ```swift
    /// let token = theme.subscribe(replayingLatest: true) { update in apply(update.new) }
    /// ```
    ///
    /// Replay is off unless asked for. With it, reading the latest message and starting the
    /// observation are one step: for a ``Var``, nothing sent meanwhile is missed or received twice,
    /// and the replayed message comes before any other, authored by the cache. For any other
    /// cache, whose state the library cannot read under its messenger's lock (one of your own, a
    /// `cache()`, a transform of a cache), ``latestMessage`` is read outside the lock; see
    /// <doc:CachesAndReplay> for what that guarantees.
    ///
    /// - Important: For such a cache, if another thread is delivering on it when the observation
    ///   starts (a transform already observed elsewhere, say), a change made between the read of
    ///   ``latestMessage`` and the start of the observation is not received: the replay shows the
    ///   state before it, and its message went only to the observations that existed then. Keep
    ///   the state in a ``Var`` and observe the variable where every change must arrive.
    ///
    /// - Parameters:
    ///   - replayingLatest: Whether the handler first receives ``latestMessage``.
    ///   - receive: The handler, called on the thread that delivers the message (for the replayed
    ///     message, usually this thread, before `subscribe` returns).
    /// - Returns: The token that owns the observation.
    /// - Complexity: O(1) amortized, plus the replayed delivery.
    public func subscribe(
        replayingLatest: Bool,
        _ receive: @escaping @Sendable (Message) -> Void
    ) -> ObservationToken {
        guard replayingLatest else { return subscribe(receive) }
        let messenger = messenger
        let observation = _Observation.makeToken(core: messenger._core, handler: .message(receive))
        let replay = _Replay.of(self, isolation: nil)
        messenger._core.insertReplaying(
            observation, latest: replay.latest, reread: replay.reread, author: replay.author, isolation: nil)
        return ObservationToken(observation)
    }
}

extension ObservableCache {
    /// Starts an observation that lasts as long as the returned token, with a handler isolated to
    /// the caller's actor that, if asked, first receives the latest message.
    ///
    /// ```swift
    /// bag += settings.theme.subscribeIsolated(replayingLatest: true) { [weak self] update in
    ///     self?.apply(update.new)     // the current theme at once, then every change
    /// }
    /// ```
    ///
    /// The handler runs as with ``ObservableSource/subscribeIsolated(isolation:_:)``; the replayed
    /// message runs before this method returns, even while another thread is delivering on the
    /// cache. Called from a handler that runs on the same actor, the replay waits for that handler
    /// to end instead, since handlers on one actor never nest. See
    /// ``subscribe(replayingLatest:_:)`` for what the replay guarantees.
    ///
    /// - Parameters:
    ///   - replayingLatest: Whether the handler first receives ``latestMessage``.
    ///   - isolation: The actor the handler runs on; leave the default, the caller's actor.
    ///   - receive: The handler, isolated to `isolation`.
    /// - Returns: The token that owns the observation.
    /// - Complexity: O(1) amortized, plus the replayed delivery.
    public func subscribeIsolated(
        replayingLatest: Bool,
        isolation: isolated any Actor = #isolation,
        _ receive: @escaping (Message) -> Void
    ) -> ObservationToken {
        guard replayingLatest else { return subscribeIsolated(isolation: isolation, receive) }
        let messenger = messenger
        let observation = _Observation.make(
            observer: nil, messenger: messenger, target: .of(isolation), handler: .message(receive), isToken: true)
        let replay = _Replay.of(self, isolation: isolation)
        messenger._core.insertReplaying(
            observation, latest: replay.latest, reread: replay.reread, author: replay.author, isolation: isolation)
        return ObservationToken(observation)
    }
}

extension Observer {
    /// Starts observing `cache` and, if asked, first receives its latest message.
    ///
    /// ```swift
    /// observe(settings.theme, replayingLatest: true) { update in
    ///     apply(update.new)       // the current theme at once, then every change
    /// }
    /// ```
    ///
    /// See ``ObservableCache/subscribe(replayingLatest:_:)`` for what the replay guarantees.
    ///
    /// - Parameters:
    ///   - cache: The cache to observe.
    ///   - replayingLatest: Whether the handler first receives the cache's latest message.
    ///   - receive: The handler, called on the thread that delivers the message.
    /// - Complexity: O(1) amortized, plus the replayed delivery.
    public func observe<Cache: ObservableCache>(
        _ cache: Cache,
        replayingLatest: Bool,
        _ receive: @escaping @Sendable (Cache.Message) -> Void
    ) {
        _observe(
            cache, target: nil, .message(receive),
            replay: replayingLatest ? .of(cache, isolation: nil) : nil)
    }
}

extension MainActorObserver {
    /// Starts observing `cache` and, if asked, first receives its latest message; `receive` runs
    /// on the main actor, the replayed message before this method returns, even while another thread
    /// is delivering on the cache. Called from a handler that runs on the same actor, the replay
    /// waits for that handler to end instead, since handlers on one actor never nest.
    ///
    /// See ``ObservableCache/subscribe(replayingLatest:_:)`` for what the replay guarantees.
    ///
    /// - Parameters:
    ///   - cache: The cache to observe.
    ///   - replayingLatest: Whether the handler first receives the cache's latest message.
    ///   - receive: The handler, main-actor isolated.
    /// - Complexity: O(1) amortized, plus the replayed delivery.
    public func observe<Cache: ObservableCache>(
        _ cache: Cache,
        replayingLatest: Bool,
        _ receive: @escaping (Cache.Message) -> Void
    ) {
        _observe(
            cache, target: .main, .message(receive),
            replay: replayingLatest ? .of(cache, isolation: MainActor.shared) : nil)
    }
}

extension ActorObserver {
    /// Starts observing `cache` and, if asked, first receives its latest message; `receive` runs
    /// on this actor, the replayed message before this method returns, even while another thread
    /// is delivering on the cache. Called from a handler that runs on the same actor, the replay
    /// waits for that handler to end instead, since handlers on one actor never nest.
    ///
    /// See ``ObservableCache/subscribe(replayingLatest:_:)`` for what the replay guarantees.
    ///
    /// - Parameters:
    ///   - cache: The cache to observe.
    ///   - replayingLatest: Whether the handler first receives the cache's latest message.
    ///   - receive: The handler, isolated to this actor.
    /// - Complexity: O(1) amortized, plus the replayed delivery.
    public func observe<Cache: ObservableCache>(
        _ cache: Cache,
        replayingLatest: Bool,
        _ receive: @escaping (Cache.Message) -> Void
    ) {
        _observe(
            cache, target: .of(self), .message(receive),
            replay: replayingLatest ? .of(cache, isolation: self) : nil)
    }
}
