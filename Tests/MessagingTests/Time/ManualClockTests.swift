import Testing

/// The test clock itself: the time tests are only as deterministic as it is.
@Suite(.timeLimit(.minutes(10)))
struct ManualClockTests {
    @Test func timeStartsAtZeroAndMovesOnlyWhenAdvanced() {
        let clock = ManualClock()
        #expect(clock.now.offset == .zero)
        clock.advance(by: .seconds(3))
        #expect(clock.now.offset == .seconds(3))
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        #expect(clock.now.offset == .seconds(10))
    }

    @Test func advancingToAnEarlierInstantLeavesTheTime() {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        clock.advance(to: ManualClock.Instant(.seconds(2)))
        #expect(clock.now.offset == .seconds(5))
    }

    @Test func aSleeperResumesOnlyOnceItsDeadlineIsReached() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: ManualClock.Instant(.seconds(10))) }
        await clock.waitForSleepers(1)
        #expect(clock.advance(by: .seconds(9)).isEmpty)
        #expect(clock.sleeperCount == 1)
        #expect(clock.advance(by: .seconds(1)) == [0])
        #expect(clock.sleeperCount == 0)
        try await sleeper.value
    }

    @Test func aDeadlineAlreadyReachedReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: ManualClock.Instant(.seconds(5)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepersResumeInDeadlineOrderThenInTheOrderTheySlept() async throws {
        let clock = ManualClock()
        let deadlines: [Duration] = [.seconds(3), .seconds(1), .seconds(3), .seconds(2), .seconds(1), .seconds(9)]
        var sleepers: [Task<Void, any Error>] = []
        for (index, deadline) in deadlines.enumerated() {
            sleepers.append(Task { try await clock.sleep(until: ManualClock.Instant(deadline)) })
            await clock.waitForSleepers(index + 1)  // so that sleeper `index` is number `index`
        }
        #expect(clock.advance(by: .seconds(3)) == [1, 4, 3, 0, 2])
        #expect(clock.deadlines == [ManualClock.Instant(.seconds(9))])
        #expect(clock.advance(by: .seconds(6)) == [5])
        for sleeper in sleepers { try await sleeper.value }
    }

    @Test func cancellingASleeperThrowsAtOnceWithoutAdvancing() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: ManualClock.Instant(.seconds(10))) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .zero)
    }

    @Test func aCancelledTaskThrowsAtOnceWhenItSleeps() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: ManualClock.Instant(.seconds(10)))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingAfterTheWakeUpChangesNothing() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: ManualClock.Instant(.seconds(1))) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        sleeper.cancel()
        #expect(clock.sleeperCount == 0)
    }

    @Test func waitingForDeadlinesSeesTheSetOfDeadlines() async throws {
        let clock = ManualClock()
        let late = Task { try await clock.sleep(until: ManualClock.Instant(.seconds(7))) }
        let early = Task { try await clock.sleep(until: ManualClock.Instant(.seconds(2))) }
        await clock.waitForSleepers(at: [.seconds(2), .seconds(7)])
        #expect(clock.deadlines.map(\.offset) == [.seconds(2), .seconds(7)])
        clock.advance(by: .seconds(2))
        try await early.value
        await clock.waitForSleepers(at: [.seconds(7)])
        late.cancel()
        await clock.waitForSleepers(0)
        await #expect(throws: CancellationError.self) { try await late.value }
    }
}
