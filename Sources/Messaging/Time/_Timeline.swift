/// A clock seen as durations since a fixed origin.
///
/// The time layer takes `any Clock<Duration>`, whose `Instant` type is known only at run time. The
/// state machines keep their deadlines as `Duration`s since the origin instead, so they need
/// neither the clock's `Instant` type nor a generic parameter for it, and their tests can state
/// times as plain durations. The clock is opened once, when the timeline is made.
@usableFromInline
struct _Timeline: Sendable {
    @usableFromInline let _now: @Sendable () -> Duration
    private let _sleep: @Sendable (Duration) async throws -> Void

    /// Reads `clock.now` once, as the origin.
    ///
    /// The system clocks get closures specialized for them: a clock reading through the generic
    /// path looks up the clock's `Instant` type and its arithmetic at run time, several times the
    /// cost of the reading itself, on every message a throttle or a debounce sees.
    @usableFromInline
    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        if let continuous = clock as? ContinuousClock {
            self.init(specializedFor: continuous)
        } else if let suspending = clock as? SuspendingClock {
            self.init(specializedFor: suspending)
        } else {
            self.init(specializedFor: clock)
        }
    }

    @inline(__always)
    private init<C: Clock>(specializedFor clock: C) where C.Duration == Duration {
        let origin = clock.now
        _now = { origin.duration(to: clock.now) }
        _sleep = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    }

    /// The time since the origin. Calls the clock: never read it under a lock.
    @inlinable
    var now: Duration { _now() }

    /// Sleeps until `deadline` (a time since the origin); throws when the task is cancelled.
    func sleep(until deadline: Duration) async throws {
        try await _sleep(deadline)
    }

    /// Starts a task that sleeps until `deadline`, then asks `owner` what to do, and repeats while
    /// the owner answers with another deadline.
    ///
    /// The task holds `owner` weakly, and strongly only while it reports a wake-up: a sleeping
    /// task keeps nothing alive, and an owner that dies ends its task at the next wake-up (owners
    /// also cancel their sleeper when they die, which ends it at once).
    @usableFromInline
    func startSleeper<Owner: _SleeperOwner>(
        for owner: Owner, generation: UInt64, until deadline: Duration
    ) -> Task<Void, Never> {
        Task { [weak owner, self] in
            var deadline = deadline
            while true {
                do {
                    try await sleep(until: deadline)
                } catch {
                    return  // cancelled: whoever cancelled has already moved the state on
                }
                guard let strongOwner = owner else { return }
                guard let next = strongOwner._wake(generation: generation, now: now) else { return }
                deadline = next
            }
        }
    }
}

/// An object whose sleeper task ``_Timeline/startSleeper(for:generation:until:)`` runs.
@usableFromInline
protocol _SleeperOwner: AnyObject, Sendable {
    /// Reports that the sleeper of `generation` woke up at `now`; returns the deadline to sleep
    /// until next, or `nil` to end the sleeper.
    func _wake(generation: UInt64, now: Duration) -> Duration?
}
