import Foundation
import Testing

@testable import Messaging

/// Relationship changes made from several threads at once: every way of beginning and ending
/// one, racing. Each relationship must be announced once when it begins and once when it
/// ends, in that order, and what both sides answer afterwards must agree with what they were told.
@Suite("Relationship races: pairs changed from several threads at once")
struct RelationshipRaceTests {
    /// An observer that records its relationship callbacks, `true` for a beginning.
    final class RecordingDog: Observer, Sendable {
        let receiver = Receiver()
        let events = Locked([Bool]())

        func subscribedTo(_ observable: any GeneralObservable) { events.withLock { $0.append(true) } }
        func unsubscribedFrom(_ observable: any GeneralObservable) { events.withLock { $0.append(false) } }
    }

    /// An observable that records its relationship callbacks, `true` for a beginning.
    final class RecordingSky: ObservableSource, Sendable {
        let messenger = Messenger<Int>()
        let events = Locked([Bool]())

        func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {
            events.withLock { $0.append(didSubscribe) }
        }
    }

    /// Whether `events` alternates, beginning first.
    static func alternates(_ events: [Bool]) -> Bool {
        events.enumerated().allSatisfy { index, isBeginning in isBeginning == index.isMultiple(of: 2) }
    }

    @Test("racing observe and subscribe(_:) of one pair announces the relationship once")
    func racingObserveAndSubscribe() {
        // Both used to find no relationship and announce one: observe read the ledger before
        // deciding, and subscribe(_:) checked the receiver before recording.
        for _ in 0..<1_000 {
            let sky = RecordingSky()
            let dog = RecordingDog()
            let finished = runOnThreads(2) { thread in
                if thread == 0 {
                    dog.observe(sky) { _ in }
                } else {
                    _ = sky.subscribe(dog)
                }
            }
            #expect(finished)
            #expect(dog.events.value == [true] && sky.events.value == [true])
            #expect(sky.amISubscribed(dog) && dog.amISubscribed(sky))
            // One relationship, ended once.
            #expect(sky.unsubscribe(dog) === dog)
            #expect(sky.unsubscribe(dog) == nil)
            #expect(dog.events.value == [true, false] && sky.events.value == [true, false])
            #expect(!sky.amISubscribed(dog) && !dog.amISubscribed(sky))
            if dog.events.value != [true, false] { break }
        }
    }

    @Test("racing ends of a pair that is both observed and subscribed announce one end")
    func racingEndsOfOnePair() {
        for round in 0..<1_000 {
            let sky = RecordingSky()
            let dog = RecordingDog()
            #expect(sky.subscribe(dog) === dog)
            dog.observe(sky) { _ in }
            let finished = runOnThreads(2) { thread in
                switch (thread + round) % 4 {
                case 0: dog.stopObserving(sky)
                case 1: sky.unsubscribe(dog)
                case 2: dog.stopObserving()
                default: sky.stopBeingObserved()
                }
            }
            #expect(finished)
            #expect(dog.events.value == [true, false] && sky.events.value == [true, false])
            #expect(!sky.amISubscribed(dog) && !dog.amISubscribed(sky))
            #expect(sky.messenger.observationCount == 0)
            if dog.events.value != [true, false] { break }
        }
    }

    @Test(
        "every way of beginning and ending one pair, from 4 threads: callbacks alternate and agree with the answers",
        arguments: [1, 2, 3]
    )
    func everyChangeOfOnePairRacing(seed: UInt64) {
        for round in 0..<40 {
            let sky = RecordingSky()
            let dog = RecordingDog()
            let finished = runOnThreads(4) { thread in
                var random = SeededGenerator(seed: seed &* 1_000 &+ UInt64(round * 4 + thread))
                for _ in 0..<100 {
                    switch Int.random(in: 0..<9, using: &random) {
                    case 0, 1: dog.observe(sky) { _ in }
                    case 2: _ = sky.subscribe(dog)
                    case 3: dog.stopObserving(sky)
                    case 4: _ = sky.unsubscribe(dog)
                    case 5: dog.stopObserving()
                    case 6: sky.stopBeingObserved()
                    case 7: _ = dog.unsubscribeAll()
                    default: _ = sky.unsubscribeAll()
                    }
                }
            }
            #expect(finished)
            // A call hands the callbacks past its budget to a queue of its own: wait for them.
            #expect(waitForRelationshipCallbacks(of: [dog.receiver]))
            let dogEvents = dog.events.value
            let skyEvents = sky.events.value
            #expect(Self.alternates(dogEvents), "round \(round): \(dogEvents)")
            #expect(skyEvents == dogEvents, "round \(round)")
            // The last announcement is the state both sides answer.
            let isSubscribed = dogEvents.last ?? false
            #expect(sky.amISubscribed(dog) == isSubscribed && dog.amISubscribed(sky) == isSubscribed)
            #expect(sky.observers.count == (isSubscribed ? 1 : 0))
            #expect(dog.subscriptions.count == (isSubscribed ? 1 : 0))
            // Nothing is left behind: the pair ends, and begins again, once each.
            _ = sky.unsubscribe(dog)
            #expect(!sky.amISubscribed(dog) && !dog.amISubscribed(sky))
            #expect(sky.subscribe(dog) === dog)
            #expect(sky.subscribe(dog) == nil)
            let after = dog.events.value
            #expect(Self.alternates(after) && after.last == true)
            if !Self.alternates(dogEvents) || skyEvents != dogEvents { break }
        }
    }

    /// Relationship callbacks of many pairs, by pair: `"dog>sky"`, `true` for a beginning.
    final class PairLog: Sendable {
        let events = Locked([String: [Bool]]())

        func record(_ pair: String, _ isBeginning: Bool) {
            events.withLock { $0[pair, default: []].append(isBeginning) }
        }

        func events(of pair: String) -> [Bool] { events.value[pair] ?? [] }
    }

    /// An observer with a name, which logs its callbacks by pair and, while `reenters` is set,
    /// answers every third one by changing the same pair again from inside the callback.
    final class NamedDog: Observer, Sendable {
        let receiver = Receiver()
        let name: String
        let log: PairLog
        let reenters: Locked<Bool>
        private let _calls = Locked(0)

        init(_ name: String, log: PairLog, reenters: Bool) {
            self.name = name
            self.log = log
            self.reenters = Locked(reenters)
        }

        private func _reentersNow() -> Bool {
            reenters.value
                && _calls.withLock { calls in
                    calls += 1
                    return calls.isMultiple(of: 3)
                }
        }

        func subscribedTo(_ observable: any GeneralObservable) {
            log.record("\(name)>\((observable as? NamedSky)?.name ?? "?")", true)
            if _reentersNow() { _ = observable.unsubscribe(self) }
        }

        func unsubscribedFrom(_ observable: any GeneralObservable) {
            log.record("\(name)>\((observable as? NamedSky)?.name ?? "?")", false)
            if _reentersNow() { _ = observable.subscribe(self) }
        }
    }

    /// An observable with a name, which logs its callbacks by pair.
    final class NamedSky: ObservableSource, Sendable {
        let messenger = Messenger<Int>()
        let name: String
        let log: PairLog

        init(_ name: String, log: PairLog) {
            self.name = name
            self.log = log
        }

        func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {
            log.record("\((observer as? NamedDog)?.name ?? "?")<\(name)", didSubscribe)
        }
    }

    @Test(
        "3 observers and 3 observables changed from 6 threads, callbacks re-entering or not: every pair agrees",
        arguments: [false, true]
    )
    func manyPairsRacing(reentrant: Bool) {
        for round in 0..<30 {
            let log = PairLog()
            let dogs = (0..<3).map { NamedDog("d\($0)", log: log, reenters: reentrant) }
            let skies = (0..<3).map { NamedSky("s\($0)", log: log) }
            let finished = runOnThreads(6) { thread in
                var random = SeededGenerator(seed: UInt64(round * 8 + thread + 1))
                for _ in 0..<120 {
                    let dog = dogs[Int.random(in: 0..<3, using: &random)]
                    let sky = skies[Int.random(in: 0..<3, using: &random)]
                    switch Int.random(in: 0..<12, using: &random) {
                    case 0, 1: dog.observe(sky) { _ in }
                    case 2, 3: _ = sky.subscribe(dog)
                    case 4: dog.stopObserving(sky)
                    case 5: _ = sky.unsubscribe(dog)
                    case 6: dog.stopObserving()
                    case 7: sky.stopBeingObserved()
                    case 8: _ = dog.unsubscribeAll()
                    case 9: _ = sky.unsubscribeAll()
                    case 10: sky.send(1)
                    default: sky.stopBeingObserved(by: dog)
                    }
                }
            }
            #expect(finished)
            #expect(waitForRelationshipCallbacks(of: dogs.map(\.receiver)))
            for dog in dogs { dog.reenters.withLock { $0 = false } }
            var disagreements: [String] = []
            for dog in dogs {
                for sky in skies {
                    let heard = log.events(of: "\(dog.name)>\(sky.name)")
                    let isSubscribed = heard.last ?? false
                    let agrees =
                        Self.alternates(heard) && log.events(of: "\(dog.name)<\(sky.name)") == heard
                        && sky.amISubscribed(dog) == isSubscribed && dog.amISubscribed(sky) == isSubscribed
                        && sky.observers.contains { $0 as AnyObject === dog } == isSubscribed
                        && dog.subscriptions.contains { $0 === sky } == isSubscribed
                    if !agrees { disagreements.append("\(dog.name)-\(sky.name): \(heard)") }
                }
            }
            #expect(disagreements.isEmpty, "round \(round)")
            for sky in skies { sky.stopBeingObserved() }
            #expect(skies.allSatisfy { $0.messenger.observationCount == 0 })
            if !disagreements.isEmpty { break }
        }
    }

    @Test("subscribing to and observing a standalone transform from 4 threads leaves its counts exact")
    func transformCountsUnderRaces() {
        // A subscription is counted apart from the observations: if either count drifted, the
        // transform would go on observing its origin, or stop while observed.
        let origin = Messenger<Int>()
        for _ in 0..<100 {
            let mapped = origin.map { $0 + 1 }
            let dogs = (0..<4).map { _ in RecordingDog() }
            let finished = runOnThreads(4) { thread in
                let dog = dogs[thread]
                let neighbour = dogs[(thread + 1) % dogs.count]
                for step in 0..<50 {
                    switch (step + thread) % 5 {
                    case 0: _ = mapped.subscribe(dog)
                    case 1: dog.observe(mapped) { _ in }
                    case 2: _ = mapped.unsubscribe(neighbour)
                    case 3: neighbour.stopObserving(mapped)
                    default: _ = mapped.subscribe(neighbour)
                    }
                }
            }
            #expect(finished)
            for dog in dogs { dog.stopObserving() }
            #expect(mapped.messenger.observationCount == 0 && origin.observationCount == 0)
            #expect(mapped.observers.isEmpty)
            // And it still starts and stops observing its origin with its first and last observer.
            dogs[0].observe(mapped) { _ in }
            #expect(mapped.messenger.observationCount == 1 && origin.observationCount == 1)
            dogs[0].stopObserving(mapped)
            #expect(origin.observationCount == 0)
            if origin.observationCount != 0 { break }
        }
    }

    /// A subscriber that is not an ``Observer``: its relationships live in the ledgers.
    final class RecordingTracker: GeneralTrackingSubscriber, Sendable {
        let subscriptionLedger = SubscriptionLedger()
        let events = Locked([Bool]())

        func subscribedTo(_ observable: any GeneralObservable) { events.withLock { $0.append(true) } }
        func unsubscribedFrom(_ observable: any GeneralObservable) { events.withLock { $0.append(false) } }
    }

    @Test("a subscriber that is not an observer, subscribed and unsubscribed from 4 threads: callbacks alternate")
    func plainSubscriberRacing() {
        // The ledgers made each change atomically, but each thread ran its callbacks after
        // unlocking, so a beginning could be announced after the end that followed it.
        for round in 0..<200 {
            let sky = RecordingSky()
            let tracker = RecordingTracker()
            let finished = runOnThreads(4) { thread in
                for _ in 0..<50 {
                    if thread.isMultiple(of: 2) {
                        _ = sky.subscribe(tracker)
                    } else {
                        _ = sky.unsubscribe(tracker)
                    }
                }
            }
            #expect(finished)
            let events = tracker.events.value
            #expect(Self.alternates(events), "round \(round): \(events)")
            #expect(sky.events.value == events)
            #expect(sky.amISubscribed(tracker) == (events.last ?? false))
            if !Self.alternates(events) { break }
        }
    }

    @Test("an observer subscribed to messengers that die in turn can subscribe to each new one")
    func subscribingToMessengersThatDieInTurn() {
        let dog = RecordingDog()
        for _ in 0..<200 {
            // Messengers made and freed in turn often reuse an address: nothing of a dead one may
            // make the next subscribe(_:) at that address answer "subscribed already".
            let sky = RecordingSky()
            #expect(sky.subscribe(dog) === dog)
            #expect(dog.amISubscribed(sky) && dog.subscriptions.count == 1)
        }
        #expect(dog.events.value == Array(repeating: true, count: 200))
    }
}

/// A call that changes a relationship is bounded: it runs its own callbacks and a budget of other
/// threads' queued ones, then hands the rest on.
@Suite("Relationship callbacks: no call is held by other threads' work")
struct BoundedCallbackRunTests {
    @Test(
        "stopObserving returns promptly while another thread never stops making relationships",
        .timeLimit(.minutes(10))
    )
    func stopObservingIsBoundedUnderANeverEndingProducer() {
        /// Its callbacks are slow on the stopping thread only: once that thread runs the callbacks
        /// of the producer's relationships, they queue up faster than it can run them, while the
        /// producer, which never waits for them, goes on.
        final class Watcher: Observer {
            let receiver = Receiver()
            let changes = Locked(0)
            func subscribedTo(_ observable: any GeneralObservable) { count() }
            func unsubscribedFrom(_ observable: any GeneralObservable) { count() }
            private func count() {
                if Thread.current.name == "stopper" {
                    let clock = ContinuousClock()
                    let end = clock.now + .microseconds(100)
                    while clock.now < end {}
                }
                changes.withLock { $0 += 1 }
            }
        }
        let watcher = Watcher()
        let stop = Locked(false)
        let longest = Locked(Duration.zero)
        let calls = Locked(0)
        let clock = ContinuousClock()
        let finished = runOnThreads(3) { thread in
            switch thread {
            case 0:
                // The producer: a new source each time, observed, and dropped after the next one
                // is observed (so that a relationship always stands to be stopped), until told to
                // stop.
                var previous: Messenger<Int>?
                var made = 0
                while !stop.value, made < 200_000 {
                    let source = Messenger<Int>()
                    watcher.observe(source) { _ in }
                    previous = source
                    made += 1
                }
                withExtendedLifetime(previous) {}
            case 1:
                Thread.current.name = "stopper"
                // Start once the producer is going, and keep calling for a second: long enough
                // for the producer to outrun any one thread, short enough to spare the other
                // suites running meanwhile.
                while watcher.changes.value < 10, !stop.value { Thread.sleep(forTimeInterval: 0.001) }
                let end = clock.now + .seconds(1)
                while clock.now < end, !stop.value {
                    let started = clock.now
                    watcher.stopObserving()
                    let took = clock.now - started
                    longest.withLock { $0 = max($0, took) }
                    calls.withLock { $0 += 1 }
                }
                stop.withLock { $0 = true }
            default:
                // A watchdog, so that a call that never returns by itself ends the test all the same.
                let end = clock.now + .seconds(8)
                while clock.now < end, !stop.value { Thread.sleep(forTimeInterval: 0.01) }
                stop.withLock { $0 = true }
            }
        }
        #expect(finished)
        #expect(calls.value > 1)
        // Each call runs its own callbacks and at most 64 others (about 6.4 ms of them here), then
        // hands the rest to a queue of its own; the bound leaves room for a loaded machine. Before
        // the bound, one call ran for as long as the producer went on (until the watchdog, then
        // through the whole backlog: 30 s here).
        #expect(longest.value < .seconds(3), "longest stopObserving: \(longest.value)")
    }
}

/// Waits until every relationship callback decided so far by these receivers has run (a call hands
/// the callbacks past its budget to a queue of its own).
///
/// - Returns: Whether they went idle within two minutes (room for a loaded machine).
func waitForRelationshipCallbacks(of receivers: [Receiver]) -> Bool {
    let deadline = ContinuousClock.now + .seconds(120)
    while !receivers.allSatisfy(\._callbacksAreIdle) {
        if ContinuousClock.now > deadline { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}
