import Testing

@testable import Messaging

/// `_TimeoutState` driven directly: sleepers are numbers, times are durations since the origin.
@Suite struct TimeoutStateTests {
    typealias State = _TimeoutState<Int>

    @Test func theCountdownStartsWithTheObservationAndEachMessageMovesTheDeadline() {
        var state = State(interval: .seconds(10))
        let started = state.start(now: .seconds(1))
        #expect(started?.generation == 1 && started?.deadline == .seconds(11))
        #expect(state.sleeperStarted(100, generation: 1) == .installed)
        #expect(state.receive(now: .seconds(4)) == true)
        state.passed()
        #expect(state.wake(generation: 1, now: .seconds(11)) == .sleep(until: .seconds(14)))
        #expect(state.wake(generation: 1, now: .seconds(14)) == .timeOut(releasing: 100))
        // Timed out: nothing goes on any more, and no countdown starts again.
        #expect(state.receive(now: .seconds(15)) == false)
        let restarted = state.start(now: .seconds(15))
        #expect(restarted == nil)
    }

    @Test func aDeadlineThatFallsWhileAMessageGoesThroughIsPutOff() {
        var state = State(interval: .seconds(10))
        _ = state.start(now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        #expect(state.receive(now: .seconds(2)) == true)
        // The rest of the chain is still busy with the message at the deadline.
        #expect(state.wake(generation: 1, now: .seconds(12)) == .sleep(until: .seconds(22)))
        state.passed()
        #expect(state.wake(generation: 1, now: .seconds(22)) == .timeOut(releasing: 100))
    }

    @Test func aMessageBeforeTheStartCountsAndAStaleSleeperDoesNothing() {
        var state = State(interval: .seconds(10))
        #expect(state.receive(now: .seconds(1)) == true)
        state.passed()
        let started = state.start(now: .seconds(2))
        #expect(started?.generation == 1 && started?.deadline == .seconds(12))
        #expect(state.wake(generation: 7, now: .seconds(12)) == .finish)
        #expect(state.stop() == nil)  // not installed yet
        #expect(state.sleeperStarted(100, generation: 1) == .cancel(100))
    }
}
