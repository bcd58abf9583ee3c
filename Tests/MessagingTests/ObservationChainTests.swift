import Messaging
import Testing

@Suite("Ad hoc transform chains: one observation with its transforms composed")
struct ObservationChainTests {
    /// An author for the author filters.
    final class Person: Sendable {}

    @Test("SwiftObserver's example: new, unwrap with a default, then map, into one handler")
    func titleLength() {
        let title = Var<String?>(nil)
        let observer = FreeObserver()
        let lengths = Locked<[Int]>([])
        observer.observe(title).new().unwrap("Untitled").map {
            $0.count
        } receive: { length in
            lengths.withLock { $0.append(length) }
        }
        title.value = "Swift"
        title.value = nil
        title.value = "Observer"
        #expect(lengths.value == [5, 8, 8])
        #expect(title.messenger.observationCount == 1)
        withExtendedLifetime(observer) {}
    }

    @Test("SwiftObserver's chain: map, filter, map, unwrap; the last transform takes the handler")
    func chainedTransforms() {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        let received = Locked<[Int]>([])
        observer.observe(numbers).map {
            "\($0)"
        }.filter {
            $0.count > 1
        }.map {
            Int($0)
        }.unwrap { number in
            received.withLock { $0.append(number) }
        }
        for number in [7, 42, 3, 100] { numbers.send(number) }
        #expect(received.value == [42, 100])
        withExtendedLifetime(observer) {}
    }

    @Test("receive ends a chain whose last transform takes no closure; it may take the author too")
    func receiveEndsTheChain() {
        let sky = Messenger<String>()
        let observer = FreeObserver()
        let log = EventLog()
        observer.observe(sky).map { $0 == "blue" }.receive { log.append("outside: \($0)") }
        observer.observe(sky).distinct().receive { color, author in
            log.append("\(color) from the messenger: \(author === sky)")
        }
        sky.send("blue")
        sky.send("blue")
        sky.send("grey")
        #expect(
            log.entries == [
                "outside: true", "blue from the messenger: true",
                "outside: true",
                "outside: false", "grey from the messenger: true",
            ])
        withExtendedLifetime(observer) {}
    }

    @Test("filter, compactMap, select, discard(first:) and unwrap() let through what they should")
    func filteringTransforms() {
        let words = Messenger<String>()
        let optionals = Messenger<Int?>()
        let observer = FreeObserver()
        let log = EventLog()
        observer.observe(words).filter {
            $0.hasPrefix("s")
        } receive: {
            log.append("filter \($0)")
        }
        observer.observe(words).compactMap {
            Int($0)
        } receive: {
            log.append("number \($0)")
        }
        observer.observe(words).select("stop") { log.append("select") }
        observer.observe(words).discard(first: 2) { log.append("after two \($0)") }
        observer.observe(optionals).unwrap { log.append("unwrapped \($0)") }
        observer.observe(optionals).unwrap(-1) { log.append("or default \($0)") }
        for word in ["go", "12", "stop", "swim"] { words.send(word) }
        optionals.send(nil)
        optionals.send(3)
        #expect(
            log.entries == [
                "number 12",
                "filter stop", "select", "after two stop",
                "filter swim", "after two swim",
                "or default -1",
                "unwrapped 3", "or default 3",
            ])
        withExtendedLifetime(observer) {}
    }

    @Test("filterAuthor, from and notFrom filter by the author; from does not keep the author alive")
    func authorFilters() {
        let text = Var("")
        let joe = Person()
        let ann = Person()
        let observer = FreeObserver()
        let log = EventLog()
        observer.observe(text).from(joe).new { log.append("joe: \($0)") }
        observer.observe(text).notFrom(joe).new { log.append("not joe: \($0)") }
        observer.observe(text).filterAuthor({ $0 === ann }).new { log.append("ann: \($0)") }
        text.set("hi", as: joe)
        text.set("hello", as: ann)
        #expect(log.take() == ["joe: hi", "not joe: hello", "ann: hello"])

        weak var weakAuthor: Person?
        do {
            let stranger = Person()
            weakAuthor = stranger
            observer.observe(text).from(stranger).receive { _ in }
        }
        #expect(weakAuthor == nil)
        withExtendedLifetime(observer) {}
    }

    @Test("a stateful transform keeps its state per observation, also when one chain is ended twice")
    func statePerObservation() {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        let log = EventLog()
        let chain = observer.observe(numbers).discard(first: 1).distinct()
        chain.receive { log.append("a\($0)") }
        numbers.send(1)
        chain.receive { log.append("b\($0)") }
        numbers.send(2)
        numbers.send(2)
        numbers.send(3)
        #expect(log.entries == ["a2", "b2", "a3", "b3"])  // b discards its own first message: the first 2
        #expect(numbers.observationCount == 2)
        withExtendedLifetime(observer) {}
    }

    @Test("a chain without a handler observes nothing; a chain's observation ends like any other")
    func chainLifetime() {
        let numbers = Messenger<Int>()
        var observer: FreeObserver? = FreeObserver()
        weak var weakProbe: Probe?
        _ = observer!.observe(numbers).map { $0 + 1 }
        #expect(numbers.observationCount == 0)
        do {
            let probe = Probe()
            weakProbe = probe
            observer!.observe(numbers).map { _ in withExtendedLifetime(probe) { 1 } }.receive { _ in }
        }
        #expect(numbers.observationCount == 1)
        #expect(observer!.isObserving(numbers))
        #expect(numbers.observers.count == 1)
        #expect(weakProbe != nil)
        observer!.stopObserving(numbers)
        #expect(weakProbe == nil)

        observer!.observe(numbers).filter { $0 > 0 }.receive { _ in }
        observer = nil
        #expect(numbers.observationCount == 0)
    }

    @Test("a main-actor observer's chain runs on the main actor and uses its state")
    @MainActor
    func mainActorChain() async {
        @MainActor final class Screen: MainActorObserver {
            let receiver = Receiver()
            var prefix = "#"
            var shown: [String] = []

            func start(_ numbers: Messenger<Int>) {
                observe(numbers).filter { $0 > 0 }.map {
                    self.prefix + "\($0)"
                } receive: { text in
                    MainActor.preconditionIsolated()
                    self.shown.append(text)
                }
            }
        }
        let numbers = Messenger<Int>()
        let screen = Screen()
        screen.start(numbers)
        numbers.send(1)
        #expect(screen.shown == ["#1"])
        await Task.detached {
            numbers.send(-1)
            numbers.send(2)
        }.value
        await waitForPendingDeliveries()
        #expect(screen.shown == ["#1", "#2"])
    }

    @Test("an actor observer's chain runs on the actor and uses its state")
    func actorChain() async {
        actor Tally: ActorObserver {
            let receiver = Receiver()
            var total = 0

            func start(_ numbers: Messenger<Int>) {
                observe(numbers).distinct().filter { $0 > 0 }.receive { number in
                    self.preconditionIsolated()
                    self.total += number
                }
            }
        }
        let numbers = Messenger<Int>()
        let tally = Tally()
        await tally.start(numbers)
        for number in [1, 1, -5, 2, 2, 3] { numbers.send(number) }
        await waitForPendingDeliveries()
        #expect(await tally.total == 6)
    }

    @Test("discard(first:) with a negative count stops with a precondition failure")
    func negativeDiscardCount() async {
        await #expect(processExitsWith: .failure) {
            let numbers = Messenger<Int>()
            _ = FreeObserver().observe(numbers).discard(first: -1)
        }
    }
}
