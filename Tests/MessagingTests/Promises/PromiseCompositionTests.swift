import Messaging
import Testing

@Suite struct PromiseCompositionTests {
    @Test func thenWaitsForThisPromiseThenTakesTheValueOfTheNext() {
        let first = Promise<Int>()
        let second = Promise<String>()
        let log = EventLog()
        let made = first.then { int in
            log.append("make:\(int)")
            return second
        }
        made.whenFulfilled { log.append("then:\($0)") }

        #expect(log.take() == [])
        first.fulfill(1)
        #expect(log.take() == ["make:1"])
        second.fulfill("two")
        #expect(log.take() == ["then:two"])
    }

    @Test func thenOnFulfilledPromisesDeliversAtOnce() {
        let log = EventLog()
        Promise(fulfilled: 3)
            .then { Promise(fulfilled: "\($0)!") }
            .whenFulfilled { log.append($0) }
        #expect(log.entries == ["3!"])
    }

    @Test(arguments: [false, true])
    func andDeliversBothValuesInOrderWhicheverComesFirst(otherFirst: Bool) {
        let first = Promise<Int>()
        let other = Promise<String>()
        let log = EventLog()
        first.and { other }.whenFulfilled { int, string in log.append("\(int),\(string)") }

        if otherFirst {
            other.fulfill("b")
            #expect(log.entries == [])
            first.fulfill(1)
        } else {
            first.fulfill(1)
            #expect(log.entries == [])
            other.fulfill("b")
        }
        #expect(log.entries == ["1,b"])
    }

    @Test func andCallsItsClosureAtOnce() {
        let log = EventLog()
        let first = Promise<Int>()
        _ = first.and {
            log.append("started")
            return Promise(fulfilled: 0)
        }
        #expect(log.entries == ["started"])
    }

    @Test func mapUnwrapAndNewMakePromisesOfTheTransformedValue() {
        let log = EventLog()
        let title = Promise<String?>()
        title.unwrap("Untitled").map { $0.count }.whenFulfilled { log.append("length:\($0)") }
        let untitled = Promise<String?>()
        untitled.unwrap("Untitled").whenFulfilled { log.append("title:\($0)") }
        let update = Promise<Update<Int>>()
        update.new().whenFulfilled { log.append("new:\($0)") }

        title.fulfill("Hello")
        untitled.fulfill(nil)
        update.fulfill(Update(1, 2))

        #expect(log.entries == ["length:5", "title:Untitled", "new:2"])
    }

    @Test func aSecondFulfilmentIsIgnoredAndReturnsFalse() {
        let promise = Promise<Int>()
        let log = EventLog()
        promise.whenFulfilled { log.append("handler:\($0)") }

        #expect(promise.fulfill(1))
        #expect(!promise.fulfill(2))
        promise.whenFulfilled { log.append("late:\($0)") }

        #expect(log.entries == ["handler:1", "late:1"])
        #expect(!Promise(fulfilled: 0).fulfill(1))
    }

    @Test func manyHandlersAreEachCalledExactlyOnceInTheOrderTheyWereAdded() {
        let promise = Promise<Int>()
        let log = EventLog()
        for index in 0..<100 {
            promise.whenFulfilled { log.append("\(index):\($0)") }
        }
        promise.fulfill(7)
        promise.fulfill(8)
        #expect(log.entries == (0..<100).map { "\($0):7" })
    }

    @Test func aHandlerMayAddHandlersAndFulfilOtherPromises() {
        let promise = Promise<Int>()
        let other = Promise<Int>()
        let log = EventLog()
        other.whenFulfilled { log.append("other:\($0)") }
        promise.whenFulfilled { value in
            log.append("outer:\(value)")
            // Fulfilled already: runs at once, nested.
            promise.whenFulfilled { log.append("inner:\($0)") }
            #expect(!promise.fulfill(value + 1))
            other.fulfill(value * 10)
            log.append("outer done")
        }
        promise.fulfill(1)
        #expect(log.entries == ["outer:1", "inner:1", "other:10", "outer done"])
    }

    @Test func aComposedPromiseCanBeFulfilledDirectlyAndTheFirstFulfilmentWins() {
        let source = Promise<Int>()
        let mapped = source.map { $0 * 2 }
        let log = EventLog()
        mapped.whenFulfilled { log.append("\($0)") }

        #expect(mapped.fulfill(-1))
        source.fulfill(5)

        #expect(log.entries == ["-1"])
    }

    @Test(arguments: [1_000, 10_000])
    func aChainOfAnyLengthIsDeliveredWithoutNesting(length: Int) {
        let root = Promise<Int>()
        var end = root
        for index in 0..<length {
            switch index % 3 {
            case 0: end = end.then { Promise(fulfilled: $0 + 1) }
            case 1: end = end.map { $0 + 1 }
            default: end = end.and { Promise(fulfilled: 1) }.map { $0 + $1 }
            }
        }
        let result = Locked<Int?>(nil)
        end.whenFulfilled { value in result.withLock { $0 = value } }

        // On a thread with a small stack, where nested delivery of the chain would overflow it.
        let finished = runOnThreads(1) { _ in root.fulfill(0) }

        #expect(finished)
        #expect(result.value == length)
    }

    @Test func aChainOfPendingPromisesCompletesStepByStep() {
        let api = ExampleAPI()
        var end = api.getInt()
        for _ in 0..<1_000 {
            end = end.then { int in
                Promise { promise in api.work.start { promise.fulfill(int + 1) } }
            }
        }
        let result = Locked<Int?>(nil)
        end.whenFulfilled { value in result.withLock { $0 = value } }

        var rounds = 0
        while api.work.count > 0 {
            api.work.completeAll()
            rounds += 1
        }
        #expect(rounds == 1_001)
        #expect(result.value == 1_007)
    }
}
