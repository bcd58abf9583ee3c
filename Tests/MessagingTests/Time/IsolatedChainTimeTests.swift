import Testing

@testable import Messaging

/// An actor observer whose chain debounces or throttles, for the tests below.
private actor TimedTally: ActorObserver {
    let receiver = Receiver()
    private(set) var entries: [String] = []

    func debounce(_ source: Messenger<Int>, for interval: Duration, on clock: ManualClock) {
        observe(source).map { "m\($0)" }.debounce(for: interval, clock: clock).receive { text in
            self.preconditionIsolated()
            self.entries.append("\(text)@\(clock.now)")
        }
    }

    func throttle(_ source: Messenger<Int>, for interval: Duration, on clock: ManualClock) {
        observe(source).throttle(for: interval, clock: clock) { number in
            self.preconditionIsolated()
            self.entries.append("\(number)@\(clock.now)")
        }
    }
}

/// A main-actor observer whose chain debounces or throttles.
@MainActor private final class TimedScreen: MainActorObserver {
    let receiver = Receiver()
    private(set) var shown: [String] = []

    func debounce(_ source: Messenger<Int>, for interval: Duration, on clock: ManualClock) {
        observe(source).debounce(for: interval, clock: clock) { number in
            MainActor.preconditionIsolated()
            self.shown.append("\(number)@\(clock.now)")
        }
    }

    func throttle(_ source: Messenger<String>, for interval: Duration, on clock: ManualClock) {
        observe(source).throttle(for: interval, clock: clock).receive { text in
            self.shown.append("\(text)@\(clock.now)")
        }
    }
}

/// `debounce(for:clock:)` and `throttle(for:clock:)` in the chain of a main-actor or actor
/// observer, on the manual clock: the stages run on the observer's actor, and a debounced message
/// goes back to that actor.
@Suite("Chain time stages in an isolated chain: on a main-actor or actor observer's actor", .timeLimit(.minutes(10)))
struct IsolatedChainTimeTests {
    @Test("Debounce in an actor observer's chain: the latest message of a burst, back on the actor")
    func debounceOnTheObserversActor() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let tally = TimedTally()
        await tally.debounce(source, for: .seconds(10), on: clock)
        // a--b----------|         (seconds 0, 3; quiet until 13)
        source.send(1)
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(3))
        source.send(2)
        await waitForPendingDeliveries()
        #expect(clock.sleeperCount == 1)  // one sleeper for the whole burst
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        await clock.waitForSleepers(at: [.seconds(13)])
        clock.advance(to: ManualClock.Instant(.seconds(13)))
        #expect(await eventually { await tally.entries.count == 1 })
        #expect(await tally.entries == ["m2@13.0 seconds"])
    }

    @Test("Throttle in an actor observer's chain: the first message of each interval, on the actor")
    func throttleOnTheObserversActor() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let tally = TimedTally()
        await tally.throttle(source, for: .seconds(10), on: clock)
        for (second, number) in [(0, 1), (3, 2), (6, 3), (10, 4), (12, 5), (25, 6)] {
            clock.advance(to: ManualClock.Instant(.seconds(second)))
            source.send(number)
            await waitForPendingDeliveries()  // the stage reads the clock on the actor
        }
        #expect(await tally.entries == ["1@0.0 seconds", "4@10.0 seconds", "6@25.0 seconds"])
    }

    @Test("Debounce in a main-actor observer's chain: the latest message goes back to the main actor")
    @MainActor
    func debounceOnTheMainActor() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let screen = TimedScreen()
        screen.debounce(source, for: .seconds(5), on: clock)
        source.send(1)
        source.send(2)
        await clock.waitForSleepers(at: [.seconds(5)])
        clock.advance(by: .seconds(5))
        #expect(await eventually { screen.shown.count == 1 })
        #expect(screen.shown == ["2@5.0 seconds"])
    }

    @Test("Throttle in a main-actor observer's chain: a message sent on the main actor goes on at once")
    @MainActor
    func throttleOnTheMainActor() {
        let clock = ManualClock()
        let source = Messenger<String>()
        let screen = TimedScreen()
        screen.throttle(source, for: .seconds(10), on: clock)
        // a--b--c-----d--e----f     (seconds 0, 3, 6, 10, 12, 25)
        for (second, message) in [(0, "a"), (3, "b"), (6, "c"), (10, "d"), (12, "e"), (25, "f")] {
            clock.advance(to: ManualClock.Instant(.seconds(second)))
            source.send(message)
        }
        #expect(screen.shown == ["a@0.0 seconds", "d@10.0 seconds", "f@25.0 seconds"])
    }
}
