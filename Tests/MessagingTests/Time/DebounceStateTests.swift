import Testing

@testable import Messaging

/// `_DebounceState` driven directly: sleepers are numbers, times are durations since the origin.
@Suite struct DebounceStateTests {
    typealias State = _DebounceState<String, Int>

    @Test func theFirstMessageStartsASleeperAndTheLatestIsDelivered() {
        var state = State(interval: .seconds(10))
        #expect(state.receive("a", now: .zero) == .startSleeper(generation: 1, deadline: .seconds(10)))
        #expect(state.sleeperStarted(100, generation: 1) == .installed)
        #expect(state.receive("b", now: .seconds(3)) == .postpone(superseded: "a"))
        #expect(state.receive("c", now: .seconds(6)) == .postpone(superseded: "b"))
        // The sleeper wakes at its first deadline and sleeps on until the last one.
        #expect(state.wake(generation: 1, now: .seconds(10)) == .sleep(until: .seconds(16)))
        #expect(state.hasPendingMessage)
        #expect(state.wake(generation: 1, now: .seconds(16)) == .deliver("c", releasing: 100))
        #expect(!state.hasPendingMessage)
    }

    @Test func aQuietSourceGetsEachMessageDeliveredWithItsOwnSleeper() {
        var state = State(interval: .seconds(10))
        #expect(state.receive("a", now: .zero) == .startSleeper(generation: 1, deadline: .seconds(10)))
        _ = state.sleeperStarted(100, generation: 1)
        #expect(state.wake(generation: 1, now: .seconds(10)) == .deliver("a", releasing: 100))
        #expect(state.receive("b", now: .seconds(30)) == .startSleeper(generation: 2, deadline: .seconds(40)))
        _ = state.sleeperStarted(200, generation: 2)
        #expect(state.wake(generation: 2, now: .seconds(41)) == .deliver("b", releasing: 200))
    }

    @Test func stoppingDropsThePendingMessageAndCancelsTheSleeper() {
        var state = State(interval: .seconds(10))
        _ = state.receive("a", now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        #expect(state.stop() == .cancel(100, dropped: "a"))
        #expect(!state.hasPendingMessage)
        #expect(state.wake(generation: 1, now: .seconds(10)) == .finish)
        #expect(state.stop() == .none)
    }

    @Test func aLateWakeUpOfASupersededSleeperDoesNothing() {
        var state = State(interval: .seconds(10))
        _ = state.receive("a", now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        _ = state.stop()
        // A new burst starts another sleeper; the old one's sleep had ended just as it was stopped.
        #expect(state.receive("b", now: .seconds(5)) == .startSleeper(generation: 2, deadline: .seconds(15)))
        _ = state.sleeperStarted(200, generation: 2)
        #expect(state.wake(generation: 1, now: .seconds(15)) == .finish)
        #expect(state.hasPendingMessage)
        #expect(state.wake(generation: 2, now: .seconds(15)) == .deliver("b", releasing: 200))
    }

    @Test func aSleeperStartedTooLateIsCancelled() {
        var state = State(interval: .zero)
        _ = state.receive("a", now: .zero)
        // A zero countdown: the sleeper woke and delivered before the owner recorded it.
        #expect(state.wake(generation: 1, now: .zero) == .deliver("a", releasing: nil))
        #expect(state.sleeperStarted(100, generation: 1) == .cancel(100))
    }

    @Test func stoppingBeforeTheSleeperStartedLeavesItToBeCancelledOnArrival() {
        var state = State(interval: .seconds(10))
        _ = state.receive("a", now: .zero)
        #expect(state.stop() == .cancel(nil, dropped: "a"))
        #expect(state.sleeperStarted(100, generation: 1) == .cancel(100))
    }
}
