import Testing

@testable import Messaging

/// `delay(for:clock:)` in chains, on the manual clock.
@Suite("Chain delay: every message an interval later, in order, per observation", .timeLimit(.minutes(10)))
struct ChainDelayTests {
    @Test("Each message goes on one interval after it arrived, in the order they arrived")
    func eachMessageGoesOnAnIntervalLater() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).delay(for: .seconds(10), clock: clock).map { "m\($0)" }.receive {
            delivered.record($0)
        }
        var iterator = delivered.stream.makeAsyncIterator()
        // a--b-c--------------     (seconds 0, 3, 4) in
        // ----------a--b-c----     (seconds 10, 13, 14) out
        source.send(1)
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(to: ManualClock.Instant(.seconds(3)))
        source.send(2)
        clock.advance(to: ManualClock.Instant(.seconds(4)))
        source.send(3)
        #expect(clock.sleeperCount == 1)  // one sleeper for all of them
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        #expect(await iterator.next(1) == ["m1@10.0 seconds"])
        await clock.waitForSleepers(at: [.seconds(13)])
        clock.advance(to: ManualClock.Instant(.seconds(13)))
        #expect(await iterator.next(1) == ["m2@13.0 seconds"])
        await clock.waitForSleepers(at: [.seconds(14)])
        clock.advance(to: ManualClock.Instant(.seconds(14)))
        #expect(await iterator.next(1) == ["m3@14.0 seconds"])
        withExtendedLifetime(observer) {}
    }

    @Test("Messages due at once go on together, in order, with their authors, in both forms")
    func messagesDueTogetherKeepTheirOrderAndAuthors() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let author = Probe()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).delay(for: .seconds(5), clock: clock).receive { number, from in
            delivered.record("\(number)\(from === author ? " from the author" : "")")
        }
        observer.observe(source).delay(for: .seconds(5), clock: clock) { number in delivered.record("second \(number)")
        }
        var iterator = delivered.stream.makeAsyncIterator()
        source.send(1)
        source.send(2, from: author)
        source.send(3)
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(7))
        let received = await iterator.next(6)
        #expect(
            received.filter { !$0.hasPrefix("second") } == [
                "1@7.0 seconds", "2 from the author@7.0 seconds", "3@7.0 seconds",
            ])
        #expect(
            received.filter { $0.hasPrefix("second") } == [
                "second 1@7.0 seconds", "second 2@7.0 seconds", "second 3@7.0 seconds",
            ])
        withExtendedLifetime(observer) {}
    }

    @Test("An ended observation drops its waiting messages and its sleeper ends")
    func anEndedObservationDropsWhatWaits() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).delay(for: .seconds(10), clock: clock).receive { delivered.record($0) }
        source.send(1)
        await clock.waitForSleepers(1)
        observer.stopObserving(source)
        await clock.waitForSleepers(0)  // the released stage cancelled its sleeper
        clock.advance(by: .seconds(10))
        delivered.continuation.yield("end")
        var iterator = delivered.stream.makeAsyncIterator()
        #expect(await iterator.next(1) == ["end"])
    }

    @Test("After onMainActor() and in an actor observer's chain, the delayed messages go back to the actor")
    func delayOnActors() async {
        actor Collector: ActorObserver {
            let receiver = Receiver()
            private(set) var entries: [String] = []

            func start(_ source: Messenger<Int>, _ clock: ManualClock) {
                observe(source).delay(for: .seconds(2), clock: clock) { number in
                    self.preconditionIsolated()
                    self.entries.append("\(number)@\(clock.now)")
                }
            }
        }
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        let collector = Collector()
        await collector.start(source, clock)
        observer.observe(source).onMainActor().delay(for: .seconds(2), clock: clock).receive { number in
            MainActor.preconditionIsolated()
            delivered.record(number)
        }
        var iterator = delivered.stream.makeAsyncIterator()
        source.send(1)
        source.send(2)
        await waitForPendingDeliveries()
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        #expect(await iterator.next(2) == ["1@2.0 seconds", "2@2.0 seconds"])
        #expect(await eventually { await collector.entries.count == 2 })
        #expect(await collector.entries == ["1@2.0 seconds", "2@2.0 seconds"])
        withExtendedLifetime(observer) {}
    }
}
