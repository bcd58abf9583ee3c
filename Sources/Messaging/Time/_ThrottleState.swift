/// The rules of throttling, without threads or clocks: a message is delivered at once if at
/// least `interval` has passed since the last delivered one, and dropped otherwise.
///
/// This is SwiftySignals' `throttle(pause:)`: leading edge only. The first message of a burst
/// goes through without delay; the messages that follow within the interval are dropped, and no
/// trailing message is delivered when the interval ends (a throttle that delivers the latest
/// dropped message at the end of the interval would need a sleeper, as debouncing does). The
/// interval counts from the last *delivered* message, so a steady stream faster than the interval
/// gets one message through per interval, not none.
///
/// The owner calls ``receive(_:now:)`` under its lock and delivers after unlocking. Times are
/// durations since the owner's origin (see `_Timeline`). O(1) per message and no allocation:
/// the state is one optional `Duration`, and the message only passes through.
@usableFromInline
struct _ThrottleState<Message> {
    /// What to do with a message.
    @usableFromInline
    enum Action {
        case deliver(Message)
        case drop
    }

    /// The shortest time between two delivered messages.
    @usableFromInline let interval: Duration
    /// When the last message was delivered; `nil` before the first.
    @usableFromInline var lastDelivery: Duration?

    @inlinable
    init(interval: Duration) {
        self.interval = interval
    }

    /// Decides whether `message`, arriving at `now`, is delivered. Inlinable, so that the
    /// client's specialized code runs it without looking up type metadata.
    @inlinable
    mutating func receive(_ message: Message, now: Duration) -> Action {
        if let lastDelivery, now - lastDelivery < interval { return .drop }
        lastDelivery = now
        return .deliver(message)
    }
}

extension _ThrottleState.Action: Equatable where Message: Equatable {}
