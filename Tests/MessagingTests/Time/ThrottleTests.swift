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

/// `throttle(for:clock:latest: true)` as a standalone observable, on the manual clock: both edges,
/// shared by every observer.
@Suite(
    "Standalone throttle on both edges: the first at once, the latest of each interval at its end",
    .timeLimit(.minutes(10)))
struct LatestThrottledTests {
    @Test("The first message goes on at once, the latest of each interval at its end, which starts the next")
    func bothEdges() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        let throttled = source.throttle(for: .seconds(10), clock: clock, latest: true)
        #expect(throttled.latest)
        var (iterator, token) = deliveries(of: throttled, on: clock)
        await playTwoEdgedThrottleBurst(on: source, clock: clock, deliveries: &iterator)
        withExtendedLifetime(token) {}
    }

    @Test("A message sent at the end of an interval keeps its author, and every observer gets it once")
    func theLatestKeepsItsAuthorForEveryObserver() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        let throttled = source.throttle(for: .seconds(10), clock: clock, latest: true)
        let editor = Spy("editor")
        let authors = ObjectLog()
        let (arrivals, arrived) = AsyncStream<String>.makeStream()
        let first = Spy("first")
        first.observe(throttled) { message, author in
            authors.append(author)
            arrived.yield("first:\(message)")
        }
        let second = throttled.subscribe { message in arrived.yield("second:\(message)") }
        var iterator = arrivals.makeAsyncIterator()
        source.send("a")
        #expect(await iterator.next(2) == ["first:a", "second:a"])
        source.send("b", from: editor)
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        #expect(await iterator.next(2) == ["first:b", "second:b"])
        #expect(authors.objects.count == 2)
        #expect(authors.objects.first === source && authors.objects.last === editor)
        withExtendedLifetime((first, second)) {}
    }

    @Test("Freed with its last observation: the waiting message is dropped and the sleeper ends")
    func freedWithItsLastObservation() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        var throttled: Throttled<Messenger<String>>? = source.throttle(for: .seconds(10), clock: clock, latest: true)
        weak let weakThrottled = throttled
        let log = EventLog()
        let token = throttled?.subscribe { log.append($0) }
        throttled = nil
        source.send("a")
        source.send("b")  // waits for the end of the interval
        await clock.waitForSleepers(at: [.seconds(10)])
        token?.stopObserving()
        #expect(weakThrottled == nil)
        #expect(source.observationCount == 0)
        await clock.waitForSleepers(0)  // the task, which held the state weakly, has ended
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        #expect(log.entries == ["a"])
    }

    @Test("With latest false it is the leading-edge throttle")
    func latestFalseIsTheLeadingEdge() {
        let clock = ManualClock()
        let source = Messenger<String>()
        let throttled = source.throttle(for: .seconds(10), clock: clock, latest: false)
        #expect(!throttled.latest)
        let log = EventLog()
        let token = throttled.subscribe { log.append($0) }
        source.send("a")
        source.send("b")
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(10))
        source.send("c")
        #expect(log.entries == ["a", "c"])
        withExtendedLifetime(token) {}
    }
}
