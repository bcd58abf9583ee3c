import Dispatch
import Foundation
import Testing

@testable import GeneralObserver

/// Runs `body(index)` on `count` new threads, released together, and waits until all have finished.
///
/// - Returns: `true` if they finished; `false`, with an issue recorded, if they did not finish within
///   a generous time limit (a deadlock), so that the test fails instead of hanging.
private func onThreads(
    _ count: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    // Generous: the whole suite runs in parallel on as few as two cores, and a thread of a test
    // that hammers one lock can be starved for many seconds without any deadlock.
    guard runOnThreads(count, timeout: 120, body) else {
        Issue.record("The threads did not finish within 120 seconds: deadlock", sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// An observable–observer pair, by name.
private struct Pair: Hashable, Sendable, CustomStringConvertible {
    let observable: String
    let observer: String

    var description: String { "\(observer) → \(observable)" }
}

/// Counts per pair, merged from several threads.
private final class PairCounts: @unchecked Sendable {  // `_counts` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _counts: [Pair: Int] = [:]

    func add(_ counts: [Pair: Int]) {
        _lock.locked { _counts.merge(counts, uniquingKeysWith: +) }
    }

    var counts: [Pair: Int] {
        _lock.locked { _counts.filter { $0.value != 0 } }
    }
}

/// A count of live objects, kept by the objects' initializers and deinitializers.
private final class LiveCount: @unchecked Sendable {  // `_value` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _value = 0

    func increment() { _lock.locked { _value += 1 } }
    func decrement() { _lock.locked { _value -= 1 } }
    var value: Int { _lock.locked { _value } }
}

/// A hub (observable and tracking observer) whose callbacks change relationships again: every
/// seventh `observer(_:didSubscribe:)` reverses a change of another pair of this hub, and every
/// eleventh `subscribedTo` leaves all its subscriptions.
private final class ReenteringHub: GeneralObservable, GeneralTrackingSubscriber, Named, Sendable {
    let name: String
    let log: EventLog
    let subscriptionLedger = SubscriptionLedger()
    let peers: Peers
    private let _calls = LiveCount()

    /// The hubs a callback may pick, filled in once they all exist.
    final class Peers: @unchecked Sendable {  // `_hubs` is only touched while holding `_lock`
        private let _lock = NSLock()
        private var _hubs: [ReenteringHub] = []
        var hubs: [ReenteringHub] {
            get { _lock.locked { _hubs } }
            set { _lock.locked { _hubs = newValue } }
        }
    }

    init(_ name: String, log: EventLog, peers: Peers) {
        self.name = name
        self.log = log
        self.peers = peers
    }

    private func _count() -> Int {
        _calls.increment()
        return _calls.value
    }

    func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {
        let observerName = displayName(of: observer)
        log.append(
            didSubscribe
                ? .didSubscribe(observable: name, observer: observerName)
                : .didUnsubscribe(observable: name, observer: observerName)
        )
        let calls = _count()
        guard calls.isMultiple(of: 7) else { return }
        let peer = peers.hubs[calls / 7 % peers.hubs.count]
        if didSubscribe { _ = unsubscribe(peer) } else { subscribe(peer) }
    }

    func subscribedTo(_ observable: any GeneralObservable) {
        log.append(.subscribedTo(observer: name, observable: displayName(of: observable)))
        if _count().isMultiple(of: 11) { _ = (self as any GeneralTrackingSubscriber).unsubscribeAll() }
    }

    func unsubscribedFrom(_ observable: any GeneralObservable) {
        log.append(.unsubscribedFrom(observer: name, observable: displayName(of: observable)))
    }
}

private final class CountedObservable: GeneralObservable, Sendable {
    let subscriptionLedger = SubscriptionLedger()
    let live: LiveCount

    init(_ live: LiveCount) {
        self.live = live
        live.increment()
    }

    deinit { live.decrement() }
}

private final class CountedTracker: GeneralTrackingSubscriber, Sendable {
    let subscriptionLedger = SubscriptionLedger()
    let live: LiveCount

    init(_ live: LiveCount) {
        self.live = live
        live.increment()
    }

    deinit { live.decrement() }
}

/// Per-pair counts of each kind of callback in `events`.
private func callbackCounts(_ events: [Event]) -> (
    subscribedTo: [Pair: Int], didSubscribe: [Pair: Int], unsubscribedFrom: [Pair: Int], didUnsubscribe: [Pair: Int]
) {
    var subscribedTo: [Pair: Int] = [:]
    var didSubscribe: [Pair: Int] = [:]
    var unsubscribedFrom: [Pair: Int] = [:]
    var didUnsubscribe: [Pair: Int] = [:]
    for event in events {
        switch event {
        case .subscribedTo(let observer, let observable):
            subscribedTo[Pair(observable: observable, observer: observer), default: 0] += 1
        case .didSubscribe(let observable, let observer):
            didSubscribe[Pair(observable: observable, observer: observer), default: 0] += 1
        case .unsubscribedFrom(let observer, let observable):
            unsubscribedFrom[Pair(observable: observable, observer: observer), default: 0] += 1
        case .didUnsubscribe(let observable, let observer):
            didUnsubscribe[Pair(observable: observable, observer: observer), default: 0] += 1
        }
    }
    return (subscribedTo, didSubscribe, unsubscribedFrom, didUnsubscribe)
}

/// Checks that every observable's observers and every tracker's subscriptions describe the same graph.
private func expectConsistent(
    observables: [any GeneralObservable],
    trackers: [any GeneralTrackingSubscriber],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var fromObservables: Set<Pair> = []
    for observable in observables {
        let listed = names(observable.observers)
        #expect(Set(listed).count == listed.count, "duplicates", sourceLocation: sourceLocation)
        #expect(
            observable.subscriptionLedger._entryCounts.observers == listed.count,
            sourceLocation: sourceLocation
        )
        for observer in listed {
            fromObservables.insert(Pair(observable: displayName(of: observable), observer: observer))
        }
    }
    var fromTrackers: Set<Pair> = []
    for tracker in trackers {
        let listed = names(tracker.subscriptions)
        #expect(Set(listed).count == listed.count, "duplicates", sourceLocation: sourceLocation)
        #expect(
            tracker.subscriptionLedger._entryCounts.subscriptions == listed.count,
            sourceLocation: sourceLocation
        )
        for observable in listed {
            fromTrackers.insert(Pair(observable: observable, observer: displayName(of: tracker)))
        }
    }
    let trackerNames = Set(trackers.map { displayName(of: $0) })
    let trackersFromObservables = fromObservables.filter { trackerNames.contains($0.observer) }
    #expect(trackersFromObservables == fromTrackers, sourceLocation: sourceLocation)
    var mismatches: [String] = []
    for observable in observables {
        for tracker in trackers {
            let observableSays = observable.amISubscribed(tracker)
            let trackerSays = tracker.amISubscribed(observable)
            let pair = Pair(observable: displayName(of: observable), observer: displayName(of: tracker))
            if observableSays != trackerSays || observableSays != fromTrackers.contains(pair) {
                mismatches.append("\(pair): observable \(observableSays), tracker \(trackerSays)")
            }
        }
    }
    #expect(mismatches == [], sourceLocation: sourceLocation)
}

/// A main-actor class that observes through a nonisolated conformance, the only kind allowed.
@MainActor
private final class Panel: GeneralSubscriber {
    nonisolated let uuid = UUID()
}

/// A main-actor class that tracks its subscriptions through a nonisolated conformance.
@MainActor
private final class Desk: GeneralTrackingSubscriber {
    nonisolated let subscriptionLedger = SubscriptionLedger()
}

/// Lines that a thread writes for the test to read.
private final class Report: @unchecked Sendable {  // `_lines` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _lines: [String] = []

    func append(_ line: String) { _lock.locked { _lines.append(line) } }
    var lines: [String] { _lock.locked { _lines } }
}

@Suite("Threading")
struct ThreadingTests {
    /// Isolated conformances (`@MainActor final class Panel: @MainActor GeneralSubscriber`) do not
    /// compile (see Tests/CompileFailures); a main-actor class that conforms without isolation is
    /// seen, and unsubscribed, from any thread.
    @MainActor @Test func mainActorClassesConformingWithoutIsolationWorkFromAnyThread() {
        let observable = TestObservable("o")
        let panel = Panel()
        let desk = Desk()
        observable.subscribe(panel)
        observable.subscribe(desk)
        let report = Report()

        let finished = onThreads(1) { _ in
            report.append("main thread: \(Thread.isMainThread)")
            report.append("observers: \(observable.observers.count)")
            report.append("panel subscribed: \(observable.amISubscribed(panel))")
            report.append("desk subscriptions: \(names(desk.subscriptions))")
            let removed = observable.unsubscribeAll()
            report.append("removed panel: \(removed.first.map { $0 as? Panel === panel } ?? false)")
            report.append("removed desk: \(removed.last.map { $0 as? Desk === desk } ?? false)")
            report.append("observers: \(observable.observers.count)")
            report.append("desk subscriptions: \(names(desk.subscriptions))")
        }
        guard finished else { return }

        #expect(
            report.lines == [
                "main thread: false", "observers: 2", "panel subscribed: true", "desk subscriptions: [\"o\"]",
                "removed panel: true", "removed desk: true", "observers: 0", "desk subscriptions: []",
            ]
        )
        withExtendedLifetime((panel, desk)) {}
    }

    @Test func concurrentChangesFireExactlyOneCallbackPerSuccessfulChange() {
        let log = EventLog()
        let observables = (0..<4).map { TestObservable("o\($0)", log: log) }
        let trackers = (0..<5).map { TestTracker("t\($0)", log: log) }
        let values = (0..<3).map { ValueObserver("v\($0)", log: log) }
        let subscribes = PairCounts()
        let unsubscribes = PairCounts()

        let finished = onThreads(6) { thread in
            var generator = SeededGenerator(seed: UInt64(thread) &+ 1)
            var subscribed: [Pair: Int] = [:]
            var unsubscribed: [Pair: Int] = [:]
            for _ in 0..<1_500 {
                let observable = observables[Int.random(in: 0..<observables.count, using: &generator)]
                let pick = Int.random(in: 0..<(trackers.count + values.count), using: &generator)
                let tracker = pick < trackers.count ? trackers[pick] : nil
                let observer: any GeneralSubscriber = tracker ?? values[pick - trackers.count]
                let pair = Pair(observable: observable.name, observer: displayName(of: observer))
                switch Int.random(in: 0..<6, using: &generator) {
                case 0, 1:
                    if observable.subscribe(observer) != nil { subscribed[pair, default: 0] += 1 }
                case 2, 3:
                    if observable.unsubscribe(observer) != nil { unsubscribed[pair, default: 0] += 1 }
                case 4:
                    _ = observable.amISubscribed(observer)
                    _ = observer.amISubscribed(observable)
                    _ = observable.observers
                default:
                    _ = tracker?.subscriptions
                    _ = tracker?.amISubscribed(observable)
                }
            }
            subscribes.add(subscribed)
            unsubscribes.add(unsubscribed)
        }
        guard finished else { return }

        expectConsistent(observables: observables, trackers: trackers)
        let callbacks = callbackCounts(log.events)
        #expect(callbacks.subscribedTo == subscribes.counts)
        #expect(callbacks.didSubscribe == subscribes.counts)
        #expect(callbacks.unsubscribedFrom == unsubscribes.counts)
        #expect(callbacks.didUnsubscribe == unsubscribes.counts)
        #expect(!subscribes.counts.isEmpty)
        #expect(!unsubscribes.counts.isEmpty)

        // Successful subscriptions minus successful unsubscriptions is what remains.
        var balanceErrors: [String] = []
        for observable in observables {
            for observer in trackers.map({ $0 as any GeneralSubscriber }) + values {
                let pair = Pair(observable: observable.name, observer: displayName(of: observer))
                let balance = subscribes.counts[pair, default: 0] - unsubscribes.counts[pair, default: 0]
                if balance != (observable.amISubscribed(observer) ? 1 : 0) {
                    balanceErrors.append("\(pair): balance \(balance)")
                }
            }
        }
        #expect(balanceErrors == [])
    }

    @Test func callbacksOfOnePairComeInTheOrderOfItsChanges() {
        // Subscribing and unsubscribing one pair from several threads: each thread's change is
        // made under the ledgers' locks, and its callbacks after unlocking. They used to run on the
        // thread that made the change, so a subscription's callbacks could come after those of the
        // unsubscription that followed it, and the observer's last callback then said
        // "subscribed" of a pair that was not (in about one round in twenty).
        for round in 0..<300 {
            let log = EventLog()
            let observable = TestObservable("o", log: log)
            let tracker = TestTracker("t", log: log)
            let value = ValueObserver("v", log: log)
            let finished = onThreads(4) { thread in
                let observer: any GeneralSubscriber = thread < 2 ? tracker : value
                for _ in 0..<50 {
                    if thread.isMultiple(of: 2) {
                        _ = observable.subscribe(observer)
                    } else {
                        _ = observable.unsubscribe(observer)
                    }
                }
            }
            guard finished else { return }
            for observer in [tracker as any GeneralSubscriber, value] {
                let name = displayName(of: observer)
                let heardByObservable = log.events.compactMap { event -> Bool? in
                    switch event {
                    case .didSubscribe(_, name): true
                    case .didUnsubscribe(_, name): false
                    default: nil
                    }
                }
                let heardByObserver = log.events.compactMap { event -> Bool? in
                    switch event {
                    case .subscribedTo(name, _): true
                    case .unsubscribedFrom(name, _): false
                    default: nil
                    }
                }
                let alternates = heardByObserver.enumerated().allSatisfy { $1 == $0.isMultiple(of: 2) }
                #expect(alternates, "round \(round), \(name): \(heardByObserver)")
                #expect(heardByObservable == heardByObserver)
                #expect((heardByObserver.last ?? false) == observable.amISubscribed(observer))
                if !alternates { return }
            }
        }
    }

    @Test func hubsChangingRelationshipsFromTheirCallbacksOnSixThreadsAgreePerPair() {
        // Callbacks that re-enter, dual-role objects, self-subscription and unsubscribeAll from
        // six threads: per pair, both sides hear the same alternating sequence, and the last word
        // is what both ledgers say.
        for round in 0..<30 {
            let log = EventLog()
            let peers = ReenteringHub.Peers()
            let hubs = (0..<4).map { ReenteringHub("h\($0)", log: log, peers: peers) }
            peers.hubs = hubs
            let finished = onThreads(6) { thread in
                var generator = SeededGenerator(seed: UInt64(thread * 1_000 + round + 1))
                for _ in 0..<200 {
                    let observable = hubs[Int.random(in: 0..<hubs.count, using: &generator)]
                    let observer = hubs[Int.random(in: 0..<hubs.count, using: &generator)]
                    switch Int.random(in: 0..<5, using: &generator) {
                    case 0, 1: observable.subscribe(observer)
                    case 2, 3: observable.unsubscribe(observer)
                    default: _ = (observable as any GeneralObservable).unsubscribeAll()
                    }
                }
            }
            guard finished else { return }
            let events = log.events
            var disagreements: [String] = []
            for observable in hubs {
                for observer in hubs {
                    let heardByObservable = events.compactMap { event -> Bool? in
                        switch event {
                        case .didSubscribe(observable.name, observer.name): true
                        case .didUnsubscribe(observable.name, observer.name): false
                        default: nil
                        }
                    }
                    let heardByObserver = events.compactMap { event -> Bool? in
                        switch event {
                        case .subscribedTo(observer.name, observable.name): true
                        case .unsubscribedFrom(observer.name, observable.name): false
                        default: nil
                        }
                    }
                    let isSubscribed = (observable as any GeneralObservable).amISubscribed(observer)
                    let agrees =
                        heardByObservable.enumerated().allSatisfy { $1 == $0.isMultiple(of: 2) }
                        && heardByObserver == heardByObservable && (heardByObservable.last ?? false) == isSubscribed
                        && observer.subscriptionLedger.containsSubscription(observable.uuid) == isSubscribed
                    if !agrees { disagreements.append("\(observable.name) ← \(observer.name): \(heardByObservable)") }
                }
            }
            #expect(disagreements.isEmpty, "round \(round)")
            if !disagreements.isEmpty { return }
        }
    }

    @Test func concurrentUnsubscribeAllAndHubsKeepTheGraphConsistent() {
        let log = EventLog()
        let observables = (0..<3).map { TestObservable("o\($0)", log: log) }
        let trackers = (0..<4).map { TestTracker("t\($0)", log: log) }
        let hubs = (0..<3).map { TestHub("h\($0)", log: log) }
        let subscribes = PairCounts()

        let finished = onThreads(6) { thread in
            var generator = SeededGenerator(seed: UInt64(thread) &+ 100)
            var subscribed: [Pair: Int] = [:]
            let allObservables: [any GeneralObservable & Named] = observables + hubs
            let allObservers: [any GeneralTrackingSubscriber & Named] = trackers + hubs
            for _ in 0..<1_200 {
                let observable = allObservables[Int.random(in: 0..<allObservables.count, using: &generator)]
                let observer = allObservers[Int.random(in: 0..<allObservers.count, using: &generator)]
                switch Int.random(in: 0..<20, using: &generator) {
                case 0:
                    observable.unsubscribeAll()
                case 1:
                    observer.unsubscribeAll()
                case 2..<10:
                    if observable.subscribe(observer) != nil {
                        subscribed[Pair(observable: observable.name, observer: observer.name), default: 0] += 1
                    }
                case 10..<16:
                    observable.unsubscribe(observer)
                default:
                    _ = observable.observers
                    _ = observer.subscriptions
                    _ = observer.amISubscribed(observable)
                }
            }
            subscribes.add(subscribed)
        }
        guard finished else { return }

        let allObservables: [any GeneralObservable] = observables + hubs
        let allTrackers: [any GeneralTrackingSubscriber] = trackers + hubs
        expectConsistent(observables: allObservables, trackers: allTrackers)
        let callbacks = callbackCounts(log.events)
        #expect(callbacks.subscribedTo == subscribes.counts)
        #expect(callbacks.didSubscribe == subscribes.counts)
        #expect(callbacks.unsubscribedFrom == callbacks.didUnsubscribe)

        var balanceErrors: [String] = []
        for observable in allObservables {
            for tracker in allTrackers {
                let pair = Pair(observable: displayName(of: observable), observer: displayName(of: tracker))
                let balance =
                    callbacks.subscribedTo[pair, default: 0] - callbacks.unsubscribedFrom[pair, default: 0]
                if balance != (tracker.amISubscribed(observable) ? 1 : 0) {
                    balanceErrors.append("\(pair): balance \(balance)")
                }
            }
        }
        #expect(balanceErrors == [])
    }

    @Test func objectsDyingOnOtherThreadsLeaveNoEntriesBehind() {
        let live = LiveCount()
        let observables = (0..<3).map { _ in CountedObservable(live) }
        let trackers = (0..<3).map { _ in CountedTracker(live) }

        let finished = onThreads(6) { thread in
            var generator = SeededGenerator(seed: UInt64(thread) &+ 1_000)
            for _ in 0..<300 {
                if thread.isMultiple(of: 2) {
                    // Short-lived trackers on long-lived observables, and the reverse.
                    let tracker = CountedTracker(live)
                    for observable in observables.shuffled(using: &generator) {
                        observable.subscribe(tracker)
                    }
                    let observable = CountedObservable(live)
                    for tracker in trackers.shuffled(using: &generator) {
                        observable.subscribe(tracker)
                    }
                    if Bool.random(using: &generator) {
                        tracker.unsubscribeAll()
                    }
                } else {
                    // Readers and writers on the long-lived objects meanwhile.
                    let observable = observables[Int.random(in: 0..<observables.count, using: &generator)]
                    let tracker = trackers[Int.random(in: 0..<trackers.count, using: &generator)]
                    _ = observable.observers
                    _ = tracker.subscriptions
                    observable.subscribe(tracker)
                    observable.unsubscribe(tracker)
                }
            }
        }
        guard finished else { return }

        #expect(live.value == observables.count + trackers.count)
        for observable in observables {
            #expect(observable.subscriptionLedger._entryCounts.observers == 0)
            #expect(observable.observers.isEmpty)
        }
        for tracker in trackers {
            #expect(tracker.subscriptionLedger._entryCounts.subscriptions == 0)
            #expect(tracker.subscriptions.isEmpty)
        }
    }

    @Test func trackersDyingWhileTheirObservableSweepsDoNotDeadlock() {
        // Listing the observers sweeps out dead entries, which means loading each weak reference.
        // A tracker whose last reference goes away on another thread at that moment must not be
        // freed while the observable's lock is held: its ledger takes that lock to forget it.
        let observable = TestObservable("o")
        let workersDone = LiveCount()
        let workers = 2

        let finished = onThreads(workers + 1) { thread in
            if thread == workers {
                while workersDone.value < workers {
                    _ = observable.observers
                }
            } else {
                for _ in 0..<8_000 {
                    observable.subscribe(TestTracker("t"))
                }
                workersDone.increment()
            }
        }
        guard finished else { return }

        #expect(observable.subscriptionLedger._entryCounts.observers == 0)
        #expect(observable.observers.isEmpty)
    }

    @Test func opposingSubscriptionsBetweenTwoHubsDoNotDeadlock() {
        let first = TestHub("a")
        let second = TestHub("b")

        let finished = onThreads(4) { thread in
            let (observable, observer) = thread.isMultiple(of: 2) ? (first, second) : (second, first)
            for _ in 0..<1_000 {
                observable.subscribe(observer)
                observable.unsubscribe(observer)
                observer.subscribe(observer)
                observable.unsubscribeAll()
            }
        }
        guard finished else { return }

        expectConsistent(observables: [first, second], trackers: [first, second])
    }
}
