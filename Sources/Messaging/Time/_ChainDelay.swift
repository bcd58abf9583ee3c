/// The delay stage of one chain observation (`delay(for:clock:)`): every message, and its author,
/// goes on `interval` after it arrived, in the order the messages arrived, from the sleeper's task,
/// through `later`.
///
/// The rules are `_DelayState`'s: one sleeper at a time sends every waiting message on, so the
/// messages go through the rest of the chain one at a time, in order. The sleeper holds the stage
/// weakly; the stage belongs to the observation's composed handler, so an observation that ends
/// and is released releases the stage, whose `deinit` cancels the sleeper, and the messages still
/// waiting are dropped.
///
/// `@unchecked Sendable`: `_state` is guarded by `_lock`; the rest is set in `init`. `_later` is
/// called only by the current sleeper (see `appendingTimed`).
@usableFromInline
final class _ChainDelay<Value: Sendable>: _SleeperOwner, @unchecked Sendable {
    @usableFromInline let _timeline: _Timeline
    private let _later: (Value, AnyObject) -> Void
    @usableFromInline let _lock = _Lock()
    /// Guarded by `_lock`, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) @usableFromInline var _state: _DelayState<_Authored<Value>, Task<Void, Never>>

    @usableFromInline
    init(interval: Duration, clock: any Clock<Duration>, later: @escaping (Value, AnyObject) -> Void) {
        _timeline = _Timeline(clock)
        _later = later
        _state = _DelayState(interval: interval)
    }

    deinit {
        _lock.withLock { _state.stop() }?.cancel()
    }

    /// Every message comes here; inlinable, so that the client's specialized code runs it without
    /// looking up type metadata.
    @inlinable
    func receive(_ value: Value, author: AnyObject) {
        let now = _timeline.now
        // The message waits: an author sending from its `deinit` cannot wait with it.
        let author = _authorToKeep(author, standIn: nil) ?? _noAuthor
        let action = _lock.withLock { _state.receive(_Authored(value: value, author: author), now: now) }
        guard case .startSleeper(let generation, let deadline) = action else { return }
        let sleeper = _timeline.startSleeper(for: self, generation: generation, until: deadline)
        if case .cancel(let stale) = _lock.withLock({ _state.sleeperStarted(sleeper, generation: generation) }) {
            stale.cancel()  // it has sent everything on already (a delay of zero, say)
        }
    }

    @usableFromInline
    func _wake(generation: UInt64, now: Duration) -> Duration? {
        var now = now
        while true {
            switch _lock.withLock({ _state.wake(generation: generation, now: now) }) {
            case .deliver(let due):
                for message in due { _later(message.value, message.author) }
                now = _timeline.now
            case .sleep(let deadline):
                return deadline
            case .finish(let sleeper):
                withExtendedLifetime(sleeper) {}  // released here, after unlocking
                return nil
            }
        }
    }
}
