// The hops of a chain: the stage that posts the rest of the chain to an actor's queue.
//
// The rest is posted to the one ``_ActorQueue`` of its actor, the queue that every handler bound
// for that actor goes through, so the causal order holds through a hop: messages that one thread
// sends on two messengers reach the actor in the order they were sent, whether their observers
// hop there or belong there. When the stage runs on the target actor already, the rest runs at
// once (after the calls that were waiting in the queue), as an actor observer's handler would.
// Right before the rest runs, the gate is asked whether the observation is still active.
//
// Not inlinable: a hop costs a queued call (one allocation and the queue's lock), and the rest of
// the chain is specialized in the client anyway, as the closures `rest` is made of.

/// Makes the stage that hops to the main actor; it takes the actor of the segment it runs in (`nil`
/// for the delivering thread).
@usableFromInline
func _hopToMainActor<Value: Sendable>(
    _ rest: @escaping @MainActor @Sendable (Value) -> Void,
    gate: _ChainGate
) -> @Sendable (Value, _ current: (any Actor)?) -> Void {
    let queue = _ActorQueue.main
    return { value, current in
        let job = _ActorJob(run: {
            guard gate.isActive else { return }
            // The queue runs its calls only on the main actor: at once from a delivery on it,
            // otherwise in a task isolated to it (see `_ActorQueue`).
            MainActor.assumeIsolated { rest(value) }
        })
        _runOrPost(job, on: queue, onActor: queue.isCurrent(current))
    }
}

/// Makes the stage that hops to `actor`; it takes the actor of the segment it runs in (`nil` for
/// the delivering thread). The stage holds the actor weakly: a chain never keeps its actor
/// alive, and the rest of a message for an actor that is gone is dropped.
@usableFromInline
func _hopToActor<Isolation: Actor, Value: Sendable>(
    _ actor: Isolation,
    _ rest: @escaping @Sendable (isolated Isolation, Value) -> Void,
    gate: _ChainGate
) -> @Sendable (Value, _ current: (any Actor)?) -> Void {
    let queue = _ActorQueue.of(actor)
    let target = _WeakActor(actor)
    return { value, current in
        let job = _ActorJob(run: {
            guard gate.isActive, let actor = target.actor else { return }
            // The queue runs its calls only on its actor (see `_ActorQueue`).
            actor.assumeIsolated { actor in rest(actor, value) }
        })
        _runOrPost(job, on: queue, onActor: queue.isCurrent(current))
    }
}

/// Makes what a time stage of an ``IsolatedObservationChain`` sends on with from its task: each
/// call posts the rest of the chain, `rest`, to the chain's actor queue `target`, where it runs
/// if the observation is still active.
///
/// `rest` is not `Sendable`: it belongs to the queue's actor, and runs only there, as every call
/// that the queue runs does.
@usableFromInline
func _postingToQueue<Value>(
    _ target: AnyObject,
    _ rest: @escaping (Value, AnyObject) -> Void,
    gate: _ChainGate
) -> (Value, AnyObject) -> Void {
    let queue = target as! _ActorQueue
    return { value, author in
        _runOrPost(_ActorJob(run: { if gate.isActive { rest(value, author) } }), on: queue, onActor: false)
    }
}

/// Runs `job` at once when the caller runs on the queue's actor (after the calls waiting in the
/// queue, which came first), otherwise queues it; as `_Observation._deliverIsolated` does.
private func _runOrPost(_ job: _ActorJob, on queue: _ActorQueue, onActor: Bool) {
    guard var waiting = queue.post(job, onActor: onActor) else { return }
    while let waitingJob = waiting.next() { waitingJob.run() }
    job.run()
    queue.finishRunningNow()
}

/// An actor held weakly by a hop.
///
/// `@unchecked Sendable`: the reference is only loaded after it is set, and the runtime makes weak
/// loads atomic.
private final class _WeakActor<Isolation: Actor>: @unchecked Sendable {
    weak var actor: Isolation?

    init(_ actor: Isolation) {
        self.actor = actor
    }
}
