import Foundation
import Messaging
import Testing

/// The name of one of the test types, or `"?"`.
private func nameOf(_ object: Any) -> String {
    (object as? any RelationshipTests.Named)?.name ?? "?"
}

@Suite("Relationships: observing is subscribing, in the GeneralObserver graph")
struct RelationshipTests {
    /// A test type with a readable name, so that callbacks log as strings.
    protocol Named {
        var name: String { get }
    }

    /// An observer that logs its relationship callbacks, with what it sees at that moment.
    final class Dog: Observer, Named {
        let receiver = Receiver()
        let name: String
        let log: EventLog

        init(_ name: String, log: EventLog) {
            self.name = name
            self.log = log
        }

        func subscribedTo(_ observable: any GeneralObservable) {
            log.append("\(name).subscribedTo(\(nameOf(observable))) subscribed: \(amISubscribed(observable))")
        }

        func unsubscribedFrom(_ observable: any GeneralObservable) {
            log.append("\(name).unsubscribedFrom(\(nameOf(observable))) subscribed: \(amISubscribed(observable))")
        }
    }

    /// An observable that logs `observer(_:didSubscribe:)`, with what it sees at that moment.
    final class Sky: ObservableSource, Named, Sendable {
        let messenger = Messenger<String>()
        let name: String
        let log: EventLog

        init(_ name: String, log: EventLog) {
            self.name = name
            self.log = log
        }

        func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {
            log.append(
                "\(name).observer(\(nameOf(observer)), didSubscribe: \(didSubscribe)) subscribed: \(amISubscribed(observer))"
            )
        }
    }

    /// A value-type subscriber from the GeneralObserver layer; it receives no messages.
    struct Logger: GeneralSubscriber, Named {
        let uuid = UUID()
        let name: String
    }

    /// The callbacks of the first observation of `sky` by `dog`, in the order they fire.
    static func subscription(_ dog: String, to sky: String) -> [String] {
        [
            "\(sky).observer(\(dog), didSubscribe: true) subscribed: true",
            "\(dog).subscribedTo(\(sky)) subscribed: true",
        ]
    }

    /// The callbacks of the end of the last observation of `sky` by `dog`, in the order they fire.
    static func unsubscription(_ dog: String, from sky: String) -> [String] {
        [
            "\(sky).observer(\(dog), didSubscribe: false) subscribed: false",
            "\(dog).unsubscribedFrom(\(sky)) subscribed: false",
        ]
    }

    @Test("observing makes both sides see the relationship")
    func observingIsSubscribing() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        #expect(!dog.amISubscribed(sky))
        #expect(!sky.amISubscribed(dog))

        dog.observe(sky) { _ in }

        #expect(dog.amISubscribed(sky))
        #expect(sky.amISubscribed(dog))
        #expect(sky.observers.count == 1)
        #expect(sky.observers.first as AnyObject === dog)
        #expect(dog.subscriptions.count == 1)
        #expect(dog.subscriptions.first === sky)
        #expect(sky.messenger.amISubscribed(dog), "a source shares its messenger's relationships")
    }

    @Test("observers and subscriptions list several relationships in the order they began")
    func listsAreInOrder() {
        let log = EventLog()
        let first = Sky("first", log: log)
        let second = Sky("second", log: log)
        let rex = Dog("rex", log: log)
        let fido = Dog("fido", log: log)
        rex.observe(second) { _ in }
        rex.observe(first) { _ in }
        fido.observe(first) { _ in }

        #expect(rex.subscriptions.map { nameOf($0) } == ["second", "first"])
        #expect(first.observers.map { nameOf($0) } == ["rex", "fido"])
        #expect(second.observers.map { nameOf($0) } == ["rex"])
    }

    @Test("callbacks fire once, after the change, for the first observation of a pair only")
    func subscriptionCallbacksFireOncePerRelationship() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)

        dog.observe(sky) { _ in }
        #expect(log.take() == Self.subscription("dog", to: "sky"))

        dog.observe(sky) { _ in }
        dog.observe(sky) { _, _ in }
        #expect(log.take().isEmpty, "a second observation is not a new relationship")
    }

    @Test("callbacks fire once, after the change, when the last observation of a pair ends")
    func unsubscriptionCallbacksFireOncePerRelationship() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        dog.observe(sky) { _ in }
        dog.observe(sky) { _ in }
        _ = log.take()

        dog.stopObserving(sky)
        #expect(log.take() == Self.unsubscription("dog", from: "sky"))

        dog.stopObserving(sky)
        dog.stopObserving()
        sky.unsubscribeAll()
        #expect(log.take().isEmpty, "nothing left to end")
    }

    @Test("a message sent from subscribedTo reaches the new observation; one from unsubscribedFrom does not")
    func callbacksRunAfterTheChange() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        final class Announcer: Observer {
            let receiver = Receiver()
            let sky: Sky
            init(_ sky: Sky) { self.sky = sky }
            func subscribedTo(_ observable: any GeneralObservable) { sky.send("hello") }
            func unsubscribedFrom(_ observable: any GeneralObservable) { sky.send("goodbye") }
        }
        let announcer = Announcer(sky)
        dog.observe(sky) { log.append("dog:\($0)") }
        announcer.observe(sky) { log.append("announcer:\($0)") }
        announcer.stopObserving(sky)

        #expect(
            log.entries
                == Self.subscription("dog", to: "sky")
                + ["sky.observer(?, didSubscribe: true) subscribed: true", "dog:hello", "announcer:hello"]
                + ["sky.observer(?, didSubscribe: false) subscribed: false", "dog:goodbye"]
        )
        withExtendedLifetime((dog, announcer)) {}
    }

    /// The ways to end a relationship between `dog` and `sky`, from either side.
    enum Ending: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case stopObserving = "dog.stopObserving(sky)"
        case stopObservingAll = "dog.stopObserving()"
        case unsubscribe = "sky.unsubscribe(dog)"
        case observableUnsubscribeAll = "sky.unsubscribeAll()"
        case observerUnsubscribeAll = "dog.unsubscribeAll()"
        case stopBeingObservedBy = "sky.stopBeingObserved(by: dog)"
        case stopBeingObserved = "sky.stopBeingObserved()"

        var testDescription: String { rawValue }

        func apply(_ dog: Dog, _ sky: Sky) {
            switch self {
            case .stopObserving: dog.stopObserving(sky)
            case .stopObservingAll: dog.stopObserving()
            case .unsubscribe: sky.unsubscribe(dog)
            case .observableUnsubscribeAll: sky.unsubscribeAll()
            case .observerUnsubscribeAll: dog.unsubscribeAll()
            case .stopBeingObservedBy: sky.stopBeingObserved(by: dog)
            case .stopBeingObserved: sky.stopBeingObserved()
            }
        }
    }

    @Test(
        "every way to end a relationship ends the deliveries and fires the callbacks once", arguments: Ending.allCases)
    func everyEndingStopsDeliveryAndCallsBackOnce(ending: Ending) {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        dog.observe(sky) { log.append("dog:\($0)") }
        dog.observe(sky) { log.append("dog2:\($0)") }
        sky.send("1")
        #expect(log.take() == Self.subscription("dog", to: "sky") + ["dog:1", "dog2:1"])

        ending.apply(dog, sky)
        sky.send("2")

        #expect(log.take() == Self.unsubscription("dog", from: "sky"))
        #expect(!dog.isObserving(sky))
        #expect(!dog.amISubscribed(sky))
        #expect(!sky.amISubscribed(dog))
        #expect(sky.observers.isEmpty)
        #expect(dog.subscriptions.isEmpty)
        #expect(sky.messenger.observationCount == 0)

        ending.apply(dog, sky)
        #expect(log.take().isEmpty, "ending it again changes nothing and calls nobody")
    }

    @Test("sky.unsubscribe(dog) returns the observer it unsubscribed, or nil if there was none")
    func unsubscribeReturnsTheObserver() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        dog.observe(sky) { _ in }

        #expect(sky.unsubscribe(dog) === dog)
        #expect(sky.unsubscribe(dog) == nil)
    }

    @Test("ending all relationships on one side calls back once per pair, in the order the pairs began")
    func unsubscribeAllCallsBackInOrder() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let moon = Sky("moon", log: log)
        let rex = Dog("rex", log: log)
        let fido = Dog("fido", log: log)
        rex.observe(sky) { _ in }
        fido.observe(sky) { _ in }
        rex.observe(moon) { _ in }
        rex.observe(sky) { _ in }
        _ = log.take()

        sky.stopBeingObserved()
        #expect(log.take() == Self.unsubscription("rex", from: "sky") + Self.unsubscription("fido", from: "sky"))
        #expect(rex.isObserving(moon))

        fido.observe(sky) { _ in }
        fido.observe(moon) { _ in }
        _ = log.take()
        fido.unsubscribeAll()
        #expect(log.take() == Self.unsubscription("fido", from: "sky") + Self.unsubscription("fido", from: "moon"))
        #expect(moon.observers.map { nameOf($0) } == ["rex"])
    }

    @Test(
        "unsubscribeAll() returns what it ended; on an object in both roles, both sides unless called through one role")
    func unsubscribeAllReturnsWhatItEnded() {
        final class Relay: ObservableSource, Observer, Named {
            let messenger = Messenger<String>()
            let receiver = Receiver()
            let name: String
            init(_ name: String) { self.name = name }
        }
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let moon = Sky("moon", log: log)
        let rex = Dog("rex", log: log)
        let relay = Relay("relay")
        let logger = Logger(name: "logger")
        let names = { (objects: [Any]) in objects.map(nameOf) }
        func connect() {
            rex.observe(sky) { _ in }
            rex.observe(moon) { _ in }
            relay.observe(sky) { _ in }
            sky.subscribe(logger)
            rex.observe(relay) { _ in }
        }

        connect()
        #expect(names(sky.unsubscribeAll()) == ["rex", "relay", "logger"])
        #expect(names(rex.unsubscribeAll()) == ["moon", "relay"])
        #expect(sky.unsubscribeAll().isEmpty && rex.unsubscribeAll().isEmpty)

        connect()
        let both = relay.unsubscribeAll()
        #expect(names(both.observers) == ["rex"] && names(both.subscriptions) == ["sky"])
        #expect(!rex.isObserving(relay) && !relay.isObserving(sky))

        connect()
        #expect(names((relay as any GeneralObservable).unsubscribeAll()) == ["rex"])
        #expect(relay.isObserving(sky))
        #expect(names((relay as any GeneralTrackingSubscriber).unsubscribeAll()) == ["sky"])
        #expect(!relay.isObserving(sky))
        withExtendedLifetime((rex, relay)) {}
    }

    @Test("no callback fires when either side of a relationship dies")
    func deathCallsNobodyBack() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        do {
            let shortLivedDog = Dog("short-lived dog", log: log)
            shortLivedDog.observe(sky) { _ in }
            let shortLivedSky = Sky("short-lived sky", log: log)
            dog.observe(shortLivedSky) { _ in }
            _ = log.take()
        }

        #expect(log.take().isEmpty)
        #expect(sky.observers.isEmpty)
        #expect(dog.subscriptions.isEmpty)
    }

    @Test("a plain GeneralSubscriber can subscribe to a messaging observable; it is listed but receives nothing")
    func plainSubscriberOnAMessagingObservable() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        let logger = Logger(name: "logger")
        dog.observe(sky) { log.append("dog:\($0)") }

        #expect(sky.subscribe(logger)?.uuid == logger.uuid)
        sky.send("1")

        #expect(sky.observers.map { nameOf($0) } == ["dog", "logger"])
        #expect(logger.amISubscribed(sky))
        #expect(sky.messenger.observationCount == 1)
        #expect(
            log.take()
                == Self.subscription("dog", to: "sky")
                + ["sky.observer(logger, didSubscribe: true) subscribed: true", "dog:1"]
        )

        #expect(sky.unsubscribe(logger)?.uuid == logger.uuid)
        #expect(log.take() == ["sky.observer(logger, didSubscribe: false) subscribed: false"])
        #expect(!logger.amISubscribed(sky))
        #expect(dog.isObserving(sky))
        withExtendedLifetime(dog) {}
    }

    @Test("a messenger itself is the observable in the graph when observed directly")
    func messengerInTheGraph() {
        let log = EventLog()
        let messenger = Messenger<Int>()
        let dog = Dog("dog", log: log)
        let token = FreeObserver()
        token.observe(messenger) { _ in }
        dog.observe(messenger) { _ in }

        #expect(messenger.observers.count == 2)
        #expect(messenger.observers.first as AnyObject === token)
        #expect(messenger.observers.last as AnyObject === dog)
        #expect(token.subscriptions.first === messenger)
        #expect(dog.subscriptions.first === messenger)
        #expect(log.entries == ["dog.subscribedTo(?) subscribed: true"])
    }

    @Test(
        "an observer also subscribed by subscribe(_:) has one relationship: listed once, ended once, called back once")
    func observingAndSubscribingMakeOneRelationship() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        dog.observe(sky) { _ in }
        #expect(sky.subscribe(dog) == nil)  // already subscribed, by observing
        #expect(log.take() == Self.subscription("dog", to: "sky"))

        let moon = Sky("moon", log: log)
        #expect(moon.subscribe(dog) === dog)  // a relationship without messages
        dog.observe(moon) { _ in }
        #expect(log.take() == Self.subscription("dog", to: "moon"))  // once: the pair existed

        #expect(sky.observers.map { nameOf($0) } == ["dog"])
        #expect(moon.observers.map { nameOf($0) } == ["dog"])
        #expect(dog.subscriptions.map { nameOf($0) } == ["sky", "moon"])
        #expect(moon.amISubscribed(dog) && dog.amISubscribed(moon))

        // Ending the observation ends the recorded subscription with it, in one callback pair.
        dog.stopObserving(moon)
        #expect(log.take() == Self.unsubscription("dog", from: "moon"))
        #expect(!moon.amISubscribed(dog) && !dog.amISubscribed(moon))
        #expect(moon.unsubscribe(dog) == nil)
        #expect(log.take().isEmpty)

        // A recorded subscription alone is ended by unsubscribeAll(), once.
        #expect(moon.subscribe(dog) === dog)
        _ = log.take()
        #expect(dog.unsubscribeAll().map { nameOf($0) } == ["sky", "moon"])
        #expect(log.take() == Self.unsubscription("dog", from: "sky") + Self.unsubscription("dog", from: "moon"))
        #expect(dog.subscriptions.isEmpty && sky.observers.isEmpty && moon.observers.isEmpty)
    }

    @Test("tokens are observations, not observers: never listed, never subscribed")
    func tokensAreNotListed() {
        let messenger = Messenger<Int>()
        let token = messenger.subscribe { _ in }
        let spy = Spy("spy")
        spy.observe(messenger) { _ in }
        #expect(messenger.observationCount == 2)
        #expect(messenger.observers.count == 1)
        #expect(messenger.observers.first as AnyObject === spy)
        #expect(messenger.amISubscribed(spy))
        withExtendedLifetime(token) {}
    }

    @Test("observers share the observable's identity with its messenger, through either")
    func sourceAndMessengerAreOneObservable() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        dog.observe(sky.messenger) { _ in }
        #expect(dog.amISubscribed(sky) && dog.amISubscribed(sky.messenger))
        #expect(sky.amISubscribed(dog) && sky.messenger.amISubscribed(dog))
        #expect(dog.isObserving(sky))
        dog.observe(sky) { _ in }  // the same pair: no second relationship
        #expect(dog.subscriptions.count == 1)
        dog.stopObserving(sky)
        #expect(!dog.isObserving(sky.messenger))
        #expect(sky.messenger.observationCount == 0)
    }

    @Test("the observers listed are the live ones, each once, however many observations each has")
    func observersAreListedOnceEach() {
        let messenger = Messenger<Int>()
        let first = Spy("spy")
        var second: Spy? = Spy("spy")
        weak let weakSecond = second
        first.observe(messenger) { _ in }
        second!.observe(messenger) { _ in }
        first.observe(messenger) { _ in }
        #expect(messenger.observers.count == 2)
        second = nil
        #expect(weakSecond == nil)
        #expect(messenger.observers.count == 1)
        #expect(messenger.observationCount == 2)
        withExtendedLifetime(first) {}
    }

    @Test("subscribe(_:) of an observer is a relationship, not an observation: nothing counted, started or kept")
    func subscribingIsNotObserving() {
        let log = EventLog()
        let dog = Dog("dog", log: log)
        weak var weakMapped: Mapped<Messenger<Int>, Int>?
        weak var weakOrigin: Messenger<Int>?
        let calls = Locked(0)
        do {
            let origin = Messenger<Int>()
            let mapped = origin.map { value in
                calls.withLock { $0 += 1 }
                return value
            }
            weakMapped = mapped
            weakOrigin = origin
            #expect(mapped.subscribe(dog) === dog)
            #expect(mapped.amISubscribed(dog) && dog.amISubscribed(mapped))
            #expect(!dog.isObserving(mapped))
            #expect(mapped.messenger.observationCount == 0)
            // The transform does not observe its origin for a relationship alone.
            #expect(origin.observationCount == 0)
            origin.send(1)
            #expect(calls.value == 0)
            #expect(mapped.observers.count == 1 && dog.subscriptions.count == 1)
            // Nor do the ledgers hold it: they record the subscribers that are not observers.
            #expect(mapped.subscriptionLedger.liveObservers.isEmpty)
            // Observing the pair then makes no second relationship; stopping ends the one.
            dog.observe(mapped) { _ in }
            #expect(origin.observationCount == 1)
            origin.send(2)
            #expect(calls.value == 1)
            dog.stopObserving(mapped)
            #expect(!mapped.amISubscribed(dog) && origin.observationCount == 0)
            #expect(mapped.subscribe(dog) === dog)
        }
        // Subscribed, not observed: the transform and its origin are freed like any unobserved ones.
        #expect(weakMapped == nil && weakOrigin == nil)
        #expect(dog.subscriptions.isEmpty)
    }

    @Test("a ledger record of an observer and an observable source, made by hand, is not read")
    func handMadeLedgerRecordsAreNotRead() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        #expect(SubscriptionLedger.recordSubscription(of: dog, to: sky))
        #expect(!sky.amISubscribed(dog) && !dog.amISubscribed(sky))
        #expect(sky.observers.isEmpty && dog.subscriptions.isEmpty)
        // The relationship is the receiver's alone: one beginning, one end.
        dog.observe(sky) { _ in }
        #expect(sky.observers.count == 1 && dog.subscriptions.count == 1)
        #expect(log.take() == Self.subscription("dog", to: "sky"))
        #expect(dog.unsubscribeAll().count == 1)
        #expect(log.take() == Self.unsubscription("dog", from: "sky"))
        #expect(sky.observers.isEmpty && dog.subscriptions.isEmpty)
    }

    @Test("the end of a relationship is announced to the object it began with")
    func endGoesToTheObjectTheRelationshipBeganWith() {
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        // Begun through the messenger, ended through the source: both callbacks name the messenger,
        // whose `observer(_:didSubscribe:)` is the default, so the sky hears neither.
        dog.observe(sky.messenger) { _ in }
        sky.unsubscribe(dog)
        #expect(log.take() == ["dog.subscribedTo(?) subscribed: true", "dog.unsubscribedFrom(?) subscribed: false"])
        // Begun through the source, ended through the messenger: the sky hears both.
        #expect(sky.subscribe(dog) === dog)
        #expect(sky.messenger.unsubscribe(dog) === dog)
        #expect(log.take() == Self.subscription("dog", to: "sky") + Self.unsubscription("dog", from: "sky"))
    }

    /// An observable source that keeps a ledger of its own, as a plain `GeneralObservable` does:
    /// the relationships it would record there would be missed by observing and by `observers`.
    final class SkyWithItsOwnLedger: ObservableSource {
        let messenger = Messenger<Int>()
        let subscriptionLedger = SubscriptionLedger()
    }

    @Test("subscribe(_:) stops a source with a ledger of its own, and answers nil for a Weak whose origin died")
    func subscribeChecksTheMessengersLedger() async {
        // A subscriber that is not an observer is recorded in the ledger that the type would miss.
        struct Logger: GeneralSubscriber {
            let uuid = UUID()
        }
        await #expect(processExitsWith: .failure) {
            _ = SkyWithItsOwnLedger().subscribe(Logger())
        }
        // An observer's subscription is kept with its observations and reads no ledger.
        let ownLedger = SkyWithItsOwnLedger()
        let watcher = FreeObserver()
        #expect(ownLedger.subscribe(watcher) === watcher)
        #expect(ownLedger.amISubscribed(watcher) && watcher.amISubscribed(ownLedger))
        // Its messenger's ledger is the one every observable source shares.
        let log = EventLog()
        let sky = Sky("sky", log: log)
        let dog = Dog("dog", log: log)
        #expect(sky.subscribe(dog) === dog)
        #expect(sky.amISubscribed(dog))
        // A `Weak` whose origin died makes a new messenger, with a new ledger, on every read:
        // not a ledger of its own, and no precondition failure, but nothing to subscribe to.
        var origin: Sky? = Sky("gone", log: log)
        let gone = origin!.weak()
        origin = nil
        #expect(gone.origin == nil)
        _ = log.take()
        #expect(gone.subscribe(dog) == nil)
        #expect(!gone.amISubscribed(dog) && !dog.amISubscribed(gone))
        #expect(log.take().isEmpty)
    }
}
