import Dispatch

/// A handler call waiting to run on an actor.
@usableFromInline
struct _ActorJob {
    let run: () -> Void
    /// Whether the call must run even when the actor is gone (it only resumes a waiter).
    var runsWithoutActor = false
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
/// batch it was running stays first in line (the drain's rest, ahead of its pending calls), so
/// the order holds across slices; a delivery on the actor that comes between two slices runs that
/// rest first. A slice reads the clock once per call, and the first slice reads it only if some
/// call was waiting: a delivery on the actor with nothing queued never does.
///
/// The queue refers to its actor weakly: an observation never keeps its observer alive.
@usableFromInline
final class _ActorQueue: @unchecked Sendable {  // `_calls`: `_lock`; `_actor` is weak
    /// The calls, by the rules of a drain run by slices (`_SerialDrain+Slices.swift`): the state
    /// machine says what to do, under the lock; the calls run after unlocking, on the actor.
    /// The lock makes every access exclusive, so its run-time exclusivity checks are left out.
    private let _lock = _Lock()
    @exclusivity(unchecked) private var _calls = _SerialDrain<_ActorJob>(budget: .max)

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
        return queues.filter { queue in queue._lock.withLock { queue._calls.isBusy } }
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
    /// - Returns: `nil` if the call was queued. Otherwise the queue is the caller's: it runs on the
    ///   actor, and this function has run the rest of a batch that a slice left, if any; the
    ///   caller runs the returned calls, which waited after those, then its own call, then
    ///   ``finishRunningNow()``.
    /// - Complexity: O(1) amortized, plus the calls a slice left.
    @usableFromInline @inline(__always)
    func post(_ job: @autoclosure () -> _ActorJob, onActor: Bool) -> _SerialDrain<_ActorJob>.Batch? {
        var rest: _SerialDrain<_ActorJob>.Batch?
        var waiting: _SerialDrain<_ActorJob>.Batch?
        var tookOver = false
        let schedules = _lock.withLock { () -> Bool in
            if onActor, _calls.takeOver(rest: &rest, waiting: &waiting) {
                tookOver = true
                return false
            }
            return _calls.post(job())
        }
        if schedules { _scheduleDrain() }
        guard tookOver else { return nil }
        return _runRest(&rest, returning: &waiting)
    }

    /// Queues a call from code that holds a lock of its own, which orders this call among others
    /// it posts; the caller schedules the drain after unlocking if this returns `true`.
    ///
    /// The queue's lock is a leaf, so taking it under the caller's is safe; scheduling a task, and
    /// discarding the calls of an actor that is gone, wait until the caller has unlocked.
    ///
    /// - Complexity: O(1) amortized.
    func postWhileCallerLocked(_ job: _ActorJob) -> Bool {
        _lock.withLock { _calls.post(job) }
    }

    /// Schedules the drain that ``postWhileCallerLocked(_:)`` asked for.
    func scheduleDrain() {
        _scheduleDrain()
    }

    /// Takes the queue if nothing waits in it and nothing runs or is scheduled, for code that runs
    /// on the actor and holds a lock of its own: the caller then runs its call after unlocking, at
    /// once, and calls ``finishRunningNow()``.
    ///
    /// Unlike ``takeOver()``, it never takes a backlog: a call that finds calls waiting is posted
    /// behind them, so that code on the actor is not held for the backlog.
    ///
    /// - Returns: Whether the caller took the queue.
    /// - Complexity: O(1).
    func takeOverIfIdleWhileCallerLocked() -> Bool {
        _lock.withLock {
            guard !_calls.isBusy else { return false }
            var rest: _SerialDrain<_ActorJob>.Batch?
            var waiting: _SerialDrain<_ActorJob>.Batch?
            // Both stay empty: nothing was waiting.
            return _calls.takeOver(rest: &rest, waiting: &waiting)
        }
    }

    /// Takes the queue for a delivery that runs on the actor, unless calls are running on it
    /// already (the delivery runs inside one of them); as ``post(_:onActor:)`` without a call.
    ///
    /// - Returns: `nil` if calls are running. Otherwise, as ``post(_:onActor:)`` on the actor.
    /// - Complexity: O(1), plus the calls a slice left.
    func takeOver() -> _SerialDrain<_ActorJob>.Batch? {
        var rest: _SerialDrain<_ActorJob>.Batch?
        var waiting: _SerialDrain<_ActorJob>.Batch?
        guard _lock.withLock({ _calls.takeOver(rest: &rest, waiting: &waiting) }) else { return nil }
        return _runRest(&rest, returning: &waiting)
    }

    /// Runs the rest of a batch that a slice left, if any, for a delivery on the actor that has
    /// just taken the queue (those calls come before every other), and returns the calls that were
    /// waiting, for the caller to run next.
    @inline(__always)
    private func _runRest(
        _ rest: inout _SerialDrain<_ActorJob>.Batch?,
        returning waiting: inout _SerialDrain<_ActorJob>.Batch?
    ) -> _SerialDrain<_ActorJob>.Batch {
        if var older = rest.take() {
            while let job = older.next() { job.run() }
        }
        return waiting.take() ?? .empty
    }

    /// Runs what was posted while the caller ran calls at once, for at most one slice, then marks
    /// the queue idle; a drain is scheduled for what is left.
    @usableFromInline
    func finishRunningNow() {
        // Most often nothing was posted meanwhile: the queue goes idle in one step, without a slice.
        if !_lock.withLock({ _calls.finishIfIdle() }) { _runSlice() }
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

    /// The scheduled drain, on the actor: one slice, unless calls are running already (this task
    /// runs inside a handler on the actor, and the slice below it gets to everything, or
    /// schedules the next drain).
    private func _drain() {
        if _lock.withLock({ _calls.startScheduled() }) { _runSlice() }
    }

    /// Runs the queued calls, in order, until the queue is empty or the slice is spent; then marks
    /// the queue idle and, if calls are left, schedules a drain for them. The caller is the
    /// drain's runner. The clock is read only once a call is found waiting: a delivery on the actor
    /// with nothing queued never reads it.
    private func _runSlice() {
        var deadline: UInt64 = 0
        while var batch = _lock.withLock({ _calls.nextBatch() }) {
            if deadline == 0 { deadline = _now() &+ Self.sliceNanoseconds }
            while let job = batch.next() {
                job.run()
                if _now() >= deadline {
                    // The calls that ran were released as they ran; the rest goes back first in
                    // line, replacing an empty rest, so the lock releases nothing.
                    let schedules = _lock.withLock { _calls.endSlice(leaving: batch) }
                    if schedules { _scheduleDrain() }
                    return
                }
            }
        }
    }

    private func _discardAll() {
        let (rest, waiting) = _lock.withLock { _calls.discardAll() }
        // Released here, outside the lock; a waiter is still woken.
        for job in rest where job.runsWithoutActor { job.run() }
        for job in waiting where job.runsWithoutActor { job.run() }
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

/// Waits until every handler call that was queued for an actor before this call has run, and every
/// delivery that a `send` handed on has finished.
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
/// It first waits for the work that calls handed on because it went past their budget (a send's
/// delivery of other threads' messages, a receiver's relationship callbacks; see
/// <doc:DeliveryAndConcurrency>), then covers the calls already queued for any actor, including
/// those that they queue in turn before it returns. A message still being delivered by a thread
/// inside its own `send` (or queued behind such a delivery on its messenger) is not covered until
/// it reaches the actor's queue.
///
/// - Complexity: O(*a*) for *a* actors with queued calls, plus the time the handed-on work takes.
public func waitForPendingDeliveries() async {
    while _HandOffs.inFlight > 0 {
        try? await Task.sleep(for: .milliseconds(1))
    }
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
