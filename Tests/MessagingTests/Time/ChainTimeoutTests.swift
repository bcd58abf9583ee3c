import Testing

@testable import Messaging

/// `timeout(_:clock:)` in chains, on the manual clock.
@Suite("Chain timeout: messages as optionals, then nil and the end after a quiet interval", .timeLimit(.minutes(10)))
struct ChainTimeoutTests {
    @Test("Messages go on at once; an interval without one sends nil and ends the observation")
    func nilAndTheEndAfterAQuietInterval() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).timeout(.seconds(10), clock: clock).receive {
            delivered.record($0.map(String.init) ?? "nil")
        }
        var iterator = delivered.stream.makeAsyncIterator()
        // The countdown starts with the observation.
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(to: ManualClock.Instant(.seconds(2)))
        source.send(1)
        clock.advance(to: ManualClock.Instant(.seconds(8)))
        source.send(2)
        #expect(await iterator.next(2) == ["1@2.0 seconds", "2@8.0 seconds"])
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        await clock.waitForSleepers(at: [.seconds(18)])  // the same sleeper, put off
        clock.advance(to: ManualClock.Instant(.seconds(18)))
        #expect(await iterator.next(1) == ["nil@18.0 seconds"])
        #expect(source.observationCount == 0)
        #expect(!observer.isObserving(source))
        source.send(3)
        delivered.continuation.yield("end")
        #expect(await iterator.next(1) == ["end"])
    }

    @Test("Nothing ever arrives: nil one interval after the start, in the form that takes the handler")
    func nothingArrives() async {
        let clock = ManualClock()
        let source = Messenger<String>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).timeout(.seconds(5), clock: clock) { reply in delivered.record(reply ?? "nil") }
        var iterator = delivered.stream.makeAsyncIterator()
        await clock.waitForSleepers(at: [.seconds(5)])
        clock.advance(by: .seconds(5))
        #expect(await iterator.next(1) == ["nil@5.0 seconds"])
        #expect(source.observationCount == 0)
        withExtendedLifetime(observer) {}
    }

    @Test("first(where:) then timeout: the reply, or nil, and the observation ends either way")
    func firstThenTimeout() async {
        let clock = ManualClock()
        let replies = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(replies).first { $0 == 7 }.timeout(.seconds(5), clock: clock).receive {
            delivered.record($0.map(String.init) ?? "nil")
        }
        var iterator = delivered.stream.makeAsyncIterator()
        await clock.waitForSleepers(1)
        replies.send(3)
        replies.send(7)
        #expect(await iterator.next(1) == ["7@0.0 seconds"])
        #expect(replies.observationCount == 0)
        // The observation ended and was released: its countdown is cancelled, and no nil follows.
        await clock.waitForSleepers(0)
        clock.advance(by: .seconds(5))
        delivered.continuation.yield("end")
        #expect(await iterator.next(1) == ["end"])
        withExtendedLifetime(observer) {}
    }

    @Test("An observation stopped by its observer gets no nil")
    func aStoppedObservationGetsNoNil() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        observer.observe(source).timeout(.seconds(5), clock: clock).receive {
            delivered.record($0.map(String.init) ?? "nil")
        }
        await clock.waitForSleepers(1)
        observer.stopObserving(source)
        await clock.waitForSleepers(0)
        clock.advance(by: .seconds(5))
        delivered.continuation.yield("end")
        var iterator = delivered.stream.makeAsyncIterator()
        #expect(await iterator.next(1) == ["end"])
    }

    @Test("After onMainActor(), the nil goes to the main actor; in an actor observer's chain, to the actor")
    func timeoutOnActors() async {
        actor Waiter: ActorObserver {
            let receiver = Receiver()
            private(set) var entries: [String] = []

            func start(_ source: Messenger<Int>, _ clock: ManualClock) {
                observe(source).timeout(.seconds(4), clock: clock).receive { number in
                    self.preconditionIsolated()
                    self.entries.append("\(number.map(String.init) ?? "nil")@\(clock.now)")
                }
            }
        }
        let clock = ManualClock()
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let delivered = ChainDeliveries(on: clock)
        let waiter = Waiter()
        await waiter.start(source, clock)
        observer.observe(source).onMainActor().timeout(.seconds(4), clock: clock).receive { number in
            MainActor.preconditionIsolated()
            delivered.record(number.map(String.init) ?? "nil")
        }
        var iterator = delivered.stream.makeAsyncIterator()
        await clock.waitForSleepers(2)
        source.send(1)
        await waitForPendingDeliveries()
        clock.advance(by: .seconds(4))
        #expect(await iterator.next(2) == ["1@0.0 seconds", "nil@4.0 seconds"])
        #expect(await eventually { await waiter.entries.count == 2 })
        #expect(await waiter.entries == ["1@0.0 seconds", "nil@4.0 seconds"])
        #expect(source.observationCount == 0)
        withExtendedLifetime(observer) {}
    }
}
