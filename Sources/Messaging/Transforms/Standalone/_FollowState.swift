/// What a ``Followed`` knows about its current inner observable, and the messages it has yet to
/// send.
///
/// Every inner observable gets a generation, counted up at each switch and whenever the follower
/// stops being observed. The handler of an observation of an inner carries that observation's
/// generation, and a message is posted to the outbox only if its generation is still the current
/// one, checked under the lock in the step that posts it. A switch counts the generation up under
/// the same lock, and its report is posted after that. So every message of an old inner that gets
/// through was posted before the switch's report, and the outbox sends in the order of posting:
/// no message of an inner that is no longer current is delivered after the switch was reported,
/// whichever threads the switch and the old inner's messages come from.
///
/// The observation of a cache inner starts with a replay of its latest message (read under the
/// inner's lock for a ``Var``, with the observation's start, so no change is missed or seen
/// twice). That first message is not forwarded as it is: it seeds the follower's last message when
/// observing starts, and after a switch it becomes the switch's report (`_bridge`).
///
/// `==` (in `_bridge`), the inner's `messenger` getter and the selector are user code: they run
/// outside the lock, and what they decide is posted under the lock only if no switch came between.
final class _FollowState<Inner: ObservableSource, Message>: _MessengerDeathListener, @unchecked Sendable {
    // Every `var` is guarded by `_lock`, which makes the run-time exclusivity checks redundant; the
    // outbox is guarded by the same lock. The rest is immutable.
    let _lock = _Lock()
    @exclusivity(unchecked) var _inner: Inner?
    /// The messenger of `_inner`, read when it became current: two inners are the same
    /// relationship when their messengers are the same object.
    @exclusivity(unchecked) var _innerMessenger: AnyObject?
    @exclusivity(unchecked) var _generation: UInt64 = 0
    /// The observation of `_inner` while the follower is observed.
    @exclusivity(unchecked) var _observation: _Observation<Inner.Message>?
    /// What the first message of the current generation's observation is.
    @exclusivity(unchecked) var _awaiting: _FollowAwaiting = .seed
    /// The last message the follower sent or was seeded with: the `old` side of a switch's report.
    @exclusivity(unchecked) var _last: Message?
    /// The author of the source message that caused the switch being reported.
    @exclusivity(unchecked) var _switchAuthor: AnyObject = _noAuthor
    /// How many messages the source sent to the follower: observing the source reads its latest
    /// message only if none came in meanwhile.
    @exclusivity(unchecked) var _sourceMessages: UInt64 = 0
    let _outbox: _Outbox<Message>
    /// Turns an inner's message into the follower's.
    let _lift: (Inner.Message) -> Message
    /// The report of a switch, from the last message sent to the new inner's latest one; `nil`
    /// sends nothing (nothing changed).
    let _bridge: (Message?, Message) -> Message?
    /// What stands for "no inner" in a report (`Update(old, nil)` for an optional relationship);
    /// `nil` where the selector always returns an inner.
    let _absent: Message?

    init(
        core: _MessengerCore<Message>,
        lift: @escaping (Inner.Message) -> Message,
        bridge: @escaping (Message?, Message) -> Message?,
        absent: Message?
    ) {
        _outbox = _Outbox(core: core, lock: _lock)
        _lift = lift
        _bridge = bridge
        _absent = absent
    }

    /// Whether the follower has an active observation.
    var _isObserved: Bool { _outbox._core.observationCount > 0 }

    /// The number of messages the source sent so far.
    var sourceMessages: UInt64 { _lock.withLock { _sourceMessages } }

    /// Makes `inner` the current inner observable: stops observing the old one, starts observing
    /// `inner` if the follower is observed, and, if `reports`, sends what changed once the new
    /// inner's latest message arrives (at once for a switch to no inner).
    ///
    /// - Parameters:
    ///   - reports: `false` when observing starts: the first inner seeds the last message.
    ///   - fromSource: Counts as a message of the source.
    ///   - ifSourceMessagesAre: Switch only if the source sent exactly that many messages so far.
    ///   - author: The author of the source's message, which becomes the report's.
    /// - Complexity: O(1) amortized, plus ending one observation and starting another.
    func switchTo(
        _ inner: Inner?,
        reports: Bool,
        author: AnyObject,
        fromSource: Bool,
        ifSourceMessagesAre expected: UInt64? = nil,
        isolation: (any Actor)?
    ) {
        let messenger: AnyObject? = inner.map { $0.messenger }
        var replaced: Inner? = inner
        let author = _authorToKeep(author, standIn: nil) ?? _noAuthor
        var replacedAuthor = author
        var replacedMessenger = messenger
        let (ended, previous, generation) = _lock.withLock {
            () -> (_Observation<Inner.Message>?, Message??, UInt64?) in
            if let expected, expected != _sourceMessages { return (nil, nil, nil) }
            if fromSource { _sourceMessages &+= 1 }
            if messenger === _innerMessenger { return (nil, nil, nil) }
            _generation &+= 1
            swap(&replaced, &_inner)
            swap(&replacedMessenger, &_innerMessenger)
            _awaiting = reports ? .report : .seed
            swap(&replacedAuthor, &_switchAuthor)
            let ended = _observation.take()
            // A switch to no inner is reported now; its report needs the last message.
            return (ended, replaced != nil && inner == nil && reports ? .some(_last) : nil, _generation)
        }
        _ = ended?._end()
        // The old inner, its messenger and the old author are released here, outside the lock.
        withExtendedLifetime((replaced, replacedAuthor, replacedMessenger)) {}
        if let generation, let previous, let absent = _absent, let report = _bridge(previous ?? absent, absent) {
            _post(report, generation: generation, author: author, isolation: isolation)
        }
        reconcile(isolation: isolation)
    }

    /// Starts the observation of the current inner if the follower is observed and has none, ends
    /// it if the follower is not observed; repeats until the two agree.
    func reconcile(isolation: (any Actor)?) {
        while true {
            let observed = _isObserved
            var forgotten: Message?
            let step = _lock.withLock { () -> _FollowStep<Inner, Inner.Message> in
                if observed {
                    guard _observation == nil, let inner = _inner else { return .done }
                    return .start(inner, _generation)
                }
                guard let observation = _observation.take() else { return .done }
                // The next observation starts afresh, and what the old one still sends is dropped.
                _generation &+= 1
                _awaiting = .seed
                swap(&forgotten, &_last)
                return .stop(observation)
            }
            withExtendedLifetime(forgotten) {}  // the last message is released here, outside the lock
            switch consume step {
            case .done:
                return
            case .stop(let observation):
                _ = observation._end()
            case .start(let inner, let generation):
                _start(inner, generation, isolation: isolation)
            }
        }
    }

    /// Makes the observation of `inner` for `generation` and inserts it, replaying a cache's latest
    /// message, unless a switch or another thread came first.
    func _start(_ inner: Inner, _ generation: UInt64, isolation: (any Actor)?) {
        let messenger = inner.messenger
        let cache = inner as? any ObservableCache<Inner.Message>
        let observation = _Observation<Inner.Message>._makeForwarding(
            core: messenger._core,
            handler: .forward { [self] message, author, isolation in
                receive(message, generation: generation, author: author, isolation: isolation)
            },
            listener: self
        )
        let installed = _lock.withLock { () -> Bool in
            guard _generation == generation, _observation == nil else { return false }
            _observation = observation
            // Only a cache replays a first message to report or seed with.
            if cache == nil { _awaiting = .nothing }
            return true
        }
        guard installed else { return }
        if let cache {
            _insertReplaying(observation, of: cache, isolation: isolation)
        } else {
            messenger._core.insert(observation)
        }
    }

    /// Inserts `observation` so that it first receives the latest message of `cache`.
    func _insertReplaying<Cache: ObservableCache>(
        _ observation: _Observation<Inner.Message>,
        of cache: Cache,
        isolation: (any Actor)?
    ) where Cache.Message == Inner.Message {
        let replay = _Replay.of(cache, isolation: isolation)
        cache.messenger._core.insertReplaying(
            observation, latest: replay.latest, reread: replay.reread, author: replay.author, isolation: isolation)
    }

    /// One message of the inner observed for `generation`.
    func receive(_ message: Inner.Message, generation: UInt64, author: AnyObject, isolation: (any Actor)?) {
        let lifted = _lift(message)
        let (isCurrent, awaiting, previous, switchAuthor) = _lock.withLock {
            () -> (Bool, _FollowAwaiting, Message?, AnyObject) in
            guard generation == _generation else { return (false, .nothing, nil, author) }
            defer { _awaiting = .nothing }
            return (true, _awaiting, _awaiting == .report ? _last : nil, _switchAuthor)
        }
        guard isCurrent else { return }
        switch awaiting {
        case .nothing:
            _post(lifted, generation: generation, author: author, isolation: isolation)
        case .report:
            // No last message: the follower has had no inner since observing started.
            guard let report = _bridge(previous ?? _absent, lifted) else {
                _seed(lifted, generation: generation)
                return
            }
            _post(report, generation: generation, author: switchAuthor, isolation: isolation)
        case .seed:
            _seed(lifted, generation: generation)
        }
    }

    /// Stores `message` as the last one, without sending it, if `generation` is still current.
    func _seed(_ message: Message, generation: UInt64) {
        var replaced: Message? = message
        _lock.withLock {
            if generation == _generation { swap(&replaced, &_last) }
        }
        withExtendedLifetime(replaced) {}  // released here, outside the lock
    }

    /// Posts `message` and stores it as the last one, if `generation` is still current; then sends
    /// what is posted, unless another thread is sending.
    func _post(_ message: Message, generation: UInt64, author: AnyObject, isolation: (any Actor)?) {
        var replaced: Message? = message
        let sends = _lock.withLock { () -> Bool in
            guard generation == _generation else { return false }
            swap(&replaced, &_last)
            return _outbox.post(message, author: author)
        }
        withExtendedLifetime(replaced) {}  // released here, outside the lock
        if sends { _outbox.send(isolation: isolation) }
    }

    /// Ends the observation of the inner: the follower is gone.
    func endObservation() {
        let ended = _lock.withLock { () -> _Observation<Inner.Message>? in
            _generation &+= 1
            return _observation.take()
        }
        _ = ended?._end()
    }

    /// An inner's death, or its `stopBeingObserved()`, ends only that observation: the follower
    /// waits for the next switch.
    func _messengerDied(of observation: AnyObject) {}
}

/// What the first message of an observation of an inner observable is.
enum _FollowAwaiting: Equatable {
    /// Forwarded as it is: the inner is not a cache, or its first message arrived.
    case nothing
    /// A cache's latest message, replayed when observing starts: stored as the last message.
    case seed
    /// A cache's latest message, replayed after a switch: the switch's report.
    case report
}

/// What ``_FollowState/reconcile(isolation:)`` does after unlocking.
enum _FollowStep<Inner, InnerMessage> {
    case done
    case start(Inner, UInt64)
    case stop(_Observation<InnerMessage>)
}
