import Testing

@testable import Messaging

/// `throttle(for:clock:latest: true)` in chains, on the manual clock: both edges.
@Suite(
    "Chain throttle on both edges: the first at once, the latest of each interval at its end", .timeLimit(.minutes(10)))
struct ChainLatestThrottleTests {
    @Test("The first message goes on at once, the latest of each interval at its end, which starts the next")
    func bothEdges() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).throttle(for: .seconds(10), clock: clock, latest: true).receive {
            delivered.record($0)
        }
        var iterator = delivered.stream.makeAsyncIterator()
        await playTwoEdgedThrottleBurst(on: source, clock: clock, deliveries: &iterator)
        withExtendedLifetime(observer) {}
    }

    @Test("The default is the leading edge: nothing goes on at the end of the interval")
    func theDefaultIsTheLeadingEdge() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        let observer = FreeObserver()
        let log = EventLog()
        observer.observe(source).throttle(for: .seconds(10), clock: clock) { log.append("\($0)@\(clock.now)") }
        source.send("a")
        clock.advance(to: ManualClock.Instant(.seconds(2)))
        source.send("b")
        #expect(clock.sleeperCount == 0)
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        source.send("c")
        #expect(log.take() == ["a@0.0 seconds", "c@10.0 seconds"])
        withExtendedLifetime(observer) {}
    }

    @Test("After on(actor), both edges go on on the actor, the trailing one with its own call")
    func bothEdgesOnAnActor() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let target = HopTarget()
        observer.observe(source).on(target).throttle(for: .seconds(10), clock: clock, latest: true) { target, number in
            target.append("\(number)@\(clock.now)")
        }
        source.send(1)
        source.send(2)
        source.send(3)
        await waitForPendingDeliveries()
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(10))
        #expect(await eventually { await target.entries.count == 2 })
        #expect(await target.entries == ["1@0.0 seconds", "3@10.0 seconds"])
        withExtendedLifetime(observer) {}
    }
}
