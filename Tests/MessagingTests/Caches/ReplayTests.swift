import Dispatch
import Foundation
import Messaging
import Testing

/// A cache of the user's own, whose state the library cannot read under its messenger's lock.
private final class Thermometer: ObservableCache, Sendable {
    let messenger = Messenger<Int>()
    let reading = Locked(20)
    var latestMessage: Int { reading.value }
}

@Suite("Caches: opt-in replay of the latest message")
struct ReplayTests {
    @Test("without replay, an observation starts with nothing; with it, with the latest message")
    func replayIsOptIn() {
        let theme = Var("light")
        let plain = Locked<[String]>([])
        let replayed = Locked<[String]>([])
        let first = theme.subscribe(replayingLatest: false) { update in plain.withLock { $0.append(update.new) } }
        let second = theme.subscribe(replayingLatest: true) { update in replayed.withLock { $0.append(update.new) } }
        #expect(plain.value.isEmpty)
        #expect(replayed.value == ["light"])
        theme.value = "dark"
        #expect(plain.value == ["dark"])
        #expect(replayed.value == ["light", "dark"])
        withExtendedLifetime((first, second)) {}
    }

    @Test("an observer's replay comes first, then every change")
    func observerReplay() {
        let count = Var(3)
        let spy = Spy("spy")
        let received = Locked<[Int]>([])
        spy.observe(count, replayingLatest: true) { update in received.withLock { $0.append(update.new) } }
        count.value = 4
        count.value = 5
        #expect(received.value == [3, 4, 5])
        #expect(spy.isObserving(count))
    }

    @Test("a replay asked for during a delivery comes after it, before later messages, to the new observation only")
    func replayDuringDelivery() {
        let count = Var(0)
        let log = EventLog()
        let tokens = Locked<[ObservationToken]>([])
        let first = count.subscribe { update in
            log.append("first \(update.new)")
            guard update.new == 1 else { return }
            let late = count.subscribe(replayingLatest: true) { update in log.append("late \(update.new)") }
            tokens.withLock { $0.append(late) }
            count.value = 2  // queued behind this delivery
        }
        count.value = 1
        #expect(log.entries == ["first 1", "late 1", "first 2", "late 2"])
        withExtendedLifetime((first, tokens)) {}
    }

    @Test("a replay queued for an observation that ends first is not delivered")
    func replayToEndedObservation() {
        let count = Var(0)
        let log = EventLog()
        let first = count.subscribe { update in
            log.append("first \(update.new)")
            guard update.new == 1 else { return }
            let late = count.subscribe(replayingLatest: true) { update in log.append("late \(update.new)") }
            late.stopObserving()
        }
        count.value = 1
        #expect(log.entries == ["first 1"])
        withExtendedLifetime(first) {}
    }

    @Test("a replayed observation of an unobserved transform starts the transform's own observation")
    func replayStartsTransform() {
        let count = Var(1)
        let doubled = count.map { $0.new * 2 }
        let received = Locked<[Int]>([])
        let token = doubled.subscribe(replayingLatest: true) { value in received.withLock { $0.append(value) } }
        count.value = 2
        count.value = 3
        #expect(received.value == [2, 4, 6])
        #expect(count.messenger.observationCount == 1)
        token.stopObserving()
        #expect(count.messenger.observationCount == 0)
    }

    @Test("a combination observed with replay by a main-actor observer follows its sources")
    @MainActor
    func replayOfCombination() {
        let filter = Var("all")
        let open = Var(2)
        let observer = MainActorToken()
        var lines: [String] = []
        observer.observe(combineLatest(filter, open).map { "\($0.0.new) \($0.1.new)" }, replayingLatest: true) {
            lines.append($0)
        }
        open.set(3, as: observer)
        filter.set("open", as: observer)
        #expect(lines == ["all 2", "all 3", "open 3"])
    }

    @Test("a cache of the user's own replays its latestMessage")
    func customCacheReplay() {
        let thermometer = Thermometer()
        thermometer.reading.withLock { $0 = 22 }
        let received = Locked<[Int]>([])
        let token = thermometer.subscribe(replayingLatest: true) { reading in received.withLock { $0.append(reading) } }
        thermometer.send(23)
        #expect(received.value == [22, 23])
        withExtendedLifetime(token) {}
    }

    @MainActor
    @Test("a main-actor observer gets the replay on the main actor before observe returns")
    func mainActorReplay() {
        let name = Var("Ada")
        let observer = MainActorToken()
        var received: [String] = []
        observer.observe(name, replayingLatest: true) { update in
            MainActor.assertIsolated()
            received.append(update.new)
        }
        #expect(received == ["Ada"])
        name.set("Grace", as: observer)
        #expect(received == ["Ada", "Grace"])
    }

    @Test("an actor observer gets the replay on its actor before observe returns")
    func actorReplay() async {
        actor Counter: ActorObserver {
            let receiver = Receiver()
            var seen: [Int] = []
            func start(_ count: Var<Int>) -> [Int] {
                observe(count, replayingLatest: true) { update in
                    self.assertIsolated()
                    self.seen.append(update.new)
                }
                return seen
            }
        }
        let count = Var(9)
        let counter = Counter()
        #expect(await counter.start(count) == [9])
    }

    @MainActor
    @Test("a main-actor observer gets the replay before observe returns while another thread delivers on the variable")
    func mainActorReplayDuringAnotherDelivery() async {
        let name = Var("Ada")
        let held = HeldDelivery(on: name)
        held.start { name.value = "Grace" }
        let observer = MainActorToken()
        var received: [String] = []
        observer.observe(name, replayingLatest: true) { update in
            MainActor.assertIsolated()
            received.append(update.new)
        }
        // The replay is the observation's own first message: it does not wait for that delivery.
        #expect(received == ["Grace"])
        name.value = "Hopper"  // queued behind the held delivery
        #expect(held.release())
        #expect(await eventually { received.count == 2 })
        #expect(received == ["Grace", "Hopper"])
        withExtendedLifetime(held) {}
    }

    @Test("an actor observer gets the replay before observe returns while another thread delivers on the variable")
    func actorReplayDuringAnotherDelivery() async {
        actor Counter: ActorObserver {
            let receiver = Receiver()
            var seen: [Int] = []
            func start(_ count: Var<Int>) -> [Int] {
                observe(count, replayingLatest: true) { update in
                    self.assertIsolated()
                    self.seen.append(update.new)
                }
                return seen
            }
            func waitFor(_ count: Int) async -> [Int] {
                _ = await eventually { self.seen.count >= count }
                return seen
            }
        }
        let count = Var(1)
        let held = HeldDelivery(on: count)
        held.start { count.value = 2 }
        let counter = Counter()
        #expect(await counter.start(count) == [2])
        count.value = 3  // queued behind the held delivery
        #expect(held.release())
        #expect(await counter.waitFor(2) == [2, 3])
        withExtendedLifetime(held) {}
    }

    @Test("replay and subscription are one atomic step: no change is missed or received twice, under threads")
    func replayIsAtomic() {
        let count = Var(0)
        // A slow observer keeps deliveries running, so that replays are also queued behind them.
        let slow = count.subscribe { _ in
            for _ in 0..<50 { blackHole() }
        }
        let last = 3_000
        let failures = Locked<[String]>([])
        let checkedRounds = Locked(0)
        let finished = runOnThreads(4) { thread in
            if thread == 0 {
                for value in 1...last { count.value = value }
                return
            }
            var round = 0
            while count.value < last {
                round += 1
                let seen = Locked<[Int]>([])
                let token = count.subscribe(replayingLatest: true) { update in seen.withLock { $0.append(update.new) } }
                for _ in 0..<(round % 7) * 20 { blackHole() }
                token.stopObserving()
                let values = seen.value
                // A replay queued behind another thread's delivery may not have come before the
                // token stopped: an ended observation receives nothing, the replay included.
                guard let first = values.first else { continue }
                checkedRounds.withLock { $0 += 1 }
                if values != Array(first..<(first + values.count)) {
                    failures.withLock { $0.append("thread \(thread) round \(round): \(values)") }
                }
            }
        }
        #expect(finished)
        #expect(failures.value.isEmpty, "\(failures.value.count) failures, first: \(failures.value.prefix(3))")
        // Under load the writer may finish before many rounds got their replay; one is enough to
        // check, and the others above found nothing wrong.
        #expect(checkedRounds.value > 0)
        withExtendedLifetime(slow) {}
    }
}

/// Holds the next delivery on a variable open, on a thread of its own, until released.
private final class HeldDelivery<Value: Equatable & Sendable>: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()
    private let token: ObservationToken

    init(on variable: Var<Value>) {
        let entered = entered
        let gate = gate
        let isHeld = Locked(false)
        token = variable.subscribe { _ in
            let holds = isHeld.withLock { held in
                defer { held = true }
                return !held
            }
            guard holds else { return }
            entered.signal()
            gate.wait()
        }
    }

    /// Runs `change` on a new thread and returns once its delivery is held open there.
    func start(_ change: @escaping @Sendable () -> Void) {
        finished.enter()
        let finished = finished
        Thread {
            change()
            finished.leave()
        }.start()
        entered.wait()
    }

    /// Lets the held delivery go on, and waits for it and what was queued behind it.
    ///
    /// - Returns: Whether the thread finished in time.
    func release() -> Bool {
        gate.signal()
        return finished.wait(timeout: .now() + 120) == .success
    }
}

@inline(never)
private func blackHole() {
    _ = ProcessInfo.processInfo.processorCount
}
