import Dispatch
import Foundation
import Testing

@testable import Messaging

/// Main-actor state that the hopped stages of the tests write to.
@MainActor final class MainActorLog {
    private(set) var entries: [String] = []

    func append(_ entry: String) {
        MainActor.assertIsolated()
        entries.append(entry)
    }
}

/// An actor that the tests hop to.
actor HopTarget {
    private(set) var entries: [String] = []

    func append(_ entry: String) {
        entries.append(entry)
    }
}

/// A serial executor of its own: runs its jobs on a dispatch queue, one at a time.
final class QueueExecutor: SerialExecutor {
    let queue = DispatchQueue(label: "QueueExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// An actor whose jobs run on a ``QueueExecutor``: how a chain hops to an executor of its own.
actor QueueBoundWorker {
    let executor = QueueExecutor()
    private(set) var entries: [String] = []

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func append(_ entry: String) {
        entries.append(entry)
    }
}

/// Something a chain's closures capture, to see when the chain is released.
final class Witness: Sendable {}

/// Sends `body` from a new thread and waits for it: the caller's actor stays busy meanwhile.
func fromAnotherThread(_ body: @escaping @Sendable () -> Void) {
    #expect(runOnThreads(1) { _ in body() })
}

@Suite("Chain hops: the rest of a chain on the main actor or an actor, in order, never after the end")
struct ChainHopTests {
    @Test("After onMainActor(), the stages and the handler run on the main actor")
    @MainActor
    func mainActorHopRunsTheRestOnTheMainActor() async {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        let log = MainActorLog()
        observer.observe(numbers).map { $0 + 1 }.onMainActor().map { value in
            MainActor.assertIsolated()
            return "\(value)"
        }.filter { text in
            MainActor.assertIsolated()
            return text != "3"
        }.receive { text in
            log.append(text)
        }
        fromAnotherThread {
            for value in 0..<4 { numbers.send(value) }
        }
        await waitForPendingDeliveries()
        #expect(log.entries == ["1", "2", "4"])
        withExtendedLifetime(observer) {}
    }

    @Test("A message delivered on the main actor goes through the hop at once")
    @MainActor
    func mainActorHopRunsAtOnceOnTheMainActor() {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        let log = MainActorLog()
        observer.observe(numbers).onMainActor().receive { log.append("\($0)") }
        numbers.send(1)
        #expect(log.entries == ["1"])
        withExtendedLifetime(observer) {}
    }

    @Test("After on(actor), the stages and the handler run on the actor, which they get isolated")
    func actorHopRunsTheRestOnTheActor() async {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        let target = HopTarget()
        observer.observe(numbers).filter { $0 % 2 == 0 }.on(target).map { target, value in
            target.assertIsolated()
            return value * 10
        }.receive { target, value in
            target.assertIsolated()
            target.append("\(value)")
        }
        fromAnotherThread {
            for value in 0..<5 { numbers.send(value) }
        }
        await waitForPendingDeliveries()
        #expect(await target.entries == ["0", "20", "40"])
        withExtendedLifetime(observer) {}
    }

    @Test("A chain hops again: to an actor, then back to the main actor")
    func chainHopsTwice() async {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        let target = HopTarget()
        let log = MainActorLog()
        observer.observe(numbers).on(target).map { target, value in
            target.assertIsolated()
            return value + 100
        }.onMainActor().map { value in
            MainActor.assertIsolated()
            return "\(value)"
        }.on(target).receive { target, text in
            target.assertIsolated()
            target.append(text)
        }
        observer.observe(numbers).on(target).onMainActor().receive { value in log.append("\(value)") }
        fromAnotherThread {
            for value in 1...3 { numbers.send(value) }
        }
        await waitForPendingDeliveries()
        #expect(await target.entries == ["101", "102", "103"])
        #expect(await log.entries == ["1", "2", "3"])
        withExtendedLifetime(observer) {}
    }

    @Test("A hop to an actor with an executor of its own runs the rest on that executor")
    func hopToAnActorWithACustomExecutor() async {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        let worker = QueueBoundWorker()
        observer.observe(numbers).on(worker).receive { worker, value in
            worker.assertIsolated()
            worker.append("\(value)")
        }
        fromAnotherThread {
            for value in 1...3 { numbers.send(value) }
        }
        await waitForPendingDeliveries()
        #expect(await worker.entries == ["1", "2", "3"])
        withExtendedLifetime(observer) {}
    }

    @Test(
        "Messages that one thread sends on two messengers reach the hop target in send order",
        arguments: [false, true]
    )
    func causalOrderAcrossMessengersThroughHops(toActor: Bool) async {
        // Each thread has its own two messengers (a message queued behind another thread's
        // delivery on its messenger reaches the actor only when that delivery gets to it), and a
        // third messenger that all of them share, observed once.
        let threads = 4
        let rounds = 200
        let pairs = (0..<threads).map { _ in (Messenger<String>(), Messenger<String>()) }
        let shared = Messenger<String>()
        let observers = (0..<(threads * 2 + 1)).map { _ in FreeObserver() }
        let log = MainActorLog()
        let target = HopTarget()
        let messengers = pairs.flatMap { [$0.0, $0.1] } + [shared]
        for (observer, messenger) in zip(observers, messengers) {
            let chain = observer.observe(messenger).filter { !$0.isEmpty }
            if toActor {
                chain.on(target).receive { target, text in target.append(text) }
            } else {
                chain.onMainActor().receive { text in log.append(text) }
            }
        }
        #expect(
            runOnThreads(threads) { thread in
                for round in 0..<rounds {
                    pairs[thread].0.send("\(thread) \(round) a")
                    pairs[thread].1.send("\(thread) \(round) b")
                    shared.send("shared \(thread) \(round)")
                }
            })
        await waitForPendingDeliveries()
        let entries = toActor ? await target.entries : await log.entries
        #expect(entries.count == threads * rounds * 3)
        for thread in 0..<threads {
            let sent = (0..<rounds).flatMap { ["\(thread) \($0) a", "\(thread) \($0) b"] }
            #expect(entries.filter { $0.hasPrefix("\(thread) ") } == sent)
            let sentShared = (0..<rounds).map { "shared \(thread) \($0)" }
            #expect(entries.filter { $0.hasPrefix("shared \(thread) ") } == sentShared)
        }
        withExtendedLifetime(observers) {}
    }

    @Test("A hop and an actor observer's handler share the actor's one queue, in send order")
    @MainActor
    func hopAndMainActorObserverShareOneQueue() async {
        let first = Messenger<Int>()
        let second = Messenger<Int>()
        let observer = FreeObserver()
        let log = MainActorLog()
        let token = MainActorToken()
        observer.observe(first).onMainActor().receive { log.append("hop \($0)") }
        token.observe(second) { log.append("observer \($0)") }
        fromAnotherThread {
            for value in 0..<50 {
                first.send(value)
                second.send(value)
            }
        }
        await waitForPendingDeliveries()
        #expect(log.entries == (0..<50).flatMap { ["hop \($0)", "observer \($0)"] })
        withExtendedLifetime(observer) {}
    }

    @Test("A message on its way to the main actor is dropped when the observation ends first")
    @MainActor
    func stopDuringAMainActorHopDeliversNothing() async {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        let log = MainActorLog()
        observer.observe(numbers).onMainActor().receive { log.append("\($0)") }
        fromAnotherThread { numbers.send(1) }
        await waitForPendingDeliveries()
        #expect(log.entries == ["1"])
        // The main actor is busy here: the message is queued for it, not yet delivered.
        fromAnotherThread { numbers.send(2) }
        observer.stopObserving(numbers)
        await waitForPendingDeliveries()
        #expect(log.entries == ["1"])
        withExtendedLifetime(observer) {}
    }

    /// An actor that stops a chain that hops to it while a message is on its way there.
    actor Stopper {
        private(set) var entries: [Int] = []
        let observer = FreeObserver()

        func start(_ numbers: Messenger<Int>) {
            observer.observe(numbers).on(self).receive { stopper, value in stopper.entries.append(value) }
        }

        /// Sends while the actor is busy in here, so the message waits in its queue, then stops.
        func sendAndStop(_ value: Int, on numbers: Messenger<Int>) {
            numbers.send(value)
            observer.stopObserving(numbers)
        }
    }

    @Test("A message on its way to an actor is dropped when the observation ends first")
    func stopDuringAnActorHopDeliversNothing() async {
        let numbers = Messenger<Int>()
        let stopper = Stopper()
        await stopper.start(numbers)
        numbers.send(1)
        await waitForPendingDeliveries()
        #expect(await stopper.entries == [1])
        await stopper.sendAndStop(2, on: numbers)
        await waitForPendingDeliveries()
        #expect(await stopper.entries == [1])
    }

    @Test("An ended observation releases its hopped chain, even with a message on its way")
    @MainActor
    func anEndedObservationReleasesItsChain() async {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        let log = MainActorLog()
        weak var weakWitness: Witness?
        do {
            let witness = Witness()
            weakWitness = witness
            observer.observe(numbers).map { value in
                withExtendedLifetime(witness) { value }
            }.onMainActor().receive { value in
                withExtendedLifetime(witness) { log.append("\(value)") }
            }
        }
        #expect(weakWitness != nil)
        fromAnotherThread { numbers.send(1) }
        observer.stopObserving()
        await waitForPendingDeliveries()
        #expect(weakWitness == nil)
        #expect(log.entries.isEmpty)
        withExtendedLifetime(observer) {}
    }

    @Test("A chain does not keep the actor it hops to alive")
    func aHopHoldsItsActorWeakly() async {
        let numbers = Messenger<Int>()
        let observer = FreeObserver()
        weak var weakTarget: HopTarget?
        do {
            let target = HopTarget()
            weakTarget = target
            observer.observe(numbers).on(target).receive { target, value in target.append("\(value)") }
            numbers.send(1)
            await waitForPendingDeliveries()
            #expect(await target.entries == ["1"])
        }
        // A drain task may still hold the actor for a moment after it ran.
        #expect(await eventually { weakTarget == nil })
        numbers.send(2)  // dropped: the actor is gone
        await waitForPendingDeliveries()
        #expect(numbers.observationCount == 1)
        withExtendedLifetime(observer) {}
    }
}
