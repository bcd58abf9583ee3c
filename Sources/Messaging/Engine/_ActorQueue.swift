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
/// waiting (they came first), then its own, then whatever was posted meanwhile; a drain task that
/// was scheduled for them later finds nothing to do. A delivery from elsewhere queues its call
/// and, if nobody is about to run the queue, schedules one task to drain it on the actor. A call
/// posted while the queue is running (from a handler on the actor) waits its turn, so handlers on
/// one actor never nest.
///
/// The queue refers to its actor weakly: an observation never keeps its observer alive.
@usableFromInline
final class _ActorQueue: @unchecked Sendable {  // `_pending`, `_isRunning`, `_isDrainScheduled`: `_lock`
    // The lock makes every access to the `var`s exclusive, so their run-time exclusivity checks
    // are left out.
    private let _lock = _Lock()
    @exclusivity(unchecked) private var _pending: [_ActorJob] = []
    /// Whether calls are running on the actor right now (only the actor itself can see it `true`).
    @exclusivity(unchecked) private var _isRunning = false
    /// Whether a task to drain the queue on the actor is scheduled and has not started yet.
    @exclusivity(unchecked) private var _isDrainScheduled = false

    /// `nil` for the main actor.
    private weak var _actor: (any Actor)?
    /// The actor's identity, compared without a weak load; `nil` for the main actor.
    private let _actorID: ObjectIdentifier?

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
            queue._lock.withLock { !queue._pending.isEmpty || queue._isRunning || queue._isDrainScheduled }
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
    ///   which runs on the actor, runs them, then its own call, then ``finishRunningNow()``.
    /// - Complexity: O(1) amortized.
    @usableFromInline
    func post(_ job: @autoclosure () -> _ActorJob, onActor: Bool) -> [_ActorJob]? {
        let (waiting, schedules) = _lock.withLock { () -> ([_ActorJob]?, Bool) in
            if onActor && !_isRunning {
                _isRunning = true
                return (_takePending(), false)
            }
            _pending.append(job())
            guard !_isRunning, !_isDrainScheduled else { return (nil, false) }
            _isDrainScheduled = true
            return (nil, true)
        }
        if schedules { _scheduleDrain() }
        return waiting
    }

    /// Runs what was posted while the caller ran calls at once, then marks the queue idle.
    @usableFromInline
    func finishRunningNow() {
        _runUntilEmpty()
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

    /// The scheduled drain, on the actor.
    private func _drain() {
        let batch = _lock.withLock { () -> [_ActorJob]? in
            _isDrainScheduled = false
            // Running already means this task runs inside a handler on the actor: the running
            // loop below it will get to everything.
            if _isRunning { return nil }
            _isRunning = true
            return _takePending()
        }
        guard let batch else { return }
        for job in batch { job.run() }
        _runUntilEmpty()
    }

    /// Runs the queued calls, in order, until the queue is empty; then marks it idle.
    private func _runUntilEmpty() {
        while true {
            let batch = _lock.withLock { () -> [_ActorJob] in
                if _pending.isEmpty { _isRunning = false }
                return _takePending()
            }
            if batch.isEmpty { return }
            for job in batch { job.run() }
        }
    }

    /// Takes the waiting calls; call under the lock.
    private func _takePending() -> [_ActorJob] {
        var taken: [_ActorJob] = []
        swap(&taken, &_pending)
        return taken
    }

    private func _discardAll() {
        let discarded = _lock.withLock { () -> [_ActorJob] in
            _isDrainScheduled = false
            return _takePending()
        }
        // Released here, outside the lock; a waiter is still woken.
        for job in discarded where job.runsWithoutActor { job.run() }
    }
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
