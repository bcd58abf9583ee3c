import Testing

@testable import Messaging

/// `MessageTimer` on the manual clock, plus one test on the real clock.
@Suite(.timeLimit(.minutes(10)))
struct MessageTimerTests {
    @Test func aOneShotFiresOnceAtItsDeadline() async {
        let clock = ManualClock()
        let timer = MessageTimer(clock: clock)
        var (fired, token) = deliveries(of: timer, on: clock)
        timer.start(after: .seconds(10))
        #expect(timer.isRunning)
        let sleeper = timer.currentSleeper
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(await fired.next(1) == fires(atSeconds: 10))
        #expect(!timer.isRunning)
        await waitUntilEnded(sleeper)
        #expect(clock.sleeperCount == 0)
        // A fire from the first start would come before this one.
        clock.advance(by: .seconds(100))
        timer.start(after: .seconds(5))
        await clock.waitForSleepers(at: [.seconds(115)])
        clock.advance(by: .seconds(5))
        #expect(await fired.next(1) == fires(atSeconds: 115))
        withExtendedLifetime(token) {}
    }

    @Test(arguments: [1, 2, 5])
    func aRepeatingTimerFiresOncePerInterval(intervals: Int) async {
        let clock = ManualClock()
        let timer = MessageTimer(repeats: true, clock: clock)
        var (fired, token) = deliveries(of: timer, on: clock)
        timer.start(after: .seconds(10))
        for tick in 1...intervals {
            await clock.waitForSleepers(at: [.seconds(10 * tick)])
            clock.advance(by: .seconds(10))
        }
        #expect(await fired.next(intervals) == (1...intervals).map { fires(atSeconds: 10 * $0)[0] })
        await clock.waitForSleepers(at: [.seconds(10 * (intervals + 1))])
        #expect(timer.isRunning)
        let sleeper = timer.currentSleeper
        timer.stop()
        await waitUntilEnded(sleeper)
        #expect(!timer.isRunning)
        #expect(clock.sleeperCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test func aRepeatingTimerDoesNotDriftAndDropsMissedFires() async {
        let clock = ManualClock()
        let timer = MessageTimer(repeats: true, clock: clock)
        var (fired, token) = deliveries(of: timer, on: clock)
        timer.start(after: .seconds(10))
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(13))  // late by 3 s: the next deadline stays 20
        #expect(await fired.next(1) == fires(atSeconds: 13))
        await clock.waitForSleepers(at: [.seconds(20)])
        clock.advance(to: ManualClock.Instant(.seconds(47)))  // 30 and 40 are missed
        #expect(await fired.next(1) == fires(atSeconds: 47))
        await clock.waitForSleepers(at: [.seconds(50)])
        clock.advance(by: .seconds(3))
        #expect(await fired.next(1) == fires(atSeconds: 50))
        await clock.waitForSleepers(at: [.seconds(60)])
        withExtendedLifetime(token) {}
    }

    @Test func stoppingBeforeTheFireDeliversNothing() async {
        let clock = ManualClock()
        let timer = MessageTimer(clock: clock)
        let log = EventLog()
        let token = timer.subscribe { log.append("fire") }
        timer.start(after: .seconds(10))
        let sleeper = timer.currentSleeper
        await clock.waitForSleepers(1)
        timer.stop()
        #expect(!timer.isRunning)
        await waitUntilEnded(sleeper)
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(20))
        #expect(log.entries.isEmpty)
        timer.stop()  // stopping an idle timer does nothing
        #expect(!timer.isRunning)
        withExtendedLifetime(token) {}
    }

    @Test func startingARunningTimerPostponesItsFire() async {
        let clock = ManualClock()
        let timer = MessageTimer(clock: clock)
        var (fired, token) = deliveries(of: timer, on: clock)
        timer.start(after: .seconds(10))
        let first = timer.currentSleeper
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(6))
        timer.start(after: .seconds(10))
        await waitUntilEnded(first)  // the first schedule's task was cancelled
        await clock.waitForSleepers(at: [.seconds(16)])
        #expect(clock.advance(to: ManualClock.Instant(.seconds(10))).isEmpty)
        clock.advance(to: ManualClock.Instant(.seconds(16)))
        #expect(await fired.next(1) == fires(atSeconds: 16))
        // `restart()` starts again with the same delay, from now.
        clock.advance(by: .seconds(1))
        timer.restart()
        await clock.waitForSleepers(at: [.seconds(27)])
        clock.advance(by: .seconds(10))
        #expect(await fired.next(1) == fires(atSeconds: 27))
        withExtendedLifetime(token) {}
    }

    @Test func restartingATimerThatNeverStartedDoesNothing() {
        let timer = MessageTimer(clock: ManualClock())
        timer.restart()
        #expect(!timer.isRunning)
        #expect(timer.currentSleeper == nil)
    }

    @Test func aTimerStoppedAfterItsSleepEndedDeliversNothing() async {
        let manual = ManualClock()
        let timerBox = Locked<MessageTimer?>(nil)
        let clock = HookedClock(base: manual) {
            // On the timer's task, once its sleep is over and before it reports the wake-up.
            timerBox.withLock { $0 }?.stop()
        }
        let timer = MessageTimer(repeats: true, clock: clock)
        timerBox.withLock { $0 = timer }
        let log = EventLog()
        let token = timer.subscribe { log.append("fire@\(manual.now)") }
        timer.start(after: .seconds(10))
        let sleeper = timer.currentSleeper
        await manual.waitForSleepers(at: [.seconds(10)])
        manual.advance(by: .seconds(10))
        await waitUntilEnded(sleeper)  // it woke, the hook stopped the timer, and it reported the wake-up
        #expect(log.entries.isEmpty)
        #expect(!timer.isRunning)
        #expect(manual.sleeperCount == 0)
        timerBox.withLock { $0 = nil }
        withExtendedLifetime(token) {}
    }

    /// The case the generation exists for: the old schedule's sleeper reports after the new
    /// schedule's deadline, before the new sleeper does. Were it allowed to fire, the new sleeper
    /// would find the deadline moved on and end, and the timer would go silent.
    @Test func aWakeUpOfAReplacedScheduleDeliversNothingEvenPastTheNewDeadline() async {
        let manual = ManualClock()
        let timerBox = Locked<MessageTimer?>(nil)
        let wakeUps = Locked(0)
        let (gate, openGate) = AsyncStream<Void>.makeStream()
        let clock = HookedClock(base: manual) {
            switch wakeUps.withLock({ count in
                count += 1
                return count
            }) {
            case 1:
                // The first sleeper woke at 10: restart the timer, and let the new schedule's
                // sleep end at 15 before the first sleeper reports.
                timerBox.withLock { $0 }?.start(after: .seconds(5))
                await manual.waitForSleepers(at: [.seconds(15)])
                manual.advance(by: .seconds(5))
            case 2:
                // The new sleeper woke at 15: it reports only once the test opens the gate.
                for await _ in gate { break }
            default:
                break
            }
        }
        let timer = MessageTimer(repeats: true, clock: clock)
        timerBox.withLock { $0 = timer }
        let log = EventLog()
        let logToken = timer.subscribe { log.append("fire@\(manual.now)") }
        var (fired, token) = deliveries(of: timer, on: manual)
        timer.start(after: .seconds(10))
        let first = timer.currentSleeper
        await manual.waitForSleepers(at: [.seconds(10)])
        manual.advance(by: .seconds(10))
        await waitUntilEnded(first)  // it reported its wake-up at 15, while the new sleeper waits at the gate
        #expect(log.entries.isEmpty)
        openGate.yield()
        #expect(await fired.next(1) == fires(atSeconds: 15))
        await manual.waitForSleepers(at: [.seconds(20)])  // the new schedule goes on
        #expect(log.entries == ["fire@15.0 seconds"])
        timer.stop()
        timerBox.withLock { $0 = nil }
        withExtendedLifetime((token, logToken)) {}
    }

    @Test func aWakeUpReportedForAStaleScheduleDeliversNothing() {
        let timer = MessageTimer(clock: ManualClock())
        let log = EventLog()
        let token = timer.subscribe { log.append("fire") }
        timer.start(after: .seconds(10))
        let first = timer._lock.withLock { timer._state.generation }
        timer.start(after: .seconds(5))
        let second = timer._lock.withLock { timer._state.generation }
        #expect(timer._wake(generation: first!, now: .seconds(10)) == nil)  // past the new deadline
        #expect(timer.isRunning)
        timer.stop()
        #expect(timer._wake(generation: second!, now: .seconds(20)) == nil)
        #expect(log.entries.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test(arguments: [0, 2])
    func aTimerNobodyHoldsStops(firesBeforeRelease: Int) async {
        let clock = ManualClock()
        var timer: MessageTimer? = MessageTimer(repeats: true, clock: clock)
        weak let weakTimer = timer
        var (fired, token) = deliveries(of: timer!, on: clock)
        timer?.start(after: .seconds(10))
        let sleeper = timer?.currentSleeper
        for tick in 0..<firesBeforeRelease {
            await clock.waitForSleepers(at: [.seconds(10 * (tick + 1))])
            clock.advance(by: .seconds(10))
            #expect(await fired.next(1) == fires(atSeconds: 10 * (tick + 1)))
        }
        // The sleeper sleeps and holds the timer only weakly.
        await clock.waitForSleepers(at: [.seconds(10 * (firesBeforeRelease + 1))])
        timer = nil
        #expect(weakTimer == nil)
        await waitUntilEnded(sleeper)  // cancelled by the timer's deinit, without the clock moving
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .seconds(10 * firesBeforeRelease))
        withExtendedLifetime(token) {}
    }

    @Test func observersReleasedWhileTheTimerRunsAreFreed() async {
        let clock = ManualClock()
        let timer = MessageTimer(repeats: true, clock: clock)
        let log = EventLog()
        var spy: Spy? = Spy("spy")
        weak let weakSpy = spy
        spy?.observe(timer) { log.append("spy") }
        var probe: Probe? = Probe()
        weak let weakProbe = probe
        var probeToken: ObservationToken? = timer.subscribe { [probe] in
            withExtendedLifetime(probe) { log.append("token") }
        }
        probe = nil
        var (fired, token) = deliveries(of: timer, on: clock)  // last: it hears of a fire after the others
        timer.start(after: .seconds(10))
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(10))
        #expect(await fired.next(1) == fires(atSeconds: 10))
        #expect(log.take() == ["spy", "token"])
        spy = nil
        probeToken = nil
        #expect(weakSpy == nil)
        #expect(weakProbe == nil)
        #expect(probeToken == nil)
        #expect(timer.messenger.observationCount == 1)
        #expect(timer.isRunning)
        await clock.waitForSleepers(at: [.seconds(20)])
        clock.advance(by: .seconds(10))
        #expect(await fired.next(1) == fires(atSeconds: 20))
        #expect(log.entries.isEmpty)
        timer.stop()
        withExtendedLifetime(token) {}
    }

    @Test func theTimerIsTheAuthorOfItsFires() async {
        let clock = ManualClock()
        let timer = MessageTimer(clock: clock)
        let authors = ObjectLog()
        let spy = Spy("spy")
        spy.observe(timer) { _, author in authors.append(author) }
        var (fired, token) = deliveries(of: timer, on: clock)
        timer.start(after: .seconds(1))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await fired.next(1) == fires(atSeconds: 1))
        #expect(authors.objects.count == 1 && authors.objects.first === timer)
        withExtendedLifetime(token) {}
    }

    /// The one test on the real clock. Tolerance: the fire comes no earlier than 50 ms after the
    /// start (a timer that fires at once, as SwiftySignals' did on Linux, fails), and no later than
    /// 2 s after a plain `Task.sleep` of the same 50 ms, started at the same time, wakes up. The
    /// late bound is relative because in a full parallel run other suites' synchronous tests can
    /// hold the cooperative pool for seconds, which delays both tasks alike.
    @Test func aOneShotOnTheRealClockFiresNoEarlierThanItsDelay() async throws {
        let timer = MessageTimer()
        let (stream, continuation) = AsyncStream<ContinuousClock.Instant>.makeStream()
        let token = timer.subscribe { continuation.yield(ContinuousClock.now) }
        var fired = stream.makeAsyncIterator()
        let started = ContinuousClock.now
        timer.start(after: .milliseconds(50))
        let plainSleep = Task {
            try? await Task.sleep(until: started.advanced(by: .milliseconds(50)), clock: .continuous)
            return ContinuousClock.now
        }
        let fireTime = try #require(await fired.next())
        let plainWakeUp = await plainSleep.value
        #expect(started.duration(to: fireTime) >= .milliseconds(50))
        #expect(plainWakeUp.duration(to: fireTime) < .seconds(2))
        #expect(!timer.isRunning)
        withExtendedLifetime(token) {}
    }
}
