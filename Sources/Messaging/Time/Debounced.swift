/// An observable that forwards a source's latest message once the source has been quiet for an
/// interval; made by ``ObservableSource/debounce(for:clock:)``.
///
/// Every message from the source restarts the countdown; when it ends, the latest message is
/// sent, with the debounced observable as its author, from a task of its own. The messages of a
/// burst before the latest are never delivered. This is SwiftySignals' `debounce(timeout:)`.
///
/// It observes its source with a token and holds the source strongly, so a chain such as
/// `Var(0).debounce(for: .seconds(1))` stays alive as long as its end. Its countdown task holds
/// it weakly: releasing the debounced observable drops a pending message and ends the countdown.
///
/// - Complexity: O(1) per message from the source, and no allocation while a countdown runs: a
///   burst of messages costs one task, however many messages it has.
public final class Debounced<Source: ObservableSource>: ObservableSource, _SleeperOwner, @unchecked Sendable
where Source.Message: Sendable {
    // `_state`: `_lock`. `_token` is set once, in `init`. `_source` is only kept alive, never used.

    /// The messenger that sends the debounced messages.
    public let messenger = Messenger<Source.Message>()

    /// How long the source must stay quiet before its latest message is sent.
    public let interval: Duration

    let _source: Source
    let _timeline: _Timeline
    let _lock = _Lock()
    var _state: _DebounceState<Source.Message, Task<Void, Never>>
    var _token: ObservationToken?

    init(_ source: Source, interval: Duration, clock: any Clock<Duration>) {
        _source = source
        self.interval = interval
        _timeline = _Timeline(clock)
        _state = _DebounceState(interval: interval)
        _token = source.subscribe { [weak self] message in self?._receive(message) }
    }

    deinit {
        if case .cancel(let sleeper?, _) = _lock.withLock({ _state.stop() }) { sleeper.cancel() }
    }

    private func _receive(_ message: Source.Message) {
        let now = _timeline.now
        let action = _lock.withLock { _state.receive(message, now: now) }
        guard case .startSleeper(let generation, let deadline) = action else { return }
        let sleeper = _timeline.startSleeper(for: self, generation: generation, until: deadline)
        if case .cancel(let stale) = _lock.withLock({ _state.sleeperStarted(sleeper, generation: generation) }) {
            stale.cancel()  // its message was delivered already (a countdown of zero, say)
        }
    }

    /// Reports a wake-up of the sleeper of `generation`: delivers the latest message if the
    /// countdown has ended, or returns the deadline it was moved to.
    func _wake(generation: UInt64, now: Duration) -> Duration? {
        let action = _lock.withLock { _state.wake(generation: generation, now: now) }
        switch action {
        case .finish:
            return nil
        case .sleep(let deadline):
            return deadline
        case .deliver(let message, let sleeper):
            send(message)
            withExtendedLifetime(sleeper) {}  // released here, after unlocking
            return nil
        }
    }
}

extension ObservableSource where Message: Sendable {
    /// Makes an observable that sends this observable's latest message once it has sent nothing
    /// for `interval`.
    ///
    /// ```swift
    /// let query = Var("")
    /// let settled = query.debounce(for: .milliseconds(300))
    /// observer.observe(settled) { update in search(for: update.new) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: How long this observable must stay quiet before its latest message is sent.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The debounced observable. Keep it: it stops when released.
    /// - Complexity: O(1).
    public func debounce(
        for interval: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) -> Debounced<Self> {
        Debounced(self, interval: interval, clock: clock)
    }
}
