import Testing

@testable import Messaging

/// The deliveries of a chain's handler, each as "message@time" with the time read from `clock`.
final class ChainDeliveries: Sendable {
    let stream: AsyncStream<String>
    let continuation: AsyncStream<String>.Continuation
    let clock: ManualClock

    init(on clock: ManualClock) {
        (stream, continuation) = AsyncStream<String>.makeStream()
        self.clock = clock
    }

    func record(_ message: some Sendable) {
        continuation.yield("\(message)@\(clock.now)")
    }
}

/// `debounce(for:clock:)` and `throttle(for:clock:)` as stages of ad hoc chains, on the manual clock.
@Suite("Chain time stages: debounce and throttle inside a chain, per observation", .timeLimit(.minutes(10)))
struct ChainTimeTests {
    @Test("Debounce in a chain: a burst sends only its latest message on, once the chain is quiet")
    func debounceDeliversTheLatestMessageOfABurst() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).map { "m\($0)" }.debounce(for: .seconds(10), clock: clock).map {
            $0.uppercased()
        }.receive { delivered.record($0) }
        var iterator = delivered.stream.makeAsyncIterator()
        // a--b--c---------|         (seconds 0, 3, 6; quiet until 16)
        source.send(1)
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(3))
        source.send(2)
        clock.advance(by: .seconds(3))
        source.send(3)
        #expect(clock.sleeperCount == 1)  // one sleeper for the whole burst
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        await clock.waitForSleepers(at: [.seconds(16)])
        clock.advance(to: ManualClock.Instant(.seconds(16)))
        #expect(await iterator.next(1) == ["M3@16.0 seconds"])
        // A second burst: d at 20, quiet until 30.
        clock.advance(to: ManualClock.Instant(.seconds(20)))
        source.send(4)
        await clock.waitForSleepers(at: [.seconds(30)])
        clock.advance(by: .seconds(10))
        #expect(await iterator.next(1) == ["M4@30.0 seconds"])
        withExtendedLifetime(observer) {}
    }

    @Test("Debounce keeps the author of the latest message")
    func debounceKeepsTheAuthor() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let author = Probe()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).debounce(for: .seconds(1), clock: clock).from(author).receive {
            delivered.record($0)
        }
        var iterator = delivered.stream.makeAsyncIterator()
        source.send(1)
        source.send(2, from: author)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await iterator.next(1) == ["2@1.0 seconds"])
        source.send(3, from: author)
        source.send(4)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(0)
        source.send(5, from: author)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await iterator.next(1) == ["5@3.0 seconds"])  // 4, not from the author, was dropped
        withExtendedLifetime(observer) {}
    }

    @Test("Throttle in a chain: the first message of a burst goes on at once, the rest are dropped")
    func throttleLetsTheLeadingMessageThrough() {
        let clock = ManualClock()
        let source = Messenger<String>()
        let observer = FreeObserver()
        let log = EventLog()
        observer.observe(source).throttle(for: .seconds(10), clock: clock).map { "\($0)@\(clock.now)" }.receive {
            log.append($0)
        }
        // a--b--c-----d--e----f     (seconds 0, 3, 6, 10, 12, 25)
        for (second, message) in [(0, "a"), (3, "b"), (6, "c"), (10, "d"), (12, "e"), (25, "f")] {
            clock.advance(to: ManualClock.Instant(.seconds(second)))
            source.send(message)
        }
        #expect(log.take() == ["a@0.0 seconds", "d@10.0 seconds", "f@25.0 seconds"])
        withExtendedLifetime(observer) {}
    }

    @Test("Each observation of one chain has its own throttle state")
    func throttleStateIsPerObservation() {
        let clock = ManualClock()
        let source = Messenger<String>()
        let observers = [FreeObserver(), FreeObserver(), FreeObserver()]
        let log = EventLog()
        let chains = observers.map { $0.observe(source).throttle(for: .seconds(10), clock: clock) }
        chains[0].receive { log.append("first \($0)") }
        chains[1].receive { log.append("second \($0)") }
        source.send("a")
        clock.advance(by: .seconds(5))
        chains[2].receive { log.append("third \($0)") }
        source.send("b")
        #expect(log.take() == ["first a", "second a", "third b"])
        withExtendedLifetime(observers) {}
    }

    @Test("A stopped observation sends nothing on, and its countdown ends")
    func debounceDeliversNothingAfterTheObservationStopped() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).debounce(for: .seconds(10), clock: clock).receive { delivered.record($0) }
        var iterator = delivered.stream.makeAsyncIterator()
        source.send(1)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        #expect(await iterator.next(1) == ["1@10.0 seconds"])
        source.send(2)
        await clock.waitForSleepers(1)
        observer.stopObserving(source)
        await clock.waitForSleepers(0)  // the released stage cancelled its sleeper
        clock.advance(by: .seconds(10))
        source.send(3)
        delivered.continuation.yield("end")
        #expect(await iterator.next(1) == ["end"])
    }

    @Test("A pending countdown keeps neither the observer nor the chain alive")
    func debounceSleeperKeepsNothingAlive() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let log = EventLog()
        weak var weakObserver: FreeObserver?
        weak var weakWitness: Witness?
        do {
            let observer = FreeObserver()
            let witness = Witness()
            weakObserver = observer
            weakWitness = witness
            observer.observe(source).debounce(for: .seconds(10), clock: clock).receive { message in
                withExtendedLifetime(witness) { log.append("\(message)") }
            }
            source.send(1)
            await clock.waitForSleepers(1)
        }
        #expect(weakObserver == nil)
        #expect(weakWitness == nil)
        #expect(source.observationCount == 0)
        await clock.waitForSleepers(0)
        clock.advance(by: .seconds(10))
        #expect(log.take().isEmpty)
    }

    @Test("Debounce, then a hop: the latest message of a burst reaches the main actor")
    func debounceThenHopToTheMainActor() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).debounce(for: .seconds(5), clock: clock).onMainActor().receive { value in
            MainActor.assertIsolated()
            delivered.record(value)
        }
        var iterator = delivered.stream.makeAsyncIterator()
        source.send(1)
        source.send(2)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        #expect(await iterator.next(1) == ["2@5.0 seconds"])
        withExtendedLifetime(observer) {}
    }
}
