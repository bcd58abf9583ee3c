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

/// The rules of a drain run by slices (an actor's queue), without threads or actors.
@Suite("Serial drain by slices: post, take over, slice and put back, in order")
struct SerialDrainSliceTests {
    @Test("the first job posted from elsewhere schedules one runner; later ones only queue")
    func firstPostSchedulesOneRunner() {
        var drain = _SerialDrain<Int>(budget: .max)
        #expect(drain.post(1) == true)
        #expect(drain.post(2) == false)
        #expect(drain.isScheduled && !drain.isRunning && drain.isBusy)
        #expect(drain.startScheduled() == true)
        #expect(Array(drain.nextBatch() ?? .empty) == [1, 2])
        #expect(drain.nextBatch() == nil)
        #expect(!drain.isBusy)
        // Idle again: the next post schedules again.
        #expect(drain.post(3) == true)
    }

    @Test("a caller on the executor takes over: the rest first, then what waited; its own job is not queued")
    func takeOverReturnsRestThenWaiting() {
        var drain = _SerialDrain<Int>(budget: .max)
        _ = drain.post(1)
        _ = drain.post(2)
        _ = drain.post(3)
        #expect(drain.startScheduled() == true)
        guard var batch = drain.nextBatch() else {
            Issue.record("expected a batch")
            return
        }
        #expect(batch.next() == 1)
        // The slice's time is spent after one job: 2 and 3 go back, first in line.
        #expect(drain.endSlice(leaving: batch) == true)
        #expect(drain.isScheduled && !drain.isRunning)
        _ = drain.post(4)
        var rest: _SerialDrain<Int>.Batch?
        var waiting: _SerialDrain<Int>.Batch?
        let tookOver = drain.takeOver(rest: &rest, waiting: &waiting)
        #expect(tookOver)
        #expect(Array(rest ?? .empty) == [2, 3])
        #expect(Array(waiting ?? .empty) == [4])
        // While the caller runs, a post from elsewhere (or from a job) queues, and it does not
        // take over again.
        #expect(drain.post(5) == false)
        var restAgain: _SerialDrain<Int>.Batch?
        var waitingAgain: _SerialDrain<Int>.Batch?
        let tookOverAgain = drain.takeOver(rest: &restAgain, waiting: &waitingAgain)
        #expect(!tookOverAgain && restAgain == nil && waitingAgain == nil)
        // The runner scheduled by the slice starts while the caller runs: it does nothing.
        #expect(drain.startScheduled() == false)
        #expect(Array(drain.nextBatch() ?? .empty) == [5])
        #expect(drain.nextBatch() == nil)
        #expect(!drain.isBusy)
    }

    @Test("a slice that ends with nothing left schedules nothing")
    func sliceEndingEmptySchedulesNothing() {
        var drain = _SerialDrain<Int>(budget: .max)
        _ = drain.post(1)
        #expect(drain.startScheduled() == true)
        guard var batch = drain.nextBatch() else {
            Issue.record("expected a batch")
            return
        }
        #expect(batch.next() == 1)
        #expect(drain.endSlice(leaving: batch) == false)
        #expect(!drain.isBusy)
    }

    @Test("random posts, take-overs and slices hand every job out once, in order")
    func randomScheduleKeepsOrder() {
        var generator = SeededGenerator(seed: 0x51_1CE5)
        var drain = _SerialDrain<Int>(budget: .max)
        var posted = 0
        var seen: [Int] = []
        var scheduled = 0
        for _ in 0..<5_000 {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0, 1:
                if drain.post(posted) { scheduled += 1 }
                posted += 1
            case 2:
                // A delivery on the executor: runs what waited, then its own job, then a slice.
                var rest: _SerialDrain<Int>.Batch?
                var waiting: _SerialDrain<Int>.Batch?
                guard drain.takeOver(rest: &rest, waiting: &waiting) else { break }
                seen += Array(rest ?? .empty) + Array(waiting ?? .empty)
                seen.append(posted)
                posted += 1
                runSlice(&drain, into: &seen, &scheduled, posting: &posted, using: &generator)
            default:
                guard scheduled > 0 else { break }
                scheduled -= 1
                if drain.startScheduled() {
                    runSlice(&drain, into: &seen, &scheduled, posting: &posted, using: &generator)
                }
            }
        }
        while scheduled > 0 {
            scheduled -= 1
            if drain.startScheduled() { runSlice(&drain, into: &seen, &scheduled, posting: &posted, using: &generator) }
        }
        #expect(seen == Array(0..<posted))
        #expect(!drain.isBusy)
    }

    /// One slice that runs a random number of jobs, and posts some from inside them.
    private func runSlice(
        _ drain: inout _SerialDrain<Int>,
        into seen: inout [Int],
        _ scheduled: inout Int,
        posting posted: inout Int,
        using generator: inout SeededGenerator
    ) {
        var budget = Int.random(in: 0..<6, using: &generator)
        while var batch = drain.nextBatch() {
            while let job = batch.next() {
                seen.append(job)
                if Bool.random(using: &generator) {
                    // Posted from inside a job: it queues behind everything, scheduling nothing.
                    #expect(drain.post(posted) == false)
                    posted += 1
                }
                budget -= 1
                if budget <= 0 {
                    if drain.endSlice(leaving: batch) { scheduled += 1 }
                    return
                }
            }
        }
    }
}
