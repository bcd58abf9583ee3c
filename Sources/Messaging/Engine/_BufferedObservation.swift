/// An observation whose handler belongs to an actor and that keeps at most a given number of
/// messages waiting for it (a bounded ``MessageBuffering``), counting the ones it drops.
///
/// The calls it posts to the actor's queue carry no message: each takes the oldest message of this
/// observation's buffer when it runs, and as many calls wait in the queue as messages wait in the
/// buffer. A message that finds the buffer full posts no call: with `newest`, it pushes out the
/// oldest buffered message, and every waiting call then delivers a later message than the one it
/// was posted for (the latest message takes the place of the oldest waiting one); with `oldest`,
/// it is dropped, and every call delivers the message it was posted for. So the buffer, and the
/// observation's calls in the queue, never hold more than the limit, however far the actor is
/// behind.
///
/// A delivery that runs on the actor while no call runs there does not use the buffer: it runs the
/// waiting calls (which empty the buffer) and then its own, at once, like any actor observation.
final class _BufferedObservation<Message>: _Observation<Message> {
    // Shared between the delivering threads and the actor, like every observation; the buffer is
    // guarded by `_lock`, and the rest is immutable.

    private let _receive: (Message, AnyObject) -> Void
    private let _lock = _Lock()
    /// The messages the calls in the actor's queue will deliver, oldest first (under `_lock`).
    @exclusivity(unchecked) private var _buffer = _Ring<(message: Message, author: AnyObject)>()
    private let _limit: Int
    private let _keepsNewest: Bool
    private let _dropCounter: MessageDropCounter?

    init(
        observer: AnyObject,
        target: _ActorQueue,
        core: _MessengerCore<Message>,
        buffering: MessageBuffering,
        dropCounter: MessageDropCounter?,
        _ receive: @escaping (Message, AnyObject) -> Void
    ) {
        _receive = receive
        _limit = buffering._limit
        _keepsNewest = buffering._keepsNewest
        _dropCounter = dropCounter
        super.init(observer: observer, target: target, core: core, isToken: false, isBuffered: true)
    }

    override func _call(_ message: Message, _ author: AnyObject, _ isolation: (any Actor)?) {
        _receive(message, author)
    }

    /// Delivers from a delivery that runs in `current`: at once when that is the actor and no call
    /// runs there, otherwise into the buffer, posting a call to `queue` unless the buffer is full.
    ///
    /// A buffered message cannot keep an author that is running its `deinit`: `standIn` (the
    /// messenger) is kept instead, or the message is dropped if that is dying too.
    func _deliverBuffered(
        _ message: Message,
        _ author: AnyObject,
        on queue: _ActorQueue,
        from current: (any Actor)?,
        standIn: AnyObject?
    ) {
        if queue.isCurrent(current), var waiting = queue.takeOver() {
            while let waitingJob = waiting.next() { waitingJob.run() }
            if _isActive { _call(message, author, current) }
            queue.finishRunningNow()
            return
        }
        guard let author = _authorToKeep(author, standIn: standIn) else { return }
        let (posts, pushedOut) = _lock.withLock { () -> (Bool, (message: Message, author: AnyObject)?) in
            if _buffer.count < _limit {
                _buffer.append((message, author))
                return (true, nil)
            }
            guard _keepsNewest && _limit > 0 else { return (false, nil) }
            let oldest = _buffer.popFirst()
            _buffer.append((message, author))
            return (false, oldest)
        }
        if posts {
            _ = queue.post(_ActorJob(run: { [self] in _runBuffered() }), onActor: false)
        } else {
            // The message pushed out, if any, is released here, outside the lock.
            _ = pushedOut
            _dropCounter?._add()
        }
    }

    /// One posted call, on the actor: delivers the oldest buffered message.
    private func _runBuffered() {
        guard let next = _lock.withLock({ _buffer.popFirst() }) else { return }
        if _isActive { _call(next.message, next.author, nil) }
    }
}
