/// The rules of delaying, without threads or clocks: every message goes on `interval` after it
/// arrived, in the order the messages arrived.
///
/// The owner calls these methods under its lock and performs the returned action after unlocking.
/// Times are durations since the owner's origin (see `_Timeline`).
///
/// The messages wait in arrival order, and so in the order of their deadlines. One sleeper serves
/// them all: it sleeps until the earliest deadline, takes every message that is due, sends them on
/// and asks again, and ends once no message waits; the next message starts a new one. So the
/// messages go on one at a time, from one sleeper at a time, in order. Each sleeper has a
/// *generation*; the wake-up of a sleeper that is not the current one does nothing.
///
/// A message costs O(1) amortized: the earliest waits in `_next`, the others in a ring. Values leave
/// the state in the actions (the messages that are due, the finished sleeper), so that the owner
/// releases them after unlocking and no `deinit` runs under its lock.
@usableFromInline
struct _DelayState<Message, Sleeper> {
    /// What to do after ``receive(_:now:)``.
    @usableFromInline
    enum ReceiveAction {
        /// No sleeper runs: start one for `generation` that sleeps until `deadline`.
        case startSleeper(generation: UInt64, deadline: Duration)
        /// The running sleeper will send the message on in its turn.
        case wait
    }

    /// What to do after a sleeper woke up.
    @usableFromInline
    enum WakeAction {
        /// Send these messages on, in order, then ask again.
        case deliver([Message])
        /// The earliest message is not due yet: sleep until `until`.
        case sleep(until: Duration)
        /// No message waits, or the sleeper is not the current one: end it; release `releasing`
        /// (the one reporting) after unlocking.
        case finish(releasing: Sleeper?)
    }

    /// What to do with a sleeper that was just started.
    @usableFromInline
    enum InstallAction {
        /// The state keeps it: it is the current sleeper.
        case installed
        /// Its work was done, or stopped, already: cancel it.
        case cancel(Sleeper)
    }

    /// How long each message waits.
    @usableFromInline let interval: Duration
    /// The earliest waiting message, and when it is due.
    @usableFromInline var _next: (deadline: Duration, message: Message)?
    /// The other waiting messages, in arrival order.
    @usableFromInline var _rest = _Ring<(deadline: Duration, message: Message)>()
    /// The sleeper responsible for the waiting messages; `task` is `nil` until the owner has
    /// installed it.
    @usableFromInline var sleeper: (generation: UInt64, task: Sleeper?)?
    @usableFromInline var lastGeneration: UInt64 = 0

    @inlinable
    init(interval: Duration) {
        self.interval = interval
    }

    /// The number of waiting messages.
    var waitingCount: Int { _next == nil ? 0 : 1 + _rest.count }

    /// Takes `message`, arriving at `now`, to go on at `now + interval`. Inlinable, as every message
    /// comes here: the client's specialized code runs it without looking up type metadata.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func receive(_ message: Message, now: Duration) -> ReceiveAction {
        let deadline = now + interval
        if _next == nil {
            _next = (deadline, message)
        } else {
            _rest.append((deadline, message))
        }
        guard sleeper == nil else { return .wait }
        lastGeneration &+= 1
        sleeper = (lastGeneration, nil)
        return .startSleeper(generation: lastGeneration, deadline: deadline)
    }

    /// Handles the wake-up of the sleeper of `generation` at `now`.
    ///
    /// - Complexity: O(*k*) for the *k* messages that are due.
    mutating func wake(generation: UInt64, now: Duration) -> WakeAction {
        guard let current = sleeper, current.generation == generation else { return .finish(releasing: nil) }
        guard let next = _next else {
            sleeper = nil
            return .finish(releasing: current.task)
        }
        guard next.deadline <= now else { return .sleep(until: next.deadline) }
        var due: [Message] = []
        while let next = _next, next.deadline <= now {
            due.append(next.message)
            _next = _rest.popFirst()
        }
        return .deliver(due)
    }

    /// Records the sleeper that the owner started for `generation`.
    @inlinable
    mutating func sleeperStarted(_ task: Sleeper, generation: UInt64) -> InstallAction {
        guard let current = sleeper, current.generation == generation, current.task == nil else { return .cancel(task) }
        sleeper = (generation, task)
        return .installed
    }

    /// Ends the current sleeper: returns it to cancel, if it was installed. The waiting messages
    /// stay, and go with the state.
    mutating func stop() -> Sleeper? {
        defer { sleeper = nil }
        return sleeper?.task
    }
}

extension _DelayState.ReceiveAction: Equatable {}
extension _DelayState.WakeAction: Equatable where Message: Equatable, Sleeper: Equatable {}
extension _DelayState.InstallAction: Equatable where Sleeper: Equatable {}
