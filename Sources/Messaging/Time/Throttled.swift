/// An observable that forwards a source's message only if at least an interval has passed since
/// the last one it forwarded; made by ``ObservableSource/throttle(for:clock:)``.
///
/// Leading edge only, as SwiftySignals' `throttle(pause:)`: the first message of a burst is sent
/// at once, on the thread that delivered it, with the throttled observable as its author; the
/// messages that follow within the interval are dropped, and none is sent when the interval ends.
/// For the latest message of a burst instead, use ``ObservableSource/debounce(for:clock:)``.
///
/// It observes its source with a token and holds the source strongly, so a chain stays alive as
/// long as its end.
///
/// - Complexity: O(1) per message from the source, and no allocation.
public final class Throttled<Source: ObservableSource>: ObservableSource, @unchecked Sendable
where Source.Message: Sendable {
    // `_state`: `_lock`. `_token` is set once, in `init`. `_source` is only kept alive, never used.

    /// The messenger that sends the messages that pass.
    public let messenger = Messenger<Source.Message>()

    /// The shortest time between two messages sent.
    public let interval: Duration

    let _source: Source
    let _timeline: _Timeline
    let _lock = _Lock()
    var _state: _ThrottleState<Source.Message>
    var _token: ObservationToken?

    init(_ source: Source, interval: Duration, clock: any Clock<Duration>) {
        _source = source
        self.interval = interval
        _timeline = _Timeline(clock)
        _state = _ThrottleState(interval: interval)
        _token = source.subscribe { [weak self] message in self?._receive(message) }
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
    /// - Returns: The throttled observable. Keep it: it stops when released.
    /// - Complexity: O(1).
    public func throttle(
        for interval: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) -> Throttled<Self> {
        Throttled(self, interval: interval, clock: clock)
    }
}
