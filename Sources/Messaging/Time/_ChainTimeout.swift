/// The timeout stage of one chain observation (`timeout(_:clock:)`): messages go on at once, from
/// the stage; once `interval` passes with no message, counted from the start of the observation and
/// then from each message, the stage ends the observation and sends `nil` on, from the sleeper's
/// task, through `later`.
///
/// The rules are `_TimeoutState`'s: one sleeper for the whole observation, and no timeout while a
/// message goes through the rest of the chain, so the `nil` never runs beside a message. The
/// countdown starts when the observation has started (the gate's ``_ChainGate/whenStarted(_:)``).
/// The sleeper holds the stage weakly; the stage's `deinit` cancels it.
///
/// `@unchecked Sendable`: `_state` is guarded by `_lock`; the rest is set in `init`. `_later` is
/// called once at most, by the sleeper.
@usableFromInline
final class _ChainTimeout<Value>: _SleeperOwner, @unchecked Sendable {
    @usableFromInline let _timeline: _Timeline
    private let _gate: _ChainGate
    private let _later: (Value?, AnyObject) -> Void
    @usableFromInline let _lock = _Lock()
    /// Guarded by `_lock`, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) @usableFromInline var _state: _TimeoutState<Task<Void, Never>>

    @usableFromInline
    init(
        interval: Duration,
        clock: any Clock<Duration>,
        gate: _ChainGate,
        later: @escaping (Value?, AnyObject) -> Void
    ) {
        _timeline = _Timeline(clock)
        _gate = gate
        _later = later
        _state = _TimeoutState(interval: interval)
        gate.prepareToEnd()
        gate.whenStarted { [weak self] in self?._start() }
    }

    deinit {
        _lock.withLock { _state.stop() }?.cancel()
    }

    /// Whether a message that arrives now goes on: it does unless the observation timed out. Call
    /// ``passed()`` once it has gone through the rest of the chain.
    @inlinable
    func receive() -> Bool {
        let now = _timeline.now
        return _lock.withLock { _state.receive(now: now) }
    }

    /// The message that ``receive()`` let through has gone through the rest of the chain.
    @inlinable
    func passed() {
        _lock.withLock { _state.passed() }
    }

    /// Starts the countdown, once the observation has started.
    private func _start() {
        let now = _timeline.now
        guard let (generation, deadline) = _lock.withLock({ _state.start(now: now) }) else { return }
        let sleeper = _timeline.startSleeper(for: self, generation: generation, until: deadline)
        if case .cancel(let stale) = _lock.withLock({ _state.sleeperStarted(sleeper, generation: generation) }) {
            stale.cancel()
        }
    }

    @usableFromInline
    func _wake(generation: UInt64, now: Duration) -> Duration? {
        switch _lock.withLock({ _state.wake(generation: generation, now: now) }) {
        case .sleep(let deadline):
            return deadline
        case .finish:
            return nil
        case .timeOut(let sleeper):
            withExtendedLifetime(sleeper) {}  // released here, after unlocking
            // Only if this stage ended the observation: one that the observer stopped meanwhile
            // gets nothing more.
            if _gate.end() { _later(nil, _noAuthor) }
            return nil
        }
    }
}
