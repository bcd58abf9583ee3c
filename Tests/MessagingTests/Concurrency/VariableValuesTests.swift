import Foundation
import Testing

@testable import Messaging

@Suite("Async sequences of a variable's values: the current value, then every change")
struct VariableValuesTests {
    @Test func theValuesStartWithTheCurrentValueThenFollowEveryChange() async {
        let number = Var(1)
        var iterator = number.values.makeAsyncIterator()
        number.value = 2
        number.value = 2  // unchanged: no update, no value
        number.value = 3
        number.stopBeingObserved()
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == 3)
        #expect(await iterator.next() == nil)
    }

    @Test func aLoopSeesTheValueItStartedWithAndItsOwnChanges() async {
        let count = Var(0)
        var seen: [Int] = []
        for await value in count.values {
            seen.append(value)
            if value == 3 { break }
            count.modify { $0 += 1 }
        }
        #expect(seen == [0, 1, 2, 3])
        #expect(count.messenger.observationCount == 0)
    }

    @Test func newestOneAlwaysGivesTheLatestValue() async {
        let text = Var("a")
        var iterator = text.values(bufferingPolicy: .newest(1)).makeAsyncIterator()
        text.value = "b"
        text.value = "c"
        #expect(await iterator.next() == "c")
        text.value = "d"
        #expect(await iterator.next() == "d")
    }

    @Test func theValuesEndWhenTheVariableDies() async {
        var number: Var<Int>? = Var(5)
        weak let weakNumber = number
        var iterator = number!.values.makeAsyncIterator()
        number!.value = 6
        number = nil
        #expect(weakNumber == nil)
        #expect(await iterator.next() == 5)
        #expect(await iterator.next() == 6)
        #expect(await iterator.next() == nil)
    }

    @Test func anIteratorMadeAfterTheVariableDiedIsEmpty() async {
        var number: Var<Int>? = Var(5)
        let values = number!.values
        number = nil
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test func aWaitingConsumerIsCancelledAtOnce() async {
        let flag = Var(false)
        let consumer = Task {
            var seen: [Bool] = []
            for await value in flag.values { seen.append(value) }
            return seen
        }
        #expect(await consumersWait(1, on: flag.messenger))
        consumer.cancel()
        #expect(flag.messenger.observationCount == 0)
        #expect(await consumer.value == [false])
    }

    /// Consumers start while another thread increments the variable by one, again and again: each
    /// must see a run of consecutive numbers from its first value to the last, with no gap (a
    /// missed change) and no duplicate (a change seen twice, or the value read after the update).
    @Test func consumersStartingDuringChangesNeverMissOrRepeatOne() async {
        let number = Var(0)
        let last = 30_000
        let consumerCount = 8
        let running = DispatchSemaphore(value: 0)
        let producer = Thread {
            for step in 1...last {
                number.modify { $0 += 1 }
                if step == 100 { running.signal() }
            }
        }
        producer.start()
        running.wait()
        var iterators: [VariableValues<Int>.Iterator] = []
        for _ in 0..<consumerCount {
            iterators.append(number.values.makeAsyncIterator())
            for _ in 0..<200 { _ = number.value }  // let some changes happen between starts
        }
        var firsts: [Int] = []
        for index in iterators.indices {
            var seen: [Int] = []
            while let value = await iterators[index].next() {
                seen.append(value)
                if value == last { break }
            }
            firsts.append(seen.first ?? -1)
            // Compared as a flag, so that a failure prints a short comment rather than the arrays.
            let isExactRun = seen.first.map { Array($0...last) } == seen
            #expect(isExactRun, "from \(seen.first ?? -1): \(seen.count) values, \(Set(seen).count) distinct")
        }
        #expect(firsts.allSatisfy { $0 >= 100 })
        #expect(firsts == firsts.sorted())
        withExtendedLifetime(producer) {}
    }
}
