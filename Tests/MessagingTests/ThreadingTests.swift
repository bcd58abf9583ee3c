import Dispatch
import Foundation
import Messaging
import Testing

@Suite("Threading: concurrent sends, observations, stops and deallocations")
struct ThreadingTests {
    /// Message numbers: sender `thread` sends `thread * stride + index`.
    static let stride = 1_000_000

    /// What one short-lived observer received, and when its observation was ended.
    ///
    /// The handler calls `handlerStarted` first thing; the thread that ends the observation calls
    /// `ended(progress:)` right after the ending call returned (or the observer was released).
    final class Watch: @unchecked Sendable {  // every stored `var` is only touched while holding `_lock`
        private let _lock = NSLock()
        private var _received: [Int] = []
        private var _progressAtEnd: Int?
        private var _late: [Int] = []
        /// The sentinel's progress just before `observe` was called.
        let progressAtStart: Int

        init(progressAtStart: Int) {
            self.progressAtStart = progressAtStart
        }

        func handlerStarted(_ message: Int) {
            _lock.withLock {
                if _progressAtEnd != nil { _late.append(message) }
                _received.append(message)
            }
        }

        func ended(progress: Int) {
            _lock.withLock { _progressAtEnd = progress }
        }

        var snapshot: (received: [Int], progressAtEnd: Int?, late: [Int]) {
            _lock.withLock { (_received, _progressAtEnd, _late) }
        }
    }

    /// The ways a short-lived observer's observation ends, from the observer's own thread.
    enum Ending: CaseIterable {
        case stopObserving, stopObservingAll, stopBeingObservedBy, unsubscribe, deallocation
    }

    @Test("concurrent senders: every observer gets every message once, in each thread's order, in one global order")
    func concurrentSendersShareOneOrder() {
        let messenger = Messenger<Int>()
        let observers = (0..<3).map { Spy("o\($0)") }
        let logs = observers.map { _ in Locked([Int]()) }
        for (observer, log) in zip(observers, logs) {
            observer.observe(messenger) { message in log.withLock { $0.append(message) } }
        }
        let threads = 4
        let perThread = 300

        let finished = runOnThreads(threads) { thread in
            for index in 0..<perThread {
                messenger.send(thread * Self.stride + index)
            }
        }

        #expect(finished)
        #expect(waitUntilDelivered(messenger))
        let sent = Set((0..<threads).flatMap { thread in (0..<perThread).map { thread * Self.stride + $0 } })
        let received = logs.map(\.value)
        for log in received {
            #expect(log.count == threads * perThread, "every message exactly once")
            #expect(Set(log) == sent)
            for thread in 0..<threads {
                let fromThread = log.filter { $0 / Self.stride == thread }
                #expect(fromThread == (0..<perThread).map { thread * Self.stride + $0 }, "thread \(thread)'s order")
            }
        }
        #expect(received.allSatisfy { $0 == received[0] }, "all observers saw the same global order")
        withExtendedLifetime(observers) {}
    }

    @Test("no handler ever runs twice at once, even when several threads send and handlers send too")
    func handlersNeverOverlap() {
        let messenger = Messenger<Int>()
        let observers = (0..<3).map { Spy("o\($0)") }
        let states = observers.map { _ in Locked((inside: false, overlaps: 0, calls: 0)) }
        for (index, (observer, state)) in zip(observers, states).enumerated() {
            let sendsFollowUps = index == 0
            observer.observe(messenger) { message in
                state.withLock {
                    if $0.inside { $0.overlaps += 1 }
                    $0.inside = true
                    $0.calls += 1
                }
                usleep(5)
                // A re-entrant send for every tenth message from the first observer.
                if sendsFollowUps, message >= 0, message % 10 == 0 { messenger.send(-1) }
                state.withLock { $0.inside = false }
            }
        }
        let threads = 4
        let perThread = 150

        let finished = runOnThreads(threads) { thread in
            for index in 0..<perThread { messenger.send(thread * Self.stride + index) }
        }

        #expect(finished)
        #expect(waitUntilDelivered(messenger))
        let followUps = threads * (perThread / 10)
        for state in states {
            #expect(state.value.overlaps == 0)
            #expect(state.value.calls == threads * perThread + followUps)
        }
        withExtendedLifetime(observers) {}
    }

    @Test(
        "observations started and ended on other threads during sends: a contiguous run of messages, none after the end"
    )
    func concurrentObserveAndEndWhileSending() {
        let messenger = Messenger<Int>()
        // The sentinel observes first and never stops: its log is the order of delivery.
        let sentinel = Spy("sentinel")
        let order = Locked([Int]())
        sentinel.observe(messenger) { message in order.withLock { $0.append(message) } }
        let watches = Locked([Watch]())
        let observersDone = Locked(0)
        let senders = 2
        let observerThreads = 2
        let rounds = 25

        let finished = runOnThreads(senders + observerThreads) { thread in
            if thread < senders {
                var index = 0
                while observersDone.value < observerThreads, index < 50_000 {
                    messenger.send(thread * Self.stride + index)
                    index += 1
                    usleep(10)  // keeps the queue short, so that new observations soon get messages
                }
            } else {
                for round in 0..<rounds {
                    let ending = Ending.allCases[(round + thread) % Ending.allCases.count]
                    watches.withLock { $0.append(Self.observeBriefly(messenger, order: order, ending: ending)) }
                }
                observersDone.withLock { $0 += 1 }
            }
        }

        #expect(finished)
        let delivered = order.value
        let position = Dictionary(uniqueKeysWithValues: delivered.enumerated().map { ($1, $0) })
        let all = watches.value
        #expect(all.count == observerThreads * rounds)
        var problems: [String] = []
        for (number, watch) in all.enumerated() {
            let (received, progressAtEnd, late) = watch.snapshot
            guard let progressAtEnd else {
                problems.append("observation \(number) was never ended")
                continue
            }
            // A handler call may start after the end only if its message's delivery had started
            // before the end returned (the check and the call are not one atomic step): at most
            // one, and for a message the sentinel had already received by then.
            if late.count > 1 {
                problems.append("observation \(number): \(late.count) handler calls started after the end")
            }
            let afterTheEnd = late.filter { (position[$0] ?? .max) >= progressAtEnd }
            if let message = afterTheEnd.first {
                problems.append(
                    "observation \(number): \(afterTheEnd.count) messages reached it after the end, first \(message)"
                )
            }
            guard let first = received.first, let start = position[first] else { continue }
            if start < watch.progressAtStart {
                problems.append("observation \(number): received \(first), sent before observing started")
            }
            if received != Array(delivered[start..<min(delivered.count, start + received.count)]) {
                problems.append("observation \(number): not a contiguous run of the delivery order")
            }
        }
        let problemCount = problems.count
        #expect(problemCount == 0, "starting with: \(problems.prefix(5))")
        #expect(messenger.observationCount == 1)
        #expect(messenger.observers.count == 1)
        withExtendedLifetime(sentinel) {}
    }

    @Test(
        "an observation ended while deliveries run back to back stops at one point: no message is skipped before it",
        arguments: 0..<2
    )
    func endTakesEffectAtOnePoint(_ attempt: Int) {
        // The end of an observation must fall between two messages: everything before it is
        // delivered, nothing after. A thread that ends an observation and is paused halfway
        // through must not let later deliveries reach the observation after earlier ones skipped
        // it. The sender never waits, so deliveries follow each other without a pause, and the
        // sentinel's handler is slow, so that a stopping thread is often caught mid-step.
        let messenger = Messenger<Int>()
        let sentinel = messenger.subscribe { _ in
            for _ in 0..<50 { spin() }
        }
        let last = 3_000
        let sent = Locked(0)
        let failures = Locked<[String]>([])
        let finished = runOnThreads(4) { thread in
            if thread == 0 {
                for message in 1...last {
                    messenger.send(message)
                    sent.withLock { $0 = message }
                }
                return
            }
            var round = 0
            while sent.value < last {
                round += 1
                let received = Locked<[Int]>([])
                let token = messenger.subscribe { message in received.withLock { $0.append(message) } }
                for _ in 0..<(round % 7) * 20 { spin() }
                token.stopObserving()
                let run = received.value
                guard let first = run.first else { continue }
                if run != Array(first..<(first + run.count)) {
                    failures.withLock { $0.append("thread \(thread) round \(round): \(run)") }
                }
            }
        }
        #expect(finished)
        #expect(failures.value.isEmpty, "\(failures.value.count) broken runs, first: \(failures.value.prefix(3))")
        withExtendedLifetime(sentinel) {}
    }

    /// Observes `messenger` with a new observer until it received a few messages, then ends the
    /// observation in the given way and records the sentinel's progress once that has returned.
    static func observeBriefly(_ messenger: Messenger<Int>, order: Locked<[Int]>, ending: Ending) -> Watch {
        let watch = Watch(progressAtStart: order.value.count)
        do {
            let observer = Spy("short-lived")
            observer.observe(messenger) { message in watch.handlerStarted(message) }
            let deadline = DispatchTime.now() + .milliseconds(20)
            while watch.snapshot.received.count < 3, DispatchTime.now() < deadline {
                sched_yield()
            }
            switch ending {
            case .stopObserving: observer.stopObserving(messenger)
            case .stopObservingAll: observer.stopObserving()
            case .stopBeingObservedBy: messenger.stopBeingObserved(by: observer)
            case .unsubscribe: messenger.unsubscribe(observer)
            case .deallocation: break  // released at the end of this scope
            }
        }
        watch.ended(progress: order.value.count)
        return watch
    }

    @Test("racing observe and stopObserving of one pair leaves both sides consistent")
    func racingObserveAndStopOfOnePair() {
        let messenger = Messenger<Int>()
        let dog = Spy("dog")
        let received = Locked(0)

        let finished = runOnThreads(3) { thread in
            for index in 0..<300 {
                switch thread {
                case 0: dog.observe(messenger) { _ in received.withLock { $0 += 1 } }
                case 1: dog.stopObserving(messenger)
                default: messenger.send(index)
                }
            }
        }

        #expect(finished)
        let observing = dog.isObserving(messenger)
        #expect(dog.amISubscribed(messenger) == observing)
        #expect(messenger.amISubscribed(dog) == observing)
        #expect((messenger.observationCount > 0) == observing)
        dog.stopObserving(messenger)
        #expect(messenger.observationCount == 0)
        #expect(!messenger.amISubscribed(dog) && !dog.amISubscribed(messenger))
        #expect(dog.subscriptions.isEmpty && messenger.observers.isEmpty)
    }

    /// A message that travels back and forth between two messengers.
    struct Hop: Hashable, Sendable {
        let id: Int
        let hop: Int
    }

    @Test("no deadlock when handlers send, subscribe and unsubscribe while other threads do the same")
    func noDeadlockWithBusyHandlers() {
        let first = Messenger<Hop>()
        let second = Messenger<Hop>()
        let one = Spy("one")
        let two = Spy("two")
        let gotFirst = Locked([Hop]())
        let gotSecond = Locked([Hop]())
        // Each top-level message bounces: hop 0 on one messenger, hop 1 on the other, hop 2 back.
        one.observe(first) { hop in
            gotFirst.withLock { $0.append(hop) }
            let token = second.subscribe { _ in }
            if hop.hop < 2 { second.send(Hop(id: hop.id, hop: hop.hop + 1)) }
            token.stopObserving()
        }
        two.observe(second) { hop in
            gotSecond.withLock { $0.append(hop) }
            let temporary = Spy("temporary")
            temporary.observe(first) { _ in }
            if hop.hop < 2 { first.send(Hop(id: hop.id, hop: hop.hop + 1)) }
            first.stopBeingObserved(by: temporary)
        }
        let threads = 4
        let perThread = 100

        let finished = runOnThreads(threads) { thread in
            for index in 0..<perThread {
                let id = thread * Self.stride + index
                let bystander = Spy("bystander")
                bystander.observe(index.isMultiple(of: 2) ? second : first) { _ in }
                let token = first.subscribe { _ in }
                if index.isMultiple(of: 2) {
                    first.send(Hop(id: id, hop: 0))
                } else {
                    second.send(Hop(id: id, hop: 0))
                }
                bystander.stopObserving()
                withExtendedLifetime(token) {}
            }
        }

        #expect(finished, "deadlock: the threads did not finish")
        #expect(waitUntilDelivered(first, second))
        var expectedFirst: [Hop] = []
        var expectedSecond: [Hop] = []
        for thread in 0..<threads {
            for index in 0..<perThread {
                let id = thread * Self.stride + index
                let (origin, other) = index.isMultiple(of: 2) ? (0, 1) : (1, 0)
                for (messenger, hop) in [(origin, 0), (other, 1), (origin, 2)] {
                    if messenger == 0 {
                        expectedFirst.append(Hop(id: id, hop: hop))
                    } else {
                        expectedSecond.append(Hop(id: id, hop: hop))
                    }
                }
            }
        }
        #expect(gotFirst.value.count == expectedFirst.count)
        #expect(Set(gotFirst.value) == Set(expectedFirst))
        #expect(gotSecond.value.count == expectedSecond.count)
        #expect(Set(gotSecond.value) == Set(expectedSecond))
        #expect(first.observationCount == 1)
        #expect(second.observationCount == 1)
        withExtendedLifetime((one, two)) {}
    }

    @Test("observeOnce receives exactly one message when several threads send at once, then dies")
    func observeOnceUnderConcurrentSends() {
        for _ in 0..<20 {
            let messenger = Messenger<Int>()
            let received = Locked([Int]())
            weak let weakOnce = observeOnce(messenger) { message in received.withLock { $0.append(message) } }

            let finished = runOnThreads(4) { thread in
                for index in 0..<5 { messenger.send(thread * Self.stride + index) }
            }

            #expect(finished)
            #expect(received.value.count == 1)
            #expect(weakOnce == nil)
            #expect(messenger.observationCount == 0)
        }
    }

    @Test("observers released on other threads while messages are sent: no crash, and nothing of them remains")
    func observersReleasedWhileSending() {
        let messenger = Messenger<Int>()
        let sentinel = Spy("sentinel")
        let count = Locked(0)
        sentinel.observe(messenger) { _ in count.withLock { $0 += 1 } }

        let finished = runOnThreads(4) { thread in
            for index in 0..<200 {
                if thread < 2 {
                    messenger.send(index)
                } else {
                    let observer = Spy("short-lived")
                    let probe = Probe()
                    observer.observe(messenger) { _ in withExtendedLifetime(probe) {} }
                    if index.isMultiple(of: 3) { observer.observe(messenger) { _ in } }
                }
            }
        }

        #expect(finished)
        // A send past its budget of other threads' messages hands the rest on: wait for it.
        #expect(waitUntilDelivered(messenger))
        #expect(count.value == 400)
        #expect(messenger.observationCount == 1)
        #expect(messenger.observers.count == 1)
        withExtendedLifetime(sentinel) {}
    }
}

/// A call the optimizer cannot remove, to make a handler or a loop take a little time.
@inline(never)
private func spin() {
    _ = ProcessInfo.processInfo.processorCount
}
