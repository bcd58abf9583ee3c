import Messaging
import Testing

@Suite("Ordering: every observer gets every message, in send order, in observation order")
struct OrderingTests {
    /// An observable that owns its messenger, as SwiftObserver's custom observables do.
    final class Sky: ObservableSource {
        let messenger = Messenger<String>()
    }

    @Test("an observer receives the messages in the order they were sent")
    func messagesArriveInSendOrder() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        a.observe(messenger) { log.append("a:\($0)") }

        for message in ["3", "1", "4", "1", "5", "9", "2", "6"] {
            messenger.send(message)
        }

        #expect(log.entries == deliveries(["3", "1", "4", "1", "5", "9", "2", "6"], to: ["a"]))
        withExtendedLifetime(a) {}
    }

    @Test("each message reaches every observer, in the order they started observing, before the next")
    func observersAreCalledInObservationOrder() {
        let messenger = Messenger<String>()
        let log = EventLog()
        // Started in an order that is neither alphabetical nor the order of creation.
        let a = Spy("a")
        let b = Spy("b")
        let c = Spy("c")
        c.observe(messenger) { log.append("c:\($0)") }
        a.observe(messenger) { log.append("a:\($0)") }
        b.observe(messenger) { log.append("b:\($0)") }

        messenger.send("1")
        messenger.send("2")

        #expect(log.entries == deliveries(["1", "2"], to: ["c", "a", "b"]))
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("a custom ObservableSource delivers in the same orders as a messenger")
    func customSourceKeepsTheOrders() {
        let sky = Sky()
        let log = EventLog()
        let b = Spy("b")
        let a = Spy("a")
        b.observe(sky) { log.append("b:\($0)") }
        a.observe(sky) { log.append("a:\($0)") }

        sky.send("blue")
        sky.send("grey")

        #expect(log.entries == deliveries(["blue", "grey"], to: ["b", "a"]))
        withExtendedLifetime((a, b)) {}
    }

    @Test("a Var delivers its updates in change order, to observers in observation order")
    func varKeepsTheOrders() {
        let number = Var(0)
        let log = EventLog()
        let b = Spy("b")
        let a = Spy("a")
        b.observe(number) { log.append("b:\($0.old)->\($0.new)") }
        a.observe(number) { log.append("a:\($0.old)->\($0.new)") }

        number.value = 1
        number.value = 2
        number.value = 3

        #expect(log.entries == deliveries(["0->1", "1->2", "2->3"], to: ["b", "a"]))
        withExtendedLifetime((a, b)) {}
    }

    @Test("an observer that stops and starts again moves to the end of the order")
    func restartingMovesToTheEnd() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(messenger) { log.append("a:\($0)") }
        b.observe(messenger) { log.append("b:\($0)") }
        messenger.send("1")

        a.stopObserving(messenger)
        a.observe(messenger) { log.append("a:\($0)") }
        messenger.send("2")

        #expect(log.entries == ["a:1", "b:1", "b:2", "a:2"])
        withExtendedLifetime((a, b)) {}
    }

    @Test("every observation of one observer is delivered, each at its own place in the order")
    func severalObservationsByOneObserverAreAllDelivered() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(messenger) { log.append("a1:\($0)") }
        b.observe(messenger) { log.append("b:\($0)") }
        a.observe(messenger) { log.append("a2:\($0)") }
        a.observe(messenger) { message, _ in log.append("a3:\(message)") }

        #expect(messenger.observationCount == 4)
        messenger.send("1")
        messenger.send("2")

        #expect(log.entries == deliveries(["1", "2"], to: ["a1", "b", "a2", "a3"]))
        withExtendedLifetime((a, b)) {}
    }

    @Test("stopObserving(observable) ends every observation of that observable, and only those")
    func stopObservingEndsAllObservationsOfTheObservable() {
        let messenger = Messenger<String>()
        let other = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(messenger) { log.append("a1:\($0)") }
        a.observe(messenger) { log.append("a2:\($0)") }
        a.observe(other) { log.append("a-other:\($0)") }
        b.observe(messenger) { log.append("b:\($0)") }

        a.stopObserving(messenger)
        messenger.send("1")
        other.send("2")

        #expect(log.entries == ["b:1", "a-other:2"])
        #expect(!a.isObserving(messenger))
        #expect(a.isObserving(other))
        #expect(messenger.observationCount == 1)
        withExtendedLifetime((a, b)) {}
    }

    @Test("stopObserving() ends every observation of every observable")
    func stopObservingEverythingEndsAll() {
        let first = Messenger<String>()
        let second = Sky()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(first) { log.append("a:\($0)") }
        a.observe(first) { log.append("a:\($0)") }
        a.observe(second) { log.append("a:\($0)") }
        b.observe(second) { log.append("b:\($0)") }

        a.stopObserving()
        first.send("1")
        second.send("2")

        #expect(log.entries == ["b:2"])
        #expect(!a.isObserving(first))
        #expect(!a.isObserving(second))
        #expect(first.observationCount == 0)
        #expect(second.messenger.observationCount == 1)
        withExtendedLifetime((a, b)) {}
    }

    @Test("starting to observe sends nothing, however the observation is started")
    func startingToObserveSendsNothing() {
        let messenger = Messenger<String>()
        let sky = Sky()
        let number = Var(42)
        let log = EventLog()
        let a = Spy("a")

        a.observe(messenger) { log.append("a:\($0)") }
        a.observe(messenger) { message, _ in log.append("a:\(message)") }
        a.observe(sky) { log.append("a:\($0)") }
        a.observe(number) { log.append("a:\($0)") }
        a.observe(messenger.readOnly) { log.append("a:\($0)") }
        let token = messenger.subscribe { log.append("token:\($0)") }
        let once = observeOnce(number) { log.append("once:\($0)") }
        let token2 = FreeObserver()
        token2.observe(sky) { log.append("token2:\($0)") }

        #expect(log.entries.isEmpty)
        #expect(a.isObserving(messenger) && a.isObserving(sky) && a.isObserving(number))
        withExtendedLifetime((a, token, once, token2)) {}
    }

    @Test("a message sent before an observer started observing never reaches it")
    func earlierMessagesAreNotReplayed() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(messenger) { log.append("a:\($0)") }
        messenger.send("1")
        b.observe(messenger) { log.append("b:\($0)") }
        messenger.send("2")

        #expect(log.entries == ["a:1", "a:2", "b:2"])
        withExtendedLifetime((a, b)) {}
    }

    @Test("observers of different messengers each receive only their own messenger's messages")
    func messengersAreIndependent() {
        let first = Messenger<String>()
        let second = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(first) { log.append("a:\($0)") }
        b.observe(second) { log.append("b:\($0)") }

        first.send("1")
        second.send("2")
        first.send("3")

        #expect(log.entries == ["a:1", "b:2", "a:3"])
        withExtendedLifetime((a, b)) {}
    }
}
