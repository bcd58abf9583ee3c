import Foundation
import GeneralObserver
import Testing

/// An observable that supplies its own identity instead of the ledger's.
private final class SelfIdentifiedObservable: GeneralObservable, Named {
    let uuid: UUID
    let name: String
    let subscriptionLedger = SubscriptionLedger()

    init(_ name: String, uuid: UUID) {
        self.name = name
        self.uuid = uuid
    }
}

/// A class that observes and is observable but does not track its subscriptions.
private final class SelfObservingObject: GeneralObservable, GeneralSubscriber, Named {
    let name = "self"
    let subscriptionLedger = SubscriptionLedger()
}

@Suite("Unusual and invalid input")
struct BadInputTests {
    @Test func observersWithTheSameUUIDAreTheSameObserver() {
        let observable = TestObservable("o")
        let identity = UUID()
        let first = ValueObserver("first", uuid: identity)
        let second = ValueObserver("second", uuid: identity)

        #expect(observable.subscribe(first) != nil)
        #expect(observable.subscribe(second) == nil)
        #expect(names(observable.observers) == ["first"])
        #expect(observable.amISubscribed(second))
        #expect(observable.unsubscribe(second)?.name == "second")
        #expect(observable.observers.isEmpty)
    }

    @Test func subscribingManyTimesKeepsOneSubscription() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)

        for _ in 0..<50 {
            observable.subscribe(tracker)
        }

        #expect(names(observable.observers) == ["t"])
        #expect(names(tracker.subscriptions) == ["o"])
        #expect(log.events == Event.subscription("t", to: "o"))
    }

    @Test func repeatedSubscribeUnsubscribeCyclesLeaveNothingBehind() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        let value = ValueObserver("v", log: log)

        var expected: [Event] = []
        for _ in 0..<100 {
            #expect(observable.subscribe(tracker) === tracker)
            #expect(observable.subscribe(value) != nil)
            #expect(observable.unsubscribe(tracker) === tracker)
            #expect(observable.unsubscribe(value) != nil)
            expected +=
                Event.subscription("t", to: "o") + Event.subscription("v", to: "o")
                + Event.unsubscription("t", from: "o") + Event.unsubscription("v", from: "o")
        }

        #expect(observable.observers.isEmpty)
        #expect(tracker.subscriptions.isEmpty)
        #expect(log.events == expected)
    }

    @Test func unsubscribeAllTwiceFiresOnlyOnce() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        let other = TestObservable("other", log: log)
        observable.subscribe(tracker)
        other.subscribe(tracker)
        _ = log.take()

        observable.unsubscribeAll()
        observable.unsubscribeAll()
        tracker.unsubscribeAll()
        tracker.unsubscribeAll()

        #expect(log.events == Event.unsubscription("t", from: "o") + Event.unsubscription("t", from: "other"))
        withExtendedLifetime((observable, other)) {}
    }

    @Test func anObserverOfAnotherObservableIsAStrangerHere() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let other = TestObservable("other", log: log)
        let tracker = TestTracker("t", log: log)
        other.subscribe(tracker)
        _ = log.take()

        #expect(!observable.amISubscribed(tracker))
        #expect(!tracker.amISubscribed(observable))
        #expect(observable.unsubscribe(tracker) == nil)
        observable.unsubscribeAll()

        #expect(names(other.observers) == ["t"])
        #expect(names(tracker.subscriptions) == ["other"])
        #expect(log.events.isEmpty)
    }

    @Test func observableWithItsOwnUUIDIsTrackedByIt() {
        let identity = UUID()
        let observable = SelfIdentifiedObservable("o", uuid: identity)
        let tracker = TestTracker("t")

        #expect(observable.uuid == identity)
        #expect(observable.uuid != observable.subscriptionLedger.uuid)
        observable.subscribe(tracker)
        #expect(tracker.amISubscribed(observable))
        #expect(names(tracker.subscriptions) == ["o"])
        tracker.unsubscribeAll()
        #expect(observable.observers.isEmpty)
        #expect(!tracker.amISubscribed(observable))
    }

    @Test func ledgerUUIDChosenAtCreationBecomesTheIdentity() {
        final class Chosen: GeneralObservable {
            let subscriptionLedger: SubscriptionLedger
            init(_ uuid: UUID) { subscriptionLedger = SubscriptionLedger(uuid: uuid) }
        }
        let identity = UUID()
        let observable = Chosen(identity)
        let tracker = TestTracker("t")

        #expect(observable.uuid == identity)
        observable.subscribe(tracker)
        #expect(tracker.subscriptions.first?.uuid == identity)
        withExtendedLifetime(observable) {}
    }

    @Test func nonTrackingClassCanSubscribeToItself() {
        let object = SelfObservingObject()

        #expect(object.subscribe(object) === object)
        #expect(object.subscribe(object) == nil)
        #expect(names(object.observers) == ["self"])
        #expect((object as any GeneralObservable).amISubscribed(object))
        #expect(object.unsubscribe(object) === object)
        #expect(object.observers.isEmpty)
    }

    @Test func nonTrackingClassSubscribedToItselfDoesNotLeak() {
        weak var weakObject: SelfObservingObject?
        do {
            let object = SelfObservingObject()
            weakObject = object
            object.subscribe(object)
            withExtendedLifetime(object) {}
        }
        #expect(weakObject == nil)
    }
}
