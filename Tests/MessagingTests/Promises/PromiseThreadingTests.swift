import Testing

@testable import Messaging

@Suite struct PromiseThreadingTests {
    @Test func handlersAddedWhileAnotherThreadFulfilsAreEachCalledExactlyOnce() {
        let threadCount = 8
        let handlersPerThread = 2_000
        for _ in 0..<5 {
            let promise = Promise<Int>()
            let calls = Locked([Int](repeating: 0, count: threadCount * handlersPerThread))
            let wrongValues = Locked(0)
            let finished = runOnThreads(threadCount) { thread in
                if thread == 0 {
                    promise.fulfill(42)
                    return
                }
                for index in 0..<handlersPerThread {
                    let slot = thread * handlersPerThread + index
                    promise.whenFulfilled { value in
                        if value != 42 { wrongValues.withLock { $0 += 1 } }
                        calls.withLock { $0[slot] += 1 }
                    }
                }
            }
            #expect(finished)
            let counts = calls.value
            #expect(counts[handlersPerThread...].allSatisfy { $0 == 1 })
            #expect(counts[..<handlersPerThread].allSatisfy { $0 == 0 })
            #expect(wrongValues.value == 0)
            #expect(promise._waiterCount == 0)
        }
    }

    @Test func exactlyOneOfManyConcurrentFulfilmentsWins() {
        for _ in 0..<20 {
            let promise = Promise<Int>()
            let log = EventLog()
            promise.whenFulfilled { log.append("first:\($0)") }
            let winners = Locked([Int]())
            let finished = runOnThreads(8) { thread in
                if promise.fulfill(thread) { winners.withLock { $0.append(thread) } }
                promise.whenFulfilled { log.append("late:\($0)") }
            }
            #expect(finished)
            let winner = winners.value
            #expect(winner.count == 1)
            guard let value = winner.first else { continue }
            #expect(log.entries.filter { $0.hasPrefix("first:") } == ["first:\(value)"])
            #expect(log.entries.filter { $0 == "late:\(value)" }.count == 8)
            #expect(log.entries.count == 9)
        }
    }

    @Test func compositionsMadeWhileAnotherThreadFulfilsAllDeliver() {
        let promise = Promise<Int>()
        let results = Locked([Int]())
        let finished = runOnThreads(8) { thread in
            if thread == 0 {
                promise.fulfill(1)
                return
            }
            for _ in 0..<200 {
                promise.map { $0 + 1 }
                    .then { Promise(fulfilled: $0 * 10) }
                    .and { Promise(fulfilled: thread) }
                    .whenFulfilled { value, _ in results.withLock { $0.append(value) } }
            }
        }
        #expect(finished)
        #expect(results.value.count == 7 * 200)
        #expect(results.value.allSatisfy { $0 == 20 })
    }

    @Test func tasksAwaitingWhileAnotherThreadFulfilsAllGetTheValue() async {
        for _ in 0..<10 {
            let promise = Promise<Int>()
            let values = await withTaskGroup(of: Int.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        index.isMultiple(of: 2) ? await promise.value : (try? await promise.valueUnlessCancelled) ?? -1
                    }
                }
                group.addTask {
                    _ = runOnThreads(1) { _ in promise.fulfill(9) }
                    return 9
                }
                var values: [Int] = []
                for await value in group { values.append(value) }
                return values
            }
            #expect(values == [Int](repeating: 9, count: 17))
            #expect(promise._waiterCount == 0)
        }
    }
}
