/// The rules of ``MessageTimer``, without threads or clocks.
///
/// The owner calls these methods under its lock and performs the returned action after unlocking:
/// it starts, cancels or releases sleepers (tasks, in the owner; plain values in the tests) and
/// delivers the fire. Times are durations since the owner's origin (see `_Timeline`).
///
/// Every start makes a new *generation*. A sleeper reports its wake-up with the generation it
/// was started for, and a report of any other generation does nothing: a sleep that ended just
/// as the timer was stopped or restarted cannot fire, whatever the order in which the threads
/// get the lock.
///
/// A repeating timer keeps to the grid of its first deadline: the next deadline is the previous
/// *deadline* plus the interval, not the time of the wake-up plus the interval, so late wake-ups
/// do not add up. If a wake-up is so late that whole intervals have passed, the missed fires are
/// dropped (one fire, not a burst) and the next deadline is the first one of the grid that is
/// still ahead.
///
/// Every method is O(1) and allocates nothing: the state is a few words and an enum.
struct _TimerState<Sleeper> {
    enum Phase {
        case idle
        /// Waiting for `deadline`; `sleeper` is `nil` until the owner has started it.
        case scheduled(generation: UInt64, deadline: Duration, sleeper: Sleeper?)
    }

    /// What to do after ``start(after:repeats:now:)`` or ``restart(now:)``.
    enum StartAction {
        /// Start a sleeper for `generation` that sleeps until `deadline`, and cancel `replaced`,
        /// the sleeper of the schedule this one replaces, if it had one.
        case schedule(generation: UInt64, deadline: Duration, replaced: Sleeper?)
        /// Nothing to start: the timer was never started.
        case none
    }

    /// What to do after ``stop()``.
    enum StopAction {
        case cancel(Sleeper)
        case none
    }

    /// What to do with a sleeper that was just started.
    enum InstallAction {
        /// The state keeps it: it is the sleeper of the current schedule.
        case installed
        /// Its schedule was stopped or replaced meanwhile: cancel it.
        case cancel(Sleeper)
    }

    /// What to do after a sleeper woke up.
    enum FireAction {
        /// A stale or stopped schedule: deliver nothing and end the sleeper.
        case ignore
        /// Deliver the fire; the timer stopped (it does not repeat). Release `sleeper` (it is the
        /// one reporting) after unlocking, and end it.
        case deliverAndFinish(releasing: Sleeper?)
        /// Deliver the fire; the same sleeper sleeps again until `deadline`.
        case deliverAndSleep(until: Duration)
    }

    private(set) var phase = Phase.idle
    /// The delay of the last start, which ``restart(now:)`` uses again and a repeating timer uses
    /// as its interval; `nil` before the first start.
    private(set) var delay: Duration?
    private(set) var repeats = false
    private var lastGeneration: UInt64 = 0

    var isRunning: Bool {
        if case .scheduled = phase { return true }
        return false
    }

    /// The generation of the current schedule, or `nil` when idle.
    var generation: UInt64? {
        if case .scheduled(let generation, _, _) = phase { return generation }
        return nil
    }

    /// Schedules a fire `delay` after `now`, replacing the current schedule if there is one.
    ///
    /// - Precondition: `delay` is positive when `repeats` is `true`.
    mutating func start(after delay: Duration, repeats: Bool, now: Duration) -> StartAction {
        precondition(!repeats || delay > .zero, "a repeating timer needs a positive interval")
        self.delay = delay
        self.repeats = repeats
        var replaced: Sleeper?
        if case .scheduled(_, _, let sleeper) = phase { replaced = sleeper }
        lastGeneration &+= 1
        let deadline = now + delay
        phase = .scheduled(generation: lastGeneration, deadline: deadline, sleeper: nil)
        return .schedule(generation: lastGeneration, deadline: deadline, replaced: replaced)
    }

    /// Starts again with the delay and repetition of the last start, from `now`, whether the
    /// timer is running or not; does nothing if it was never started.
    mutating func restart(now: Duration) -> StartAction {
        guard let delay else { return .none }
        return start(after: delay, repeats: repeats, now: now)
    }

    /// Cancels the current schedule, if any.
    mutating func stop() -> StopAction {
        guard case .scheduled(_, _, let sleeper) = phase else { return .none }
        phase = .idle
        return sleeper.map { .cancel($0) } ?? .none
    }

    /// Records the sleeper that the owner started for `generation`.
    mutating func sleeperStarted(_ sleeper: Sleeper, generation: UInt64) -> InstallAction {
        guard case .scheduled(generation, let deadline, .none) = phase else { return .cancel(sleeper) }
        phase = .scheduled(generation: generation, deadline: deadline, sleeper: sleeper)
        return .installed
    }

    /// Handles the wake-up of the sleeper of `generation` at `now`.
    mutating func fire(generation: UInt64, now: Duration) -> FireAction {
        guard case .scheduled(generation, let deadline, let sleeper) = phase, deadline <= now else {
            // Another generation, or stopped. (A wake-up before the deadline cannot come from a
            // clock that keeps its promise; ignoring it ends that sleeper, which is then a bug
            // of the clock that shows as a timer that stops.)
            return .ignore
        }
        guard repeats, let interval = delay else {
            phase = .idle
            return .deliverAndFinish(releasing: sleeper)
        }
        let next = Self.nextDeadline(after: deadline, interval: interval, now: now)
        phase = .scheduled(generation: generation, deadline: next, sleeper: sleeper)
        return .deliverAndSleep(until: next)
    }

    /// The first deadline of the grid `deadline + k × interval` (k ≥ 1) that is later than `now`.
    ///
    /// - Complexity: O(1): a division finds how many intervals were missed; the loop corrects
    ///   the rounding of that division and runs at most a few times.
    static func nextDeadline(after deadline: Duration, interval: Duration, now: Duration) -> Duration {
        var next = deadline + interval
        guard next <= now else { return next }
        let missed = ((now - next) / interval).rounded(.down)
        if missed >= 2, missed < 1e15 {
            // One interval less than the estimate, so that rounding can only leave `next` behind,
            // never skip a deadline that is still ahead.
            next += interval * Int64(missed - 1)
        } else if missed >= 1e15 {
            // So far behind (or so short an interval) that the division says little: start the
            // grid again from `now`.
            next = now
        }
        while next <= now { next += interval }
        return next
    }
}

extension _TimerState.StartAction: Equatable where Sleeper: Equatable {}
extension _TimerState.StopAction: Equatable where Sleeper: Equatable {}
extension _TimerState.InstallAction: Equatable where Sleeper: Equatable {}
extension _TimerState.FireAction: Equatable where Sleeper: Equatable {}
