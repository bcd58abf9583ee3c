/// The state of a view whose sources' messages go through one ``_SerialDrain``: the first thread
/// to submit a message becomes the runner and applies it, then the ones queued meanwhile, in
/// order, and sends each resulting change; so the view's changes go out in the order it applied
/// them, whichever threads deliver its sources' messages.
///
/// The state keeps the drain under one of its locks and says how to apply a message; submitting
/// and running are written here once.
protocol _DrainedViewState: AnyObject, Sendable {
    associatedtype Job

    /// The label of the queue that a handed-off runner runs on.
    static var _handOffLabel: String { get }

    /// Runs `body` on the drain under the lock that guards it. `body` only moves values.
    func _withDrain<Result>(_ body: (inout _SerialDrain<Job>) -> Result) -> Result

    /// Applies one message and sends the view's change, if any. Only the drain's runner calls it,
    /// without any lock.
    func _apply(_ job: Job, isolation: (any Actor)?)
}

extension _DrainedViewState {
    /// Queues a message and, if no other thread is applying messages, applies it and every
    /// message queued meanwhile. Call without any lock.
    ///
    /// - Complexity: O(1) to queue; the runner applies the messages queued while it runs.
    func _submit(_ job: Job, isolation: (any Actor)?) {
        guard let now = _withDrain({ $0.submit(job) }) else { return }
        _apply(now, isolation: isolation)
        _runQueued(isolation: isolation, handsOff: true)
    }

    /// Applies the queued messages; a caller's own call (`handsOff`) stops after the drain's budget
    /// and hands the rest to a runner of their own, which applies them all.
    func _runQueued(isolation: (any Actor)?, handsOff: Bool) {
        var ran = 0
        while true {
            let step = _withDrain { $0.next(afterRunning: ran, handsOff: handsOff) }
            switch consume step {
            case .finished:
                return
            case .handOff:
                _HandOffs.run(label: Self._handOffLabel) {
                    self._runQueued(isolation: nil, handsOff: false)
                }
                return
            case .run(let batch):
                ran += batch.count
                for job in batch { _apply(job, isolation: isolation) }
            }
        }
    }
}
