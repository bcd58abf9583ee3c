/// An observable that forwards at most one of a source's messages per interval; made by
/// ``ObservableSource/throttle(for:clock:)`` (the leading edge) and
/// ``ObservableSource/throttle(for:clock:latest:)`` (both edges).
///
/// **Leading edge** (the default, as SwiftySignals' `throttle(pause:)`): the first message of a
/// burst is sent at once, on the thread that delivered it, with its author; the messages that
/// follow within the interval are dropped, and none is sent when the interval ends.
///
/// **Both edges** (``latest`` is `true`, as Combine's `throttle(for:scheduler:latest: true)`): the
/// first message of a burst is sent at once, as above; the latest of the messages that arrive
/// within an interval is sent, with its author, from a task of its own when the interval ends,
/// and starts the next interval; an interval with no message ends the burst. A message sent at
/// once and one sent at the end of an interval never overlap, so they keep their order. For the
/// latest message of a burst only, use ``ObservableSource/debounce(for:clock:)``.
///
/// It holds its source strongly and observes it only while it is observed itself, once however
/// many observe it. Observing it keeps it (and so its source) alive for as long as the observation
/// lasts. Its task holds its state weakly: once nobody observes it or holds it, it is freed, which
/// drops a waiting message and ends the task. If its source's messenger dies (a ``Weak`` source
/// whose observable is gone), its observations end.
///
/// - Complexity: O(1) per message from the source. The leading edge allocates nothing: one clock
///   reading and a comparison. Both edges take one lock round per message, and a burst costs one
///   task, however many messages it has.
public final class Throttled<Source: ObservableSource>: ObservableSource, _SourceLinkedOperator,
    @unchecked Sendable
where Source.Message: Sendable {
    // `_link`: see `_SourceLinkedOperator`.
    // `_throttle` is used only by the link's observation of the source, whose messenger never runs
    // two deliveries at once. `_latestThrottle` guards its state with its own lock.

    /// The messenger that sends the messages that pass.
    public let messenger = Messenger<Source.Message>()

    /// The shortest time between two messages sent.
    public let interval: Duration

    /// Whether the latest message within an interval is sent when the interval ends, besides the
    /// first of a burst at once.
    public let latest: Bool

    /// The time of the last message sent, as a chain's throttle stage keeps it; `nil` on both
    /// edges.
    @usableFromInline let _throttle: _ChainThrottle<Source.Message>?
    /// On both edges, the window, the waiting message and the task that sends it at the window's
    /// end, as a chain's two-edged throttle stage keeps them; it sends through `messenger`. Held by
    /// this object and by the link's observation of the source; its `deinit` (when both let go)
    /// cancels the task. `nil` on the leading edge.
    @usableFromInline let _latestThrottle: _ChainLatestThrottle<Source.Message>?
    var _link: _OriginLink<Source, Source.Message>?

    /// A throttle that is not connected to its source yet; see ``_connect(_:_:)``.
    @usableFromInline
    init(interval: Duration, clock: any Clock<Duration>, latest: Bool = false) {
        self.interval = interval
        self.latest = latest
        if latest {
            let core = messenger._core
            _throttle = nil
            _latestThrottle = _ChainLatestThrottle(interval: interval, clock: clock) { message, author in
                core.send(message, author: author, checksChange: false, isolation: nil)
            }
        } else {
            _throttle = _ChainThrottle(interval: interval, clock: clock)
            _latestThrottle = nil
        }
    }

    /// Links the throttle to `source`, whose messages go to `receive`, a closure made in the
    /// client's code (``ObservableSource/throttle(for:clock:)`` is inlinable), so that the path of
    /// every message is specialized for its type and reads no type metadata at run time.
    @usableFromInline
    func _connect(_ source: Source, _ receive: @escaping (Source.Message, AnyObject, (any Actor)?) -> Void) {
        _linkSource(source, receive)
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
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
    /// A message is sent at once, with its author, if at least `interval` has passed since the
    /// last message sent, and dropped otherwise; see ``Throttled``.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two messages sent.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The throttled observable. Observing it keeps it alive; it observes this
    ///   observable only while it is observed.
    /// - Complexity: O(1).
    @inlinable
    public func throttle(
        for interval: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) -> Throttled<Self> {
        let throttled = Throttled<Self>(interval: interval, clock: clock)
        // The closure holds what a message needs, not the throttle, which holds it: no cycle,
        // and no weak reference to load per message.
        let throttle = throttled._throttle.unsafelyUnwrapped
        let core = throttled.messenger._core
        throttled._connect(self) { message, author, isolation in
            if let message = throttle.pass(message) {
                core.send(message, author: author, checksChange: false, isolation: isolation)
            }
        }
        return throttled
    }

    /// Makes an observable that sends this observable's messages at most once per `interval`: the
    /// first of a burst at once, and with `latest`, the latest of each interval at its end.
    ///
    /// ```swift
    /// let position = Messenger<Point>()
    /// let tracked = position.throttle(for: .milliseconds(100), latest: true)
    /// observer.observe(tracked) { point in redraw(at: point) }   // the last point of a drag too
    /// ```
    ///
    /// This is Combine's `throttle(for:scheduler:latest:)` as an observable that all its observers
    /// share; see ``Throttled``. With `latest` `false` it is ``throttle(for:clock:)``.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two messages sent.
    ///   - clock: The clock that measures the interval.
    ///   - latest: Whether the latest message within an interval is sent when the interval ends.
    /// - Returns: The throttled observable. Observing it keeps it alive; it observes this
    ///   observable only while it is observed.
    /// - Complexity: O(1).
    @inlinable
    public func throttle(
        for interval: Duration, clock: any Clock<Duration> = ContinuousClock(), latest: Bool
    ) -> Throttled<Self> {
        guard latest else { return throttle(for: interval, clock: clock) }
        let throttled = Throttled<Self>(interval: interval, clock: clock, latest: true)
        // As above: the closure holds the window, not the throttle, which holds it.
        let throttle = throttled._latestThrottle.unsafelyUnwrapped
        let core = throttled.messenger._core
        throttled._connect(self) { message, author, isolation in
            if let message = throttle.receive(message, author: author) {
                core.send(message, author: author, checksChange: false, isolation: isolation)
            }
        }
        return throttled
    }
}
