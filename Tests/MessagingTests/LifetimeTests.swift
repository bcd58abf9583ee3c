import Messaging
import Testing

@Suite("Lifetime: observations end with either side, and nothing of a dead object remains")
struct LifetimeTests {
    /// An observable that owns its messenger.
    final class Sky: ObservableSource {
        let messenger = Messenger<String>()
    }

    /// An observer that owns the messenger it observes, and observes it from `init`.
    final class Owner: Observer, Sendable {
        let receiver = Receiver()
        let messenger = Messenger<Int>()
        let received = Locked([Int]())

        init(capturingSelfStrongly: Bool) {
            if capturingSelfStrongly {
                // The trap: messenger → handler → self → messenger.
                observe(messenger) { message in self.received.withLock { $0.append(message) } }
            } else {
                observe(messenger) { [weak self] message in self?.received.withLock { $0.append(message) } }
            }
        }
    }

    /// A message or author whose lifetime a test follows.
    final class Payload: Sendable {}

    @Test("when an observer dies, its observations end and the messenger keeps nothing of it")
    func observerDeathEndsItsObservations() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let survivor = Spy("survivor")
        weak var weakDog: Spy?
        weak var weakProbe: Probe?
        do {
            let dog = Spy("dog")
            let probe = Probe()
            weakDog = dog
            weakProbe = probe
            dog.observe(messenger) { message in
                withExtendedLifetime(probe) { log.append("dog:\(message)") }
            }
            dog.observe(messenger) { log.append("dog2:\($0)") }
            survivor.observe(messenger) { log.append("survivor:\($0)") }
            #expect(messenger.observationCount == 3)
            #expect(messenger.observers.contains { $0 as AnyObject === dog })
            messenger.send("1")
        }

        #expect(weakDog == nil)
        #expect(weakProbe == nil, "the handler closure was released")
        #expect(messenger.observationCount == 1)
        #expect(messenger.observers.count == 1)
        #expect(messenger.observers.first as AnyObject === survivor)
        messenger.send("2")
        #expect(log.entries == ["dog:1", "dog2:1", "survivor:1", "survivor:2"])
        withExtendedLifetime(survivor) {}
    }

    @Test("when a messenger dies, its observers forget it and its handlers are released")
    func messengerDeathEndsItsObservations() {
        let dog = Spy("dog")
        let other = Messenger<String>()
        dog.observe(other) { _ in }
        weak var weakMessenger: Messenger<String>?
        weak var weakProbe: Probe?
        do {
            let messenger = Messenger<String>()
            let probe = Probe()
            weakMessenger = messenger
            weakProbe = probe
            dog.observe(messenger) { _ in withExtendedLifetime(probe) {} }
            #expect(dog.isObserving(messenger))
            #expect(dog.subscriptions.count == 2)
        }

        #expect(weakMessenger == nil)
        #expect(weakProbe == nil, "the handler closure was released")
        #expect(dog.subscriptions.count == 1)
        #expect(dog.subscriptions.first === other)
        #expect(dog.isObserving(other))
    }

    @Test("when a custom ObservableSource dies, its messenger dies with it and observers forget both")
    func customSourceDeathEndsItsObservations() {
        let dog = Spy("dog")
        weak var weakSky: Sky?
        weak var weakMessenger: Messenger<String>?
        weak var weakProbe: Probe?
        do {
            let sky = Sky()
            let probe = Probe()
            weakSky = sky
            weakMessenger = sky.messenger
            weakProbe = probe
            dog.observe(sky) { _ in withExtendedLifetime(probe) {} }
            #expect(dog.isObserving(sky))
            #expect(dog.subscriptions.first === sky)
        }

        #expect(weakSky == nil)
        #expect(weakMessenger == nil)
        #expect(weakProbe == nil)
        #expect(dog.subscriptions.isEmpty)
    }

    @Test("an observer that dies leaves no trace: its observables can be observed anew by others")
    func deadObserverLeavesNoTraceInTheLedger() {
        let sky = Sky()
        do {
            let dog = Spy("dog")
            dog.observe(sky) { _ in }
            #expect(sky.amISubscribed(dog))
        }
        #expect(sky.observers.isEmpty)
        #expect(sky.messenger.observationCount == 0)

        let cat = Spy("cat")
        cat.observe(sky) { _ in }
        #expect(sky.observers.count == 1)
        #expect(sky.observers.first as AnyObject === cat)
    }

    @Test("no leak: an observer that owns the messenger it observes and captures itself weakly dies")
    func ownerCapturingWeaklyDies() {
        weak var weakOwner: Owner?
        weak var weakMessenger: Messenger<Int>?
        do {
            let owner = Owner(capturingSelfStrongly: false)
            weakOwner = owner
            weakMessenger = owner.messenger
            owner.messenger.send(1)
            #expect(owner.received.value == [1])
        }

        #expect(weakOwner == nil)
        #expect(weakMessenger == nil)
    }

    @Test("the strong-capture trap: an owner that captures itself strongly stays alive until it stops observing")
    func strongCaptureKeepsTheOwnerAlive() {
        weak var weakOwner: Owner?
        weak var weakMessenger: Messenger<Int>?
        do {
            let owner = Owner(capturingSelfStrongly: true)
            weakOwner = owner
            weakMessenger = owner.messenger
        }

        // The cycle messenger → handler → owner → messenger keeps both alive, and observing.
        #expect(weakOwner != nil)
        #expect(weakMessenger != nil)
        weakMessenger?.send(7)
        #expect(weakOwner?.received.value == [7])

        // Ending the observation releases the handler, which breaks the cycle.
        weakOwner?.stopObserving()
        #expect(weakOwner == nil)
        #expect(weakMessenger == nil)
    }

    @Test("observing does not keep the observer alive, nor the observable")
    func observingRetainsNeitherSide() {
        weak var weakDog: Spy?
        weak var weakSky: Sky?
        do {
            let dog = Spy("dog")
            let sky = Sky()
            weakDog = dog
            weakSky = sky
            dog.observe(sky) { _ in }
            withSharedState { sky.observed { _ in } }
        }
        #expect(weakDog == nil)
        #expect(weakSky == nil)
    }

    @Test("after a delivery the messenger keeps neither the messages nor their authors, queued ones included")
    func messagesAndAuthorsAreReleasedAfterDelivery() {
        let messenger = Messenger<Payload>()
        let a = Spy("a")
        let log = EventLog()
        let weakFirst = WeakReference<Payload>()
        let weakQueued = WeakReference<Payload>()
        weak var weakAuthor: Payload?
        a.observe(messenger) { message, author in
            if message === weakFirst.object {
                log.append("a:first")
                let queued = Payload()
                weakQueued.object = queued
                messenger.send(queued, from: author)
            } else {
                log.append("a:queued")
            }
        }
        do {
            let first = Payload()
            let author = Payload()
            weakFirst.object = first
            weakAuthor = author
            messenger.send(first, from: author)
        }

        #expect(log.entries == ["a:first", "a:queued"])
        #expect(weakFirst.object == nil)
        #expect(weakQueued.object == nil)
        #expect(weakAuthor == nil)
        withExtendedLifetime(a) {}
    }

    @Test("stopObserving() ends every observation, even of a source that died while its messenger lives on")
    func stopObservingAfterTheSourceDied() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let dog = Spy("dog")
        weak var weakRelay: Relay?
        do {
            let relay = Relay(messenger)
            weakRelay = relay
            dog.observe(relay) { log.append("dog:\($0)") }
        }
        #expect(weakRelay == nil)

        dog.stopObserving()  // "no more messages from anywhere"
        messenger.send("1")

        #expect(log.entries.isEmpty)
        #expect(!dog.isObserving(messenger))
        #expect(messenger.observationCount == 0)
        #expect(!messenger.amISubscribed(dog))
        #expect(!dog.amISubscribed(messenger))
    }

    @Test("an observer released from its own handler is freed and receives nothing more")
    func observerReleasedByItsOwnHandler() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let dog = Locked<Spy?>(Spy("dog"))
        weak let weakDog = dog.value
        dog.value?.observe(messenger) { message in
            log.append("dog:\(message)")
            if message == "1" {
                messenger.send("2")
                dog.withLock { $0 = nil }
            }
        }

        messenger.send("1")

        #expect(weakDog == nil)
        #expect(log.entries == ["dog:1"])
        #expect(messenger.observationCount == 0)
    }

    /// Two observers that share one receiver (the documented way to start and stop together).
    final class SharingObserver: Observer, Sendable {
        let receiver: Receiver

        init(_ receiver: Receiver) {
            self.receiver = receiver
        }
    }

    @Test("a shared receiver releases the observations of dead messengers, even when the observer that made them died")
    func sharedReceiverSweepsObservationsOfDeadMessengers() {
        let receiver = Receiver()
        var maker: SharingObserver? = SharingObserver(receiver)
        let keeper = SharingObserver(receiver)
        var weakProbes: [() -> Probe?] = []
        do {
            var messengers: [Messenger<Int>] = []
            for _ in 0..<20 {
                let messenger = Messenger<Int>()
                let probe = Probe()
                weak let weakProbe = probe
                weakProbes.append { weakProbe }
                maker!.observe(messenger) { _ in withExtendedLifetime(probe) {} }
                messengers.append(messenger)
            }
            // The observer that made them dies first: the messengers cannot reach the receiver
            // through it when they die, so their observations stay in the receiver's table.
            maker = nil
            withExtendedLifetime(messengers) {}
        }
        #expect(weakProbes.contains { $0() != nil })
        // As the shared receiver's table grows, the entries of dead messengers are swept.
        let living = (0..<40).map { _ in Messenger<Int>() }
        for messenger in living { keeper.observe(messenger) { _ in } }
        #expect(weakProbes.allSatisfy { $0() == nil })
        #expect(living.allSatisfy { keeper.isObserving($0) })
        withExtendedLifetime((keeper, living)) {}
    }
}
