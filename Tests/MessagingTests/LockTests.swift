import Foundation
import Testing

@testable import Messaging

/// A counter that only the test's lock guards: unsynchronised on purpose, so that a lock that lets
/// two threads in at once loses increments (and the thread sanitizer reports the race).
private final class Unguarded: @unchecked Sendable {  // every field is touched only under the test's lock
    var count = 0
    /// How many threads are inside the critical section right now.
    var inside = 0
    /// How many times a thread found another one inside.
    var overlaps = 0

    /// The critical section: a read-modify-write spread over a few steps, so that an overlap has
    /// room to happen.
    func enter() {
        inside += 1
        if inside != 1 { overlaps += 1 }
        let seen = count
        for _ in 0..<3 { consumeForTests(seen) }
        count = seen + 1
        inside -= 1
    }
}

/// Keeps the loop in `Unguarded.enter()` from being optimised away.
@inline(never)
private func consumeForTests(_ value: Int) {
    if value == -1 { print(value) }
}

/// The one-word lock (`_messaging_lock_t`) in both places it lives: a ``_Lock`` and a messenger's core.
@Suite("Lock: one thread at a time")
struct LockTests {
    static let threads = 8
    static let rounds = 10_000

    @Test("withLock: 8 threads contending never lose an increment and never overlap")
    func withLockExcludes() {
        let lock = _Lock()
        let counter = Unguarded()
        let finished = runOnThreads(Self.threads) { _ in
            for _ in 0..<Self.rounds {
                lock.withLock { counter.enter() }
            }
        }
        #expect(finished, "deadlock: the threads did not finish")
        lock.withLock {
            #expect(counter.count == Self.threads * Self.rounds)
            #expect(counter.overlaps == 0)
        }
    }

    @Test("lock() and unlock(): 8 threads contending never lose an increment and never overlap")
    func lockAndUnlockExclude() {
        let lock = _Lock()
        let counter = Unguarded()
        let finished = runOnThreads(Self.threads) { _ in
            for _ in 0..<Self.rounds {
                lock.lock()
                counter.enter()
                lock.unlock()
            }
        }
        #expect(finished, "deadlock: the threads did not finish")
        lock.withLock {
            #expect(counter.count == Self.threads * Self.rounds)
            #expect(counter.overlaps == 0)
        }
    }

    @Test("a messenger core's lock: 8 threads contending never lose an increment and never overlap")
    func coreLockExcludes() {
        let messenger = Messenger<Int>()
        let counter = Unguarded()
        let finished = runOnThreads(Self.threads) { _ in
            for _ in 0..<Self.rounds {
                messenger._core.withLock { counter.enter() }
            }
        }
        #expect(finished, "deadlock: the threads did not finish")
        messenger._core.withLock {
            #expect(counter.count == Self.threads * Self.rounds)
            #expect(counter.overlaps == 0)
        }
    }

    @Test("threads that had to sleep for a lock held a long time are all woken, and each gets in once")
    func sleepersAreWoken() {
        let lock = _Lock()
        let counter = Unguarded()
        let arrived = Locked(0)
        lock.lock()
        let waiting = Thread {
            // Long enough for every thread to give up spinning and sleep in the kernel.
            while arrived.value < Self.threads { usleep(1_000) }
            usleep(50_000)
            lock.unlock()
        }
        waiting.start()
        let finished = runOnThreads(Self.threads) { _ in
            arrived.withLock { $0 += 1 }
            lock.withLock { counter.enter() }
        }
        #expect(finished, "a sleeper was never woken")
        lock.withLock {
            #expect(counter.count == Self.threads)
            #expect(counter.overlaps == 0)
        }
    }
}
