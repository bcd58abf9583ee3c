/// The relationship callbacks of an observer on an actor (a ``MainActorObserver`` or an
/// ``ActorObserver``), and the queue of that actor: the receiver posts them there, in order with
/// the observer's handler calls.
///
/// The receiver posts a beginning under its lock before the observation is inserted into the
/// messenger's table, so it comes before every handler call of the relationship; and an end
/// under its lock when the end is decided, so beginnings and ends reach the actor in the order
/// they were decided. The end's call first ends the relationship's observations (ending one twice
/// does nothing): a handler call that comes after it in the queue finds its observation ended and
/// is skipped, whichever thread is still on its way to ending them.
struct _IsolatedRelationshipCallbacks {
    let queue: _ActorQueue
    /// Calls `relationshipBegan(with:)` (`true`) or `relationshipEnded(with:)` (`false`) on the
    /// actor, if the observer is still alive.
    let call: (_ began: Bool, _ observable: ObjectIdentifier) -> Void

    /// The callbacks of `observer`, or `nil` if it is not bound to an actor.
    @inline(__always)
    static func of<Observing: Observer>(_ observer: Observing) -> Self? {
        // Asked of the type first, here in the caller: a cast that fails, or even passing the
        // observer on (a retain and a release through its side table), costs a good part of a
        // relationship change, and most observers are not bound to an actor.
        guard Observing._hasIsolatedRelationshipCallbacks else { return nil }
        return Self(observer)
    }

    private init?(_ observer: any Observer) {
        if let observer = observer as? any MainActorObserver {
            queue = .main
            call = { [weak observer] began, observable in
                // Posted to the main actor's queue, which runs its calls on the main actor.
                MainActor.assumeIsolated {
                    guard let observer else { return }
                    if began {
                        observer.relationshipBegan(with: observable)
                    } else {
                        observer.relationshipEnded(with: observable)
                    }
                }
            }
        } else if let observer = observer as? any ActorObserver {
            queue = .of(observer)
            call = { [weak observer] began, observable in
                guard let observer else { return }
                // Posted to the actor's queue, which runs its calls on the actor.
                observer.assumeIsolated { observer in
                    if began {
                        observer.relationshipBegan(with: observable)
                    } else {
                        observer.relationshipEnded(with: observable)
                    }
                }
            }
        } else {
            return nil
        }
    }

    /// Takes the actor's queue for a beginning that the caller, which runs on the observer's
    /// actor, runs at once with ``runBeginningAtOnce(with:)`` after unlocking, before it inserts
    /// the observation; under the receiver's lock. Only an idle queue is taken: behind calls that
    /// wait, the beginning is posted instead (``postBeginning(with:)``).
    ///
    /// A beginning run at once schedules no task: a task that drains an actor's queue holds the
    /// actor until it runs, which would keep an actor observer alive after its last reference.
    ///
    /// - Returns: Whether the caller runs the beginning at once.
    func takeQueueForBeginningAtOnce() -> Bool {
        queue.takeOverIfIdleWhileCallerLocked()
    }

    /// Runs the beginning of the relationship with `observable`, then what was posted meanwhile,
    /// and gives the queue back: on the actor, after unlocking.
    func runBeginningAtOnce(with observable: ObjectIdentifier) {
        call(true, observable)
        queue.finishRunningNow()
    }

    /// Posts the beginning of the relationship with `observable`, under the receiver's lock.
    ///
    /// - Returns: Whether the caller schedules the queue's drain after unlocking.
    func postBeginning(with observable: ObjectIdentifier) -> Bool {
        let call = call
        return queue.postWhileCallerLocked(_ActorJob(run: { call(true, observable) }))
    }

    /// Posts the end of the relationship with `observable`, under the receiver's lock; the call
    /// ends `observations` before it calls the observer.
    ///
    /// - Returns: Whether the caller schedules the queue's drain after unlocking.
    func postEnd(with observable: ObjectIdentifier, ending observations: [_ObservationRecord]) -> Bool {
        let call = call
        // Held weakly: the thread that decided the end releases them (and the handlers they
        // hold) once it has ended them, without waiting for the actor.
        let observations = observations.map { _WeakObservationRecord(record: $0) }
        return queue.postWhileCallerLocked(
            _ActorJob(run: {
                for observation in observations { _ = observation.record?._end() }
                call(false, observable)
            }))
    }
}

/// An observation that an end call ends if it is still alive when the call runs.
private struct _WeakObservationRecord {
    weak var record: _ObservationRecord?
}
