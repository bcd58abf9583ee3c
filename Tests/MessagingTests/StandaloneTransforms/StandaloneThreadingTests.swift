import Messaging
import Testing

@Suite("Standalone transforms and combinators: threads")
struct StandaloneThreadingTests {
    @Test func messagesFromEightThreadsArriveOnceEachInEachThreadsOrder() {
        let origin = Messenger<Int>()
        let tagged = origin.map { ($0 / 1000, $0 % 1000) }.filter { _ in true }
        let log = Locked<[[Int]]>(Array(repeating: [], count: 8))
        let token = tagged.subscribe { thread, number in log.withLock { $0[thread].append(number) } }
        #expect(
            runOnThreads(8) { thread in
                for number in 0..<500 { origin.send(thread * 1000 + number) }
            })
        #expect(waitUntilDelivered(origin, tagged.origin.messenger, tagged.messenger))
        #expect(log.value == Array(repeating: Array(0..<500), count: 8))
        withExtendedLifetime(token) {}
    }

    @Test func observingAndStoppingFromEightThreadsLeavesNothingBehind() {
        let origin = Messenger<Int>()
        weak var weakTransform: Mapped<Messenger<Int>, Int>?
        do {
            let transform = origin.map { $0 + 1 }
            weakTransform = transform
            // Weakly: a thread's closure may outlive the wait for the threads to finish.
            let finished = runOnThreads(8) { [weak transform] thread in
                guard let transform else { return }
                for round in 0..<300 {
                    let token = transform.subscribe { _ in }
                    origin.send(round)
                    if thread % 2 == 0 { token.stopObserving() }
                }
            }
            #expect(finished)
            #expect(transform.messenger.observationCount == 0)
            #expect(origin.observationCount == 0)
        }
        #expect(weakTransform == nil)
    }

    @Test func replacingTheOriginWhileEightThreadsSendKeepsOneObservation() {
        let origins = (0..<4).map { _ in Messenger<Int>() }
        let transform = origins[0].map { $0 }
        let received = Locked(0)
        let token = transform.subscribe { _ in received.withLock { $0 += 1 } }
        #expect(
            runOnThreads(8) { thread in
                for round in 0..<300 {
                    if thread < 2 {
                        transform.origin = origins[(round + thread) % 4]
                    } else {
                        origins[round % 4].send(round)
                    }
                }
            })
        let current = transform.origin
        #expect(origins.map(\.observationCount).reduce(0, +) == 1)
        #expect(current.observationCount == 1)
        // A send may have handed its delivery on to a runner that is still at work.
        #expect(waitUntilDelivered(current, transform.messenger))
        let before = received.value
        current.send(1)
        #expect(received.value == before + 1)
        withExtendedLifetime(token) {}
    }

    @Test func combineLatestFromEightThreadsEndsWithTheLatestTuple() {
        let variables = (0..<8).map { _ in Var(0) }
        let combined = combineLatest(
            variables[0].new(), variables[1].new(), variables[2].new(), variables[3].new(),
            variables[4].new(), variables[5].new(), variables[6].new(), variables[7].new())
        let last = Locked<[Int]>([])
        let count = Locked(0)
        let token = combined.subscribe { a, b, c, d, e, f, g, h in
            last.withLock { $0 = [a, b, c, d, e, f, g, h] }
            count.withLock { $0 += 1 }
        }
        #expect(
            runOnThreads(8) { thread in
                for value in 1...200 { variables[thread].value = value }
            })
        // A send hands the tuples other threads posted to a runner of their own after a budget;
        // that runner may still be at work.
        #expect(waitUntil { count.value == 1600 })
        #expect(last.value == Array(repeating: 200, count: 8))
        #expect(count.value == 1600)
        withExtendedLifetime(token) {}
    }

    @Test func mergeFromEightThreadsDeliversEverything() {
        let sources = (0..<8).map { _ in Messenger<Int>() }
        let merged = Merged(sources)
        let total = Locked(0)
        let token = merged.subscribe { _ in total.withLock { $0 += 1 } }
        #expect(
            runOnThreads(8) { thread in
                for value in 0..<300 { sources[thread].send(value) }
            })
        #expect(waitUntilDelivered(merged.messenger))
        #expect(total.value == 2400)
        withExtendedLifetime(token) {}
    }
}
