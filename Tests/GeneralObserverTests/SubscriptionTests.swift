import Foundation
import Testing

@testable import GeneralObserver

@Suite("Subscribing and unsubscribing")
struct SubscriptionTests {
    @Test func subscribeReturnsTheObserver() {
        let observable = TestObservable("o")
        let tracker = TestTracker("t")
        let object = ObjectObserver("c")
        let value = ValueObserver("v")

        #expect(observable.subscribe(tracker) === tracker)
        #expect(observable.subscribe(object) === object)
        #expect(observable.subscribe(value)?.uuid == value.uuid)
        #expect(names(observable.observers) == ["t", "c", "v"])
        withExtendedLifetime((tracker, object)) {}
    }

    @Test func doubleSubscribeReturnsNil() {
        let observable = TestObservable("o")
        let tracker = TestTracker("t")
        let object = ObjectObserver("c")
        let value = ValueObserver("v")
        observable.subscribe(tracker)
        observable.subscribe(object)
        observable.subscribe(value)

        #expect(observable.subscribe(tracker) == nil)
        #expect(observable.subscribe(object) == nil)
        #expect(observable.subscribe(value) == nil)
        #expect(names(observable.observers) == ["t", "c", "v"])
        #expect(names(tracker.subscriptions) == ["o"])
        withExtendedLifetime(object) {}
    }

    @Test func subscribingACopyOfAValueObserverReturnsNil() {
        let observable = TestObservable("o")
        let value = ValueObserver("v")
        let copy = value
        observable.subscribe(value)

        #expect(observable.subscribe(copy) == nil)
        #expect(observable.subscribe(ValueObserver("same identity", uuid: value.uuid)) == nil)
        #expect(names(observable.observers) == ["v"])
    }

    @Test func unsubscribeReturnsTheObserver() {
        let observable = TestObservable("o")
        let tracker = TestTracker("t")
        let object = ObjectObserver("c")
        let value = ValueObserver("v")
        observable.subscribe(tracker)
        observable.subscribe(object)
        observable.subscribe(value)

        #expect(observable.unsubscribe(object) === object)
        #expect(names(observable.observers) == ["t", "v"])
        #expect(observable.unsubscribe(value)?.uuid == value.uuid)
        #expect(names(observable.observers) == ["t"])
        #expect(observable.unsubscribe(tracker) === tracker)
        #expect(observable.observers.isEmpty)
        #expect(tracker.subscriptions.isEmpty)
    }

    @Test func unsubscribeReturnsNilWhenNotSubscribed() {
        let observable = TestObservable("o")
        let other = TestObservable("other")
        let tracker = TestTracker("t")
        let object = ObjectObserver("c")
        let value = ValueObserver("v")
        other.subscribe(tracker)
        other.subscribe(object)
        other.subscribe(value)

        #expect(observable.unsubscribe(tracker) == nil)
        #expect(observable.unsubscribe(object) == nil)
        #expect(observable.unsubscribe(value) == nil)
        #expect(names(other.observers) == ["t", "c", "v"])
        #expect(names(tracker.subscriptions) == ["other"])
        withExtendedLifetime(object) {}
    }

    @Test func unsubscribingTwiceReturnsNilTheSecondTime() {
        let observable = TestObservable("o")
        let tracker = TestTracker("t")
        observable.subscribe(tracker)

        #expect(observable.unsubscribe(tracker) === tracker)
        #expect(observable.unsubscribe(tracker) == nil)
        #expect(observable.observers.isEmpty)
        #expect(tracker.subscriptions.isEmpty)
    }

    @Test func unsubscribingThroughACopyOfAValueObserverWorks() {
        let observable = TestObservable("o")
        let value = ValueObserver("v")
        observable.subscribe(value)

        #expect(observable.unsubscribe(ValueObserver("same identity", uuid: value.uuid))?.uuid == value.uuid)
        #expect(observable.observers.isEmpty)
        #expect(!observable.amISubscribed(value))
    }

    @Test func amISubscribedTakesTheListedObserversInsideExpect() {
        let observable = TestObservable("o")
        let other = TestObservable("other")
        let tracker = TestTracker("t")
        let object = ObjectObserver("c")
        observable.subscribe(tracker)
        observable.subscribe(object)
        observable.subscribe(ValueObserver("v"))

        let listed: [any GeneralSubscriber] = observable.observers
        #expect(names(listed) == ["t", "c", "v"])
        for observer in listed {
            #expect(observable.amISubscribed(observer), "\(displayName(of: observer))")
            #expect(!other.amISubscribed(observer), "\(displayName(of: observer))")
        }
        observable.unsubscribe(object)
        #expect(!observable.amISubscribed(listed[1]))
        #expect(observable.amISubscribed(listed[0]) && observable.amISubscribed(listed[2]))
        withExtendedLifetime((tracker, object)) {}
    }

    @Test func amISubscribedAgreesOnBothSides() {
        let observable = TestObservable("o")
        let other = TestObservable("other")
        let tracker = TestTracker("t")
        let object = ObjectObserver("c")
        let value = ValueObserver("v")

        #expect(!observable.amISubscribed(tracker))
        #expect(!tracker.amISubscribed(observable))
        #expect(!observable.amISubscribed(object))
        #expect(!object.amISubscribed(observable))
        #expect(!observable.amISubscribed(value))
        #expect(!value.amISubscribed(observable))

        observable.subscribe(tracker)
        observable.subscribe(object)
        observable.subscribe(value)

        #expect(observable.amISubscribed(tracker))
        #expect(tracker.amISubscribed(observable))
        #expect(observable.amISubscribed(object))
        #expect(object.amISubscribed(observable))
        #expect(observable.amISubscribed(value))
        #expect(value.amISubscribed(observable))
        #expect(!other.amISubscribed(tracker))
        #expect(!tracker.amISubscribed(other))
        #expect(!other.amISubscribed(object))
        #expect(!object.amISubscribed(other))
        #expect(!other.amISubscribed(value))
        #expect(!value.amISubscribed(other))

        observable.unsubscribe(tracker)
        observable.unsubscribe(object)
        observable.unsubscribe(value)

        #expect(!observable.amISubscribed(tracker))
        #expect(!tracker.amISubscribed(observable))
        #expect(!observable.amISubscribed(object))
        #expect(!object.amISubscribed(observable))
        #expect(!observable.amISubscribed(value))
        #expect(!value.amISubscribed(observable))
    }

    @Test func observersAreListedInSubscriptionOrder() {
        let observable = TestObservable("o")
        let trackers = (0..<3).map { TestTracker("t\($0)") }
        let values = (0..<3).map { ValueObserver("v\($0)") }
        let objects = (0..<3).map { ObjectObserver("c\($0)") }
        for index in [2, 0, 1] {
            observable.subscribe(values[index])
            observable.subscribe(trackers[index])
            observable.subscribe(objects[index])
        }

        #expect(names(observable.observers) == ["v2", "t2", "c2", "v0", "t0", "c0", "v1", "t1", "c1"])
        // Class counterparts are held weakly: keep them alive until the checks are done.
        withExtendedLifetime((trackers, objects)) {}
    }

    @Test func removingFromTheMiddleKeepsTheOrder() {
        let observable = TestObservable("o")
        let values = (0..<6).map { ValueObserver("v\($0)") }
        for value in values {
            observable.subscribe(value)
        }

        observable.unsubscribe(values[2])
        #expect(names(observable.observers) == ["v0", "v1", "v3", "v4", "v5"])
        observable.unsubscribe(values[4])
        #expect(names(observable.observers) == ["v0", "v1", "v3", "v5"])
        observable.unsubscribe(values[0])
        #expect(names(observable.observers) == ["v1", "v3", "v5"])
        observable.unsubscribe(values[5])
        #expect(names(observable.observers) == ["v1", "v3"])
    }

    @Test func resubscribingMovesAnObserverToTheEnd() {
        let observable = TestObservable("o")
        let tracker = TestTracker("t")
        let values = (0..<3).map { ValueObserver("v\($0)") }
        observable.subscribe(tracker)
        for value in values {
            observable.subscribe(value)
        }

        observable.unsubscribe(tracker)
        observable.unsubscribe(values[1])
        observable.subscribe(tracker)
        observable.subscribe(values[1])

        #expect(names(observable.observers) == ["v0", "v2", "t", "v1"])
        withExtendedLifetime(tracker) {}
    }

    @Test func subscriptionsAreListedInSubscriptionOrder() {
        let tracker = TestTracker("t")
        let observables = (0..<6).map { TestObservable("o\($0)") }
        for index in [3, 1, 5, 0, 4, 2] {
            observables[index].subscribe(tracker)
        }
        #expect(names(tracker.subscriptions) == ["o3", "o1", "o5", "o0", "o4", "o2"])

        observables[5].unsubscribe(tracker)
        observables[3].unsubscribe(tracker)
        #expect(names(tracker.subscriptions) == ["o1", "o0", "o4", "o2"])

        observables[3].subscribe(tracker)
        #expect(names(tracker.subscriptions) == ["o1", "o0", "o4", "o2", "o3"])
        // Class counterparts are held weakly: keep them alive until the checks are done.
        withExtendedLifetime(observables) {}
    }

    @Test func compactionKeepsOrderAndLookups() {
        let observable = TestObservable("o")
        let values = (0..<100).map { ValueObserver("v\($0)") }
        for value in values {
            observable.subscribe(value)
        }

        // Remove 80 of 100 in a scattered order: the holes soon outnumber the entries, so the table
        // compacts (several times) while entries are still being removed.
        var generator = SeededGenerator(seed: 7)
        let removed = Array(values.indices.shuffled(using: &generator).prefix(80))
        for index in removed {
            #expect(observable.unsubscribe(values[index])?.uuid == values[index].uuid)
        }

        let removedSet = Set(removed)
        let kept = values.indices.filter { !removedSet.contains($0) }
        #expect(names(observable.observers) == kept.map { "v\($0)" })
        #expect(observable.subscriptionLedger._entryCounts.observers == 20)
        for index in values.indices {
            #expect(observable.amISubscribed(values[index]) == !removedSet.contains(index))
        }

        // Positions recorded during compaction must still be right: remove and re-add survivors.
        #expect(observable.unsubscribe(values[kept[10]]) != nil)
        #expect(observable.unsubscribe(values[kept[0]]) != nil)
        #expect(observable.subscribe(values[removed[0]]) != nil)
        #expect(observable.subscribe(values[kept[0]]) != nil)
        let expected =
            kept.filter { $0 != kept[10] && $0 != kept[0] }.map { "v\($0)" } + ["v\(removed[0])", "v\(kept[0])"]
        #expect(names(observable.observers) == expected)
        #expect(observable.subscriptionLedger._entryCounts.observers == 20)
    }

    @Test func compactionKeepsTheSubscriptionsInOrder() {
        let tracker = TestTracker("t")
        let observables = (0..<60).map { TestObservable("o\($0)") }
        for observable in observables {
            observable.subscribe(tracker)
        }

        var generator = SeededGenerator(seed: 11)
        let removed = Array(observables.indices.shuffled(using: &generator).prefix(50))
        for index in removed {
            #expect(observables[index].unsubscribe(tracker) === tracker)
        }

        let removedSet = Set(removed)
        let kept = observables.indices.filter { !removedSet.contains($0) }
        #expect(names(tracker.subscriptions) == kept.map { "o\($0)" })
        #expect(tracker.subscriptionLedger._entryCounts.subscriptions == 10)
        for index in observables.indices {
            #expect(tracker.amISubscribed(observables[index]) == !removedSet.contains(index))
        }

        observables[kept[3]].unsubscribe(tracker)
        observables[removed[0]].subscribe(tracker)
        #expect(
            names(tracker.subscriptions) == kept.filter { $0 != kept[3] }.map { "o\($0)" } + ["o\(removed[0])"]
        )
        // Class counterparts are held weakly: keep them alive until the checks are done.
        withExtendedLifetime(observables) {}
    }

    @Test func observableUnsubscribeAllEmptiesBothSides() {
        let observable = TestObservable("o")
        let other = TestObservable("other")
        let trackers = (0..<3).map { TestTracker("t\($0)") }
        let value = ValueObserver("v")
        let object = ObjectObserver("c")
        for tracker in trackers {
            observable.subscribe(tracker)
            other.subscribe(tracker)
        }
        observable.subscribe(value)
        observable.subscribe(object)

        let removed = observable.unsubscribeAll()

        #expect(names(removed) == ["t0", "t1", "t2", "v", "c"])
        #expect(removed[0] as? TestTracker === trackers[0])
        #expect(removed[4] as? ObjectObserver === object)
        #expect(removed[3].uuid == value.uuid)
        #expect(observable.observers.isEmpty)
        #expect(observable.subscriptionLedger._entryCounts.observers == 0)
        for tracker in trackers {
            #expect(names(tracker.subscriptions) == ["other"])
            #expect(!tracker.amISubscribed(observable))
            #expect(!observable.amISubscribed(tracker))
        }
        #expect(!observable.amISubscribed(value))
        #expect(!object.amISubscribed(observable))
        #expect(names(other.observers) == ["t0", "t1", "t2"])
        // Class counterparts are held weakly: keep them alive until the checks are done.
        withExtendedLifetime((trackers, object)) {}
    }

    @Test func trackerUnsubscribeAllEmptiesBothSides() {
        let tracker = TestTracker("t")
        let bystander = TestTracker("b")
        let observables = (0..<4).map { TestObservable("o\($0)") }
        for observable in observables {
            observable.subscribe(tracker)
            observable.subscribe(bystander)
        }

        let left = tracker.unsubscribeAll()

        #expect(names(left) == ["o0", "o1", "o2", "o3"])
        #expect(zip(left, observables).allSatisfy { $0 === $1 })
        #expect(tracker.subscriptions.isEmpty)
        #expect(tracker.subscriptionLedger._entryCounts.subscriptions == 0)
        for observable in observables {
            #expect(names(observable.observers) == ["b"])
            #expect(!observable.amISubscribed(tracker))
            #expect(!tracker.amISubscribed(observable))
        }
        #expect(names(bystander.subscriptions) == ["o0", "o1", "o2", "o3"])
        // Class counterparts are held weakly: keep them alive until the checks are done.
        withExtendedLifetime(observables) {}
    }

    @Test func unsubscribeAllOnAnEmptyGraphDoesNothing() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)

        #expect(observable.unsubscribeAll().isEmpty)
        #expect(tracker.unsubscribeAll().isEmpty)

        #expect(observable.observers.isEmpty)
        #expect(tracker.subscriptions.isEmpty)
        #expect(log.events.isEmpty)
    }

    @Test func uuidIsTheLedgerIdentity() {
        let observable = TestObservable("o")
        let tracker = TestTracker("t")
        let hub = TestHub("h")

        #expect(observable.uuid == observable.subscriptionLedger.uuid)
        #expect(tracker.uuid == tracker.subscriptionLedger.uuid)
        #expect(hub.uuid == hub.subscriptionLedger.uuid)
        #expect(Set([observable.uuid, tracker.uuid, hub.uuid]).count == 3)

        let chosen = UUID()
        #expect(SubscriptionLedger(uuid: chosen).uuid == chosen)
    }
}
