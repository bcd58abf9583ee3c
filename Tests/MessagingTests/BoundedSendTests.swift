import Foundation
import Testing

@testable import Messaging

/// A send delivers its own message and every message its own thread queued meanwhile, but only a
/// budget of other threads' messages, then hands the delivery on: no send is held for as long as
/// other threads keep sending.
@Suite("Bounded sends: no send is held by other threads' messages")
struct BoundedSendTests {
    @Test("a send returns promptly while another thread never stops sending, and nothing is lost or reordered")
    func sendIsBoundedUnderANeverEndingProducer() {
        let messenger = Messenger<Int>()
        let received = Locked([Int]())
        // The handler is slow on the caller's thread only: once that thread delivers the
        // producer's messages, they queue up faster than it can deliver them.
        let token = messenger.subscribe { value in
            if Thread.current.name == "caller" {
                let clock = ContinuousClock()
                let end = clock.now + .microseconds(100)
                while clock.now < end {}
            }
            received.withLock { $0.append(value) }
        }
        let stop = Locked(false)
        let longest = Locked(Duration.zero)
        let produced = Locked(0)
        let calls = Locked(0)
        let clock = ContinuousClock()
        let finished = runOnThreads(3) { thread in
            switch thread {
            case 0:
                // The producer: positive numbers, in order, until told to stop.
                var next = 1
                while !stop.value, next <= 200_000 {
                    let started = clock.now
                    messenger.send(next)
                    let took = clock.now - started
                    longest.withLock { $0 = max($0, took) }
                    next += 1
                }
                produced.withLock { $0 = next - 1 }
            case 1:
                Thread.current.name = "caller"
                while received.value.count < 10, !stop.value {}
                let end = clock.now + .seconds(2)
                var own = 0
                while clock.now < end, !stop.value {
                    own -= 1
                    let started = clock.now
                    messenger.send(own)
                    let took = clock.now - started
                    longest.withLock { $0 = max($0, took) }
                    calls.withLock { $0 += 1 }
                }
                stop.withLock { $0 = true }
            default:
                // A watchdog, so that a send that never returns by itself ends the test all the same.
                let end = clock.now + .seconds(8)
                while clock.now < end, !stop.value { Thread.sleep(forTimeInterval: 0.01) }
                stop.withLock { $0 = true }
            }
        }
        #expect(finished)
        #expect(calls.value > 1)
        // Each send delivers at most 64 of the other thread's messages before it hands the rest on.
        // Before the bound, whichever thread was delivering stayed inside one send for as long as
        // the other went on sending.
        #expect(longest.value < .seconds(3), "longest send: \(longest.value)")
        // Everything arrives, each once, in each thread's order, once the runner that the sends
        // handed on to has finished.
        #expect(waitUntilDelivered(messenger))
        let values = received.value
        #expect(values.filter { $0 > 0 } == Array(1...produced.value))
        let own = values.filter { $0 < 0 }
        #expect(own == Array(stride(from: -1, through: -calls.value, by: -1)))
        withExtendedLifetime(token) {}
    }

    @Test(
        "a combination's sends return promptly while another thread never stops changing a source, and keep every change in order"
    )
    func combinationSendIsBoundedUnderANeverEndingProducer() {
        let first = Messenger<Int>()
        let second = Messenger<Int>()
        let combined = combineLatest(first, second)
        let received = Locked([(Int, Int)]())
        // Slow on the caller's thread only: once that thread sends the combination's tuples, the
        // producer's tuples queue up faster than it can send them.
        let token = combined.subscribe { pair in
            if Thread.current.name == "caller" {
                let clock = ContinuousClock()
                let end = clock.now + .microseconds(100)
                while clock.now < end {}
            }
            received.withLock { $0.append(pair) }
        }
        second.send(0)
        first.send(0)
        let stop = Locked(false)
        let longest = Locked(Duration.zero)
        let produced = Locked(0)
        let calls = Locked(0)
        let clock = ContinuousClock()
        let finished = runOnThreads(3) { thread in
            switch thread {
            case 0:
                var next = 1
                while !stop.value, next <= 200_000 {
                    let started = clock.now
                    first.send(next)
                    let took = clock.now - started
                    longest.withLock { $0 = max($0, took) }
                    next += 1
                }
                produced.withLock { $0 = next - 1 }
            case 1:
                Thread.current.name = "caller"
                while received.value.count < 10, !stop.value {}
                let end = clock.now + .seconds(2)
                var own = 0
                while clock.now < end, !stop.value {
                    own -= 1
                    let started = clock.now
                    second.send(own)
                    let took = clock.now - started
                    longest.withLock { $0 = max($0, took) }
                    calls.withLock { $0 += 1 }
                }
                stop.withLock { $0 = true }
            default:
                let end = clock.now + .seconds(8)
                while clock.now < end, !stop.value { Thread.sleep(forTimeInterval: 0.01) }
                stop.withLock { $0 = true }
            }
        }
        #expect(finished)
        #expect(calls.value > 1)
        // Before the outbox's budget, whichever thread was sending tuples sent every tuple the
        // other made for as long as it went on: one of the producer's sends took the whole run.
        #expect(longest.value < .seconds(3), "longest send: \(longest.value)")
        #expect(waitUntil { received.value.count == produced.value + calls.value + 1 })
        // One tuple per change, in the order of the changes.
        let firsts = received.value.map(\.0)
        #expect(firsts == firsts.sorted())
        #expect(Set(firsts) == Set(0...produced.value))
        let seconds = received.value.map(\.1)
        #expect(seconds == seconds.sorted(by: >))
        #expect(Set(seconds) == Set(stride(from: 0, through: -calls.value, by: -1)))
        withExtendedLifetime(token) {}
    }

    @Test("a send delivers every message its own handlers send, however many, before it returns")
    func ownThreadMessagesAreNeverHandedOff() {
        let messenger = Messenger<Int>()
        let received = Locked([Int]())
        let token = messenger.subscribe { value in
            received.withLock { $0.append(value) }
            if value < 1_000 { messenger.send(value + 1) }
        }
        messenger.send(0)
        // Far past the budget of other threads' messages: these are this thread's own.
        #expect(received.value == Array(0...1_000))
        withExtendedLifetime(token) {}
    }

    @Test("waitForPendingDeliveries() waits for the deliveries that sends handed on")
    func waitingCoversHandedOnDeliveries() async {
        let messenger = Messenger<Int>()
        let received = Locked(0)
        let token = messenger.subscribe { _ in
            // Slow enough that the senders queue far more than one send's budget.
            let clock = ContinuousClock()
            let end = clock.now + .microseconds(50)
            while clock.now < end {}
            received.withLock { $0 += 1 }
        }
        let perThread = 2_000
        let done = Locked(0)
        for _ in 0..<2 {
            Thread {
                for value in 0..<perThread { messenger.send(value) }
                done.withLock { $0 += 1 }
            }.start()
        }
        while done.value < 2 { await Task.yield() }
        await waitForPendingDeliveries()
        #expect(received.value == 2 * perThread)
        withExtendedLifetime(token) {}
    }
}
