/// The rules of throttling on both edges, without threads or clocks: a message goes on at once if
/// no window is open, and opens one of `interval`; the messages that arrive within a window wait,
/// only the latest is kept, and it goes on when the window ends, which opens the next window.
///
/// This is Combine's `throttle(for:scheduler:latest: true)`: the first message of a burst goes on
/// at once (the leading edge) and the latest of each window at its end (the trailing edge), so a
/// steady stream gets one message through per interval, and the last message of a burst is never
/// lost. ``_ThrottleState`` is the leading edge alone.
///
/// The owner calls these methods under its lock and performs the returned action after unlocking.
/// Times are durations since the owner's origin (see `_Timeline`).
///
/// A sleeper is started only when a message has to wait, and serves the windows that follow one
/// another without a gap: after a trailing message it sleeps on to the end of the new window, and
/// ends once a window ends with no message waiting. While it is responsible for a window, every
/// message waits for it, even one that arrives after the window's end: the sleeper decides, so a
/// message that goes on at once never overtakes or runs beside one that the sleeper sends on.
/// Each sleeper has a *generation*; the wake-up of a sleeper that is not the current one does
/// nothing.
///
/// Values leave the state in the actions (a superseded message, the finished sleeper), so that the
/// owner releases them after unlocking and no `deinit` runs under its lock.
@usableFromInline
struct _LatestThrottleState<Message, Sleeper> {
    @usableFromInline
    enum Phase {
        /// No window: the next message goes on at once.
        case idle
        /// A message went on and the window lasts until `end`; `waiting` is the latest message that
        /// arrived within it. `sleeper` is the sleeper responsible for the window, if one was
        /// started (`task` is `nil` until the owner has installed it).
        case open(end: Duration, waiting: Message?, sleeper: (generation: UInt64, task: Sleeper?)?)
    }

    /// What to do after ``receive(_:now:)``.
    @usableFromInline
    enum ReceiveAction {
        /// Send the message on now: no window was open.
        case deliver(Message)
        /// The message waits for the end of the window; `superseded` will never go on.
        case wait(superseded: Message?)
        /// The message waits for the end of the window, and no sleeper watches it yet: start one for
        /// `generation` that sleeps until `deadline`.
        case startSleeper(generation: UInt64, deadline: Duration)
    }

    /// What to do after a sleeper woke up.
    @usableFromInline
    enum WakeAction {
        /// Send `message` on, then sleep until `sleepUntil`, the end of the window it opens.
        case deliver(Message, sleepUntil: Duration)
        /// The window has not ended yet: sleep again until `until`.
        case sleep(until: Duration)
        /// No message waited, or the sleeper is not the current one: end it; release `releasing`
        /// (the one reporting) after unlocking.
        case finish(releasing: Sleeper?)
    }

    /// What to do with a sleeper that was just started.
    @usableFromInline
    enum InstallAction {
        /// The state keeps it: it watches the current window.
        case installed
        /// Its window was stopped or closed already: cancel it.
        case cancel(Sleeper)
    }

    /// The shortest time between two messages that go on.
    @usableFromInline let interval: Duration
    @usableFromInline var phase = Phase.idle
    @usableFromInline var lastGeneration: UInt64 = 0

    @inlinable
    init(interval: Duration) {
        self.interval = interval
    }

    /// Decides what becomes of `message`, arriving at `now`. Inlinable, as every message comes
    /// here: the client's specialized code runs it without looking up type metadata.
    @inlinable
    mutating func receive(_ message: Message, now: Duration) -> ReceiveAction {
        switch phase {
        case .idle:
            phase = .open(end: now + interval, waiting: nil, sleeper: nil)
            return .deliver(message)
        case .open(let end, let waiting, let sleeper?):
            phase = .open(end: end, waiting: message, sleeper: sleeper)
            return .wait(superseded: waiting)
        case .open(let end, _, nil):
            guard now < end else {
                // The window ended, and no message waited in it.
                phase = .open(end: now + interval, waiting: nil, sleeper: nil)
                return .deliver(message)
            }
            lastGeneration &+= 1
            phase = .open(end: end, waiting: message, sleeper: (lastGeneration, nil))
            return .startSleeper(generation: lastGeneration, deadline: end)
        }
    }

    /// Handles the wake-up of the sleeper of `generation` at `now`.
    mutating func wake(generation: UInt64, now: Duration) -> WakeAction {
        guard case .open(let end, let waiting, let sleeper?) = phase, sleeper.generation == generation else {
            return .finish(releasing: nil)
        }
        guard end <= now else { return .sleep(until: end) }
        guard let waiting else {
            phase = .idle
            return .finish(releasing: sleeper.task)
        }
        phase = .open(end: now + interval, waiting: nil, sleeper: sleeper)
        return .deliver(waiting, sleepUntil: now + interval)
    }

    /// Records the sleeper that the owner started for `generation`.
    @inlinable
    mutating func sleeperStarted(_ task: Sleeper, generation: UInt64) -> InstallAction {
        guard case .open(let end, let waiting, let sleeper?) = phase, sleeper.generation == generation,
            sleeper.task == nil
        else { return .cancel(task) }
        phase = .open(end: end, waiting: waiting, sleeper: (generation, task))
        return .installed
    }

    /// Ends the current window: returns the sleeper to cancel, if one was installed, and the
    /// message that will never go on.
    mutating func stop() -> (sleeper: Sleeper?, dropped: Message?) {
        guard case .open(_, let waiting, let sleeper) = phase else { return (nil, nil) }
        phase = .idle
        return (sleeper?.task, waiting)
    }
}

extension _LatestThrottleState.ReceiveAction: Equatable where Message: Equatable {}
extension _LatestThrottleState.WakeAction: Equatable where Message: Equatable, Sleeper: Equatable {}
extension _LatestThrottleState.InstallAction: Equatable where Sleeper: Equatable {}
