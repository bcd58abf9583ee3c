import Dispatch
import Testing

@testable import Messaging

@Suite struct PromiseAsyncTests {
    @Test func aFulfilledPromiseGivesItsValueAtOnce() async throws {
        let promise = Promise(fulfilled: "done")
        #expect(await promise.value == "done")
        #expect(try await promise.valueUnlessCancelled == "done")
    }

    @Test func aPendingPromiseGivesItsValueWhenAnotherThreadFulfilsIt() async throws {
        let promise = Promise<Int> { promise in
            DispatchQueue.global().async { promise.fulfill(3) }
        }
        #expect(await promise.value == 3)
        #expect(try await promise.map { $0 * 2 }.valueUnlessCancelled == 6)
    }

    @Test @MainActor func aMainActorCallerAwaitsWithoutLeavingTheMainActor() async {
        let promise = Promise<Int>()
        DispatchQueue.global().async { promise.fulfill(5) }
        var total = 0  // main-actor state, used across the await
        total += await promise.value
        MainActor.assertIsolated()
        #expect(total == 5)
    }

    @Test @MainActor func aMainActorObserverOfAPromiseFulfilledOnTheMainActorReceivesTheValueAtOnce() {
        let promise = Promise<Int>()
        let observer = MainActorToken()
        var received: [Int] = []
        observer.observe(promise) { received.append($0) }
        promise.fulfill(6)
        #expect(received == [6])
    }

    @Test func valueWaitsForTheFulfilmentEvenInACancelledTask() async {
        let promise = Promise<Int>()
        let waiting = Task { await promise.value }
        waiting.cancel()
        #expect(await eventually { promise._waiterCount == 1 })
        promise.fulfill(8)
        #expect(await waiting.value == 8)
    }

    @Test func valueUnlessCancelledStopsWaitingWhenItsTaskIsCancelledAndLeavesNothingBehind() async {
        let work = PendingWork()
        weak var weakPromise: Promise<Int>?
        let waiting: Task<Int, any Error>
        do {
            let promise = Promise<Int> { promise in work.start { promise.fulfill(1) } }
            weakPromise = promise
            waiting = Task { try await promise.valueUnlessCancelled }
            #expect(await eventually { promise._waiterCount == 1 })
        }

        waiting.cancel()

        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(weakPromise?._waiterCount == 0)
        // The cancelled task holds nothing: once its work lets go, the promise is freed.
        work.abandonAll()
        #expect(weakPromise == nil)
    }

    @Test func valueUnlessCancelledInATaskCancelledBeforehandThrowsWithoutWaiting() async {
        let promise = Promise<Int>()
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await promise.valueUnlessCancelled
        }
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(promise._waiterCount == 0)
    }

    @Test func valueUnlessCancelledGivesTheValueOfAFulfilledPromiseEvenInACancelledTask() async throws {
        let promise = Promise(fulfilled: 4)
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await promise.valueUnlessCancelled
        }
        #expect(try await waiting.value == 4)
    }

    @Test func cancellationsRacingTheFulfilmentEndEveryWaitExactlyOnce() async {
        for _ in 0..<20 {
            let promise = Promise<Int>()
            let tasks = (0..<16).map { _ in Task { try await promise.valueUnlessCancelled } }
            let fulfilling = Task.detached { _ = promise.fulfill(2) }
            for (index, task) in tasks.enumerated() where index.isMultiple(of: 2) { task.cancel() }
            await fulfilling.value
            for task in tasks {
                switch await task.result {
                case .success(let value): #expect(value == 2)
                case .failure(let error): #expect(error is CancellationError)
                }
            }
            #expect(promise._waiterCount == 0)
        }
    }
}
