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

        let removed = hub.unsubscribeAll()

        #expect(names(removed.observers) == ["down0", "v", "down1"])
        #expect(names(removed.subscriptions) == ["up0", "up1"])
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

    /// Which side of a hub an `unsubscribeAll()` call clears, by how it is called.
    enum UnsubscribeAllCall: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case onTheHub = "hub.unsubscribeAll()"
        case inGenericCodeForBothRoles = "<Hub: GeneralObservable & GeneralTrackingSubscriber>"
        case throughAnyGeneralObservable = "(hub as any GeneralObservable).unsubscribeAll()"
        case inGenericObservableCode = "<Observable: GeneralObservable>"
        case asObserversResult = "let _: [any GeneralSubscriber] = hub.unsubscribeAll()"
        case throughAnyGeneralTrackingSubscriber = "(hub as any GeneralTrackingSubscriber).unsubscribeAll()"
        case inGenericTrackerCode = "<Tracker: GeneralTrackingSubscriber>"
        case asSubscriptionsResult = "let _: [any GeneralObservable] = hub.unsubscribeAll()"

        var testDescription: String { rawValue }

        /// Whether the call unsubscribes the hub's observers.
        var clearsObservers: Bool {
            switch self {
            case .onTheHub, .inGenericCodeForBothRoles, .throughAnyGeneralObservable, .inGenericObservableCode,
                .asObserversResult:
                true
            default: false
            }
        }

        /// Whether the call unsubscribes the hub from what it is subscribed to.
        var clearsSubscriptions: Bool {
            switch self {
            case .onTheHub, .inGenericCodeForBothRoles, .throughAnyGeneralTrackingSubscriber, .inGenericTrackerCode,
                .asSubscriptionsResult:
                true
            default: false
            }
        }

        /// Makes the call and returns the names of what it reports it removed from each side.
        func apply(_ hub: TestHub) -> (observers: [String]?, subscriptions: [String]?) {
            func both<Hub: GeneralObservable & GeneralTrackingSubscriber>(_ hub: Hub) -> (
                observers: [any GeneralSubscriber], subscriptions: [any GeneralObservable]
            ) { hub.unsubscribeAll() }
            func observable<Observable: GeneralObservable>(_ observable: Observable) -> [any GeneralSubscriber] {
                observable.unsubscribeAll()
            }
            func tracker<Tracker: GeneralTrackingSubscriber>(_ tracker: Tracker) -> [any GeneralObservable] {
                tracker.unsubscribeAll()
            }
            switch self {
            case .onTheHub:
                let removed = hub.unsubscribeAll()
                return (names(removed.observers), names(removed.subscriptions))
            case .inGenericCodeForBothRoles:
                let removed = both(hub)
                return (names(removed.observers), names(removed.subscriptions))
            case .throughAnyGeneralObservable: return (names((hub as any GeneralObservable).unsubscribeAll()), nil)
            case .inGenericObservableCode: return (names(observable(hub)), nil)
            case .asObserversResult:
                let removed: [any GeneralSubscriber] = hub.unsubscribeAll()
                return (names(removed), nil)
            case .throughAnyGeneralTrackingSubscriber:
                return (nil, names((hub as any GeneralTrackingSubscriber).unsubscribeAll()))
            case .inGenericTrackerCode: return (nil, names(tracker(hub)))
            case .asSubscriptionsResult:
                let left: [any GeneralObservable] = hub.unsubscribeAll()
                return (nil, names(left))
            }
        }
    }

    @Test(arguments: UnsubscribeAllCall.allCases)
    func unsubscribeAllOnTheHubClearsBothSidesAndThroughOneRoleThatRolesSide(call: UnsubscribeAllCall) {
        let hub = TestHub("h")
        let upstream = TestObservable("up")
        let downstream = TestTracker("down")
        upstream.subscribe(hub)
        hub.subscribe(downstream)

        let (observers, subscriptions) = call.apply(hub)

        #expect(observers == (call.clearsObservers ? ["down"] : nil))
        #expect(subscriptions == (call.clearsSubscriptions ? ["up"] : nil))
        #expect(names(hub.observers) == (call.clearsObservers ? [] : ["down"]))
        #expect(names(downstream.subscriptions) == (call.clearsObservers ? [] : ["h"]))
        #expect(names(hub.subscriptions) == (call.clearsSubscriptions ? [] : ["up"]))
        #expect(names(upstream.observers) == (call.clearsSubscriptions ? [] : ["h"]))
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
