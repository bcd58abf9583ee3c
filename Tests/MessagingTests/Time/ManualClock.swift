// A clock for the time tests: it moves only when a test advances it, so that time-based code runs
// deterministically and instantly, with no sleeping on the real clock.

import Foundation

/// A clock whose time moves only by ``advance(by:)`` and ``advance(to:)``.
///
/// A sleeper registers its deadline and suspends; advancing the clock to or past the deadline
/// resumes it. A test waits for the code under test to go to sleep with ``waitForSleepers(_:)``
/// or ``waitForSleepers(at:)`` before it advances, so every step is deterministic.
final class ManualClock: Clock, @unchecked Sendable {  // all mutable state is in `_state`, behind `_lock` (an NSLock)
    typealias Duration = Swift.Duration

    /// A point on the manual clock: the time since the clock was made.
    struct Instant: InstantProtocol, CustomStringConvertible {
        var offset: Duration

        init(_ offset: Duration) {
            self.offset = offset
        }

        func advanced(by duration: Duration) -> Instant { Instant(offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        var description: String { "\(offset)" }
    }

    private struct Sleeper {
        let number: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What a test waits for.
    private enum Condition: Equatable {
        case count(Int)
        case deadlines([Instant])  // sorted
    }

    private struct State {
        var now = Instant(.zero)
        var sleepsMade = 0
        /// Registered sleepers, in the order they registered.
        var sleepers: [Sleeper] = []
        /// Sleeps between their start and their registration, and whether they were cancelled
        /// meanwhile.
        var starting: [Int: Bool] = [:]
        var waitsMade = 0
        var waiters: [(number: Int, condition: Condition, continuation: CheckedContinuation<Void, Never>)] = []

        func holds(_ condition: Condition) -> Bool {
            switch condition {
            case .count(let count): sleepers.count == count
            case .deadlines(let deadlines): sleepers.map(\.deadline).sorted() == deadlines
            }
        }

        /// Removes and returns the waiters whose condition now holds.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            var satisfied: [CheckedContinuation<Void, Never>] = []
            var waiting = waiters
            waiting.removeAll { waiter in
                guard holds(waiter.condition) else { return false }
                satisfied.append(waiter.continuation)
                return true
            }
            waiters = waiting
            return satisfied
        }
    }

    private let _lock = NSLock()
    private var _state = State()

    /// The current time; it starts at zero.
    var now: Instant { _lock.withLock { _state.now } }

    /// Zero: the clock has no resolution of its own.
    var minimumResolution: Duration { .zero }

    /// The number of sleepers waiting for their deadline.
    var sleeperCount: Int { _lock.withLock { _state.sleepers.count } }

    /// The deadlines of the sleepers, earliest first.
    var deadlines: [Instant] { _lock.withLock { _state.sleepers.map(\.deadline).sorted() } }

    /// Suspends until the clock is advanced to `deadline` or later.
    ///
    /// Returns at once if `deadline` has been reached. Throws `CancellationError` at once if the
    /// task is cancelled, before or during the sleep.
    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let number = _lock.withLock {
            defer { _state.sleepsMade += 1 }
            _state.starting[_state.sleepsMade] = false
            return _state.sleepsMade
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome {
                    case cancelled
                    case due
                    case registered([CheckedContinuation<Void, Never>])
                }
                let outcome: Outcome = _lock.withLock {
                    let cancelled = _state.starting.removeValue(forKey: number) ?? false
                    if cancelled { return .cancelled }
                    if deadline <= _state.now { return .due }
                    _state.sleepers.append(Sleeper(number: number, deadline: deadline, continuation: continuation))
                    return .registered(_state.satisfiedWaiters())
                }
                switch outcome {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .due: continuation.resume()
                case .registered(let waiters): for waiter in waiters { waiter.resume() }
                }
            }
        } onCancel: {
            let (sleeper, waiters): (Sleeper?, [CheckedContinuation<Void, Never>]) = _lock.withLock {
                if _state.starting[number] != nil {
                    _state.starting[number] = true  // the registration will throw
                    return (nil, [])
                }
                guard let index = _state.sleepers.firstIndex(where: { $0.number == number }) else {
                    return (nil, [])  // resumed already
                }
                let sleeper = _state.sleepers.remove(at: index)
                return (sleeper, _state.satisfiedWaiters())
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Moves the time forward by `duration` and resumes the sleepers whose deadline it reaches.
    ///
    /// - Returns: The numbers of the sleepers resumed (the first sleep ever made on this clock is
    ///   number 0), in the order they were resumed: by deadline, and sleepers with the same
    ///   deadline in the order they went to sleep.
    @discardableResult
    func advance(by duration: Duration) -> [Int] {
        _advance { $0.advanced(by: duration) }
    }

    /// Moves the time to `instant` and resumes the sleepers whose deadline it reaches; see
    /// ``advance(by:)``. An instant earlier than ``now`` leaves the time as it is.
    @discardableResult
    func advance(to instant: Instant) -> [Int] {
        _advance { _ in instant }
    }

    private func _advance(_ target: (Instant) -> Instant) -> [Int] {
        let (due, waiters): ([Sleeper], [CheckedContinuation<Void, Never>]) = _lock.withLock {
            _state.now = max(_state.now, target(_state.now))
            let now = _state.now
            // `sleepers` is in registration order; sorting on (deadline, number) keeps that order
            // among equal deadlines without relying on the sort being stable.
            let due = _state.sleepers.filter { $0.deadline <= now }
                .sorted { ($0.deadline, $0.number) < ($1.deadline, $1.number) }
            guard !due.isEmpty else { return ([], []) }
            _state.sleepers.removeAll { $0.deadline <= now }
            return (due, _state.satisfiedWaiters())
        }
        for sleeper in due { sleeper.continuation.resume() }
        for waiter in waiters { waiter.resume() }
        return due.map(\.number)
    }

    /// Waits until exactly `count` sleepers are registered.
    func waitForSleepers(_ count: Int) async {
        await _wait(for: .count(count))
    }

    /// Waits until the registered sleepers' deadlines are exactly `deadlines` (as times since the
    /// clock was made, in any order).
    func waitForSleepers(at deadlines: [Duration]) async {
        await _wait(for: .deadlines(deadlines.map(Instant.init).sorted()))
    }

    /// Returns when `condition` holds, or when the task is cancelled (so that a test's time limit
    /// can end a test whose code never goes to sleep as expected).
    private func _wait(for condition: Condition) async {
        let number = _lock.withLock {
            defer { _state.waitsMade += 1 }
            return _state.waitsMade
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = _lock.withLock {
                    if Task.isCancelled || _state.holds(condition) { return true }
                    _state.waiters.append((number, condition, continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = _lock.withLock {
                _state.waiters.firstIndex { $0.number == number }.map { _state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume()
        }
    }
}
