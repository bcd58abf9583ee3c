import Testing

@testable import Messaging

/// The standalone `delay(for:clock:)` (``Delayed``) on the manual clock.
@Suite("Standalone delay: every message an interval later, in order, shared by its observers", .timeLimit(.minutes(10)))
struct DelayedTests {
    @Test("Each message is sent one interval after it arrived, in order, once for all observers")
    func eachMessageIsSentAnIntervalLater() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let delayed = source.delay(for: .seconds(10), clock: clock)
        var (delivered, token) = deliveries(of: delayed, on: clock)
        let second = EventLog()
        let otherToken = delayed.subscribe { second.append("\($0)") }
        #expect(source.observationCount == 1)  // one observation of the source for both
        source.send(1)
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(to: ManualClock.Instant(.seconds(3)))
        source.send(2)
        clock.advance(to: ManualClock.Instant(.seconds(4)))
        source.send(3)
        #expect(clock.sleeperCount == 1)  // one sleeper for all of them
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        #expect(await delivered.next(1) == ["1@10.0 seconds"])
        await clock.waitForSleepers(at: [.seconds(13)])
        clock.advance(to: ManualClock.Instant(.seconds(14)))
        #expect(await delivered.next(2) == ["2@14.0 seconds", "3@14.0 seconds"])
        #expect(await eventually { second.entries == ["1", "2", "3"] })
        withExtendedLifetime((token, otherToken)) {}
    }

    @Test("A delayed message keeps its author")
    func aDelayedMessageKeepsItsAuthor() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        let delayed = source.delay(for: .seconds(1), clock: clock)
        let (stream, continuation) = AsyncStream<ObjectIdentifier>.makeStream()
        let spy = Spy("spy")
        spy.observe(delayed) { _, author in continuation.yield(ObjectIdentifier(author)) }
        let author = Spy("author")
        source.send("a", from: author)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        var authors = stream.makeAsyncIterator()
        #expect(await authors.next() == ObjectIdentifier(author))
        withExtendedLifetime(spy) {}
    }

    @Test("Ending the last observation of a released delay frees it and drops what waits")
    func endingTheLastObservationDropsWhatWaits() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        var delayed: Delayed<Messenger<String>>? = source.delay(for: .seconds(10), clock: clock)
        weak let weakDelayed = delayed
        let log = EventLog()
        let token = delayed?.subscribe { log.append($0) }
        source.send("a")
        await clock.waitForSleepers(1)
        delayed = nil
        #expect(weakDelayed != nil)  // observed: kept alive
        token?.stopObserving()
        #expect(weakDelayed == nil)
        #expect(source.observationCount == 0)
        await clock.waitForSleepers(0)  // its sleeper was cancelled
        clock.advance(by: .seconds(10))
        #expect(log.entries.isEmpty)
        withExtendedLifetime(token) {}
    }
}
