import Foundation
import Testing

@testable import GeneralObserver

/// An object whose lifetime a value observer can extend, to show that observables copy values.
private final class Payload {}

/// A value observer that carries a reference.
private struct CarryingObserver: GeneralSubscriber {
    let uuid = UUID()
    let payload: Payload
}

/// An object that runs a closure when it is freed.
private final class DeinitHook {
    let onDeinit: () -> Void

    init(_ onDeinit: @escaping () -> Void) {
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }
}

/// Lists `observable`'s observers from another thread, or returns `nil` if that takes more than a
/// few seconds (as it would while the caller holds the observable's lock).
private func observersListedFromAnotherThread(_ observable: TestObservable) -> [String]? {
    let result = ResultBox()
    let done = DispatchSemaphore(value: 0)
    Thread {
        result.set(names(observable.observers))
        done.signal()
    }
    .start()
    guard done.wait(timeout: .now() + 120) == .success else { return nil }
    return result.value
}

/// A value handed from one thread to another.
private final class ResultBox: @unchecked Sendable {  // `_value` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _value: [String]?

    func set(_ value: [String]) { _lock.locked { _value = value } }
    var value: [String]? { _lock.locked { _value } }
}

/// A value observer whose last copy, when released, runs a closure.
private struct HookedValueObserver: GeneralSubscriber, Named {
    let uuid: UUID
    let name: String
    let hook: DeinitHook
}

@Suite("Lifetimes")
struct LifetimeTests {
    @Test func observableIsFreedWhileTrackersAreSubscribed() {
        let log = EventLog()
        let first = TestTracker("t1", log: log)
        let second = TestTracker("t2", log: log)
        let survivor = TestObservable("survivor", log: log)
        survivor.subscribe(first)
        weak var weakObservable: TestObservable?
        do {
            let observable = TestObservable("gone", log: log)
            weakObservable = observable
            observable.subscribe(first)
            observable.subscribe(second)
            withExtendedLifetime(observable) {
                #expect(names(first.subscriptions) == ["survivor", "gone"])
                #expect(first.subscriptionLedger._entryCounts.subscriptions == 2)
                #expect(second.subscriptionLedger._entryCounts.subscriptions == 1)
            }
        }
        _ = log.take()

        #expect(weakObservable == nil)
        // The dead observable's ledger removed it from its trackers' ledgers right away.
        #expect(first.subscriptionLedger._entryCounts.subscriptions == 1)
        #expect(second.subscriptionLedger._entryCounts.subscriptions == 0)
        #expect(names(first.subscriptions) == ["survivor"])
        #expect(second.subscriptions.isEmpty)
        // Nobody is told: there is no observable left to pass to a callback.
        #expect(log.events.isEmpty)
        // The trackers carry on as usual.
        first.unsubscribeAll()
        #expect(log.take() == Event.unsubscription("t1", from: "survivor"))
        #expect(survivor.observers.isEmpty)
    }

    @Test func trackerIsFreedWhileSubscribed() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let other = TestObservable("other", log: log)
        let value = ValueObserver("v", log: log)
        observable.subscribe(value)
        weak var weakTracker: TestTracker?
        do {
            let tracker = TestTracker("gone", log: log)
            weakTracker = tracker
            observable.subscribe(tracker)
            other.subscribe(tracker)
            withExtendedLifetime(tracker) {
                #expect(names(observable.observers) == ["v", "gone"])
                #expect(observable.subscriptionLedger._entryCounts.observers == 2)
            }
        }
        _ = log.take()

        #expect(weakTracker == nil)
        // Checked before anything lists the observers: the removal was not left to a lazy sweep.
        #expect(observable.subscriptionLedger._entryCounts.observers == 1)
        #expect(other.subscriptionLedger._entryCounts.observers == 0)
        #expect(names(observable.observers) == ["v"])
        #expect(other.observers.isEmpty)
        #expect(log.events.isEmpty)
        observable.unsubscribeAll()
        #expect(log.take() == Event.unsubscription("v", from: "o"))
    }

    @Test func objectObserverIsFreedWhileSubscribedAndSweptLazily() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let value = ValueObserver("v", log: log)
        weak var weakObject: ObjectObserver?
        do {
            let object = ObjectObserver("gone", log: log)
            weakObject = object
            observable.subscribe(object)
            observable.subscribe(value)
            withExtendedLifetime(object) {
                #expect(names(observable.observers) == ["gone", "v"])
            }
        }
        _ = log.take()

        #expect(weakObject == nil)
        // A plain class observer cannot announce its death; its entry stays until the next sweep.
        #expect(observable.subscriptionLedger._entryCounts.observers == 2)
        #expect(names(observable.observers) == ["v"])
        #expect(observable.subscriptionLedger._entryCounts.observers == 1)
        #expect(log.events.isEmpty)
        observable.unsubscribeAll()
        #expect(log.take() == Event.unsubscription("v", from: "o"))
    }

    @Test func deadObserversAreSweptWhenTheTableDoubles() {
        let observable = TestObservable("o")
        do {
            let objects = (0..<40).map { ObjectObserver("c\($0)") }
            for object in objects {
                observable.subscribe(object)
            }
            withExtendedLifetime(objects) {
                #expect(observable.subscriptionLedger._entryCounts.observers == 40)
            }
        }
        #expect(observable.subscriptionLedger._entryCounts.observers == 40)

        // Without ever listing the observers, subscribing more sweeps the dead entries before the
        // table has grown to twice its size.
        let values = (0..<80).map { ValueObserver("v\($0)") }
        var largest = 0
        for value in values {
            observable.subscribe(value)
            largest = max(largest, observable.subscriptionLedger._entryCounts.observers)
        }
        #expect(observable.subscriptionLedger._entryCounts.observers == 80)
        #expect(largest <= 80)
        #expect(names(observable.observers) == values.map(\.name))
    }

    @Test func valueObserversAreRetainedByCopy() {
        let observable = TestObservable("o")
        weak var weakPayload: Payload?
        do {
            let payload = Payload()
            weakPayload = payload
            observable.subscribe(CarryingObserver(payload: payload))
        }

        #expect(weakPayload != nil)
        #expect(observable.observers.count == 1)
        #expect((observable.observers.first as? CarryingObserver)?.payload === weakPayload)

        observable.unsubscribeAll()
        #expect(weakPayload == nil)
    }

    @Test func releasingTheLastCopyOfAValueObserverMayCallBackIntoTheObservable() {
        // The ledger releases its copy after unlocking, so code that runs when the copy goes away
        // may use the observable. (Were the lock still held, another thread could not list the
        // observers, and the same thread would deadlock.)
        let observable = TestObservable("o")
        let other = ValueObserver("other")
        observable.subscribe(other)
        var seen: [String] = []
        let identities = [UUID(), UUID()]
        for (name, identity) in zip(["h1", "h2"], identities) {
            let hook = DeinitHook { [unowned observable] in
                let listed = observersListedFromAnotherThread(observable)
                seen.append("\(name) freed, observers \(listed.map { "\($0)" } ?? "locked")")
            }
            observable.subscribe(HookedValueObserver(uuid: identity, name: name, hook: hook))
        }
        #expect(names(observable.observers) == ["other", "h1", "h2"])
        #expect(seen.isEmpty)

        // Unsubscribed by identity, so the observable's copy is the last one.
        #expect(observable.unsubscribe(ValueObserver("h1", uuid: identities[0])) != nil)
        #expect(seen == ["h1 freed, observers [\"other\", \"h2\"]"])

        #expect(SubscriptionLedger.eraseSubscription(of: ValueObserver("h2", uuid: identities[1]), from: observable))
        #expect(seen == ["h1 freed, observers [\"other\", \"h2\"]", "h2 freed, observers [\"other\"]"])
    }

    @Test func valueObserverCopiesAreReleasedWithTheObservable() {
        weak var weakPayload: Payload?
        weak var weakObservable: TestObservable?
        do {
            let observable = TestObservable("o")
            weakObservable = observable
            let payload = Payload()
            weakPayload = payload
            observable.subscribe(CarryingObserver(payload: payload))
            withExtendedLifetime(observable) {}
        }

        #expect(weakObservable == nil)
        #expect(weakPayload == nil)
    }

    @Test func trackerAndObservableBothFreedInEitherOrder() {
        for observableGoesFirst in [true, false] {
            weak var weakObservable: TestObservable?
            weak var weakTracker: TestTracker?
            do {
                var observable: TestObservable? = TestObservable("o")
                var tracker: TestTracker? = TestTracker("t")
                weakObservable = observable
                weakTracker = tracker
                observable?.subscribe(tracker!)
                if observableGoesFirst {
                    observable = nil
                    #expect(weakObservable == nil)
                    #expect(tracker?.subscriptions.isEmpty == true)
                    #expect(tracker?.subscriptionLedger._entryCounts.subscriptions == 0)
                    tracker = nil
                } else {
                    tracker = nil
                    #expect(weakTracker == nil)
                    #expect(observable?.observers.isEmpty == true)
                    #expect(observable?.subscriptionLedger._entryCounts.observers == 0)
                    observable = nil
                }
            }
            #expect(weakObservable == nil)
            #expect(weakTracker == nil)
        }
    }

    @Test func hubSubscribedToItselfIsFreed() {
        weak var weakHub: TestHub?
        do {
            let hub = TestHub("h")
            weakHub = hub
            hub.subscribe(hub)
            withExtendedLifetime(hub) {
                #expect(hub.amISubscribed(hub))
            }
        }
        #expect(weakHub == nil)
    }

    @Test func hubsSubscribedToEachOtherAreFreed() {
        let observable = TestObservable("o")
        let tracker = TestTracker("t")
        var weakHubs: [() -> TestHub?] = []
        do {
            let hubs = (0..<5).map { TestHub("h\($0)") }
            for hub in hubs {
                weakHubs.append { [weak hub] in hub }
                observable.subscribe(hub)
                hub.subscribe(tracker)
                for other in hubs {
                    hub.subscribe(other)
                }
            }
            withExtendedLifetime(hubs) {
                #expect(observable.observers.count == 5)
                #expect(tracker.subscriptions.count == 5)
            }
        }

        #expect(weakHubs.allSatisfy { $0() == nil })
        #expect(observable.subscriptionLedger._entryCounts.observers == 0)
        #expect(tracker.subscriptionLedger._entryCounts.subscriptions == 0)
        #expect(observable.observers.isEmpty)
        #expect(tracker.subscriptions.isEmpty)
    }

    @Test func matrixOfTrackersAndObservablesIsFreedCompletely() {
        var weakObservables: [() -> TestObservable?] = []
        var weakTrackers: [() -> TestTracker?] = []
        let survivingObservable = TestObservable("keep-o")
        let survivingTracker = TestTracker("keep-t")
        do {
            let observables = (0..<10).map { TestObservable("o\($0)") }
            let trackers = (0..<10).map { TestTracker("t\($0)") }
            for observable in observables {
                weakObservables.append { [weak observable] in observable }
                observable.subscribe(survivingTracker)
                for tracker in trackers {
                    observable.subscribe(tracker)
                }
            }
            for tracker in trackers {
                weakTrackers.append { [weak tracker] in tracker }
                survivingObservable.subscribe(tracker)
            }
            withExtendedLifetime((observables, trackers)) {
                #expect(survivingTracker.subscriptions.count == 10)
                #expect(survivingObservable.observers.count == 10)
            }
        }

        #expect(weakObservables.allSatisfy { $0() == nil })
        #expect(weakTrackers.allSatisfy { $0() == nil })
        #expect(survivingTracker.subscriptionLedger._entryCounts.subscriptions == 0)
        #expect(survivingObservable.subscriptionLedger._entryCounts.observers == 0)
    }

    @Test func classObserverSubscribedThroughAnExistentialIsNotRetained() {
        let observable = TestObservable("o")
        weak var weakObject: ObjectObserver?
        weak var weakTracker: TestTracker?
        do {
            let object = ObjectObserver("c")
            let tracker = TestTracker("t")
            weakObject = object
            weakTracker = tracker
            let observers: [any GeneralSubscriber] = [object, tracker]
            for observer in observers {
                observable.subscribe(observer)
            }
            withExtendedLifetime(observers) {
                #expect(names(observable.observers) == ["c", "t"])
            }
        }

        #expect(weakObject == nil)
        #expect(weakTracker == nil)
        #expect(observable.observers.isEmpty)
        #expect(observable.subscriptionLedger._entryCounts.observers == 0)
    }

    @Test func subscribingDoesNotRetainTheObservable() {
        let tracker = TestTracker("t")
        let value = ValueObserver("v")
        let object = ObjectObserver("c")
        weak var weakObservable: TestObservable?
        do {
            let observable = TestObservable("o")
            weakObservable = observable
            observable.subscribe(tracker)
            observable.subscribe(value)
            observable.subscribe(object)
            withExtendedLifetime(observable) {}
        }

        #expect(weakObservable == nil)
        #expect(tracker.subscriptions.isEmpty)
    }
}
