import Testing

@testable import Messaging

/// `_TimerState` driven directly: sleepers are numbers, times are durations since the origin.
@Suite struct TimerStateTests {
    typealias State = _TimerState<Int>

    @Test func aOneShotFiresOnceAtItsDeadlineAndStops() {
        var state = State()
        #expect(!state.isRunning)
        #expect(
            state.start(after: .seconds(10), repeats: false, now: .seconds(5))
                == .schedule(generation: 1, deadline: .seconds(15), replaced: nil))
        #expect(state.sleeperStarted(100, generation: 1) == .installed)
        #expect(state.isRunning)
        #expect(state.fire(generation: 1, now: .seconds(15)) == .deliverAndFinish(releasing: 100))
        #expect(!state.isRunning)
        #expect(state.fire(generation: 1, now: .seconds(25)) == .ignore)
    }

    @Test func aRepeatingTimerKeepsToTheGridOfItsFirstDeadline() {
        var state = State()
        _ = state.start(after: .seconds(10), repeats: true, now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        // Woken 3 s late: the next deadline is 20, not 23.
        #expect(state.fire(generation: 1, now: .seconds(13)) == .deliverAndSleep(until: .seconds(20)))
        #expect(state.fire(generation: 1, now: .seconds(20)) == .deliverAndSleep(until: .seconds(30)))
        #expect(state.isRunning)
    }

    @Test(arguments: [
        (now: 39, next: 40),  // missed 20 and 30
        (now: 40, next: 50),  // exactly on a later deadline: that fire is this one
        (now: 1_000_000_005, next: 1_000_000_010),
    ])
    func missedFiresAreDroppedAndTheGridIsKept(now: Int, next: Int) {
        var state = State()
        _ = state.start(after: .seconds(10), repeats: true, now: .zero)
        #expect(state.fire(generation: 1, now: .seconds(now)) == .deliverAndSleep(until: .seconds(next)))
    }

    @Test func theNextDeadlineIsExactForIntervalsThatDoNotDivideEvenly() {
        let interval = Duration.nanoseconds(333_333_333)
        for behind in 0..<2_000 {
            let now = Duration.milliseconds(behind * 7)
            let next = State.nextDeadline(after: .zero, interval: interval, now: now)
            #expect(next > now && next - interval <= now, "not the first deadline ahead at now \(now)")
            let intervals = Int64((next / interval).rounded())
            #expect(intervals >= 1 && interval * intervals == next, "off the grid at now \(now)")
        }
    }

    @Test func aWakeUpOfAStaleGenerationDoesNothing() {
        var state = State()
        _ = state.start(after: .seconds(10), repeats: false, now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        // Restarted after the first sleep ended but before it reported.
        #expect(
            state.start(after: .seconds(10), repeats: false, now: .seconds(10))
                == .schedule(generation: 2, deadline: .seconds(20), replaced: 100))
        #expect(state.fire(generation: 1, now: .seconds(10)) == .ignore)
        #expect(state.isRunning)
        #expect(state.fire(generation: 2, now: .seconds(20)) == .deliverAndFinish(releasing: nil))
    }

    @Test func aStaleWakeUpPastTheNewDeadlineDoesNothing() {
        var state = State()
        _ = state.start(after: .seconds(10), repeats: true, now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        _ = state.start(after: .seconds(1), repeats: true, now: .seconds(9))
        _ = state.sleeperStarted(200, generation: 2)
        // The old sleeper reports late, after the new deadline (10): only the new sleeper may fire,
        // or it would find its deadline moved on and end, and the timer would go silent.
        #expect(state.fire(generation: 1, now: .seconds(12)) == .ignore)
        #expect(state.fire(generation: 2, now: .seconds(12)) == .deliverAndSleep(until: .seconds(13)))
    }

    @Test func aStoppedTimerDeliversNothingEvenIfItsSleepHadEnded() {
        var state = State()
        _ = state.start(after: .seconds(10), repeats: true, now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        #expect(state.stop() == .cancel(100))
        #expect(!state.isRunning)
        #expect(state.fire(generation: 1, now: .seconds(10)) == .ignore)
        #expect(state.stop() == .none)
    }

    @Test func aSleeperStartedAfterItsScheduleWasReplacedIsCancelled() {
        var state = State()
        _ = state.start(after: .seconds(10), repeats: false, now: .zero)
        _ = state.start(after: .seconds(10), repeats: false, now: .seconds(1))
        #expect(state.sleeperStarted(100, generation: 1) == .cancel(100))
        #expect(state.sleeperStarted(200, generation: 2) == .installed)
        #expect(state.sleeperStarted(300, generation: 2) == .cancel(300))
        _ = state.stop()
        #expect(state.sleeperStarted(400, generation: 2) == .cancel(400))
    }

    @Test func stoppingBeforeTheSleeperStartedLeavesItToBeCancelledOnArrival() {
        var state = State()
        _ = state.start(after: .seconds(10), repeats: false, now: .zero)
        #expect(state.stop() == .none)
        #expect(state.sleeperStarted(100, generation: 1) == .cancel(100))
    }

    @Test func aOneShotThatFiresBeforeItsSleeperIsRecordedHandsItBack() {
        var state = State()
        _ = state.start(after: .zero, repeats: false, now: .zero)
        #expect(state.fire(generation: 1, now: .zero) == .deliverAndFinish(releasing: nil))
        #expect(state.sleeperStarted(100, generation: 1) == .cancel(100))
    }

    @Test func restartRepeatsTheLastStartFromNow() {
        var state = State()
        #expect(state.restart(now: .seconds(3)) == .none)
        _ = state.start(after: .seconds(10), repeats: true, now: .zero)
        _ = state.sleeperStarted(100, generation: 1)
        #expect(state.restart(now: .seconds(4)) == .schedule(generation: 2, deadline: .seconds(14), replaced: 100))
        _ = state.stop()
        #expect(state.restart(now: .seconds(20)) == .schedule(generation: 3, deadline: .seconds(30), replaced: nil))
        #expect(state.fire(generation: 3, now: .seconds(30)) == .deliverAndSleep(until: .seconds(40)))
    }

    @Test func anEarlyWakeUpDeliversNothing() {
        var state = State()
        _ = state.start(after: .seconds(10), repeats: false, now: .zero)
        #expect(state.fire(generation: 1, now: .seconds(9)) == .ignore)
    }
}
