/// The state of one chain observation's throttle stage on the leading edge, or of a standalone
/// ``Throttled``.
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

/// The throttle stage of one chain observation on both edges (`throttle(for:clock:latest: true)`),
/// or the state of a standalone ``Throttled`` on both edges: a message that opens a window goes on
/// at once, from the stage; the latest message of a window goes on when the window ends, from the
/// sleeper's task, through `later`.
///
/// The rules are `_LatestThrottleState`'s: while a sleeper is responsible for a window, every
/// message waits for it, so a message that goes on at once and one that the sleeper sends on never
/// run through the rest of the chain at the same time, and they keep their order. The sleeper holds
/// the stage weakly; the stage's `deinit` cancels it.
///
/// `@unchecked Sendable`: `_state` is guarded by `_lock`; the rest is set in `init`. `_later` is
/// called only by the sleeper, one call at a time (see `appendingTimed`).
@usableFromInline
final class _ChainLatestThrottle<Value: Sendable>: _SleeperOwner, @unchecked Sendable {
    @usableFromInline let _timeline: _Timeline
    private let _later: (Value, AnyObject) -> Void
    @usableFromInline let _lock = _Lock()
    /// Guarded by `_lock`, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) @usableFromInline var _state: _LatestThrottleState<_Authored<Value>, Task<Void, Never>>

    @usableFromInline
    init(interval: Duration, clock: any Clock<Duration>, later: @escaping (Value, AnyObject) -> Void) {
        _timeline = _Timeline(clock)
        _later = later
        _state = _LatestThrottleState(interval: interval)
    }

    deinit {
        if let sleeper = _lock.withLock({ _state.stop() }).sleeper { sleeper.cancel() }
    }

    /// Every message comes here: returns it if it goes on now, or keeps it for the end of the
    /// window. Inlinable, so that the client's specialized code runs it without looking up type
    /// metadata.
    @inlinable
    func receive(_ value: Value, author: AnyObject) -> Value? {
        let now = _timeline.now
        // A message that waits for the end of the window cannot keep an author that is dying.
        let author = _authorToKeep(author, standIn: nil) ?? _noAuthor
        let action = _lock.withLock { _state.receive(_Authored(value: value, author: author), now: now) }
        switch action {
        case .deliver(let message):
            return message.value
        case .wait:
            return nil  // a superseded message is released here, after unlocking
        case .startSleeper(let generation, let deadline):
            let sleeper = _timeline.startSleeper(for: self, generation: generation, until: deadline)
            if case .cancel(let stale) = _lock.withLock({ _state.sleeperStarted(sleeper, generation: generation) }) {
                stale.cancel()
            }
            return nil
        }
    }

    @usableFromInline
    func _wake(generation: UInt64, now: Duration) -> Duration? {
        switch _lock.withLock({ _state.wake(generation: generation, now: now) }) {
        case .deliver(let message, let deadline):
            _later(message.value, message.author)
            return deadline
        case .sleep(let deadline):
            return deadline
        case .finish(let sleeper):
            withExtendedLifetime(sleeper) {}  // released here, after unlocking
            return nil
        }
    }
}
