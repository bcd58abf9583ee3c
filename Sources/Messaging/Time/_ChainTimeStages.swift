/// A message and its author, as a debounce stage keeps the latest one.
@usableFromInline
struct _Authored<Value> {
    @usableFromInline let value: Value
    @usableFromInline let author: AnyObject

    @inlinable
    init(value: Value, author: AnyObject) {
        self.value = value
        self.author = author
    }
}

/// The state of one chain observation's throttle stage, or of a standalone ``Throttled``.
///
/// `@unchecked Sendable`: only one observation's handler touches it (the chain's, or the
/// ``Throttled``'s observation of its source), and a messenger never runs its handlers twice at
/// once (see `_TransformState`).
///
/// Its per-message path is inlinable, like those of the other time stages: specialized in the
/// client, it reads no type metadata at run time.
@usableFromInline
final class _ChainThrottle<Value>: @unchecked Sendable {
    @usableFromInline let timeline: _Timeline
    /// Accessed by one delivery at a time, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) @usableFromInline var state: _ThrottleState<Value>

    @usableFromInline
    init(interval: Duration, clock: any Clock<Duration>) {
        timeline = _Timeline(clock)
        state = _ThrottleState(interval: interval)
    }

    /// `value` if it may go on now, `nil` if it is dropped: one clock reading and a comparison.
    @inlinable
    func pass(_ value: Value) -> Value? {
        let now = timeline.now
        guard case .deliver(let value) = state.receive(value, now: now) else { return nil }
        return value
    }
}

/// Makes the throttle stage of one chain observation: a message goes on at once, on the thread
/// that delivers it, if at least `interval` has passed since the last one that went on, and is
/// dropped otherwise (`_ThrottleState`).
///
/// - Complexity: O(1) per message, and no allocation: one clock reading and a comparison.
@inlinable
func _throttleStage<Value>(
    interval: Duration,
    clock: any Clock<Duration>,
    _ downstream: @escaping (Value, AnyObject) -> Void
) -> (Value, AnyObject) -> Void {
    let throttle = _ChainThrottle<Value>(interval: interval, clock: clock)
    return { value, author in
        if let value = throttle.pass(value) { downstream(value, author) }
    }
}

/// Makes the debounce stage of one chain observation (see `_ChainDebounce`).
@inlinable
func _debounceStage<Value: Sendable>(
    interval: Duration,
    clock: any Clock<Duration>,
    gate: _ChainGate,
    _ downstream: @escaping (Value, AnyObject) -> Void
) -> (Value, AnyObject) -> Void {
    let debounce = _ChainDebounce(interval: interval, clock: clock, gate: gate, downstream: downstream)
    return { value, author in debounce.receive(value, author: author) }
}

/// The debounce stage of one chain observation, or the state of a standalone ``Debounced``: every
/// message restarts the countdown; when it ends, the latest message and its author go on to the
/// rest of the chain (or to the ``Debounced``'s messenger), from the sleeper's task.
///
/// The rules are `_DebounceState`'s: O(1) per message and no allocation in a burst, one sleeper per
/// burst, and the sleeper holds the stage weakly. The stage belongs to the observation's composed
/// handler, so an observation that ends and is released releases the stage, whose `deinit`
/// cancels its sleeper: no sleeper keeps an observer alive. Right before a message goes on, the
/// gate, if any, is asked whether the observation is still active.
///
/// The rest of the chain runs one message at a time: a message whose countdown ends while the
/// previous one is still going through the rest waits for it (the `_backlog`), so the stages after
/// this one never run twice at once.
///
/// `@unchecked Sendable`: `_state`, `_isDelivering` and `_backlog` are guarded by `_lock`; the rest
/// is set in `init`. `_downstream` is the rest of an ``ObservationChain``, made of `@Sendable`
/// closures, which may run on any thread; the lock orders one call after the other.
@usableFromInline
final class _ChainDebounce<Value: Sendable>: _SleeperOwner, @unchecked Sendable {
    @usableFromInline let _timeline: _Timeline
    /// `nil` for a ``Debounced``, whose messenger drops what nobody observes.
    private let _gate: _ChainGate?
    private let _downstream: (Value, AnyObject) -> Void
    @usableFromInline let _lock = _Lock()
    /// Guarded by `_lock`, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) @usableFromInline var _state: _DebounceState<_Authored<Value>, Task<Void, Never>>
    @exclusivity(unchecked) private var _isDelivering = false
    @exclusivity(unchecked) private var _backlog: [_Authored<Value>] = []

    @usableFromInline
    init(
        interval: Duration,
        clock: any Clock<Duration>,
        gate: _ChainGate?,
        downstream: @escaping (Value, AnyObject) -> Void
    ) {
        _timeline = _Timeline(clock)
        _gate = gate
        _downstream = downstream
        _state = _DebounceState(interval: interval)
    }

    deinit {
        if case .cancel(let sleeper?, _) = _lock.withLock({ _state.stop() }) { sleeper.cancel() }
    }

    /// Every message of a burst comes here; inlinable, so that the client's specialized code runs
    /// it without looking up type metadata.
    @inlinable
    func receive(_ value: Value, author: AnyObject) {
        let now = _timeline.now
        // The latest message waits for the countdown: an author sending from its `deinit` cannot
        // wait with it.
        let author = _authorToKeep(author, standIn: nil) ?? _noAuthor
        let action = _lock.withLock { _state.receive(_Authored(value: value, author: author), now: now) }
        // A superseded message is released here, after unlocking.
        guard case .startSleeper(let generation, let deadline) = action else { return }
        let sleeper = _timeline.startSleeper(for: self, generation: generation, until: deadline)
        if case .cancel(let stale) = _lock.withLock({ _state.sleeperStarted(sleeper, generation: generation) }) {
            stale.cancel()  // its message went on already (a countdown of zero, say)
        }
    }

    @usableFromInline
    func _wake(generation: UInt64, now: Duration) -> Duration? {
        let action = _lock.withLock { _state.wake(generation: generation, now: now) }
        switch action {
        case .finish:
            return nil
        case .sleep(let deadline):
            return deadline
        case .deliver(let message, let sleeper):
            _deliver(message)
            withExtendedLifetime(sleeper) {}  // released here, after unlocking
            return nil
        }
    }

    /// Sends `message` through the rest of the chain, after any message still going through it.
    private func _deliver(_ message: _Authored<Value>) {
        let startsNow = _lock.withLock { () -> Bool in
            if _isDelivering {
                _backlog.append(message)
                return false
            }
            _isDelivering = true
            return true
        }
        guard startsNow else { return }
        var next: _Authored<Value>? = message
        while let current = next {
            if _gate?.isActive ?? true { _downstream(current.value, current.author) }
            next = _lock.withLock { () -> _Authored<Value>? in
                if _backlog.isEmpty {
                    _isDelivering = false
                    return nil
                }
                return _backlog.removeFirst()
            }
        }
    }
}

// MARK: - After a hop

/// The author a debounce after a hop keeps with its latest message: the stages after a hop do not
/// get the messages' authors. One shared object, never the stage itself, which would keep itself
/// alive through its latest message.
@usableFromInline
final class _NoAuthor: Sendable {
    @usableFromInline
    init() {}
}

@usableFromInline
let _noAuthor = _NoAuthor()

/// Makes the throttle stage of a main-actor chain: as `_throttleStage`, on the main actor.
@inlinable
func _mainActorThrottleStage<Value>(
    interval: Duration,
    clock: any Clock<Duration>,
    _ downstream: @escaping @MainActor @Sendable (Value) -> Void
) -> @MainActor @Sendable (Value) -> Void {
    let throttle = _ChainThrottle<Value>(interval: interval, clock: clock)
    return { value in
        if let value = throttle.pass(value) { downstream(value) }
    }
}

/// Makes the throttle stage of an actor chain: as `_throttleStage`, on the actor.
@inlinable
func _actorThrottleStage<Isolation: Actor, Value>(
    interval: Duration,
    clock: any Clock<Duration>,
    _ downstream: @escaping @Sendable (isolated Isolation, Value) -> Void
) -> @Sendable (isolated Isolation, Value) -> Void {
    let throttle = _ChainThrottle<Value>(interval: interval, clock: clock)
    return { actor, value in
        if let value = throttle.pass(value) { downstream(actor, value) }
    }
}

/// Makes the debounce stage of a main-actor chain: the countdown runs as in `_debounceStage`, and
/// the latest message of a burst goes back to the main actor's one queue, behind what is already
/// there, and on to the rest of the chain.
@inlinable
func _mainActorDebounceStage<Value: Sendable>(
    interval: Duration,
    clock: any Clock<Duration>,
    gate: _ChainGate,
    _ downstream: @escaping @MainActor @Sendable (Value) -> Void
) -> @MainActor @Sendable (Value) -> Void {
    let hop = _hopToMainActor(downstream, gate: gate)
    let debounce = _ChainDebounce<Value>(interval: interval, clock: clock, gate: gate) { value, _ in hop(value, nil) }
    return { value in debounce.receive(value, author: _noAuthor) }
}

/// Makes the debounce stage of an actor chain: the countdown runs as in `_debounceStage`, and the
/// latest message of a burst goes back to `actor`'s one queue and on to the rest of the chain. A
/// chain whose actor is gone sends nothing on.
@inlinable
func _actorDebounceStage<Isolation: Actor, Value: Sendable>(
    interval: Duration,
    clock: any Clock<Duration>,
    gate: _ChainGate,
    actor: Isolation?,
    _ downstream: @escaping @Sendable (isolated Isolation, Value) -> Void
) -> @Sendable (isolated Isolation, Value) -> Void {
    guard let actor else { return { _, _ in } }
    let hop = _hopToActor(actor, downstream, gate: gate)
    let debounce = _ChainDebounce<Value>(interval: interval, clock: clock, gate: gate) { value, _ in hop(value, nil) }
    return { _, value in debounce.receive(value, author: _noAuthor) }
}
