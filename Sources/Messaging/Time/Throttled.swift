/// An observable that forwards a source's message only if at least an interval has passed since
/// the last one it forwarded; made by ``ObservableSource/throttle(for:clock:)``.
///
/// Leading edge only, as SwiftySignals' `throttle(pause:)`: the first message of a burst is sent
/// at once, on the thread that delivered it, with its author; the messages that follow within the
/// interval are dropped, and none is sent when the interval ends. For the latest message of a
/// burst instead, use ``ObservableSource/debounce(for:clock:)``.
///
/// It holds its source strongly and observes it only while it is observed itself, once however
/// many observe it. Observing it keeps it (and so its source) alive for as long as the observation
/// lasts. If its source's messenger dies (a ``Weak`` source whose observable is gone), its
/// observations end.
///
/// - Complexity: O(1) per message from the source, and no allocation: one clock reading and a
///   comparison.
public final class Throttled<Source: ObservableSource>: ObservableSource, _SourceLinkedOperator,
    @unchecked Sendable
where Source.Message: Sendable {
    // `_link`: see `_SourceLinkedOperator`.
    // `_throttle` is used only by the link's observation of the source, whose messenger never runs
    // two deliveries at once.

    /// The messenger that sends the messages that pass.
    public let messenger = Messenger<Source.Message>()

    /// The shortest time between two messages sent.
    public let interval: Duration

    /// The time of the last message sent, as a chain's throttle stage keeps it.
    @usableFromInline let _throttle: _ChainThrottle<Source.Message>
    var _link: _OriginLink<Source, Source.Message>?

    /// A throttle that is not connected to its source yet; see ``_connect(_:_:)``.
    @usableFromInline
    init(interval: Duration, clock: any Clock<Duration>) {
        self.interval = interval
        _throttle = _ChainThrottle(interval: interval, clock: clock)
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
        let throttle = throttled._throttle
        let core = throttled.messenger._core
        throttled._connect(self) { message, author, isolation in
            if let message = throttle.pass(message) {
                core.send(message, author: author, checksChange: false, isolation: isolation)
            }
        }
        return throttled
    }
}
