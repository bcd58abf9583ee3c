import Testing

@testable import Messaging

/// `_DelayState` driven directly: sleepers are numbers, times are durations since the origin.
@Suite struct DelayStateTests {
    typealias State = _DelayState<String, Int>

    @Test func oneSleeperSendsEveryMessageOnWhenItIsDueInArrivalOrder() {
        var state = State(interval: .seconds(10))
        #expect(state.receive("a", now: .zero) == .startSleeper(generation: 1, deadline: .seconds(10)))
        #expect(state.sleeperStarted(100, generation: 1) == .installed)
        #expect(state.receive("b", now: .seconds(3)) == .wait)
        #expect(state.receive("c", now: .seconds(3)) == .wait)
        #expect(state.receive("d", now: .seconds(4)) == .wait)
        #expect(state.waitingCount == 4)
        #expect(state.wake(generation: 1, now: .seconds(9)) == .sleep(until: .seconds(10)))
        #expect(state.wake(generation: 1, now: .seconds(10)) == .deliver(["a"]))
        #expect(state.wake(generation: 1, now: .seconds(10)) == .sleep(until: .seconds(13)))
        // A late wake-up takes everything that is due, in order.
        #expect(state.wake(generation: 1, now: .seconds(13.5)) == .deliver(["b", "c"]))
        #expect(state.wake(generation: 1, now: .seconds(14)) == .deliver(["d"]))
        #expect(state.wake(generation: 1, now: .seconds(14)) == .finish(releasing: 100))
        #expect(state.waitingCount == 0)
    }

    @Test func aMessageAfterTheSleeperEndedStartsTheNextOne() {
        var state = State(interval: .seconds(10))
        _ = state.receive("a", now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        #expect(state.wake(generation: 1, now: .seconds(10)) == .deliver(["a"]))
        #expect(state.wake(generation: 1, now: .seconds(10)) == .finish(releasing: 100))
        #expect(state.receive("b", now: .seconds(20)) == .startSleeper(generation: 2, deadline: .seconds(30)))
        #expect(state.wake(generation: 1, now: .seconds(30)) == .finish(releasing: nil))  // not the current one
        _ = state.sleeperStarted(200, generation: 2)
        #expect(state.wake(generation: 2, now: .seconds(30)) == .deliver(["b"]))
    }

    @Test func aMessageWhileTheSleeperSendsOnWaitsForIt() {
        var state = State(interval: .seconds(10))
        _ = state.receive("a", now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        #expect(state.wake(generation: 1, now: .seconds(10)) == .deliver(["a"]))
        // The sleeper is sending "a" on: a message meanwhile starts no second sleeper.
        #expect(state.receive("b", now: .seconds(10)) == .wait)
        #expect(state.wake(generation: 1, now: .seconds(10)) == .sleep(until: .seconds(20)))
    }

    @Test func aSleeperStartedTooLateIsCancelledAndStoppingCancelsTheCurrentOne() {
        var state = State(interval: .zero)
        _ = state.receive("a", now: .zero)
        // A zero delay: the sleeper sent everything on before the owner recorded it.
        #expect(state.wake(generation: 1, now: .zero) == .deliver(["a"]))
        #expect(state.wake(generation: 1, now: .zero) == .finish(releasing: nil))
        #expect(state.sleeperStarted(100, generation: 1) == .cancel(100))
        _ = state.receive("b", now: .seconds(1))
        #expect(state.sleeperStarted(200, generation: 2) == .installed)
        #expect(state.stop() == 200)
        #expect(state.wake(generation: 2, now: .seconds(1)) == .finish(releasing: nil))
    }
}
