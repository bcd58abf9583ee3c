import Messaging
import Testing

@Suite("Free observers: FreeObserver.shared, one-shot observations and free-observer tokens")
struct FreeObserverTests {
    // MARK: FreeObserver.shared

    @Test("the global observe(_:) and observed { } observe through FreeObserver.shared")
    func globalObservationsUseTheSharedObserver() {
        withSharedState {
            let messenger = Messenger<String>()
            let log = EventLog()
            observe(messenger) { log.append("global:\($0)") }
            messenger.observed { log.append("observed:\($0)") }

            #expect(log.entries.isEmpty)
            #expect(FreeObserver.shared.isObserving(messenger))
            #expect(messenger.amISubscribed(FreeObserver.shared))
            #expect(messenger.observers.count == 1)
            #expect(messenger.observers.first as AnyObject === FreeObserver.shared)
            messenger.send("1")
            messenger.send("2")
            #expect(log.entries == deliveries(["1", "2"], to: ["global", "observed"]))

            FreeObserver.shared.stopObserving(messenger)
        }
    }

    @Test("FreeObserver.shared.stopObserving(observable) ends its free observations of that observable only")
    func stoppingOneSharedObservation() {
        withSharedState {
            let first = Messenger<String>()
            let second = Messenger<String>()
            let log = EventLog()
            observe(first) { log.append("first:\($0)") }
            first.observed { log.append("first-observed:\($0)") }
            second.observed { log.append("second:\($0)") }

            FreeObserver.shared.stopObserving(first)
            first.send("1")
            second.send("2")

            #expect(log.entries == ["second:2"])
            #expect(!FreeObserver.shared.isObserving(first))
            #expect(FreeObserver.shared.isObserving(second))
            #expect(first.observationCount == 0)
            FreeObserver.shared.stopObserving(second)
        }
    }

    @Test("FreeObserver.shared.stopObserving() ends all free global observations")
    func stoppingAllSharedObservations() {
        withSharedState {
            let first = Messenger<String>()
            let second = Messenger<Int>()
            let log = EventLog()
            observe(first) { log.append("first:\($0)") }
            second.observed { log.append("second:\($0)") }

            FreeObserver.shared.stopObserving()
            first.send("1")
            second.send(2)

            #expect(log.entries.isEmpty)
            #expect(!FreeObserver.shared.isObserving(first))
            #expect(!FreeObserver.shared.isObserving(second))
            #expect(first.observationCount == 0)
            #expect(second.observationCount == 0)
        }
    }

    @Test("the observations of FreeObserver.shared end when their observable dies")
    func sharedObservationsEndWithTheObservable() {
        weak var weakProbe: Probe?
        weak var weakMessenger: Messenger<String>?
        withSharedState {
            do {
                let messenger = Messenger<String>()
                let probe = Probe()
                weakProbe = probe
                weakMessenger = messenger
                observe(messenger) { _ in withExtendedLifetime(probe) {} }
            }
            #expect(weakMessenger == nil)
            #expect(weakProbe == nil, "the handler closure was released")
        }
    }

    // MARK: One-shot observations

    @Test("observeOnce receives exactly one message of two sent in a row")
    func observeOnceReceivesOneMessage() {
        let messenger = Messenger<String>()
        let log = EventLog()
        observeOnce(messenger) { log.append("once:\($0)") }

        messenger.send("1")
        messenger.send("2")

        #expect(log.entries == ["once:1"])
        #expect(messenger.observationCount == 0)
        #expect(messenger.observers.isEmpty)
    }

    @Test("observedOnce receives exactly one message of two sent in a row")
    func observedOnceReceivesOneMessage() {
        let sky = Var("blue")
        let log = EventLog()
        sky.observedOnce { log.append("once:\($0.new)") }

        sky.value = "grey"
        sky.value = "black"

        #expect(log.entries == ["once:grey"])
        #expect(sky.messenger.observationCount == 0)
    }

    @Test("the FreeObserver of observeOnce lives until its message arrives, then dies")
    func observeOnceObserverDiesAfterItsMessage() {
        let messenger = Messenger<String>()
        weak var weakOnce: FreeObserver?
        weak var weakProbe: Probe?
        do {
            let probe = Probe()
            weakProbe = probe
            weakOnce = observeOnce(messenger) { _ in withExtendedLifetime(probe) {} }
        }
        #expect(weakOnce != nil, "it keeps itself alive while it waits")
        #expect(weakOnce?.isObserving(messenger) == true)
        #expect(weakOnce !== FreeObserver.shared)

        messenger.send("1")

        #expect(weakOnce == nil)
        #expect(weakProbe == nil, "the handler closure was released")
    }

    @Test("the FreeObserver of observedOnce lives until its message arrives, then dies")
    func observedOnceObserverDiesAfterItsMessage() {
        let messenger = Messenger<String>()
        weak var weakOnce: FreeObserver?
        weakOnce = messenger.observedOnce { _ in }
        #expect(weakOnce != nil)

        messenger.send("1")

        #expect(weakOnce == nil)
    }

    @Test("observeOnce receives one message when an earlier handler queues a second before its turn")
    func observeOnceWithAQueuedSecondMessage() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == "1" { messenger.send("2") }
        }
        weak let weakOnce = observeOnce(messenger) { log.append("once:\($0)") }

        messenger.send("1")

        #expect(log.entries == ["a:1", "once:1", "a:2"])
        #expect(weakOnce == nil)
        withExtendedLifetime(a) {}
    }

    @Test("observeOnce receives one message when its own handler sends another")
    func observeOnceSendingFromItsHandler() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let b = Spy("b")
        observeOnce(messenger) { message in
            log.append("once:\(message)")
            messenger.send("2")
        }
        b.observe(messenger) { log.append("b:\($0)") }

        messenger.send("1")

        #expect(log.entries == ["once:1", "b:1", "b:2"])
        withExtendedLifetime(b) {}
    }

    @Test("two observeOnce in a row each receive one message, in order")
    func twoOneShotObservations() {
        let messenger = Messenger<Int>()
        let log = EventLog()
        observeOnce(messenger) { log.append("first:\($0)") }
        messenger.observedOnce { log.append("second:\($0)") }

        messenger.send(1)
        messenger.send(2)

        #expect(log.entries == ["first:1", "second:1"])
    }

    @Test("a one-shot observation stopped early receives nothing, and its FreeObserver dies")
    func observeOnceStoppedEarly() {
        let messenger = Messenger<String>()
        let log = EventLog()
        weak var weakOnce: FreeObserver?
        do {
            let once = observeOnce(messenger) { log.append("once:\($0)") }
            weakOnce = once
            once.stopObserving()
        }

        messenger.send("1")

        #expect(log.entries.isEmpty)
        #expect(weakOnce == nil)
    }

    @Test("a one-shot observation ends without a message when its observable dies")
    func observeOnceEndsWithTheObservable() {
        let log = EventLog()
        weak var weakOnce: FreeObserver?
        do {
            let messenger = Messenger<String>()
            weakOnce = observeOnce(messenger) { log.append("once:\($0)") }
        }
        #expect(weakOnce == nil)
        #expect(log.entries.isEmpty)
    }

    @Test("observeOnce receives at most one message when its source died and the source's messenger lives on")
    func observeOnceAfterTheSourceDied() {
        let messenger = Messenger<String>()
        let log = EventLog()
        weak var weakOnce: FreeObserver?
        do {
            let relay = Relay(messenger)
            weakOnce = observeOnce(relay) { log.append("once:\($0)") }
        }

        messenger.send("1")
        messenger.send("2")

        // Whether the source's death ended the observation is not pinned here; one message at most is.
        #expect(log.entries == [] || log.entries == ["once:1"])
        #expect(messenger.observationCount == 0)
        #expect(weakOnce == nil)
    }

    // MARK: Free observers as tokens

    @Test("a FreeObserver of your own observes as long as you keep it")
    func ownFreeObserverIsAToken() {
        let messenger = Messenger<String>()
        let log = EventLog()
        weak var weakProbe: Probe?
        var token: FreeObserver? = FreeObserver()
        do {
            let probe = Probe()
            weakProbe = probe
            token?.observe(messenger) { message in withExtendedLifetime(probe) { log.append("token:\(message)") } }
        }
        messenger.send("1")

        token = nil
        messenger.send("2")

        #expect(log.entries == ["token:1"])
        #expect(weakProbe == nil)
        #expect(messenger.observationCount == 0)
    }

    @Test("stopObserving() on a FreeObserver of your own ends its observations, and it can observe again")
    func ownFreeObserverStopped() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let token = FreeObserver()
        token.observe(messenger) { log.append("token:\($0)") }
        messenger.send("1")

        token.stopObserving()
        messenger.send("2")
        token.observe(messenger) { log.append("again:\($0)") }
        messenger.send("3")

        #expect(log.entries == ["token:1", "again:3"])
    }
}
