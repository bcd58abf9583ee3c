import Messaging
import Testing

@Suite("Re-entrancy: sends from handlers are queued, changes during a delivery apply at once")
struct ReentrancyTests {
    @Test("a message sent from a handler is delivered after the current one has reached every observer")
    func reentrantSendIsQueued() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        let c = Spy("c")
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == "1" {
                messenger.send("2")
                log.append("a:send(2) returned")
            }
        }
        b.observe(messenger) { log.append("b:\($0)") }
        c.observe(messenger) { log.append("c:\($0)") }

        messenger.send("1")
        log.append("send(1) returned")

        #expect(
            log.entries == [
                "a:1", "a:send(2) returned", "b:1", "c:1",
                "a:2", "b:2", "c:2",
                "send(1) returned",
            ]
        )
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("chains of re-entrant sends from several handlers are delivered first in, first out")
    func reentrantSendsFormOneFifoQueue() {
        let messenger = Messenger<Int>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        let c = Spy("c")
        // While 1 is delivered, a queues 2 and 3, then b queues 4. While 2 is delivered, c queues 5
        // (behind 4); while 3 is delivered, b queues 6; while 5 is delivered, a queues 7.
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == 1 {
                messenger.send(2)
                messenger.send(3)
            }
            if message == 5 { messenger.send(7) }
        }
        b.observe(messenger) { message in
            log.append("b:\(message)")
            if message == 1 { messenger.send(4) }
            if message == 3 { messenger.send(6) }
        }
        c.observe(messenger) { message in
            log.append("c:\(message)")
            if message == 2 { messenger.send(5) }
        }

        messenger.send(1)

        #expect(log.entries == deliveries(["1", "2", "3", "4", "5", "6", "7"], to: ["a", "b", "c"]))
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("handlers never nest: a chain of a thousand re-entrant sends runs at depth one")
    func longChainsDoNotNest() {
        let messenger = Messenger<Int>()
        let depth = Locked((current: 0, deepest: 0))
        let received = Locked([Int]())
        let a = Spy("a")
        a.observe(messenger) { message in
            depth.withLock {
                $0.current += 1
                $0.deepest = max($0.deepest, $0.current)
            }
            received.withLock { $0.append(message) }
            if message < 1000 { messenger.send(message + 1) }
            depth.withLock { $0.current -= 1 }
        }

        messenger.send(1)

        #expect(depth.value.deepest == 1)
        #expect(received.value == Array(1...1000))
        withExtendedLifetime(a) {}
    }

    @Test("a send to another, idle messenger is delivered at once; a send back to the busy one is queued")
    func reentrancyIsPerMessenger() {
        let first = Messenger<String>()
        let second = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        let c = Spy("c")
        a.observe(first) { message in
            log.append("a:\(message)")
            if message == "x1" { second.send("y1") }
        }
        b.observe(second) { message in
            log.append("b:\(message)")
            if message == "y1" { first.send("x2") }
        }
        c.observe(first) { log.append("c:\($0)") }

        first.send("x1")

        #expect(log.entries == ["a:x1", "b:y1", "c:x1", "a:x2", "c:x2"])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("a Var changed from its own handler sends the new update after the current one")
    func varChangedFromHandlerIsQueued() {
        let number = Var(0)
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(number) { update in
            log.append("a:\(update.old)->\(update.new)")
            if update.new == 1 { number.value = 2 }
        }
        b.observe(number) { log.append("b:\($0.old)->\($0.new)") }

        number.value = 1

        #expect(log.entries == deliveries(["0->1", "1->2"], to: ["a", "b"]))
        #expect(number.value == 2)
        withExtendedLifetime((a, b)) {}
    }

    @Test("a Var update queued behind a delivery is still dropped when it changes nothing, set or modified")
    func queuedUnchangedVarUpdateIsDropped() {
        let number = Var(0)
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(number) { update in
            log.append("a:\(update.old)->\(update.new)")
            guard update.old == 0 else { return }
            // Each of these is queued behind the current delivery, with the test that drops it.
            number.value = 1
            number.modify { $0 += 0 }
            number.set(1, as: number)
            number.value = 2
        }
        b.observe(number) { log.append("b:\($0.old)->\($0.new)") }

        number.value = 1

        #expect(log.entries == deliveries(["0->1", "1->2"], to: ["a", "b"]))
        #expect(number.value == 2)
        withExtendedLifetime((a, b)) {}
    }

    /// The ways to end an observer's observations of a messenger.
    enum Removal: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case stopObservingObservable = "observer.stopObserving(messenger)"
        case stopObservingAll = "observer.stopObserving()"
        case stopBeingObservedBy = "messenger.stopBeingObserved(by: observer)"
        case unsubscribe = "messenger.unsubscribe(observer)"
        case unsubscribeAllOfObserver = "observer.unsubscribeAll()"

        var testDescription: String { rawValue }

        func apply(to observer: Spy, on messenger: Messenger<String>) {
            switch self {
            case .stopObservingObservable: observer.stopObserving(messenger)
            case .stopObservingAll: observer.stopObserving()
            case .stopBeingObservedBy: messenger.stopBeingObserved(by: observer)
            case .unsubscribe: messenger.unsubscribe(observer)
            case .unsubscribeAllOfObserver: observer.unsubscribeAll()
            }
        }
    }

    @Test(
        "an observer removed by an earlier handler receives nothing more, not even the current message",
        arguments: Removal.allCases
    )
    func removalDuringDeliveryTakesEffectAtOnce(removal: Removal) {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        let c = Spy("c")
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == "1" {
                messenger.send("2")
                removal.apply(to: c, on: messenger)
                messenger.send("3")
            }
        }
        b.observe(messenger) { log.append("b:\($0)") }
        c.observe(messenger) { log.append("c:\($0)") }
        c.observe(messenger) { log.append("c2:\($0)") }

        messenger.send("1")
        messenger.send("4")

        #expect(log.entries == deliveries(["1", "2", "3", "4"], to: ["a", "b"]))
        #expect(!c.isObserving(messenger))
        #expect(messenger.observationCount == 2)
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("stopBeingObserved() from a handler ends the current and queued deliveries for everyone")
    func stopBeingObservedDuringDelivery() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(messenger) { message in
            log.append("a:\(message)")
            messenger.send("2")
            messenger.stopBeingObserved()
        }
        b.observe(messenger) { log.append("b:\($0)") }

        messenger.send("1")
        messenger.send("3")

        #expect(log.entries == ["a:1"])
        #expect(messenger.observationCount == 0)
        withExtendedLifetime((a, b)) {}
    }

    @Test("an observer deallocated by an earlier handler receives nothing more, not even the current message")
    func deallocationDuringDeliveryTakesEffectAtOnce() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        let c = Locked<Spy?>(Spy("c"))
        weak let weakC = c.value
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == "1" {
                messenger.send("2")
                c.withLock { $0 = nil }
                log.append("c is gone: \(weakC == nil)")
            }
        }
        c.value?.observe(messenger) { log.append("c:\($0)") }
        b.observe(messenger) { log.append("b:\($0)") }

        messenger.send("1")

        #expect(log.entries == ["a:1", "c is gone: true", "b:1", "a:2", "b:2"])
        #expect(messenger.observationCount == 2)
        withExtendedLifetime((a, b)) {}
    }

    @Test("an observer that stops itself in its handler receives none of the messages already queued")
    func selfRemovalSkipsQueuedMessages() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        let c = Spy("c")
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == "1" {
                messenger.send("2")
                messenger.send("3")
            }
        }
        b.observe(messenger) { message in
            log.append("b:\(message)")
            b.stopObserving(messenger)
        }
        c.observe(messenger) { log.append("c:\($0)") }

        messenger.send("1")

        #expect(log.entries == ["a:1", "b:1", "c:1", "a:2", "c:2", "a:3", "c:3"])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("an observer added during a delivery receives neither that message nor those already queued")
    func additionDuringDeliveryStartsWithTheNextSend() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        let d = Spy("d")
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == "1" {
                messenger.send("2")
                d.observe(messenger) { log.append("d:\($0)") }
                messenger.send("3")
            }
        }
        b.observe(messenger) { log.append("b:\($0)") }

        messenger.send("1")
        messenger.send("4")

        #expect(log.entries == deliveries(["1", "2"], to: ["a", "b"]) + deliveries(["3", "4"], to: ["a", "b", "d"]))
        withExtendedLifetime((a, b, d)) {}
    }

    @Test("an observer added by the last handler of a message does not receive that message")
    func additionByTheLastHandler() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let d = Spy("d")
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == "1" { d.observe(messenger) { log.append("d:\($0)") } }
        }

        messenger.send("1")
        messenger.send("2")

        #expect(log.entries == ["a:1", "a:2", "d:2"])
        withExtendedLifetime((a, d)) {}
    }

    @Test("a second observation started from a handler receives only the messages sent after it started")
    func handlerObservingAgain() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        // Unowned: the messenger keeps this handler, which must not keep the messenger or `a`.
        a.observe(messenger) { [unowned a, unowned messenger] message in
            log.append("a:\(message)")
            if message == "1" {
                messenger.send("2")
                a.observe(messenger) { log.append("a2:\($0)") }
                messenger.send("3")
            }
        }
        b.observe(messenger) { log.append("b:\($0)") }

        messenger.send("1")

        #expect(log.entries == ["a:1", "b:1", "a:2", "b:2", "a:3", "b:3", "a2:3"])
        withExtendedLifetime((a, b)) {}
    }

    @Test("an observer stopped and restarted during a delivery receives only messages sent after the restart")
    func stopAndRestartDuringDelivery() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        let c = Spy("c")
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == "1" {
                c.stopObserving(messenger)
                messenger.send("2")
                c.observe(messenger) { log.append("c-again:\($0)") }
                messenger.send("3")
            }
        }
        b.observe(messenger) { log.append("b:\($0)") }
        c.observe(messenger) { log.append("c:\($0)") }

        messenger.send("1")

        #expect(log.entries == ["a:1", "b:1", "a:2", "b:2", "a:3", "b:3", "c-again:3"])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test("an observer removed while a queued message is delivered misses it and the rest")
    func removalDuringAQueuedDelivery() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        let c = Spy("c")
        a.observe(messenger) { message in
            log.append("a:\(message)")
            if message == "1" {
                messenger.send("2")
                messenger.send("3")
            }
        }
        b.observe(messenger) { message in
            log.append("b:\(message)")
            if message == "2" { c.stopObserving(messenger) }
        }
        c.observe(messenger) { log.append("c:\($0)") }

        messenger.send("1")

        #expect(log.entries == ["a:1", "b:1", "c:1", "a:2", "b:2", "a:3", "b:3"])
        withExtendedLifetime((a, b, c)) {}
    }
}
