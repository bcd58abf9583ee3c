import Foundation
import Testing

@testable import GeneralObserver

/// An observable that implements `subscribe` and `unsubscribe` itself on top of the ledger's
/// bookkeeping, and announces changes in its own words.
private final class AnnouncingObservable: GeneralObservable, Named {
    let name: String
    let log: EventLog
    let subscriptionLedger = SubscriptionLedger()

    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }

    @discardableResult
    func subscribe<Subscriber: GeneralSubscriber>(_ observer: Subscriber) -> Subscriber? {
        guard SubscriptionLedger.recordSubscription(of: observer, to: self) else { return nil }
        log.append(.didSubscribe(observable: name, observer: displayName(of: observer)))
        return observer
    }

    @discardableResult
    func unsubscribe<Subscriber: GeneralSubscriber>(_ observer: Subscriber) -> Subscriber? {
        guard SubscriptionLedger.eraseSubscription(of: observer, from: self) else { return nil }
        log.append(.didUnsubscribe(observable: name, observer: displayName(of: observer)))
        return observer
    }
}

@Suite("Ledger bookkeeping")
struct LedgerTests {
    @Test func recordSubscriptionUpdatesBothLedgersWithoutCallbacks() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        let value = ValueObserver("v", log: log)

        #expect(SubscriptionLedger.recordSubscription(of: tracker, to: observable))
        #expect(SubscriptionLedger.recordSubscription(of: value, to: observable))

        #expect(names(observable.observers) == ["t", "v"])
        #expect(names(tracker.subscriptions) == ["o"])
        #expect(observable.amISubscribed(tracker))
        #expect(tracker.amISubscribed(observable))
        #expect(log.events.isEmpty)
    }

    @Test func recordSubscriptionReturnsFalseWhenAlreadySubscribed() {
        let observable = TestObservable("o")
        let tracker = TestTracker("t")
        observable.subscribe(tracker)

        #expect(!SubscriptionLedger.recordSubscription(of: tracker, to: observable))
        #expect(names(observable.observers) == ["t"])
        #expect(observable.subscriptionLedger._entryCounts.observers == 1)
        #expect(tracker.subscriptionLedger._entryCounts.subscriptions == 1)
    }

    @Test func eraseSubscriptionUpdatesBothLedgersWithoutCallbacks() {
        let log = EventLog()
        let observable = TestObservable("o", log: log)
        let tracker = TestTracker("t", log: log)
        observable.subscribe(tracker)
        _ = log.take()

        #expect(SubscriptionLedger.eraseSubscription(of: tracker, from: observable))
        #expect(!SubscriptionLedger.eraseSubscription(of: tracker, from: observable))

        #expect(observable.observers.isEmpty)
        #expect(tracker.subscriptions.isEmpty)
        #expect(observable.subscriptionLedger._entryCounts.observers == 0)
        #expect(tracker.subscriptionLedger._entryCounts.subscriptions == 0)
        #expect(log.events.isEmpty)
    }

    @Test func customSubscribeOnTheLedgerKeepsTheGraphConsistent() {
        let log = EventLog()
        let observable = AnnouncingObservable("o", log: log)
        let tracker = TestTracker("t", log: log)

        #expect(observable.subscribe(tracker) === tracker)
        #expect(observable.subscribe(tracker) == nil)
        #expect(names(tracker.subscriptions) == ["o"])
        // The tracker's unsubscribeAll() goes through the custom unsubscribe.
        tracker.unsubscribeAll()

        #expect(observable.observers.isEmpty)
        #expect(tracker.subscriptions.isEmpty)
        #expect(
            log.events == [
                .didSubscribe(observable: "o", observer: "t"), .didUnsubscribe(observable: "o", observer: "t"),
            ])
    }

    @Test func defaultUUIDsAreRandomVersion4AndDistinct() {
        let identities = (0..<1_000).map { _ in SubscriptionLedger().uuid }

        #expect(Set(identities).count == identities.count)
        for identity in identities.prefix(50) {
            let bytes = identity.uuid
            #expect(bytes.6 >> 4 == 4, "version of \(identity)")
            #expect(bytes.8 >> 6 == 0b10, "variant of \(identity)")
        }
    }
}
