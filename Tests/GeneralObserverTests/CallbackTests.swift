import Foundation
import GeneralObserver
import Testing

/// What a callback saw of the graph while it ran.
private struct Snapshot: Equatable, CustomStringConvertible {
    var callback: String
    /// `observable.amISubscribed(observer)`
    var observableSays: Bool
    /// `observer.amISubscribed(observable)`
    var observerSays: Bool
    var observers: [String]
    var subscriptions: [String]

    var description: String {
        "\(callback): observable says \(observableSays), observer says \(observerSays), "
            + "observers \(observers), subscriptions \(subscriptions)"
    }
}

/// A tracking observer that records, from inside its callbacks, what the graph looks like.
private final class InspectingTracker: GeneralTrackingSubscriber, Named {
    let name: String
    let subscriptionLedger = SubscriptionLedger()
    var snapshots: [Snapshot] = []

    init(_ name: String) {
        self.name = name
    }

    func subscribedTo(_ observable: any GeneralObservable) {
        snapshots.append(snapshot("subscribedTo", observable))
    }

    func unsubscribedFrom(_ observable: any GeneralObservable) {
        snapshots.append(snapshot("unsubscribedFrom", observable))
    }

    private func snapshot(_ callback: String, _ observable: any GeneralObservable) -> Snapshot {
        Snapshot(
            callback: callback,
            observableSays: observable.amISubscribed(self),
            observerSays: amISubscribed(observable),
            observers: names(observable.observers),
            subscriptions: names(subscriptions)
        )
    }
}

/// An observable that records, from inside its callback, what the graph looks like.
private final class InspectingObservable: GeneralObservable, Named {
    let name: String
    let subscriptionLedger = SubscriptionLedger()
    var snapshots: [Snapshot] = []

    init(_ name: String) {
        self.name = name
    }

    func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {
        snapshots.append(
            Snapshot(
                callback: "didSubscribe: \(didSubscribe)",
                observableSays: amISubscribed(observer),
                observerSays: observer.amISubscribed(self),
                observers: names(observers),
                subscriptions: (observer as? any GeneralTrackingSubscriber).map { names($0.subscriptions) } ?? []
            )
        )
    }
}

/// A value observer that records, from inside its callbacks, whether it is subscribed.
private struct InspectingValueObserver: GeneralSubscriber, Named {
    final class Record {
        var seen: [String] = []
    }

    let uuid = UUID()
    let name: String
    let record = Record()

    func subscribedTo(_ observable: any GeneralObservable) {
        record.seen.append("subscribedTo: \(observable.amISubscribed(self)) \(amISubscribed(observable))")
    }

    func unsubscribedFrom(_ observable: any GeneralObservable) {
        record.seen.append("unsubscribedFrom: \(observable.amISubscribed(self)) \(amISubscribed(observable))")
    }
}

/// A tracking observer that runs a closure inside its callbacks and logs them.
private final class HookedTracker: GeneralTrackingSubscriber, Named {
    let name: String
    let log: EventLog
    let subscriptionLedger = SubscriptionLedger()
    var onSubscribedTo: ((any GeneralObservable) -> Void)?
    var onUnsubscribedFrom: ((any GeneralObservable) -> Void)?

    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }

    func subscribedTo(_ observable: any GeneralObservable) {
        log.append(.subscribedTo(observer: name, observable: displayName(of: observable)))
        onSubscribedTo?(observable)
    }

    func unsubscribedFrom(_ observable: any GeneralObservable) {
        log.append(.unsubscribedFrom(observer: name, observable: displayName(of: observable)))
        onUnsubscribedFrom?(observable)
    }
}

/// An observable that runs a closure inside its callback and logs it.
private final class HookedObservable: GeneralObservable, Named {
    let name: String
    let log: EventLog
    let subscriptionLedger = SubscriptionLedger()
    var onChange: ((any GeneralSubscriber, Bool) -> Void)?

    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }

    func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {
        let observerName = displayName(of: observer)
        log.append(
            didSubscribe
                ? .didSubscribe(observable: name, observer: observerName)
                : .didUnsubscribe(observable: name, observer: observerName)
        )
        onChange?(observer, didSubscribe)
    }
}

@Suite("Callbacks")
struct CallbackTests {
    @Test func subscribeTellsTheObservableFirstThenTheObserverOnce() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        let value = ValueObserver("v", log: log)
        let object = ObjectObserver("c", log: log)

        observable.subscribe(tracker)
        observable.subscribe(value)
        observable.subscribe(object)

        #expect(
            log.events.prefix(2) == [
                .didSubscribe(observable: "o", observer: "t"), .subscribedTo(observer: "t", observable: "o"),
            ]
        )
        #expect(
            log.events
                == Event.subscription("t", to: "o") + Event.subscription("v", to: "o")
                + Event.subscription("c", to: "o")
        )
    }

    @Test func unsubscribeTellsTheObservableFirstThenTheObserverOnce() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        let value = ValueObserver("v", log: log)
        let object = ObjectObserver("c", log: log)
        observable.subscribe(tracker)
        observable.subscribe(value)
        observable.subscribe(object)
        _ = log.take()

        observable.unsubscribe(value)
        observable.unsubscribe(tracker)
        observable.unsubscribe(object)

        #expect(
            log.events.prefix(2) == [
                .didUnsubscribe(observable: "o", observer: "v"), .unsubscribedFrom(observer: "v", observable: "o"),
            ]
        )
        #expect(
            log.events
                == Event.unsubscription("v", from: "o") + Event.unsubscription("t", from: "o")
                + Event.unsubscription("c", from: "o")
        )
    }

    @Test func doubleSubscribeFiresNothing() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        let value = ValueObserver("v", log: log)
        observable.subscribe(tracker)
        observable.subscribe(value)
        _ = log.take()

        observable.subscribe(tracker)
        observable.subscribe(value)
        observable.subscribe(ValueObserver("copy", uuid: value.uuid, log: log))

        #expect(log.events.isEmpty)
    }

    @Test func unsubscribingAStrangerFiresNothing() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let other = TestObservable("other", log: log)
        let tracker = TestTracker("t", log: log)
        let value = ValueObserver("v", log: log)
        let object = ObjectObserver("c", log: log)
        other.subscribe(tracker)
        _ = log.take()

        observable.unsubscribe(tracker)
        observable.unsubscribe(value)
        observable.unsubscribe(object)
        other.unsubscribe(value)

        #expect(log.events.isEmpty)
        #expect(names(tracker.subscriptions) == ["other"])
    }

    @Test func callbacksSeeTheChangeAlreadyMade() {
        let observable = InspectingObservable("o")
        let tracker = InspectingTracker("t")
        let earlier = ValueObserver("v")
        observable.subscribe(earlier)

        observable.subscribe(tracker)
        observable.unsubscribe(tracker)

        #expect(
            tracker.snapshots == [
                Snapshot(
                    callback: "subscribedTo",
                    observableSays: true,
                    observerSays: true,
                    observers: ["v", "t"],
                    subscriptions: ["o"]
                ),
                Snapshot(
                    callback: "unsubscribedFrom",
                    observableSays: false,
                    observerSays: false,
                    observers: ["v"],
                    subscriptions: []
                ),
            ]
        )
        #expect(
            observable.snapshots == [
                Snapshot(
                    callback: "didSubscribe: true",
                    observableSays: true,
                    observerSays: true,
                    observers: ["v"],
                    subscriptions: []
                ),
                Snapshot(
                    callback: "didSubscribe: true",
                    observableSays: true,
                    observerSays: true,
                    observers: ["v", "t"],
                    subscriptions: ["o"]
                ),
                Snapshot(
                    callback: "didSubscribe: false",
                    observableSays: false,
                    observerSays: false,
                    observers: ["v"],
                    subscriptions: []
                ),
            ]
        )
    }

    @Test func valueObserverCallbacksSeeTheChangeAlreadyMade() {
        let observable = TestObservable("o")
        let value = InspectingValueObserver(name: "v")

        observable.subscribe(value)
        observable.unsubscribe(value)

        #expect(value.record.seen == ["subscribedTo: true true", "unsubscribedFrom: false false"])
    }

    @Test func unsubscribingInsideSubscribedToWorks() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = HookedTracker("t", log: log)
        var innerResult: (any GeneralSubscriber)?
        tracker.onSubscribedTo = { [unowned tracker] observable in
            innerResult = observable.unsubscribe(tracker)
        }

        let outerResult = observable.subscribe(tracker)

        #expect(outerResult === tracker)
        #expect((innerResult as? HookedTracker) === tracker)
        #expect(!observable.amISubscribed(tracker))
        #expect(!tracker.amISubscribed(observable))
        #expect(observable.observers.isEmpty)
        #expect(tracker.subscriptions.isEmpty)
        // `subscribedTo` is the subscription's last callback, so the nested unsubscription follows it.
        #expect(log.events == Event.subscription("t", to: "o") + Event.unsubscription("t", from: "o"))
        // The hook and `innerResult` hold each other's objects: break the cycle for the leak check.
        tracker.onSubscribedTo = nil
        innerResult = nil
    }

    @Test func unsubscribingInsideDidSubscribeWorks() {
        let log = EventLog()
        let observable = HookedObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        observable.onChange = { [unowned observable] observer, didSubscribe in
            if didSubscribe {
                #expect(observable.unsubscribe(observer) != nil)
            }
        }

        #expect(observable.subscribe(tracker) === tracker)

        #expect(observable.observers.isEmpty)
        #expect(tracker.subscriptions.isEmpty)
        // The nested unsubscription takes effect at once, but its callbacks wait until the
        // subscription's have run: callbacks of one observable never nest, so the observer hears
        // of the two changes in the order they were made, and its last callback tells the truth.
        #expect(log.events == Event.subscription("t", to: "o") + Event.unsubscription("t", from: "o"))
    }

    @Test func subscribingInsideACallbackWorks() {
        let log = EventLog()
        let observable = HookedObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        let follower = TestTracker("f", log: log)
        observable.onChange = { [unowned observable] observer, didSubscribe in
            if didSubscribe, displayName(of: observer) == "t" {
                #expect(observable.subscribe(follower) === follower)
            }
        }

        observable.subscribe(tracker)

        #expect(names(observable.observers) == ["t", "f"])
        #expect(names(follower.subscriptions) == ["o"])
        // The follower's callbacks are queued behind the tracker's: never nested.
        #expect(log.events == Event.subscription("t", to: "o") + Event.subscription("f", to: "o"))
    }

    @Test func aChangeOfAnotherObservableInsideACallbackIsAnnouncedAtOnce() {
        // Only one observable's callbacks are ordered among themselves: those of another run at
        // once, nested, as in RVS_GeneralObserver.
        let log = EventLog()
        let first = HookedObservable("o1", log: log)
        let second = TestObservable("o2", log: log)
        let tracker = TestTracker("t", log: log)
        first.onChange = { observer, didSubscribe in
            if didSubscribe { second.subscribe(observer) }
        }

        first.subscribe(tracker)

        #expect(
            log.events == [
                .didSubscribe(observable: "o1", observer: "t"),
                .didSubscribe(observable: "o2", observer: "t"),
                .subscribedTo(observer: "t", observable: "o2"),
                .subscribedTo(observer: "t", observable: "o1"),
            ]
        )
        first.onChange = nil
    }

    @Test func resubscribingInsideUnsubscribedFromLeavesItSubscribed() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = HookedTracker("t", log: log)
        observable.subscribe(tracker)
        _ = log.take()
        tracker.onUnsubscribedFrom = { [unowned tracker] observable in
            tracker.onUnsubscribedFrom = nil
            #expect(observable.subscribe(tracker) === tracker)
        }

        #expect(observable.unsubscribe(tracker) === tracker)

        #expect(observable.amISubscribed(tracker))
        #expect(tracker.amISubscribed(observable))
        #expect(log.events == Event.unsubscription("t", from: "o") + Event.subscription("t", to: "o"))
    }

    @Test func observableUnsubscribeAllFiresInSubscriptionOrder() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        let value = ValueObserver("v", log: log)
        let object = ObjectObserver("c", log: log)
        observable.subscribe(value)
        observable.subscribe(object)
        observable.subscribe(tracker)
        _ = log.take()

        observable.unsubscribeAll()

        #expect(
            log.events
                == Event.unsubscription("v", from: "o") + Event.unsubscription("c", from: "o")
                + Event.unsubscription("t", from: "o")
        )
        withExtendedLifetime((tracker, object)) {}
    }

    @Test func trackerUnsubscribeAllFiresTheSameCallbacks() {
        let log = EventLog()
        let tracker = TestTracker("t", log: log)
        let observables = (0..<3).map { TestObservable("o\($0)", log: log) }
        for index in [1, 2, 0] {
            observables[index].subscribe(tracker)
        }
        _ = log.take()

        tracker.unsubscribeAll()

        #expect(
            log.events
                == Event.unsubscription("t", from: "o1") + Event.unsubscription("t", from: "o2")
                + Event.unsubscription("t", from: "o0")
        )
        #expect(observables.allSatisfy { $0.observers.isEmpty })
    }

    @Test func observerSubscribingDuringUnsubscribeAllStaysSubscribed() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let first = HookedTracker("a", log: log)
        let second = TestTracker("b", log: log)
        let latecomer = TestTracker("late", log: log)
        observable.subscribe(first)
        observable.subscribe(second)
        _ = log.take()
        first.onUnsubscribedFrom = { observable in
            observable.subscribe(latecomer)
        }

        observable.unsubscribeAll()

        #expect(names(observable.observers) == ["late"])
        #expect(names(latecomer.subscriptions) == ["o"])
        #expect(
            log.events
                == Event.unsubscription("a", from: "o") + Event.subscription("late", to: "o")
                + Event.unsubscription("b", from: "o")
        )
        withExtendedLifetime((first, second)) {}
    }

    @Test func observerUnsubscribedByACallbackDuringUnsubscribeAllIsNotUnsubscribedTwice() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let first = HookedTracker("a", log: log)
        let second = TestTracker("b", log: log)
        let third = TestTracker("c", log: log)
        observable.subscribe(first)
        observable.subscribe(second)
        observable.subscribe(third)
        _ = log.take()
        first.onUnsubscribedFrom = { observable in
            #expect(observable.unsubscribe(second) === second)
        }

        let removed = observable.unsubscribeAll()

        #expect(names(removed) == ["a", "c"], "the callback, not unsubscribeAll(), removed b")
        #expect(observable.observers.isEmpty)
        #expect(
            log.events
                == Event.unsubscription("a", from: "o") + Event.unsubscription("b", from: "o")
                + Event.unsubscription("c", from: "o")
        )
        withExtendedLifetime((first, second, third)) {}
    }

    @Test func trackerLeavingAnotherSubscriptionDuringUnsubscribeAllLeavesItOnce() {
        let log = EventLog()
        let tracker = HookedTracker("t", log: log)
        let first = TestObservable("o1", log: log)
        let second = TestObservable("o2", log: log)
        first.subscribe(tracker)
        second.subscribe(tracker)
        _ = log.take()
        tracker.onUnsubscribedFrom = { [unowned tracker] observable in
            if displayName(of: observable) == "o1" {
                #expect(second.unsubscribe(tracker) === tracker)
            }
        }

        let left = tracker.unsubscribeAll()

        #expect(names(left) == ["o1"], "the callback, not unsubscribeAll(), left o2")
        #expect(tracker.subscriptions.isEmpty)
        #expect(
            log.events
                == Event.unsubscription("t", from: "o1") + Event.unsubscription("t", from: "o2")
        )
        withExtendedLifetime((first, second)) {}
    }

    @Test func unsubscribingAgainInsideUnsubscribedFromFiresNothingMore() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = HookedTracker("t", log: log)
        observable.subscribe(tracker)
        _ = log.take()
        tracker.onUnsubscribedFrom = { [unowned tracker] observable in
            #expect(observable.unsubscribe(tracker) == nil)
        }

        observable.unsubscribe(tracker)

        #expect(log.events == Event.unsubscription("t", from: "o"))
    }

    @Test func callbacksReceiveTheRealCounterparts() {
        let observable = HookedObservable("o", log: EventLog())
        let tracker = HookedTracker("t", log: EventLog())
        var seenByObservable: [(any GeneralSubscriber, Bool)] = []
        var seenByTracker: [any GeneralObservable] = []
        observable.onChange = { seenByObservable.append(($0, $1)) }
        tracker.onSubscribedTo = { seenByTracker.append($0) }
        tracker.onUnsubscribedFrom = { seenByTracker.append($0) }

        observable.subscribe(tracker)
        observable.unsubscribe(tracker)

        #expect(seenByObservable.map { ($0.0 as? HookedTracker) === tracker } == [true, true])
        #expect(seenByObservable.map(\.1) == [true, false])
        #expect(seenByTracker.map { ($0 as? HookedObservable) === observable } == [true, true])
        // The hooks hold what they saw, which holds the hooks' owners: break the cycles for the
        // leak check.
        observable.onChange = nil
        tracker.onSubscribedTo = nil
        tracker.onUnsubscribedFrom = nil
    }
}
