/// An observable that sends an empty message after a delay, once or repeatedly.
///
/// ```swift
/// let timer = MessageTimer(repeats: true)
/// let token = timer.subscribe { refresh() }
/// timer.start(after: .seconds(10))  // fires every 10 seconds until stopped
/// ```
///
/// This is SwiftySignals' `TimerSignal`; it is not called `Timer`, to stay clear of Foundation's.
///
/// ## Delivery
/// A fire is sent with ``ObservableSource/send(_:isolation:)``, the timer as its author, from a
/// task of its own: plain handlers run on that task, those of a ``MainActorObserver`` or an
/// ``ActorObserver`` on their actor. A repeating timer keeps to the grid of its first deadline
/// (start time + *k* × interval): a late wake-up does not delay the fires after it. When whole
/// intervals pass before the timer gets to run (a suspended process, a machine that is far too
/// busy), their fires are dropped rather than delivered in a burst.
///
/// A timer that is stopped or restarted delivers nothing more from its old schedule, even when
/// that schedule's sleep had already ended: each schedule has a generation, and a wake-up counts
/// only while its generation is current. The one exception is a race between threads: when
/// ``stop()`` is called on one thread just as the timer, on its own task, has decided to fire,
/// that fire may still be delivered after `stop()` returns.
///
/// ## Memory
/// The timer keeps its observers alive no more than any observable does. A running timer's task
/// holds the timer weakly, so a timer that nobody holds any more stops: it is released, its task
/// is cancelled, and no fire comes. Keep the timer (a property, say) for as long as it should
/// run.
///
/// - Note: The delays are measured by the clock given to ``init(repeats:clock:)``. The default
///   `ContinuousClock` keeps counting while the machine sleeps; pass a `SuspendingClock` for a
///   timer that should not.
public final class MessageTimer: ObservableSource, _SleeperOwner, @unchecked Sendable {  // `_state`: `_lock`
    /// The messenger that sends the fires.
    public let messenger = Messenger<Void>()

    /// Whether the timer starts again after each fire, with its delay as the interval.
    public let repeats: Bool

    let _timeline: _Timeline
    let _lock = _Lock()
    /// Guarded by `_lock`, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) var _state = _TimerState<Task<Void, Never>>()

    /// Creates a timer that is not running.
    ///
    /// - Parameters:
    ///   - repeats: Whether the timer fires repeatedly, every `delay` given to ``start(after:)``,
    ///     until stopped; `false` for a timer that fires once per start.
    ///   - clock: The clock that measures the delays.
    public init(repeats: Bool = false, clock: any Clock<Duration> = ContinuousClock()) {
        self.repeats = repeats
        _timeline = _Timeline(clock)
    }

    deinit {
        // Nobody can observe the fires of a timer that is gone: end its task now, rather than
        // let it sleep until a deadline that may be far away.
        if case .cancel(let sleeper) = _lock.withLock({ _state.stop() }) { sleeper.cancel() }
    }

    /// Whether the timer is waiting to fire.
    ///
    /// A one-shot timer stops running when it fires; a repeating one runs until ``stop()``.
    ///
    /// - Complexity: O(1).
    public var isRunning: Bool {
        _lock.withLock { _state.isRunning }
    }

    /// Starts the timer: it fires `delay` from now, and then, if it repeats, every `delay`.
    ///
    /// If the timer is running, its current schedule is cancelled first: starting again
    /// postpones the next fire.
    ///
    /// - Parameter delay: The time until the first fire, and the interval of a repeating timer.
    ///   A one-shot timer with a delay of zero or less fires as soon as its task runs.
    /// - Precondition: `delay` is positive for a repeating timer.
    /// - Complexity: O(1); starts one task.
    public func start(after delay: Duration) {
        let now = _timeline.now
        let action = _lock.withLock { _state.start(after: delay, repeats: repeats, now: now) }
        _perform(action)
    }

    /// Starts the timer again with the delay of the last ``start(after:)``, counted from now.
    ///
    /// Running or not, the timer then fires one delay from now, like a watchdog that is fed. A
    /// timer that was never started stays idle.
    ///
    /// - Complexity: O(1); starts one task.
    public func restart() {
        let now = _timeline.now
        let action = _lock.withLock { _state.restart(now: now) }
        _perform(action)
    }

    /// Stops the timer: it delivers nothing until it is started again.
    ///
    /// Stopping a timer that is not running does nothing.
    ///
    /// - Complexity: O(1).
    public func stop() {
        if case .cancel(let sleeper) = _lock.withLock({ _state.stop() }) { sleeper.cancel() }
    }

    private func _perform(_ action: _TimerState<Task<Void, Never>>.StartAction) {
        guard case .schedule(let generation, let deadline, let replaced) = action else { return }
        replaced?.cancel()
        let sleeper = _timeline.startSleeper(for: self, generation: generation, until: deadline)
        if case .cancel(let stale) = _lock.withLock({ _state.sleeperStarted(sleeper, generation: generation) }) {
            stale.cancel()  // stopped or restarted on another thread meanwhile
        }
    }

    /// Reports a wake-up of the sleeper of `generation`: delivers the fire if that schedule is
    /// still current, and returns the next deadline of a repeating timer.
    @usableFromInline
    func _wake(generation: UInt64, now: Duration) -> Duration? {
        let action = _lock.withLock { _state.fire(generation: generation, now: now) }
        switch action {
        case .ignore:
            return nil
        case .deliverAndFinish(let sleeper):
            send(())
            withExtendedLifetime(sleeper) {}  // released here, after unlocking
            return nil
        case .deliverAndSleep(let next):
            send(())
            return next
        }
    }
}
