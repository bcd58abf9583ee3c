import Foundation
import Testing

@testable import Messaging

@Suite("Async sequences under threads: 8 producers, several consumers, starts and stops meanwhile")
struct AsyncThreadingTests {
    /// Message numbers: thread `t` sends `t * stride + index`. The producers of the start-and-cancel
    /// test send until their consumers are done, which under a loaded machine and the thread
    /// sanitizer took minutes and more than a million messages a thread: a stride that no index
    /// reaches keeps each message attributed to its own thread.
    static let stride = 1 << 40

    /// Whether `received` holds each thread's messages `0..<perThread` in order.
    private func isComplete(_ received: [Int], threads: Int, perThread: Int) -> Bool {
        var next = [Int](repeating: 0, count: threads)
        for message in received {
            let thread = message / Self.stride
            guard message % Self.stride == next[thread] else { return false }
            next[thread] += 1
        }
        return next.allSatisfy { $0 == perThread }
    }

    @Test func eightProducersReachEveryConsumerInOneOrder() async {
        let messenger = Messenger<Int>()
        let threadCount = 8
        let perThread = 2_000
        let consumerCount = 3
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let consumers = (0..<consumerCount).map { index in
            Task {
                var received: [Int] = []
                // One consumer of each policy that keeps everything here.
                let policy: MessageBuffering = index == 0 ? .unbounded : index == 1 ? .newest(.max) : .oldest(1 << 20)
                for await message in messenger.messages(bufferingPolicy: policy).afterStart({
                    startedContinuation.yield()
                }) {
                    received.append(message)
                }
                return received
            }
        }
        var startedCount = 0
        for await _ in started {
            startedCount += 1
            if startedCount == consumerCount { break }
        }
        let finished = runOnThreads(threadCount) { thread in
            for index in 0..<perThread { messenger.send(thread * Self.stride + index) }
        }
        #expect(finished)
        // Every send returned, and the runner that took over past a send's budget finished, so
        // every message was delivered.
        #expect(waitUntilDelivered(messenger))
        messenger.stopBeingObserved()
        var results: [[Int]] = []
        for consumer in consumers { results.append(await consumer.value) }
        #expect(isComplete(results[0], threads: threadCount, perThread: perThread))
        #expect(results.allSatisfy { $0 == results[0] })
    }

    /// Whether each thread's messages in `received` are increasing (a bounded buffer may skip some).
    private func isInOrderPerThread(_ received: [Int]) -> Bool {
        var last: [Int: Int] = [:]
        for message in received {
            let thread = message / Self.stride
            if let previous = last[thread], previous >= message { return false }
            last[thread] = message
        }
        return true
    }

    @Test func consumersThatStartBreakAndCancelWhileThreadsSendLeaveNoObservation() async {
        let messenger = Messenger<Int>()
        let stop = Locked(false)
        let finished = DispatchSemaphore(value: 0)
        let producers = Thread {
            runOnThreads(8) { thread in
                var index = 0
                while !stop.value {
                    messenger.send(thread * Self.stride + index)
                    index += 1
                }
            }
            finished.signal()
        }
        producers.start()
        await withTaskGroup(of: Bool.self) { group in
            for consumer in 0..<40 {
                group.addTask {
                    let policy: MessageBuffering = consumer.isMultiple(of: 2) ? .newest(4) : .unbounded
                    var received: [Int] = []
                    for await message in messenger.messages(bufferingPolicy: policy) {
                        received.append(message)
                        if received.count == 300 { break }
                        if consumer.isMultiple(of: 3), received.count == 100 {
                            withUnsafeCurrentTask { $0?.cancel() }
                        }
                    }
                    return isInOrderPerThread(received)
                }
            }
            for await inOrder in group { #expect(inOrder) }
        }
        #expect(messenger.observationCount == 0)
        stop.withLock { $0 = true }
        #expect(finished.wait(timeout: .now() + 120) == .success)
        withExtendedLifetime(producers) {}
    }
}
