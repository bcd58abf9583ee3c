import Foundation
import Testing

@testable import Messaging

/// An observer that logs the end of its relationships.
private final class Watcher: Observer {
    let receiver = Receiver()
    let log: EventLog

    init(log: EventLog) {
        self.log = log
    }

    func subscribedTo(_ observable: any GeneralObservable) { log.append("subscribed") }
    func unsubscribedFrom(_ observable: any GeneralObservable) { log.append("unsubscribed") }
}

/// `prefix(_:)` and `first(where:)`: they end their observation, which leaves the messenger.
@Suite("Chain stages that end their observation: prefix and first(where:)")
struct ChainEndingTests {
    @Test("prefix(n) lets the first n messages through, then the observation is stopped, not muted")
    func prefixEndsTheObservation() {
        let source = Messenger<Int>()
        let log = EventLog()
        let observer = Watcher(log: log)
        observer.observe(source).prefix(3).map { "got \($0)" }.receive { log.append($0) }
        #expect(source.observationCount == 1)
        for number in 1...5 { source.send(number) }
        #expect(log.take() == ["subscribed", "got 1", "got 2", "unsubscribed", "got 3"])
        #expect(source.observationCount == 0)
        #expect(source.observers.isEmpty)
        #expect(!observer.isObserving(source))
        #expect(!source.amISubscribed(observer))
        withExtendedLifetime(observer) {}
    }

    @Test("The last message's handler sees the observation ended already")
    func theLastHandlerSeesTheEnd() {
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let log = EventLog()
        observer.observe(source).prefix(2) { number in
            log.append("\(number): observing \(observer.isObserving(source))")
        }
        source.send(1)
        source.send(2)
        #expect(log.take() == ["1: observing true", "2: observing false"])
    }

    @Test("A message sent from the last handler is not delivered to the ended observation")
    func aReentrantSendAfterTheEndIsDropped() {
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let log = EventLog()
        observer.observe(source).prefix(2) { number in
            log.append("\(number)")
            source.send(number * 10)  // queued behind this delivery
        }
        source.send(1)
        #expect(log.take() == ["1", "10"])
        #expect(source.observationCount == 0)
    }

    @Test("The other observations of the same observer and observable go on; the relationship stays")
    func otherObservationsOfThePairGoOn() {
        let source = Messenger<Int>()
        let log = EventLog()
        let observer = Watcher(log: log)
        observer.observe(source).prefix(1).receive { log.append("prefix \($0)") }
        observer.observe(source) { log.append("plain \($0)") }
        source.send(1)
        source.send(2)
        #expect(log.take() == ["subscribed", "prefix 1", "plain 1", "plain 2"])
        #expect(source.observationCount == 1)
        #expect(observer.isObserving(source))
        observer.stopObserving(source)
        #expect(log.take() == ["unsubscribed"])
    }

    @Test("prefix(0) lets nothing through: the observation ends as it starts")
    func prefixZeroEndsAtOnce() {
        let source = Messenger<Int>()
        let log = EventLog()
        let observer = Watcher(log: log)
        observer.observe(source).prefix(0) { log.append("got \($0)") }
        source.send(1)
        #expect(log.take() == ["subscribed", "unsubscribed"])
        #expect(source.observationCount == 0)
        withExtendedLifetime(observer) {}
    }

    @Test("Each observation of one chain counts its own messages")
    func prefixCountsPerObservation() {
        let source = Messenger<Int>()
        let observers = [FreeObserver(), FreeObserver()]
        let log = EventLog()
        let chains = observers.map { $0.observe(source).prefix(2) }
        chains[0].receive { log.append("first \($0)") }
        source.send(1)
        chains[1].receive { log.append("second \($0)") }
        source.send(2)
        source.send(3)
        #expect(log.take() == ["first 1", "first 2", "second 2", "second 3"])
        #expect(source.observationCount == 0)
        withExtendedLifetime(observers) {}
    }

    @Test("first(where:) lets the first match through, then the observation is stopped")
    func firstWhereEndsTheObservation() {
        let source = Messenger<Int>()
        let log = EventLog()
        let observer = Watcher(log: log)
        observer.observe(source).first { $0 > 2 }.receive { log.append("got \($0)") }
        observer.observe(source).first {
            $0 == 4
        } receive: {
            log.append("handler \($0)")
        }
        for number in 1...6 { source.send(number) }
        // The first ending leaves the other observation of the pair: the relationship ends with the
        // second.
        #expect(log.take() == ["subscribed", "got 3", "unsubscribed", "handler 4"])
        #expect(source.observationCount == 0)
        #expect(source.observers.isEmpty)
        withExtendedLifetime(observer) {}
    }

    @Test("The last message still crosses a hop after the ending stage; nothing after it does")
    @MainActor
    func theLastMessageCrossesAHop() async {
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let log = MainActorLog()
        observer.observe(source).prefix(2).onMainActor().receive { log.append("got \($0)") }
        await Task.detached {
            for number in 1...4 { source.send(number) }
        }.value
        #expect(source.observationCount == 0)
        await waitForPendingDeliveries()
        #expect(log.entries == ["got 1", "got 2"])
        withExtendedLifetime(observer) {}
    }

    @Test("After a hop, prefix and first(where:) end the observation from the actor")
    func endingStagesAfterAHop() async {
        let source = Messenger<Int>()
        let observer = FreeObserver()
        let target = HopTarget()
        observer.observe(source).on(target).prefix(2).receive { target, number in target.append("prefix \(number)") }
        observer.observe(source).onMainActor().first { $0.isMultiple(of: 3) }.map { "first \($0)" }.on(target)
            .receive { target, text in target.append(text) }
        for number in 1...5 { source.send(number) }
        await waitForPendingDeliveries()
        #expect(await eventually { source.observationCount == 0 })
        await waitForPendingDeliveries()
        #expect(await target.entries == ["prefix 1", "prefix 2", "first 3"])
        withExtendedLifetime(observer) {}
    }

    @Test("In an actor observer's chain, prefix ends the observation on the actor")
    func prefixInAnActorObserversChain() async {
        actor Collector: ActorObserver {
            let receiver = Receiver()
            private(set) var numbers: [Int] = []

            func start(_ source: Messenger<Int>) {
                observe(source).prefix(2) { number in self.numbers.append(number) }
            }
        }
        let source = Messenger<Int>()
        let collector = Collector()
        await collector.start(source)
        for number in 1...4 { source.send(number) }
        await waitForPendingDeliveries()
        #expect(await collector.numbers == [1, 2])
        #expect(source.observationCount == 0)
    }

    @Test("prefix(_:) with a negative count stops with a precondition failure")
    func negativePrefixCount() async {
        await #expect(processExitsWith: .failure) {
            let numbers = Messenger<Int>()
            _ = FreeObserver().observe(numbers).prefix(-1)
        }
    }
}
