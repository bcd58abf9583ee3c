/// "Run now, or queue behind whoever is running, and drain in order", with a bound on the work one
/// call takes on: a value type that says what to do, used under its owner's lock.
///
/// The first caller becomes the runner and runs its own job at once; a job submitted while a
/// runner is at work (from inside a job, or from another thread) is queued and runs after the jobs
/// before it, on the runner's thread. A runner that is a caller's own call stops taking batches
/// once it has run `budget` queued jobs and hands the rest to a new runner (on a queue of its own), which carries
/// on in the same order, so a call never runs for as long as other threads keep submitting. A
/// handed-off runner drains until the queue is empty.
///
/// A drain runs either by budgets, as above (``submit(_:)`` and ``next(afterRunning:handsOff:)``),
/// or by slices, for a runner that lives on an executor of its own (an actor's queue; see
/// `_SerialDrain+Slices.swift`), never both.
///
/// Nothing here knows of threads or locks, so the rules are tested on their own. Inlinable, so that
/// an owner on a hot path (a combination's outbox) runs it specialized, without type metadata.
@usableFromInline
struct _SerialDrain<Job> {
    /// What the runner does next.
    @usableFromInline
    enum Step {
        /// Run these jobs, in order, then ask again.
        case run([Job])
        /// Nothing is left: the drain is idle, and the next submission runs at once.
        case finished
        /// The call's budget is spent and jobs remain: start a new runner for them; the drain stays
        /// busy until it takes over.
        case handOff
    }

    /// How many queued jobs a caller's own call runs before it hands the rest off.
    @usableFromInline let budget: Int
    /// Whether a runner is at work (or handed off and about to be).
    @usableFromInline var isRunning = false
    /// The queued jobs from `_head` on; the slots before it were moved out (`nil`), so that
    /// dropping them releases nothing under the owner's lock.
    @usableFromInline var _pending: [Job?] = []
    @usableFromInline var _head = 0
    /// Whether a runner of a drain run by slices is scheduled on its executor and has not started.
    @usableFromInline var isScheduled = false
    /// The jobs a slice took and did not run, from `start`; older than every job in `_pending`.
    /// Empty unless a drain run by slices left some.
    @usableFromInline var _rest = Batch(jobs: [], start: 0)

    @inlinable
    init(budget: Int) {
        self.budget = budget
    }

    /// The jobs waiting behind the runner.
    @inlinable
    var pendingCount: Int { _pending.count - _head }

    /// Submits a job.
    ///
    /// - Returns: The job, if the caller is now the runner and must run it; `nil` if it was queued.
    /// - Complexity: O(1) amortized.
    @inlinable @inline(__always)
    mutating func submit(_ job: consuming Job) -> Job? {
        if isRunning {
            _pending.append(job)
            return nil
        }
        isRunning = true
        return job
    }

    /// The next step of a runner that has run `ran` queued jobs so far.
    ///
    /// - Parameters:
    ///   - ran: How many queued jobs this runner has run.
    ///   - handsOff: Whether the runner is a caller's own call, which runs at most ``budget``
    ///     queued jobs; a runner that was handed the work drains until the queue is empty.
    /// - Complexity: O(*k*) for the *k* jobs taken, amortized; O(1) when nothing waits.
    @inlinable
    mutating func next(afterRunning ran: Int, handsOff: Bool) -> Step {
        assert(_rest.isEmpty, "a drain runs by budgets or by slices, never both")
        let waiting = pendingCount
        if waiting == 0 {
            isRunning = false
            return .finished
        }
        let allowed = handsOff ? budget - ran : waiting
        if allowed <= 0 { return .handOff }
        let end = _head + min(allowed, waiting)
        var taken: [Job] = []
        taken.reserveCapacity(end - _head)
        for index in _head..<end {
            taken.append(_pending[index].take().unsafelyUnwrapped)
        }
        _head = end
        if _head == _pending.count {
            _pending.removeAll(keepingCapacity: _pending.capacity <= 64)
            _head = 0
        } else if _head > 64, _head * 2 > _pending.count {
            _pending.removeFirst(_head)
            _head = 0
        }
        return .run(taken)
    }
}
