import Testing

@testable import Messaging

/// `debounce(for:clock:)` on the manual clock.
@Suite(.timeLimit(.minutes(10)))
struct DebounceTests {
    @Test func aBurstDeliversOnlyItsLatestMessageOnceTheSourceIsQuiet() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        let debounced = source.debounce(for: .seconds(10), clock: clock)
        var (delivered, token) = deliveries(of: debounced, on: clock)
        source.send("a")
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(3))
        source.send("b")
        clock.advance(by: .seconds(3))
        source.send("c")
        #expect(clock.sleeperCount == 1)  // one sleeper for the whole burst
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        await clock.waitForSleepers(at: [.seconds(16)])  // it woke and sleeps on
        clock.advance(to: ManualClock.Instant(.seconds(16)))
        #expect(await delivered.next(1) == ["c@16.0 seconds"])
        withExtendedLifetime(token) {}
    }

    @Test func separateBurstsDeliverOneMessageEach() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        let debounced = source.debounce(for: .seconds(10), clock: clock)
        var (delivered, token) = deliveries(of: debounced, on: clock)
        source.send("a")
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(by: .seconds(10))
        #expect(await delivered.next(1) == ["a@10.0 seconds"])
        clock.advance(by: .seconds(5))
        source.send("b")
        source.send("c")
        await clock.waitForSleepers(at: [.seconds(25)])
        clock.advance(by: .seconds(30))
        #expect(await delivered.next(1) == ["c@45.0 seconds"])
        withExtendedLifetime(token) {}
    }

    @Test func endingTheLastObservationOfAReleasedDebouncedObservableDropsItsPendingMessage() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        var debounced: Debounced<Messenger<String>>? = source.debounce(for: .seconds(10), clock: clock)
        weak let weakDebounced = debounced
        let log = EventLog()
        let token = debounced?.subscribe { log.append($0) }
        source.send("a")
        await clock.waitForSleepers(1)
        #expect(source.observationCount == 1)
        debounced = nil
        #expect(weakDebounced != nil)  // observed: kept alive
        token?.stopObserving()
        #expect(weakDebounced == nil)
        #expect(source.observationCount == 0)
        await clock.waitForSleepers(0)  // its sleeper was cancelled
        clock.advance(by: .seconds(10))
        source.send("b")
        #expect(log.entries.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test func theLatestMessageKeepsItsAuthor() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        let debounced = source.debounce(for: .seconds(10), clock: clock)
        let (stream, continuation) = AsyncStream<ObjectIdentifier>.makeStream()
        let spy = Spy("spy")
        spy.observe(debounced) { _, author in continuation.yield(ObjectIdentifier(author)) }
        let first = Spy("first")
        let last = Spy("last")
        source.send("a", from: first)
        source.send("b", from: last)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        var authors = stream.makeAsyncIterator()
        #expect(await authors.next() == ObjectIdentifier(last))
        withExtendedLifetime((spy, first, last)) {}
    }

    @Test func theDebouncedObservableHoldsItsSource() {
        var source: Messenger<String>? = Messenger()
        weak let weakSource = source
        var debounced = source?.debounce(for: .seconds(1), clock: ManualClock())
        source = nil
        #expect(weakSource != nil)
        debounced = nil
        #expect(weakSource == nil)
        #expect(debounced == nil)
    }
}
