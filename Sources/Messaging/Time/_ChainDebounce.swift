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
/// The rest of the chain runs one message at a time, in the order the countdowns ended: a message
/// whose countdown ends while the previous one is still going through the rest waits behind it
/// (`_drain`, decided in the same critical section as the end of its countdown), so the stages
/// after this one never run twice at once. The sleeper that found the rest idle runs what waits
/// behind it, however much that is: it is a task of the stage's own, not a caller's call.
///
/// `@unchecked Sendable`: `_state` and `_drain` are guarded by `_lock`; the rest is set in `init`.
/// `_downstream` is the rest of an ``ObservationChain``, made of `@Sendable` closures, which may run
/// on any thread, or what a chain on an actor sends on with (a call posted to the actor's queue);
/// the drain orders one call after the other.
@usableFromInline
final class _ChainDebounce<Value: Sendable>: _SleeperOwner, @unchecked Sendable {
    @usableFromInline let _timeline: _Timeline
    /// `nil` for a ``Debounced``, whose messenger drops what nobody observes, and for a chain,
    /// whose `downstream` checks its gate itself.
    private let _gate: _ChainGate?
    private let _downstream: (Value, AnyObject) -> Void
    @usableFromInline let _lock = _Lock()
    /// Guarded by `_lock`, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) @usableFromInline var _state: _DebounceState<_Authored<Value>, Task<Void, Never>>
    /// The messages whose countdown ended, behind the one going through the rest of the chain.
    @exclusivity(unchecked) private var _drain = _SerialDrain<_Authored<Value>>(budget: .max)

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

    /// The messages waiting behind the one going through the rest of the chain.
    var _waitingCount: Int { _lock.withLock { _drain.pendingCount } }

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
        // The message that ended its countdown joins the drain in the same critical section, so
        // messages go on in the order their countdowns ended.
        let (action, runsNow) = _lock.withLock {
            () -> (_DebounceState<_Authored<Value>, Task<Void, Never>>.WakeAction, _Authored<Value>?) in
            let action = _state.wake(generation: generation, now: now)
            guard case .deliver(let message, _) = action else { return (action, nil) }
            return (action, _drain.submit(message))
        }
        switch action {
        case .finish:
            return nil
        case .sleep(let deadline):
            return deadline
        case .deliver:
            // The finished sleeper and the message's copies in `action` are released after
            // unlocking, when `action` goes.
            if let runsNow { _run(runsNow) }
            return nil
        }
    }

    /// Sends `first` through the rest of the chain, then every message queued behind it meanwhile.
    private func _run(_ first: _Authored<Value>) {
        _send(first)
        var ran = 0
        while true {
            let step = _lock.withLock { _drain.next(afterRunning: ran, handsOff: false) }
            switch consume step {
            case .finished:
                return
            case .handOff:
                preconditionFailure("a runner that does not hand off is never asked to")
            case .run(let batch):
                ran += batch.count
                for message in batch { _send(message) }
            }
        }
    }

    private func _send(_ message: _Authored<Value>) {
        if _gate?.isActive ?? true { _downstream(message.value, message.author) }
    }
}
