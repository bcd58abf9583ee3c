import Foundation
import GeneralObserver
import Testing

@Suite("Observable and tracking observer at once")
struct DualRoleTests {
    @Test func unsubscribeAllClearsBothSides() {
        let log = EventLog()
        let hub = TestHub("h", log: log)
        let upstream = (0..<2).map { TestObservable("up\($0)", log: log) }
        let downstream = (0..<2).map { TestTracker("down\($0)", log: log) }
        let value = ValueObserver("v", log: log)
        for observable in upstream {
            observable.subscribe(hub)
        }
        hub.subscribe(downstream[0])
        hub.subscribe(value)
        hub.subscribe(downstream[1])
        _ = log.take()

        hub.unsubscribeAll()

        #expect(hub.observers.isEmpty)
        #expect(hub.subscriptions.isEmpty)
        #expect(upstream.allSatisfy { $0.observers.isEmpty })
        #expect(downstream.allSatisfy { $0.subscriptions.isEmpty })
        #expect(
            log.events
                == Event.unsubscription("down0", from: "h") + Event.unsubscription("v", from: "h")
                + Event.unsubscription("down1", from: "h") + Event.unsubscription("h", from: "up0")
                + Event.unsubscription("h", from: "up1")
        )
    }

    @Test func unsubscribeAllClearsBothSidesWhicheverProtocolItIsCalledThrough() {
        func fill(_ hub: TestHub, _ upstream: TestObservable, _ downstream: TestTracker) {
            upstream.subscribe(hub)
            hub.subscribe(downstream)
        }
        func callThroughObservable<Observable: GeneralObservable>(_ observable: Observable) {
            observable.unsubscribeAll()
        }
        func callThroughTracker<Tracker: GeneralTrackingSubscriber>(_ tracker: Tracker) {
            tracker.unsubscribeAll()
        }
        let hub = TestHub("h")
        let upstream = TestObservable("up")
        let downstream = TestTracker("down")
        let calls: [(String, () -> Void)] = [
            ("any GeneralObservable", { (hub as any GeneralObservable).unsubscribeAll() }),
            ("any GeneralTrackingSubscriber", { (hub as any GeneralTrackingSubscriber).unsubscribeAll() }),
            ("generic observable", { callThroughObservable(hub) }),
            ("generic tracker", { callThroughTracker(hub) }),
        ]

        for (label, call) in calls {
            fill(hub, upstream, downstream)
            call()
            #expect(hub.observers.isEmpty, "\(label)")
            #expect(hub.subscriptions.isEmpty, "\(label)")
            #expect(upstream.observers.isEmpty, "\(label)")
            #expect(downstream.subscriptions.isEmpty, "\(label)")
        }
    }

    @Test func oneSideCanBeClearedByUnsubscribingEachCounterpart() {
        let hub = TestHub("h")
        let upstream = TestObservable("up")
        let downstream = TestTracker("down")
        upstream.subscribe(hub)
        hub.subscribe(downstream)

        for observer in hub.observers {
            hub.unsubscribe(observer)
        }
        #expect(hub.observers.isEmpty)
        #expect(names(hub.subscriptions) == ["up"])

        hub.subscribe(downstream)
        for observable in hub.subscriptions {
            observable.unsubscribe(hub)
        }
        #expect(names(hub.observers) == ["down"])
        #expect(hub.subscriptions.isEmpty)
        withExtendedLifetime((upstream, downstream)) {}
    }

    @Test func hubCanSubscribeToItself() {
        let log = EventLog()
        let hub = TestHub("h", log: log)

        #expect(hub.subscribe(hub) === hub)
        #expect(hub.subscribe(hub) == nil)
        #expect(names(hub.observers) == ["h"])
        #expect(names(hub.subscriptions) == ["h"])
        #expect(hub.amISubscribed(hub))
        #expect((hub as any GeneralObservable).amISubscribed(hub))
        #expect(log.take() == Event.subscription("h", to: "h"))

        #expect(hub.unsubscribe(hub) === hub)
        #expect(hub.unsubscribe(hub) == nil)
        #expect(hub.observers.isEmpty)
        #expect(hub.subscriptions.isEmpty)
        #expect(!hub.amISubscribed(hub))
        #expect(log.take() == Event.unsubscription("h", from: "h"))
    }

    @Test func unsubscribeAllUndoesASelfSubscriptionOnce() {
        let log = EventLog()
        let hub = TestHub("h", log: log)
        let upstream = TestObservable("up", log: log)
        let downstream = TestTracker("down", log: log)
        upstream.subscribe(hub)
        hub.subscribe(hub)
        hub.subscribe(downstream)
        #expect(names(hub.observers) == ["h", "down"])
        #expect(names(hub.subscriptions) == ["up", "h"])
        _ = log.take()

        hub.unsubscribeAll()

        #expect(hub.observers.isEmpty)
        #expect(hub.subscriptions.isEmpty)
        #expect(
            log.events
                == Event.unsubscription("h", from: "h") + Event.unsubscription("down", from: "h")
                + Event.unsubscription("h", from: "up")
        )
        withExtendedLifetime((upstream, downstream)) {}
    }

    @Test func hubsCanObserveEachOther() {
        let log = EventLog()
        let first = TestHub("a", log: log)
        let second = TestHub("b", log: log)

        first.subscribe(second)
        second.subscribe(first)

        #expect(names(first.observers) == ["b"])
        #expect(names(first.subscriptions) == ["b"])
        #expect(names(second.observers) == ["a"])
        #expect(names(second.subscriptions) == ["a"])
        #expect(log.take() == Event.subscription("b", to: "a") + Event.subscription("a", to: "b"))

        first.unsubscribeAll()

        #expect(first.observers.isEmpty)
        #expect(first.subscriptions.isEmpty)
        #expect(second.observers.isEmpty)
        #expect(second.subscriptions.isEmpty)
        #expect(log.events == Event.unsubscription("b", from: "a") + Event.unsubscription("a", from: "b"))
    }

    @Test func amISubscribedBetweenHubsAsksWhetherTheReceiverIsSubscribed() {
        let observed = TestHub("observed")
        let observing = TestHub("observing")
        observed.subscribe(observing)

        // With two hubs the call resolves to the tracking observer's question, "am I subscribed to it?".
        #expect(observing.amISubscribed(observed))
        #expect(!observed.amISubscribed(observing))
        // The observable's question, "is it subscribed to me?", is asked through the observable role.
        #expect((observed as any GeneralObservable).amISubscribed(observing))
        #expect(!(observing as any GeneralObservable).amISubscribed(observed))
    }
}
