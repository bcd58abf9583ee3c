/// The rules of debouncing, without threads or clocks: every message restarts the countdown, and
/// when the countdown ends, the latest message is delivered.
///
/// The owner calls these methods under its lock and performs the returned action after unlocking.
/// Times are durations since the owner's origin (see `_Timeline`).
///
/// One sleeper serves a whole burst. A message that arrives while a countdown runs only replaces
/// the pending message and moves the deadline later; the sleeper, when it wakes at the old
/// deadline, is told to sleep on until the new one. So a message costs O(1) and, in the steady
/// state of a burst, no allocation: no task per message, no queue (only the latest message is
/// kept), and the pending message lives inline in the enum. A burst costs one sleeper.
///
/// Each sleeper has a *generation*. Its wake-up does something only while its generation is the
/// current one: the late wake-up of a sleeper that was superseded (the owner stopped, and a new
/// burst started another sleeper) does nothing.
///
/// Values leave the state in the actions: a replaced message, a dropped message and a finished
/// sleeper are handed back, so that the owner releases them after unlocking and no `deinit` runs
/// under its lock.
@usableFromInline
struct _DebounceState<Message, Sleeper> {
    @usableFromInline
    enum Phase {
        case idle
        /// `message` is delivered at `deadline` unless another message comes first; `sleeper` is
        /// `nil` until the owner has started it.
        case pending(message: Message, deadline: Duration, generation: UInt64, sleeper: Sleeper?)
    }

    /// What to do after ``receive(_:now:)``.
    @usableFromInline
    enum ReceiveAction {
        /// The countdown starts: start a sleeper for `generation` that sleeps until `deadline`.
        case startSleeper(generation: UInt64, deadline: Duration)
        /// The countdown restarted; the running sleeper will sleep on. `superseded` is the message
        /// that will never be delivered.
        case postpone(superseded: Message)
    }

    /// What to do after a sleeper woke up.
    @usableFromInline
    enum WakeAction {
        /// Deliver `message` and end the sleeper; release `sleeper` (the one reporting) after
        /// unlocking.
        case deliver(Message, releasing: Sleeper?)
        /// The countdown was restarted meanwhile: sleep again until `deadline`.
        case sleep(until: Duration)
        /// A superseded sleeper: do nothing and end it.
        case finish
    }

    /// What to do after ``stop()``.
    @usableFromInline
    enum StopAction {
        /// Cancel `sleeper` (if it was started) and release the `dropped` message.
        case cancel(Sleeper?, dropped: Message)
        case none
    }

    /// What to do with a sleeper that was just started.
    @usableFromInline
    enum InstallAction {
        /// The state keeps it: it is the sleeper of the current countdown.
        case installed
        /// Its countdown was stopped or has already delivered: cancel it.
        case cancel(Sleeper)
    }

    /// How long the source must stay quiet before its latest message is delivered.
    @usableFromInline let interval: Duration
    @usableFromInline var phase = Phase.idle
    @usableFromInline var lastGeneration: UInt64 = 0

    @inlinable
    init(interval: Duration) {
        self.interval = interval
    }

    /// Whether a message is waiting for its countdown to end.
    var hasPendingMessage: Bool {
        if case .pending = phase { return true }
        return false
    }

    /// Takes `message` as the latest one and restarts the countdown from `now`. Inlinable, as
    /// every message of a burst comes here: the client's specialized code runs it without looking
    /// up type metadata.
    @inlinable
    mutating func receive(_ message: Message, now: Duration) -> ReceiveAction {
        let deadline = now + interval
        switch phase {
        case .idle:
            lastGeneration &+= 1
            phase = .pending(message: message, deadline: deadline, generation: lastGeneration, sleeper: nil)
            return .startSleeper(generation: lastGeneration, deadline: deadline)
        case .pending(let superseded, _, let generation, let sleeper):
            phase = .pending(message: message, deadline: deadline, generation: generation, sleeper: sleeper)
            return .postpone(superseded: superseded)
        }
    }

    /// Handles the wake-up of the sleeper of `generation` at `now`.
    mutating func wake(generation: UInt64, now: Duration) -> WakeAction {
        guard case .pending(let message, let deadline, generation, let sleeper) = phase else { return .finish }
        guard deadline <= now else { return .sleep(until: deadline) }
        phase = .idle
        return .deliver(message, releasing: sleeper)
    }

    /// Drops the pending message, if any, and ends the countdown.
    mutating func stop() -> StopAction {
        guard case .pending(let message, _, _, let sleeper) = phase else { return .none }
        phase = .idle
        return .cancel(sleeper, dropped: message)
    }

    /// Records the sleeper that the owner started for `generation`.
    @inlinable
    mutating func sleeperStarted(_ sleeper: Sleeper, generation: UInt64) -> InstallAction {
        guard case .pending(let message, let deadline, generation, .none) = phase else { return .cancel(sleeper) }
        phase = .pending(message: message, deadline: deadline, generation: generation, sleeper: sleeper)
        return .installed
    }
}

extension _DebounceState.ReceiveAction: Equatable where Message: Equatable {}
extension _DebounceState.WakeAction: Equatable where Message: Equatable, Sleeper: Equatable {}
extension _DebounceState.StopAction: Equatable where Message: Equatable, Sleeper: Equatable {}
extension _DebounceState.InstallAction: Equatable where Sleeper: Equatable {}
