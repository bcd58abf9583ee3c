/// The rules of a timeout, without threads or clocks: once `interval` passes with no message,
/// counted from the start of the observation and then from each message, the observation times
/// out, and no message goes on after that.
///
/// The owner calls these methods under its lock and performs the returned action after unlocking.
/// Times are durations since the owner's origin (see `_Timeline`).
///
/// One sleeper serves the whole observation: a message only moves the deadline later, and the
/// sleeper, when it wakes at the old deadline, sleeps on to the new one. A message goes on at once,
/// from the stage; while it goes through the rest of the chain (between ``receive(now:)`` and
/// ``passed()``), the observation does not time out: a deadline that falls meanwhile is put off by
/// an interval, so the timeout's `nil` never runs through the rest of the chain beside a message.
/// Each sleeper has a *generation*; the wake-up of a sleeper that is not the current one does
/// nothing.
@usableFromInline
struct _TimeoutState<Sleeper> {
    /// What to do after a sleeper woke up.
    @usableFromInline
    enum WakeAction {
        /// The deadline has moved: sleep again until `until`.
        case sleep(until: Duration)
        /// The observation timed out: end it, send the timeout on, and release `releasing` (the
        /// sleeper reporting) after unlocking.
        case timeOut(releasing: Sleeper?)
        /// The sleeper is not the current one: end it.
        case finish
    }

    /// What to do with a sleeper that was just started.
    @usableFromInline
    enum InstallAction {
        /// The state keeps it: it is the current sleeper.
        case installed
        /// The observation timed out or stopped already: cancel it.
        case cancel(Sleeper)
    }

    /// How long the observation may go without a message.
    @usableFromInline let interval: Duration
    /// When the observation times out unless a message comes first; `nil` before ``start(now:)``
    /// and before the first message.
    @usableFromInline var deadline: Duration?
    /// Whether a message is going through the rest of the chain.
    @usableFromInline var isPassing = false
    /// Whether the observation timed out: nothing goes on any more.
    @usableFromInline var isTimedOut = false
    /// The sleeper that watches the deadline; `task` is `nil` until the owner has installed it.
    @usableFromInline var sleeper: (generation: UInt64, task: Sleeper?)?
    @usableFromInline var lastGeneration: UInt64 = 0

    @inlinable
    init(interval: Duration) {
        self.interval = interval
    }

    /// Starts the countdown at the start of the observation, at `now`.
    ///
    /// - Returns: The generation and the deadline of the sleeper to start, or `nil` if the
    ///   observation timed out or was stopped already.
    mutating func start(now: Duration) -> (generation: UInt64, deadline: Duration)? {
        guard !isTimedOut, sleeper == nil else { return nil }
        let deadline = Swift.max(self.deadline ?? now + interval, now + interval)
        self.deadline = deadline
        lastGeneration &+= 1
        sleeper = (lastGeneration, nil)
        return (lastGeneration, deadline)
    }

    /// A message arrived at `now`: whether it goes on. It does unless the observation timed out;
    /// it moves the deadline to `now + interval`. Inlinable, as every message comes here.
    @inlinable
    mutating func receive(now: Duration) -> Bool {
        guard !isTimedOut else { return false }
        deadline = now + interval
        isPassing = true
        return true
    }

    /// The message that ``receive(now:)`` let through has gone through the rest of the chain.
    @inlinable
    mutating func passed() {
        isPassing = false
    }

    /// Handles the wake-up of the sleeper of `generation` at `now`.
    mutating func wake(generation: UInt64, now: Duration) -> WakeAction {
        guard !isTimedOut, let current = sleeper, current.generation == generation, let deadline else { return .finish }
        guard deadline <= now else { return .sleep(until: deadline) }
        guard !isPassing else {
            // The chain is busy with a message, so not quiet: the countdown starts again.
            self.deadline = now + interval
            return .sleep(until: now + interval)
        }
        isTimedOut = true
        sleeper = nil
        return .timeOut(releasing: current.task)
    }

    /// Records the sleeper that the owner started for `generation`.
    mutating func sleeperStarted(_ task: Sleeper, generation: UInt64) -> InstallAction {
        guard let current = sleeper, current.generation == generation, current.task == nil else { return .cancel(task) }
        sleeper = (generation, task)
        return .installed
    }

    /// Stops the countdown: returns the sleeper to cancel, if it was installed.
    mutating func stop() -> Sleeper? {
        defer { sleeper = nil }
        return sleeper?.task
    }
}

extension _TimeoutState.WakeAction: Equatable where Sleeper: Equatable {}
extension _TimeoutState.InstallAction: Equatable where Sleeper: Equatable {}
