/// An observable that sends each of a source's messages an interval after it arrived, in order;
/// made by ``ObservableSource/delay(for:clock:)``.
///
/// Every message waits `interval`, then is sent with its author from a task of its own, one at a
/// time, in the order the messages arrived: nothing is dropped, and one task serves every message
/// waiting. An `interval` of zero or less sends each message as soon as the task runs.
///
/// It holds its source strongly and observes it only while it is observed itself, once however
/// many observe it. Observing it keeps it (and so its source) alive for as long as the observation
/// lasts. Its task holds its state weakly: once nobody observes it or holds it, it is freed, which
/// drops the messages still waiting. If its source's messenger dies (a ``Weak`` source whose
/// observable is gone), its observations end.
///
/// - Complexity: O(1) amortized per message from the source; one task at a time, from the first
///   waiting message to the last.
public final class Delayed<Source: ObservableSource>: ObservableSource, _SourceLinkedOperator, @unchecked Sendable
where Source.Message: Sendable {
    // `_link`: see `_SourceLinkedOperator`.
    // `_delay` guards its state with its own lock.

    /// The messenger that sends the delayed messages.
    public let messenger = Messenger<Source.Message>()

    /// How long each message waits.
    public let interval: Duration

    /// The waiting messages and the task that sends them, as a chain's delay stage keeps them; it
    /// sends through `messenger`. Held by this object and by the link's observation of the
    /// source; its `deinit` (when both let go) cancels the task.
    @usableFromInline let _delay: _ChainDelay<Source.Message>
    var _link: _OriginLink<Source, Source.Message>?

    /// A delay that is not connected to its source yet; see ``_connect(_:_:)``.
    @usableFromInline
    init(interval: Duration, clock: any Clock<Duration>) {
        self.interval = interval
        let core = messenger._core
        _delay = _ChainDelay(interval: interval, clock: clock) { message, author in
            core.send(message, author: author, checksChange: false, isolation: nil)
        }
    }

    /// Links the delay to `source`, whose messages go to `receive`, a closure made in the client's
    /// code (``ObservableSource/delay(for:clock:)`` is inlinable), so that the path of every
    /// message is specialized for its type.
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
    /// Makes an observable that sends each of this observable's messages `interval` after it
    /// arrived, in order.
    ///
    /// ```swift
    /// let toasts = Messenger<String>()
    /// let dismissals = toasts.delay(for: .seconds(3))
    /// observer.observe(dismissals) { toast in hide(toast) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: How long each message waits.
    ///   - clock: The clock that measures the interval.
    /// - Returns: The delayed observable; see ``Delayed``. Observing it keeps it alive; it
    ///   observes this observable only while it is observed.
    /// - Complexity: O(1).
    @inlinable
    public func delay(
        for interval: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) -> Delayed<Self> {
        let delayed = Delayed<Self>(interval: interval, clock: clock)
        // The closure holds the waiting messages, not the delay, which holds them: no cycle.
        let delay = delayed._delay
        delayed._connect(self) { message, author, _ in delay.receive(message, author: author) }
        return delayed
    }
}
