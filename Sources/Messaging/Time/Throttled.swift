/// An observable that forwards a source's message only if at least an interval has passed since
/// the last one it forwarded; made by ``ObservableSource/throttle(for:clock:)``.
///
/// Leading edge only, as SwiftySignals' `throttle(pause:)`: the first message of a burst is sent
/// at once, on the thread that delivered it, with the throttled observable as its author; the
/// messages that follow within the interval are dropped, and none is sent when the interval ends.
/// For the latest message of a burst instead, use ``ObservableSource/debounce(for:clock:)``.
///
/// It holds its source strongly and observes it only while it is observed itself, once however
/// many observe it. Observing it keeps it (and so its source) alive for as long as the observation
/// lasts. If its source's messenger dies (a ``Weak`` source whose observable is gone), its
/// observations end.
///
/// - Complexity: O(1) per message from the source, and no allocation.
public final class Throttled<Source: ObservableSource>: ObservableSource, _ObservedOwner, _MessengerDeathListener,
    @unchecked Sendable
where Source.Message: Sendable {
    // `_state`: `_lock`. `_link` is set once, in `init`, and guards the source with its own lock;
    // the source is only used to read its messenger, when observing starts.

    /// The messenger that sends the messages that pass.
    public let messenger = Messenger<Source.Message>()

    /// The shortest time between two messages sent.
    public let interval: Duration

    let _timeline: _Timeline
    let _lock = _Lock()
    var _state: _ThrottleState<Source.Message>
    var _link: _OriginLink<Source, Source.Message>?

    init(_ source: Source, interval: Duration, clock: any Clock<Duration>) {
        self.interval = interval
        _timeline = _Timeline(clock)
        _state = _ThrottleState(interval: interval)
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

    private func _receive(_ message: Source.Message) {
        let now = _timeline.now
        if case .deliver(let message) = _lock.withLock({ _state.receive(message, now: now) }) {
            send(message)
        }
    }
}

extension ObservableSource where Message: Sendable {
    /// Makes an observable that sends this observable's messages at most once per `interval`,
    /// dropping the others.
    ///
    /// ```swift
    /// let position = Messenger<Point>()
    /// let sampled = position.throttle(for: .milliseconds(100))
    /// observer.observe(sampled) { point in redraw(at: point) }
    /// ```
    ///
    /// A message is sent at once if at least `interval` has passed since the last message sent,
    /// and dropped otherwise; see ``Throttled``.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two messages sent.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The throttled observable. Observing it keeps it alive; it observes this
    ///   observable only while it is observed.
    /// - Complexity: O(1).
    public func throttle(
        for interval: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) -> Throttled<Self> {
        Throttled(self, interval: interval, clock: clock)
    }
}
