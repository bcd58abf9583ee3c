import Testing

@testable import Messaging

/// `_ThrottleState` driven directly: leading edge, measured from the last delivered message.
@Suite struct ThrottleStateTests {
    /// Feeds `(message, time in seconds)` pairs and returns the messages delivered.
    private func delivered(_ arrivals: [(String, Int)], interval: Duration = .seconds(10)) -> [String] {
        var state = _ThrottleState<String>(interval: interval)
        return arrivals.compactMap { message, time in
            guard case .deliver(let delivered) = state.receive(message, now: .seconds(time)) else { return nil }
            return delivered
        }
    }

    @Test func theFirstMessageIsDeliveredAtOnce() {
        var state = _ThrottleState<String>(interval: .seconds(10))
        #expect(state.receive("a", now: .seconds(1_000)) == .deliver("a"))
        #expect(state.lastDelivery == .seconds(1_000))
    }

    @Test func messagesWithinTheIntervalAreDroppedWithNoTrailingDelivery() {
        #expect(delivered([("a", 0), ("b", 1), ("c", 9)]) == ["a"])
    }

    @Test func aMessageExactlyOneIntervalLaterIsDelivered() {
        #expect(delivered([("a", 0), ("b", 10), ("c", 19), ("d", 20)]) == ["a", "b", "d"])
    }

    @Test func theIntervalCountsFromTheLastDeliveredMessage() {
        // A steady stream every 4 s gets one message through per 10 s: b (4) and c (8) are
        // dropped and do not push the window on.
        let arrivals = [("a", 0), ("b", 4), ("c", 8), ("d", 12), ("e", 16), ("f", 20), ("g", 24)]
        #expect(delivered(arrivals) == ["a", "d", "g"])
    }

    @Test func aZeroIntervalDeliversEverything() {
        #expect(delivered([("a", 0), ("b", 0), ("c", 0)], interval: .zero) == ["a", "b", "c"])
    }
}
