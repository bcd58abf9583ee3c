import Testing

@testable import Messaging

/// `_LatestThrottleState` driven directly: sleepers are numbers, times are durations since the
/// origin.
@Suite struct LatestThrottleStateTests {
    typealias State = _LatestThrottleState<String, Int>

    @Test func theFirstMessageGoesOnAtOnceAndTheLatestOfTheWindowAtItsEnd() {
        var state = State(interval: .seconds(10))
        #expect(state.receive("a", now: .zero) == .deliver("a"))
        #expect(state.receive("b", now: .seconds(2)) == .startSleeper(generation: 1, deadline: .seconds(10)))
        #expect(state.sleeperStarted(100, generation: 1) == .installed)
        #expect(state.receive("c", now: .seconds(5)) == .wait(superseded: "b"))
        #expect(state.wake(generation: 1, now: .seconds(9)) == .sleep(until: .seconds(10)))
        // The trailing message opens the next window; the sleeper watches it too.
        #expect(state.wake(generation: 1, now: .seconds(10)) == .deliver("c", sleepUntil: .seconds(20)))
        #expect(state.receive("d", now: .seconds(12)) == .wait(superseded: nil))
        #expect(state.wake(generation: 1, now: .seconds(20)) == .deliver("d", sleepUntil: .seconds(30)))
        // A window with no message closes; the next message goes on at once.
        #expect(state.wake(generation: 1, now: .seconds(30)) == .finish(releasing: 100))
        #expect(state.receive("e", now: .seconds(35)) == .deliver("e"))
    }

    @Test func aMessageAfterAQuietWindowGoesOnAtOnce() {
        var state = State(interval: .seconds(10))
        #expect(state.receive("a", now: .zero) == .deliver("a"))
        #expect(state.receive("b", now: .seconds(10)) == .deliver("b"))
        #expect(state.receive("c", now: .seconds(19)) == .startSleeper(generation: 1, deadline: .seconds(20)))
    }

    @Test func whileTheSleeperIsResponsibleEveryMessageWaitsForIt() {
        var state = State(interval: .seconds(10))
        _ = state.receive("a", now: .zero)
        _ = state.receive("b", now: .seconds(1))
        _ = state.sleeperStarted(100, generation: 1)
        // Past the window's end, but the sleeper has not reported yet: it decides.
        #expect(state.receive("c", now: .seconds(11)) == .wait(superseded: "b"))
        #expect(state.wake(generation: 1, now: .seconds(11)) == .deliver("c", sleepUntil: .seconds(21)))
    }

    @Test func stoppingCancelsTheSleeperAndDropsTheWaitingMessage() {
        var state = State(interval: .seconds(10))
        _ = state.receive("a", now: .zero)
        _ = state.receive("b", now: .seconds(1))
        #expect(state.sleeperStarted(100, generation: 1) == .installed)
        let stopped = state.stop()
        #expect(stopped.sleeper == 100)
        #expect(stopped.dropped == "b")
        #expect(state.wake(generation: 1, now: .seconds(10)) == .finish(releasing: nil))
        #expect(state.sleeperStarted(200, generation: 1) == .cancel(200))
    }
}
