import Testing

@testable import Messaging

/// The rules of "run now or queue behind the runner", without threads.
@Suite("Serial drain: run now, or queue behind the runner, with a bounded call")
struct SerialDrainTests {
    @Test("the first submission runs at once; later ones queue behind it and come out in order")
    func firstRunsTheRestQueueInOrder() {
        var drain = _SerialDrain<Int>(budget: 10)
        #expect(drain.submit(1) == 1)
        #expect(drain.submit(2) == nil)
        #expect(drain.submit(3) == nil)
        guard case .run(let batch) = drain.next(afterRunning: 0, handsOff: true) else {
            Issue.record("expected a batch")
            return
        }
        #expect(batch == [2, 3])
        guard case .finished = drain.next(afterRunning: 2, handsOff: true) else {
            Issue.record("expected the drain to finish")
            return
        }
        #expect(!drain.isRunning)
        #expect(drain.submit(4) == 4)
    }

    @Test("a call stops at its budget and hands off; the new runner takes the rest, in order")
    func callHandsOffAtItsBudget() {
        var drain = _SerialDrain<Int>(budget: 3)
        #expect(drain.submit(0) == 0)
        for job in 1...5 { #expect(drain.submit(job) == nil) }
        guard case .run(let first) = drain.next(afterRunning: 0, handsOff: true) else {
            Issue.record("expected a batch")
            return
        }
        #expect(first == [1, 2, 3])
        guard case .handOff = drain.next(afterRunning: 3, handsOff: true) else {
            Issue.record("expected a hand-off")
            return
        }
        // Still busy: a submission meanwhile queues behind the jobs handed off.
        #expect(drain.isRunning)
        #expect(drain.submit(6) == nil)
        guard case .run(let rest) = drain.next(afterRunning: 0, handsOff: false) else {
            Issue.record("expected a batch")
            return
        }
        #expect(rest == [4, 5, 6])
        guard case .finished = drain.next(afterRunning: 3, handsOff: false) else {
            Issue.record("expected the drain to finish")
            return
        }
    }

    @Test("a runner that was handed the work drains everything, whatever the budget")
    func handedOffRunnerDrainsAll() {
        var drain = _SerialDrain<Int>(budget: 2)
        #expect(drain.submit(0) == 0)
        for job in 1...100 { _ = drain.submit(job) }
        var seen: [Int] = []
        var ran = 0
        while case .run(let batch) = drain.next(afterRunning: ran, handsOff: false) {
            seen += batch
            ran += batch.count
        }
        #expect(seen == Array(1...100))
        #expect(!drain.isRunning)
    }

    @Test("partial batches under sustained submission keep the order and the count of waiting jobs")
    func partialBatchesKeepOrder() {
        var drain = _SerialDrain<Int>(budget: 7)
        #expect(drain.submit(0) == 0)
        var next = 1
        var seen: [Int] = []
        for _ in 0..<200 {
            for _ in 0..<5 {
                // After the drain finished, the first submission runs at once, ahead of the rest.
                if let now = drain.submit(next) { seen.append(now) }
                next += 1
            }
            var ran = 0
            while true {
                switch drain.next(afterRunning: ran, handsOff: true) {
                case .run(let batch):
                    seen += batch
                    ran += batch.count
                    continue
                case .handOff, .finished:
                    break
                }
                break
            }
            #expect(ran <= 7)
        }
        while case .run(let batch) = drain.next(afterRunning: 0, handsOff: false) { seen += batch }
        #expect(seen == Array(1..<next))
        #expect(drain.pendingCount == 0)
    }
}

/// A job whose release is counted: the drain must never release a job itself (its owner calls it
/// under a lock), only hand jobs out.
private final class CountedJob {
    static let released = Locked(0)
    deinit { Self.released.withLock { $0 += 1 } }
}

@Suite("Serial drain: what it releases")
struct SerialDrainReleaseTests {
    @Test("taking batches, whole or partial, releases no job inside the drain")
    func takingReleasesNothing() {
        var drain = _SerialDrain<CountedJob>(budget: 5)
        let baseline = CountedJob.released.value
        var first = drain.submit(CountedJob())
        #expect(first != nil)
        first = nil
        for _ in 0..<200 { _ = drain.submit(CountedJob()) }
        var handed = 1
        var ran = 0
        var handsOff = true
        while true {
            let releasedBefore = CountedJob.released.value
            let step = drain.next(afterRunning: ran, handsOff: handsOff)
            // Whatever the drain did with its storage, it released nothing: jobs leave it only
            // in the batches it hands out.
            #expect(CountedJob.released.value == releasedBefore)
            switch step {
            case .run(let batch):
                handed += batch.count
                ran += batch.count
            case .handOff:
                handsOff = false
                ran = 0
                continue
            case .finished:
                break
            }
            if case .finished = step { break }
        }
        #expect(handed == 201)
        #expect(CountedJob.released.value - baseline == 201)
    }
}
