import Messaging
import Testing

@Suite("Chain hops from a main-actor or actor observer's chain")
struct IsolatedChainHopTests {
    /// A main-actor observer whose chain filters on the main actor and hops to an actor.
    @MainActor final class Forwarder: MainActorObserver {
        let receiver = Receiver()
        var checked: [Int] = []

        func start(_ numbers: Messenger<Int>, to target: HopTarget) {
            observe(numbers).filter { value in
                MainActor.assertIsolated()
                self.checked.append(value)  // main-actor state, before the hop
                return value.isMultiple(of: 2)
            }.on(target).receive { target, value in
                target.assertIsolated()
                target.append("\(value)")
            }
        }
    }

    /// An actor observer whose chains run a stage on the actor, then hop.
    actor Sampler: ActorObserver {
        let receiver = Receiver()
        private(set) var sampled: [Int] = []
        private(set) var again: [Int] = []

        func start(_ numbers: Messenger<Int>, log: MainActorLog) {
            observe(numbers).map { value in
                self.sampled.append(value)  // the actor's state, before the hop
                return value * 10
            }.onMainActor().receive { value in
                log.append("\(value)")
            }
        }

        /// Hops to this same actor: the rest runs at once when the message is sent here.
        func startSameActorHop(_ numbers: Messenger<Int>) {
            observe(numbers).map { $0 + 1 }.on(self).receive { sampler, value in
                sampler.again.append(value)
            }
        }

        /// Chains that capture nothing of the actor, hopping away and back.
        func startWithoutCaptures(_ numbers: Messenger<Int>, log: MainActorLog) {
            observe(numbers).map { $0 * 2 }.onMainActor().receive { log.append("\($0)") }
            observe(numbers).filter { $0 > 0 }.on(HopTarget()).receive { target, value in target.append("\(value)") }
        }

        func sendHere(_ value: Int, on numbers: Messenger<Int>) async -> [Int] {
            await Task.yield()
            numbers.send(value)
            return again
        }
    }

    @Test("A main-actor observer's chain runs its stages on the main actor, then hops to an actor")
    @MainActor
    func mainActorObserverHopsToAnActor() async {
        let numbers = Messenger<Int>()
        let target = HopTarget()
        let forwarder = Forwarder()
        forwarder.start(numbers, to: target)
        fromAnotherThread {
            for value in 0..<5 { numbers.send(value) }
        }
        await waitForPendingDeliveries()
        await waitForPendingDeliveries()
        #expect(forwarder.checked == [0, 1, 2, 3, 4])
        #expect(await target.entries == ["0", "2", "4"])
    }

    @Test("An actor observer's chain runs its stages on the actor, then hops to the main actor")
    @MainActor
    func actorObserverHopsToTheMainActor() async {
        let numbers = Messenger<Int>()
        let log = MainActorLog()
        let sampler = Sampler()
        await sampler.start(numbers, log: log)
        fromAnotherThread {
            for value in 1...3 { numbers.send(value) }
        }
        await waitForPendingDeliveries()
        await waitForPendingDeliveries()
        #expect(await sampler.sampled == [1, 2, 3])
        #expect(log.entries == ["10", "20", "30"])
    }

    @Test("An actor observer's chain that hops to its own actor runs the rest before send returns")
    func hopToTheObserversOwnActorIsImmediate() async {
        let numbers = Messenger<Int>()
        let sampler = Sampler()
        await sampler.startSameActorHop(numbers)
        #expect(await sampler.sendHere(1, on: numbers) == [2])
        #expect(await sampler.sendHere(2, on: numbers) == [2, 3])
    }

    @Test("An actor observer whose chain hops is freed when the last outside reference goes")
    func actorObserverWithAHopIsFreed() async {
        let numbers = Messenger<Int>()
        weak var released: Sampler?
        do {
            let sampler = Sampler()
            released = sampler
            await sampler.startSameActorHop(numbers)
            await sampler.startWithoutCaptures(numbers, log: MainActorLog())
        }
        #expect(released == nil)
        numbers.send(1)  // nobody is left to receive it
        #expect(numbers.observationCount == 0)
    }
}
