import Dispatch
import Foundation
import Testing

@testable import Messaging

@Suite("Standalone zip and scan")
struct ZipAndScanTests {
    @Test("zip pairs the n-th message of each source, with the author of the message that completes the pair")
    func zipPairsInOrder() {
        let numbers = Messenger<Int>()
        let letters = Messenger<String>()
        let zipped = numbers.zip(letters)
        let log = Locked<[String]>([])
        let alice = Spy("alice")
        let bob = Spy("bob")
        let observer = Spy("observer")
        observer.observe(zipped) { pair, author in
            log.withLock { $0.append("\(pair.0)\(pair.1) by \((author as? Spy)?.name ?? "?")") }
        }
        numbers.send(1, from: alice)
        numbers.send(2, from: alice)
        numbers.send(3, from: alice)
        #expect(log.value.isEmpty)  // nothing to pair with yet
        letters.send("a", from: bob)
        letters.send("b", from: bob)
        #expect(log.value == ["1a by bob", "2b by bob"])
        letters.send("c", from: bob)
        letters.send("d", from: bob)  // waits for a fourth number
        numbers.send(4, from: alice)
        #expect(log.value == ["1a by bob", "2b by bob", "3c by bob", "4d by alice"])
        withExtendedLifetime(observer) {}
    }

    @Test(
        "zip observes its sources only while observed, once each, and drops what waits when its last observation ends")
    func zipObservesOnlyWhileObserved() {
        let numbers = Messenger<Int>()
        let letters = Messenger<String>()
        let zipped = numbers.zip(letters)
        #expect(numbers.observationCount == 0)
        let log = Locked<[String]>([])
        var first: ObservationToken? = zipped.subscribe { pair in log.withLock { $0.append("\(pair.0)\(pair.1)") } }
        let second = zipped.subscribe { _ in }
        #expect(numbers.observationCount == 1)
        #expect(letters.observationCount == 1)
        numbers.send(1)
        numbers.send(2)
        first = nil
        second.stopObserving()
        #expect(numbers.observationCount == 0)
        #expect(letters.observationCount == 0)
        first = zipped.subscribe { pair in log.withLock { $0.append("\(pair.0)\(pair.1)") } }
        letters.send("a")
        numbers.send(3)
        #expect(log.value == ["3a"])  // 1 and 2 were dropped with the last observation
        withExtendedLifetime(first) {}
    }

    @Test("zip keeps itself and its sources alive while observed, and ends when a weakly held source dies")
    func zipLifetime() {
        var letters: Messenger<String>? = Messenger<String>()
        weak let weakLetters = letters
        let numbers = Messenger<Int>()
        var zipped: Zipped<Messenger<Int>, Weak<Messenger<String>>>? = numbers.zip(letters!.weak())
        weak let weakZipped = zipped
        let observer = Spy("observer")
        observer.observe(zipped!) { _ in }
        zipped = nil
        #expect(weakZipped != nil)
        #expect(numbers.observationCount == 1)
        letters = nil
        #expect(weakLetters == nil)
        // No pair can be made any more: the observation ends, and with it the zip and its
        // observation of the other source.
        #expect(weakZipped == nil)
        #expect(numbers.observationCount == 0)
        withExtendedLifetime(observer) {}
    }

    @Test("zip under 8 threads: every message paired once, each source's order kept, nothing left waiting")
    func zipUnderThreads() {
        let left = Messenger<Int>()
        let right = Messenger<Int>()
        let zipped = left.zip(right)
        let pairs = Locked<[(Int, Int)]>([])
        let token = zipped.subscribe { pair in pairs.withLock { $0.append(pair) } }
        let perThread = 5_000
        let finished = runOnThreads(8) { thread in
            // Four threads feed each source, in ranges of their own.
            let base = (thread / 2) * perThread
            for value in base..<(base + perThread) {
                if thread.isMultiple(of: 2) { left.send(value) } else { right.send(value) }
            }
        }
        #expect(finished)
        #expect(waitUntil { pairs.value.count == 4 * perThread })
        let values = pairs.value
        #expect(Set(values.map(\.0)).count == 4 * perThread)
        #expect(Set(values.map(\.1)).count == 4 * perThread)
        // Each thread's messages keep their order within their side of the pairs.
        for side in [values.map(\.0), values.map(\.1)] {
            for thread in 0..<4 {
                let range = (thread * perThread)..<((thread + 1) * perThread)
                let own = side.filter { range.contains($0) }
                #expect(own == Array(range))
            }
        }
        #expect(zipped._state._firsts.isEmpty && zipped._state._seconds.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test("scan sends a running state shared by all observers, kept across a pause")
    func scanRunsAState() {
        let deposits = Messenger<Int>()
        let balance = deposits.scan(100) { balance, deposit in balance + deposit }
        let first = Locked<[Int]>([])
        let second = Locked<[Int]>([])
        var firstToken: ObservationToken? = balance.subscribe { value in first.withLock { $0.append(value) } }
        let secondToken = balance.subscribe { value in second.withLock { $0.append(value) } }
        deposits.send(10)
        deposits.send(-30)
        #expect(first.value == [110, 80])
        #expect(second.value == [110, 80])  // the same state, computed once per message
        firstToken = nil
        secondToken.stopObserving()
        deposits.send(1_000)  // nobody observes: not counted
        firstToken = balance.subscribe { value in first.withLock { $0.append(value) } }
        deposits.send(5)
        #expect(first.value == [110, 80, 85])
        withExtendedLifetime(firstToken) {}
    }
}
