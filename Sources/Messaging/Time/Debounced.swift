/// An observable that forwards a source's latest message once the source has been quiet for an
/// interval; made by ``ObservableSource/debounce(for:clock:)``.
///
/// Every message from the source restarts the countdown; when it ends, the latest message is
/// sent, with its author, from a task of its own. The messages of a burst before the latest are
/// never delivered. This is SwiftySignals' `debounce(timeout:)`.
///
/// It holds its source strongly and observes it only while it is observed itself, once however
/// many observe it. Observing it keeps it (and so its source) alive for as long as the observation
/// lasts, so `observer.observe(Var(0).debounce(for: .seconds(1))) { ... }` needs nothing else
/// kept. Its countdown task holds its state weakly: once nobody observes it or holds it, it is
/// freed, which drops a pending message and ends the countdown. If its source's messenger dies (a
/// ``Weak`` source whose observable is gone), its observations end.
///
/// - Complexity: O(1) per message from the source, and no allocation while a countdown runs: a
///   burst of messages costs one task, however many messages it has.
public final class Debounced<Source: ObservableSource>: ObservableSource, _SourceLinkedOperator, @unchecked Sendable
where Source.Message: Sendable {
    // `_link`: see `_SourceLinkedOperator`.
    // `_debounce` guards its state with its own lock.

    /// The messenger that sends the debounced messages.
    public let messenger = Messenger<Source.Message>()

    /// How long the source must stay quiet before its latest message is sent.
    public let interval: Duration

    /// The countdown and the latest message, as a chain's debounce stage keeps them; it sends
    /// through `messenger`. Held by this object and by the link's observation of the source; its
    /// `deinit` (when both let go) cancels the countdown.
    @usableFromInline let _debounce: _ChainDebounce<Source.Message>
    var _link: _OriginLink<Source, Source.Message>?

    /// A debounce that is not connected to its source yet; see ``_connect(_:_:)``.
    @usableFromInline
    init(interval: Duration, clock: any Clock<Duration>) {
        self.interval = interval
        let core = messenger._core
        _debounce = _ChainDebounce(interval: interval, clock: clock, gate: nil) { message, author in
            core.send(message, author: author, checksChange: false, isolation: nil)
        }
    }

    /// Links the debounce to `source`, whose messages go to `receive`, a closure made in the
    /// client's code (``ObservableSource/debounce(for:clock:)`` is inlinable), so that the path of
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
    @inlinable
    public func debounce(
        for interval: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) -> Debounced<Self> {
        let debounced = Debounced<Self>(interval: interval, clock: clock)
        // The closure holds the countdown, not the debounce, which holds it: no cycle, and no
        // weak reference to load per message.
        let debounce = debounced._debounce
        debounced._connect(self) { message, author, _ in debounce.receive(message, author: author) }
        return debounced
    }
}
