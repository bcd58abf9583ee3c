/// A drain run by slices: its runner lives on an executor of its own (an actor), and a caller
/// that already runs there may take the drain over.
///
/// The rules, for an actor's queue of handler calls (`_ActorQueue`):
/// - A job from elsewhere is queued (``post(_:)``); the first one that finds no runner at work
///   and none scheduled says to schedule one.
/// - A caller that runs on the executor takes the drain over (``takeOver(rest:waiting:)``)
///   unless a runner is at work there (the caller runs inside one of its jobs): it runs the jobs
///   that were waiting, then its own, then at most one slice of what came meanwhile
///   (``finishIfIdle()``, then ``nextBatch()``).
/// - A slice takes whole batches (``nextBatch()``) until the drain is empty or its time is spent;
///   then it puts back what it did not run, ahead of every other job (``endSlice(leaving:)``), and
///   a new runner is scheduled for it, so that the executor's other work runs in between.
/// - A scheduled runner that starts while one is at work does nothing (``startScheduled()``):
///   the one at work gets to everything, or schedules another.
///
/// Order holds throughout: jobs come out in the order they were posted, and a rest put back comes
/// out before anything posted after it was taken.
extension _SerialDrain {
    /// Jobs taken out of the drain in one step, `jobs[start...]`, handed out one by one.
    ///
    /// A job handed out leaves its slot empty, so that whatever it holds is released by the
    /// caller as soon as it has run, not when the whole batch goes.
    @usableFromInline
    struct Batch: Sequence, IteratorProtocol {
        @usableFromInline var jobs: [Job?]
        @usableFromInline var start: Int

        /// A batch of no jobs.
        @usableFromInline
        static var empty: Batch { Batch(jobs: [], start: 0) }

        @usableFromInline
        init(jobs: [Job?], start: Int) {
            self.jobs = jobs
            self.start = start
        }

        /// Whether every job was handed out.
        @usableFromInline
        var isEmpty: Bool { start == jobs.count }

        /// The next job, oldest first.
        ///
        /// - Complexity: O(1).
        @usableFromInline
        mutating func next() -> Job? {
            guard start < jobs.count else { return nil }
            defer { start &+= 1 }
            return jobs[start].take()
        }
    }

    /// Whether the drain has work: jobs waiting, a runner at work or one scheduled.
    var isBusy: Bool { pendingCount > 0 || !_rest.isEmpty || isRunning || isScheduled }

    /// Queues a job for the runner on the executor.
    ///
    /// - Returns: Whether the caller must schedule a runner: none is at work or scheduled.
    /// - Complexity: O(1) amortized.
    @inline(__always)
    mutating func post(_ job: consuming Job) -> Bool {
        _pending.append(job)
        guard !isRunning, !isScheduled else { return false }
        isScheduled = true
        return true
    }

    /// Takes the drain over for a caller that runs on the executor and will run jobs at once.
    ///
    /// - Parameters:
    ///   - rest: Set to the rest a slice left, if any: the oldest jobs.
    ///   - waiting: Set to the jobs that were waiting, if any, which came after the rest.
    /// - Returns: `false` if a runner is at work (the caller runs inside one of its jobs: its own
    ///   job must be posted). Otherwise the caller is the runner: it runs `rest`, then `waiting`,
    ///   then its own job, then ``nextBatch()`` for at most one slice. A runner still scheduled
    ///   will find the work done.
    /// - Complexity: O(1).
    @inline(__always)
    mutating func takeOver(rest: inout Batch?, waiting: inout Batch?) -> Bool {
        if isRunning { return false }
        isRunning = true
        // A rest is left only with a runner scheduled for it (``endSlice(leaving:)``), so an
        // idle drain with none scheduled is not asked for one.
        if isScheduled, !_rest.isEmpty { rest = _takeRest() }
        if pendingCount > 0 { waiting = _takePending() }
        return true
    }

    /// Starts a scheduled runner.
    ///
    /// - Returns: Whether it runs a slice; `false` if a runner is at work already.
    /// - Complexity: O(1).
    @inline(__always)
    mutating func startScheduled() -> Bool {
        isScheduled = false
        if isRunning { return false }
        isRunning = true
        return true
    }

    /// The next batch of a slice: the rest a slice left, if any, or else every job waiting.
    ///
    /// - Returns: `nil` when no job waits; the drain is then idle.
    /// - Complexity: O(1).
    @inline(__always)
    mutating func nextBatch() -> Batch? {
        if !_rest.isEmpty { return _takeRest() }
        if pendingCount == 0 {
            isRunning = false
            return nil
        }
        return _takePending()
    }

    /// Marks the drain idle if no job waits, for a runner that has run what it took.
    ///
    /// While a runner is at work, only it puts back a rest, as it ends (``endSlice(leaving:)``):
    /// a runner that took over took any rest, and none is left to look for.
    ///
    /// - Returns: Whether the drain is idle; if not, the runner goes on with ``nextBatch()``.
    /// - Complexity: O(1).
    @inline(__always)
    mutating func finishIfIdle() -> Bool {
        assert(isRunning && _rest.isEmpty, "only a runner that took the rest finishes")
        guard pendingCount == 0 else { return false }
        isRunning = false
        return true
    }

    /// Ends a slice whose time is spent: puts back the jobs of `batch` it did not run, ahead of
    /// every other, and leaves the drain idle.
    ///
    /// - Returns: Whether the caller must schedule a runner for the jobs left.
    /// - Complexity: O(1). The batch replaces an empty rest, so nothing is released.
    mutating func endSlice(leaving batch: consuming Batch) -> Bool {
        assert(_rest.isEmpty, "only the runner takes and puts back the rest")
        _rest = batch
        isRunning = false
        guard !_rest.isEmpty || pendingCount > 0, !isScheduled else { return false }
        isScheduled = true
        return true
    }

    /// Takes every job out of a drain whose executor is gone, and forgets any scheduled runner.
    ///
    /// - Complexity: O(1).
    mutating func discardAll() -> (rest: Batch, waiting: Batch) {
        isScheduled = false
        return (_takeRest(), _takePending())
    }

    private mutating func _takeRest() -> Batch {
        var rest = Batch(jobs: [], start: 0)
        swap(&rest, &_rest)
        return rest
    }

    private mutating func _takePending() -> Batch {
        var jobs: [Job?] = []
        swap(&jobs, &_pending)
        let start = _head
        _head = 0
        return Batch(jobs: jobs, start: start)
    }
}
