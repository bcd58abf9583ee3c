import Testing

@testable import Messaging

/// `throttle(for:clock:)` on the manual clock. Throttling needs no sleeper: a message passes or
/// is dropped on the thread that delivers it, so these tests check the log right after sending.
@Suite struct ThrottleTests {
    @Test func aMessageWithinTheIntervalOfTheLastDeliveredOneIsDropped() {
        let clock = ManualClock()
        let source = Messenger<String>()
        let throttled = source.throttle(for: .seconds(10), clock: clock)
        let log = EventLog()
        let token = throttled.subscribe { log.append($0) }
        source.send("a")
        clock.advance(by: .seconds(5))
        source.send("b")
        clock.advance(by: .seconds(5))
        source.send("c")
        clock.advance(by: .seconds(9))
        source.send("d")
        clock.advance(by: .seconds(1))
        source.send("e")
        #expect(log.entries == ["a", "c", "e"])
        #expect(clock.sleeperCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test func aMessageThatPassesKeepsItsAuthor() {
        let clock = ManualClock()
        let source = Messenger<String>()
        let throttled = source.throttle(for: .seconds(10), clock: clock)
        let authors = ObjectLog()
        let spy = Spy("spy")
        let editor = Spy("editor")
        spy.observe(throttled) { _, author in authors.append(author) }
        source.send("a", from: editor)
        clock.advance(by: .seconds(10))
        source.send("b")  // authored by the source itself
        #expect(authors.objects.count == 2)
        #expect(authors.objects.first === editor && authors.objects.last === source)
    }

    @Test func endingTheLastObservationOfAReleasedThrottledObservableFreesItAndTheSource() {
        var source: Messenger<String>? = Messenger()
        weak let weakSource = source
        var throttled = source?.throttle(for: .seconds(1), clock: ManualClock())
        weak let weakThrottled = throttled
        #expect(source?.observationCount == 0)  // observes its source only while observed
        let token = throttled?.subscribe { _ in }
        #expect(source?.observationCount == 1)
        throttled = nil
        #expect(weakThrottled != nil)  // observed: kept alive
        token?.stopObserving()
        #expect(weakThrottled == nil)
        #expect(source?.observationCount == 0)
        source = nil
        #expect(weakSource == nil)
        #expect(throttled == nil)
    }
}
