import Testing

@testable import Messaging

/// `debounce(for:clock:)` and `throttle(for:clock:)` after a hop, on the manual clock: the stages
/// run on the hop's actor, and a debounced message goes back to that actor.
@Suite("Chain time stages after a hop: on the main actor and on an actor", .timeLimit(.minutes(10)))
struct HoppedChainTimeTests {
    @Test("Debounce after onMainActor(): the latest message of a burst, on the main actor")
    func debounceOnTheMainActor() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).onMainActor().map { "m\($0)" }.debounce(for: .seconds(10), clock: clock).receive {
            MainActor.assertIsolated()
            delivered.record($0)
        }
        var iterator = delivered.stream.makeAsyncIterator()
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
        #expect(await iterator.next(1) == ["m2@13.0 seconds"])
        withExtendedLifetime(observer) {}
    }

    @Test("Throttle after onMainActor(): the first message of each interval, on the main actor")
    func throttleOnTheMainActor() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).onMainActor().throttle(for: .seconds(10), clock: clock).receive {
            MainActor.assertIsolated()
            delivered.record($0)
        }
        var iterator = delivered.stream.makeAsyncIterator()
        source.send(1)  // at 0: goes on
        await waitForPendingDeliveries()
        clock.advance(by: .seconds(3))
        source.send(2)  // at 3: dropped
        await waitForPendingDeliveries()
        clock.advance(by: .seconds(8))
        source.send(3)  // at 11: goes on
        await waitForPendingDeliveries()
        #expect(await iterator.next(2) == ["1@0.0 seconds", "3@11.0 seconds"])
        withExtendedLifetime(observer) {}
    }

    @Test("Debounce and throttle after on(actor): the rest runs on the actor")
    func debounceAndThrottleOnAnActor() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let target = HopTarget()
        observer.observe(source).on(target).debounce(for: .seconds(10), clock: clock).receive { target, value in
            target.append("debounced \(value)@\(clock.now)")
        }
        observer.observe(source).on(target).throttle(for: .seconds(10), clock: clock).receive { target, value in
            target.append("throttled \(value)@\(clock.now)")
        }
        source.send(1)
        await waitForPendingDeliveries()
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(4))
        source.send(2)
        await waitForPendingDeliveries()
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        await clock.waitForSleepers(at: [.seconds(14)])
        clock.advance(to: ManualClock.Instant(.seconds(14)))
        #expect(await eventually { await target.entries.count == 2 })
        await waitForPendingDeliveries()
        #expect(await target.entries == ["throttled 1@0.0 seconds", "debounced 2@14.0 seconds"])
        withExtendedLifetime(observer) {}
    }

    @Test("A debounce after a hop is cancelled with its observation: its countdown ends, nothing goes on")
    func debounceAfterAHopStopsWithTheObservation() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).onMainActor().debounce(for: .seconds(10), clock: clock).receive {
            delivered.record($0)
        }
        source.send(1)
        await clock.waitForSleepers(at: [.seconds(10)])
        observer.stopObserving(source)
        // The ended observation releases its chain, whose debounce cancels its countdown: the
        // clock loses its sleeper without being advanced, so nothing can go on afterwards.
        #expect(await eventually { clock.sleeperCount == 0 })
        clock.advance(by: .seconds(10))
        await waitForPendingDeliveries()
        delivered.continuation.finish()
        var iterator = delivered.stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }
}
