/// An observable that forwards a source's latest message once the source has been quiet for an
/// interval; made by ``ObservableSource/debounce(for:clock:)``.
///
/// Every message from the source restarts the countdown; when it ends, the latest message is
/// sent, with the debounced observable as its author, from a task of its own. The messages of a
/// burst before the latest are never delivered. This is SwiftySignals' `debounce(timeout:)`.
///
/// It holds its source strongly and observes it only while it is observed itself, once however
/// many observe it. Observing it keeps it (and so its source) alive for as long as the observation
/// lasts, so `observer.observe(Var(0).debounce(for: .seconds(1))) { ... }` needs nothing else
/// kept. Its countdown task holds it weakly: once nobody observes it or holds it, it is freed,
/// which drops a pending message and ends the countdown. If its source's messenger dies (a
/// ``Weak`` source whose observable is gone), its observations end.
///
/// - Complexity: O(1) per message from the source, and no allocation while a countdown runs: a
///   burst of messages costs one task, however many messages it has.
public final class Debounced<Source: ObservableSource>: ObservableSource, _SleeperOwner, _ObservedOwner,
    _MessengerDeathListener, @unchecked Sendable
where Source.Message: Sendable {
    // `_state`: `_lock`. `_link` is set once, in `init`, and guards the source with its own lock;
    // the source is only used to read its messenger, when observing starts.

    /// The messenger that sends the debounced messages.
    public let messenger = Messenger<Source.Message>()

    /// How long the source must stay quiet before its latest message is sent.
    public let interval: Duration

    let _timeline: _Timeline
    let _lock = _Lock()
    var _state: _DebounceState<Source.Message, Task<Void, Never>>
    var _link: _OriginLink<Source, Source.Message>?

    init(_ source: Source, interval: Duration, clock: any Clock<Duration>) {
        self.interval = interval
        _timeline = _Timeline(clock)
        _state = _DebounceState(interval: interval)
        let core = messenger._core
        _link = _OriginLink(
            source, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            handler: { [weak self] message, _, _ in self?._receive(message) })
        core.keepAliveWhileObserved(self)
    }

    @usableFromInline
    func _observedChanged() {
        _link?.update(listener: self)
    }

    func _messengerDied(of observation: AnyObject) {
        if _link?.owns(observation) == true { messenger._endObservationsAfterOriginDied() }
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
    /// - Returns: The debounced observable. Observing it keeps it alive; it observes this
    ///   observable only while it is observed.
    /// - Complexity: O(1).
    public func debounce(
        for interval: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) -> Debounced<Self> {
        Debounced(self, interval: interval, clock: clock)
    }
}
