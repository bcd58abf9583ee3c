import Dispatch

/// A handler call waiting to run on an actor.
@usableFromInline
struct _ActorJob {
    let run: () -> Void
    /// Whether the call must run even when the actor is gone (it only resumes a waiter).
    var runsWithoutActor = false
}

/// The calls that were waiting when a delivery on the actor took the queue: the rest of a batch
/// that a slice left unfinished (`older[olderStart...]`), then the calls posted after it.
@usableFromInline
struct _WaitingJobs {
    var older: [_ActorJob]
    var olderStart: Int
    var newer: [_ActorJob]

    /// Runs every call, oldest first; on the actor.
    ///
    /// - Complexity: O(*n*) for *n* calls.
    @usableFromInline
    func run() {
        var index = olderStart
        while index < older.count {
            older[index].run()
            index &+= 1
        }
        for job in newer { job.run() }
    }
}

/// The one queue of handler calls bound for one actor, from every messenger.
///
/// Every observation whose handler belongs to the same actor shares this queue, so the actor runs
/// its handlers in the order the deliveries reached it: if one thread sends `m1` on a messenger
/// and then `m2` on another, every handler on the actor sees `m1` first.
///
/// A delivery that runs on the actor runs the queue itself, at once: first the calls that were
/// waiting (they came first), then its own, then, for at most one slice, whatever was posted
/// meanwhile. A delivery from elsewhere queues its call and, if nobody is about to run the queue,
/// schedules one task to drain it on the actor. A call posted while the queue is running (from a
/// handler on the actor) waits its turn, so handlers on one actor never nest.
///
/// **Slices.** A drain runs calls until the queue is empty or it has run for
/// ``sliceNanoseconds``; then it leaves the rest in the queue and schedules a new task on the
/// actor for it, so that the actor's other jobs (a UI's events, other tasks) run in between: a
/// flood of slow handlers delays them by about one slice, not by the whole flood. The rest of the
/// batch it was running stays first in line (`_batch` from `_batchStart`, ahead of `_pending`), so
/// the order holds across slices; a delivery on the actor that comes between two slices runs that
/// rest first. A slice reads the clock once per call, and the first slice reads it only if some
/// call was waiting: a delivery on the actor with nothing queued never does.
///
/// The queue refers to its actor weakly: an observation never keeps its observer alive.
@usableFromInline
final class _ActorQueue: @unchecked Sendable {  // every `var` but `_actor`: `_lock`; `_actor` is weak
    // The lock makes every access to the `var`s exclusive, so their run-time exclusivity checks
    // are left out.
    private let _lock = _Lock()
    /// The calls posted and not yet taken, oldest first.
    @exclusivity(unchecked) private var _pending: [_ActorJob] = []
    /// The calls of a batch that a slice took and did not finish, from `_batchStart`; older than
    /// every call in `_pending`. Empty unless some are left.
    @exclusivity(unchecked) private var _batch: [_ActorJob] = []
    @exclusivity(unchecked) private var _batchStart = 0
    /// Whether calls are running on the actor right now (only the actor itself can see it `true`).
    @exclusivity(unchecked) private var _isRunning = false
    /// Whether a task to drain the queue on the actor is scheduled and has not started yet.
    @exclusivity(unchecked) private var _isDrainScheduled = false

    /// `nil` for the main actor.
    private weak var _actor: (any Actor)?
    /// The actor's identity, compared without a weak load; `nil` for the main actor.
    private let _actorID: ObjectIdentifier?

    /// How long a drain runs calls before it lets the actor's other jobs run: 4 ms, a quarter of a
    /// 60 Hz frame. A call is never interrupted, so a slice ends after the first call that ends
    /// past this time.
    static let sliceNanoseconds: UInt64 = 4_000_000

    private init(actor: (any Actor)?) {
        _actor = actor
        _actorID = actor.map { ObjectIdentifier($0) }
    }

    /// The queue of the main actor.
    @usableFromInline
    static let main = _ActorQueue(actor: nil)

    private static let _registryLock = _Lock()
    /// The queues of the actors other than the main actor; guarded by `_registryLock`, which is
    /// what makes the `nonisolated(unsafe)` sound.
    nonisolated(unsafe) private static var _registry: [ObjectIdentifier: _WeakQueue] = [:]

    /// The queue of `actor`, made on first use; the queue of the main actor for the main actor.
    ///
    /// - Complexity: O(1) amortized.
    @usableFromInline
    static func of(_ actor: any Actor) -> _ActorQueue {
        if actor === MainActor.shared { return main }
        let key = ObjectIdentifier(actor)
        // A queue made for a dead actor at the same address is replaced (and released below,
        // outside the lock).
        var replaced: _ActorQueue?
        let queue = _registryLock.withLock { () -> _ActorQueue in
            if let existing = _registry[key]?.queue {
                if existing._actor === actor { return existing }
                replaced = existing
            }
            let made = _ActorQueue(actor: actor)
            _registry[key] = _WeakQueue(queue: made)
            if _registry.count > 64, _registry.count.nonzeroBitCount == 1 {
                _registry = _registry.filter { $0.value.queue != nil }
            }
            return made
        }
        _ = replaced
        return queue
    }

    /// The queues that are running or waiting to run, for ``waitForPendingDeliveries()``.
    static func busyQueues() -> [_ActorQueue] {
        var queues = _registryLock.withLock { _registry.values.compactMap(\.queue) }
        queues.append(main)
        return queues.filter { queue in
            queue._lock.withLock {
                !queue._pending.isEmpty || !queue._batch.isEmpty || queue._isRunning || queue._isDrainScheduled
            }
        }
    }

    /// Whether a delivery that runs in `current` runs on this queue's actor.
    ///
    /// Decided by the sender's isolation (`#isolation`), which the compiler knows. When it is
    /// unknown (a property setter cannot take it), a main-actor queue asks Dispatch whether the
    /// current queue is the main queue, which is where the main actor runs its jobs; for any
    /// other actor the answer is then "no", and the call is queued.
    @usableFromInline
    func isCurrent(_ current: (any Actor)?) -> Bool {
        guard let current else { return _actorID == nil && _MainQueueProbe.isCurrent }
        if let id = _actorID { return ObjectIdentifier(current) == id }
        return current === MainActor.shared
    }

    /// Posts a call from a delivery that runs on the actor if `onActor`.
    ///
    /// - Returns: `nil` if the call was queued. Otherwise the calls that were waiting: the caller,
    ///   which runs on the actor, runs them all, then its own call, then ``finishRunningNow()``.
    /// - Complexity: O(1) amortized.
    @usableFromInline
    func post(_ job: @autoclosure () -> _ActorJob, onActor: Bool) -> _WaitingJobs? {
        let (waiting, schedules) = _lock.withLock { () -> (_WaitingJobs?, Bool) in
            if onActor && !_isRunning {
                _isRunning = true
                return (_takeWaiting(), false)
            }
            _pending.append(job())
            guard !_isRunning, !_isDrainScheduled else { return (nil, false) }
            _isDrainScheduled = true
            return (nil, true)
        }
        if schedules { _scheduleDrain() }
        return waiting
    }

    /// Takes the queue for a delivery that runs on the actor, unless calls are running on it
    /// already (the delivery runs inside one of them).
    ///
    /// - Returns: `nil` if calls are running. Otherwise the calls that were waiting: the caller
    ///   runs them all, then its own call, then ``finishRunningNow()``.
    /// - Complexity: O(1).
    func takeOver() -> _WaitingJobs? {
        _lock.withLock { () -> _WaitingJobs? in
            if _isRunning { return nil }
            _isRunning = true
            return _takeWaiting()
        }
    }

    /// Runs what was posted while the caller ran calls at once, for at most one slice, then marks
    /// the queue idle; a drain is scheduled for what is left.
    @usableFromInline
    func finishRunningNow() {
        _runSlice()
    }

    private func _scheduleDrain() {
        if _actorID == nil {
            Task { @MainActor in self._drain() }
        } else if let actor = _actor {
            Task { await self._drain(on: actor) }
        } else {
            // The actor is gone: nobody is left to run these calls.
            _discardAll()
        }
    }

    private func _drain(on actor: isolated any Actor) {
        _drain()
    }

    /// The scheduled drain, on the actor: one slice.
    private func _drain() {
        let runs = _lock.withLock { () -> Bool in
            _isDrainScheduled = false
            // Running already means this task runs inside a handler on the actor: the running
            // slice below it will get to everything, or schedule the next drain.
            if _isRunning { return false }
            _isRunning = true
            return true
        }
        if runs { _runSlice() }
    }

    /// Runs the queued calls, in order, until the queue is empty or the slice is spent; then marks
    /// the queue idle and, if calls are left, schedules a drain for them. The caller has marked the
    /// queue running.
    private func _runSlice() {
        var deadline: UInt64 = 0
        while true {
            var batch: [_ActorJob] = []
            var index = 0
            let isEmpty = _lock.withLock { () -> Bool in
                if !_batch.isEmpty {
                    swap(&batch, &_batch)
                    index = _batchStart
                    _batchStart = 0
                    return false
                }
                if _pending.isEmpty {
                    _isRunning = false
                    return true
                }
                swap(&batch, &_pending)
                return false
            }
            if isEmpty { return }
            if deadline == 0 { deadline = _now() &+ Self.sliceNanoseconds }
            while index < batch.count {
                batch[index].run()
                index &+= 1
                if _now() >= deadline { return _endSlice(leaving: consume batch, from: index) }
            }
        }
    }

    /// Ends a slice whose time is spent: puts back the calls of `batch` from `index` (the oldest
    /// in the queue), marks the queue idle and schedules a drain if any call is left.
    private func _endSlice(leaving batch: consuming [_ActorJob], from index: Int) {
        var start = index
        if start == batch.count {
            batch = []
            start = 0
        } else if start >= batch.count / 2 {
            // Drops the calls that ran, so that what they captured is released now, outside the
            // lock; the batch is this slice's alone, so the rest moves in place, and moving no more
            // than what ran keeps each call O(1) amortized.
            batch.removeFirst(start)
            start = 0
        }
        var rest = batch
        let schedules = _lock.withLock { () -> Bool in
            // `_batch` is empty: this slice took it.
            swap(&rest, &_batch)
            _batchStart = start
            _isRunning = false
            guard !_batch.isEmpty || !_pending.isEmpty, !_isDrainScheduled else { return false }
            _isDrainScheduled = true
            return true
        }
        if schedules { _scheduleDrain() }
    }

    /// Takes the waiting calls; call under the lock.
    private func _takeWaiting() -> _WaitingJobs {
        var waiting = _WaitingJobs(older: [], olderStart: 0, newer: [])
        if !_batch.isEmpty {
            swap(&waiting.older, &_batch)
            waiting.olderStart = _batchStart
            _batchStart = 0
        }
        swap(&waiting.newer, &_pending)
        return waiting
    }

    private func _discardAll() {
        let discarded = _lock.withLock { () -> _WaitingJobs in
            _isDrainScheduled = false
            return _takeWaiting()
        }
        // Released here, outside the lock; a waiter is still woken.
        for job in discarded.older[discarded.olderStart...] where job.runsWithoutActor { job.run() }
        for job in discarded.newer where job.runsWithoutActor { job.run() }
    }
}

/// The monotonic clock that times a slice, in nanoseconds.
@inline(__always)
private func _now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

private struct _WeakQueue {
    weak var queue: _ActorQueue?
}

/// Tells whether the current code runs on the main dispatch queue, which is where the main actor
/// runs its jobs on every platform this library supports.
@usableFromInline
enum _MainQueueProbe {
    private static let _key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    @usableFromInline
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: _key) == 1 }
}

/// Waits until every handler call that was queued for an actor before this call has run.
///
/// Handlers that belong to an actor run on it: at once when the message is sent from that actor,
/// otherwise soon after, in order. A test (or any code) that sends from elsewhere and then wants
/// to see the effect awaits this function instead of sleeping:
///
/// ```swift
/// await Task.detached { model.count.value = 1 }.value
/// await waitForPendingDeliveries()
/// #expect(viewModel.label == "1")
/// ```
///
/// It covers the calls already queued for any actor when it is called, including those that
/// they queue in turn before it returns. A message still being delivered by another thread (or
/// queued behind such a delivery on its messenger) is not covered until it reaches the actor's
/// queue.
///
/// - Complexity: O(*a*) for *a* actors with queued calls.
public func waitForPendingDeliveries() async {
    // Two rounds: a call that ran during the first round may have queued more for another actor.
    for _ in 0..<2 {
        for queue in _ActorQueue.busyQueues() {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                _ = queue.post(
                    _ActorJob(run: { continuation.resume() }, runsWithoutActor: true),
                    onActor: false
                )
            }
        }
    }
}
