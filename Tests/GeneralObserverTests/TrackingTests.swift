import Foundation
import GeneralObserver
import Testing

@Suite("Tracking observers")
struct TrackingTests {
    @Test func subscribingFromTheObservableUpdatesTheTracker() {
        let tracker = TestTracker("t")
        let first = TestObservable("o1")
        let second = TestObservable("o2")

        first.subscribe(tracker)
        #expect(names(tracker.subscriptions) == ["o1"])
        second.subscribe(tracker)
        #expect(names(tracker.subscriptions) == ["o1", "o2"])
        first.unsubscribe(tracker)
        #expect(names(tracker.subscriptions) == ["o2"])
        #expect(!tracker.amISubscribed(first))
        #expect(tracker.amISubscribed(second))
    }

    @Test func subscriptionsAreTheObservablesThemselves() {
        let tracker = TestTracker("t")
        let observable = TestObservable("o")
        observable.subscribe(tracker)

        #expect(tracker.subscriptions.count == 1)
        #expect(tracker.subscriptions.first === observable)
        #expect(observable.observers.first as? TestTracker === tracker)
    }

    @Test func classObserversAreListedAsThemselvesAndValueObserversAsCopies() {
        let observable = TestObservable("o")
        let object = ObjectObserver("c")
        let value = ValueObserver("v")
        observable.subscribe(object)
        observable.subscribe(value)

        let listed = observable.observers
        #expect(listed.count == 2)
        #expect(listed.first as? ObjectObserver === object)
        #expect((listed.last as? ValueObserver)?.uuid == value.uuid)
    }

    @Test func trackerSubscribedThroughAnExistentialIsStillTracked() {
        let tracker = TestTracker("t")
        let observable = TestObservable("o")
        let asSubscriber: any GeneralSubscriber = tracker

        #expect(observable.subscribe(asSubscriber) != nil)
        #expect(names(tracker.subscriptions) == ["o"])
        #expect(tracker.amISubscribed(observable))
        #expect(observable.subscribe(tracker) == nil)

        #expect(observable.unsubscribe(asSubscriber) != nil)
        #expect(tracker.subscriptions.isEmpty)
        #expect(!observable.amISubscribed(tracker))
    }

    @Test func observersRelistedThroughExistentialsKeepTheirKind() {
        let log = EventLog()
        let source = TestObservable("source", log: log)
        let target = TestObservable("target", log: log)
        let tracker = TestTracker("t", log: log)
        let value = ValueObserver("v", log: log)
        source.subscribe(tracker)
        source.subscribe(value)
        _ = log.take()

        for observer in source.observers {
            target.subscribe(observer)
        }

        #expect(names(target.observers) == ["t", "v"])
        #expect(names(tracker.subscriptions) == ["source", "target"])
        #expect(log.events == Event.subscription("t", to: "target") + Event.subscription("v", to: "target"))
    }

    @Test func trackerUnsubscribeAllLeavesOnlyItsOwnSubscriptions() {
        let log = EventLog()
        let tracker = TestTracker("t", log: log)
        let other = TestTracker("other", log: log)
        let value = ValueObserver("v", log: log)
        let observables = (0..<3).map { TestObservable("o\($0)", log: log) }
        for observable in observables {
            observable.subscribe(value)
            observable.subscribe(tracker)
            observable.subscribe(other)
        }
        _ = log.take()

        tracker.unsubscribeAll()

        for observable in observables {
            #expect(names(observable.observers) == ["v", "other"])
        }
        #expect(names(other.subscriptions) == ["o0", "o1", "o2"])
        #expect(
            log.events
                == Event.unsubscription("t", from: "o0") + Event.unsubscription("t", from: "o1")
                + Event.unsubscription("t", from: "o2")
        )
        // Class counterparts are held weakly: keep them alive until the checks are done.
        withExtendedLifetime(observables) {}
    }

    @Test func trackerCanSubscribeAgainAfterUnsubscribeAll() {
        let tracker = TestTracker("t")
        let observables = (0..<3).map { TestObservable("o\($0)") }
        for observable in observables {
            observable.subscribe(tracker)
        }

        tracker.unsubscribeAll()
        observables[2].subscribe(tracker)
        observables[0].subscribe(tracker)

        #expect(names(tracker.subscriptions) == ["o2", "o0"])
        #expect(names(observables[1].observers).isEmpty)
        #expect(names(observables[2].observers) == ["t"])
        withExtendedLifetime(tracker) {}
    }
}
