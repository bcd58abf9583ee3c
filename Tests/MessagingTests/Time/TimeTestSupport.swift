// Helpers for the tests of the time layer: they turn deliveries into an asynchronous sequence, so
// that a test awaits the next delivery instead of sleeping, and they reach the sleeper task of a
// timer, so that a test can wait for it to end before it checks that nothing was delivered.
//
// The asynchronous time suites have a time limit only to turn a hang into a failure. It is
// generous: in a full parallel run, the synchronous stress tests of other suites hold every thread
// of the cooperative pool for a while (about 10 s here, 23 s under the thread sanitizer), and
// these tests wait meanwhile.

import Testing

@testable import Messaging

/// The deliveries of `source`, each as "message@time" with the time read from `clock` when the
/// message was delivered, and the token that observes it (keep it).
func deliveries<Source: ObservableSource>(
    of source: Source, on clock: ManualClock
) -> (AsyncStream<String>.Iterator, ObservationToken) where Source.Message: Sendable {
    let (stream, continuation) = AsyncStream<String>.makeStream()
    let token = source.subscribe { message in continuation.yield("\(message)@\(clock.now)") }
    return (stream.makeAsyncIterator(), token)
}

/// "()@t" for each time in seconds: how `deliveries(of:on:)` shows a timer's fires.
func fires(atSeconds seconds: Int...) -> [String] {
    seconds.map { "()@\(Duration.seconds($0))" }
}

extension AsyncStream<String>.Iterator {
    /// The next `count` elements.
    mutating func next(_ count: Int) async -> [String] {
        var elements: [String] = []
        for _ in 0..<count {
            guard let element = await next() else { break }
            elements.append(element)
        }
        return elements
    }
}

/// Plays the burst that both forms of a throttle of 10 s on both edges are tested with (a chain's
/// stage and a standalone observable), sending on `source`, and checks what `iterator` delivers:
///
///     a-b--c------d-----------------e     (seconds 0, 2, 5, 12, 35) in
///     a---------c---------d---------e     (seconds 0, 10, 20, 35) out
func playTwoEdgedThrottleBurst(
    on source: Messenger<String>,
    clock: ManualClock,
    deliveries iterator: inout AsyncStream<String>.Iterator,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    source.send("a")
    #expect(await iterator.next(1) == ["a@0.0 seconds"], sourceLocation: sourceLocation)
    clock.advance(to: ManualClock.Instant(.seconds(2)))
    source.send("b")
    await clock.waitForSleepers(at: [.seconds(10)])
    clock.advance(to: ManualClock.Instant(.seconds(5)))
    source.send("c")
    clock.advance(to: ManualClock.Instant(.seconds(10)))
    #expect(await iterator.next(1) == ["c@10.0 seconds"], sourceLocation: sourceLocation)
    await clock.waitForSleepers(at: [.seconds(20)])
    clock.advance(to: ManualClock.Instant(.seconds(12)))
    source.send("d")
    clock.advance(to: ManualClock.Instant(.seconds(20)))
    #expect(await iterator.next(1) == ["d@20.0 seconds"], sourceLocation: sourceLocation)
    await clock.waitForSleepers(at: [.seconds(30)])
    clock.advance(to: ManualClock.Instant(.seconds(30)))
    await clock.waitForSleepers(0)  // a quiet interval: the sleeper ends
    clock.advance(to: ManualClock.Instant(.seconds(35)))
    source.send("e")
    #expect(await iterator.next(1) == ["e@35.0 seconds"], sourceLocation: sourceLocation)
}

extension MessageTimer {
    /// The task of the current schedule; `nil` when the timer is idle.
    var currentSleeper: Task<Void, Never>? {
        guard case .scheduled(_, _, let sleeper) = _lock.withLock({ _state.phase }) else { return nil }
        return sleeper
    }
}

/// A clock that runs `afterWaking` when a sleep on `base` has ended, before that sleep returns: a
/// test can then change the timer between the end of its sleep and the report of the wake-up.
struct HookedClock: Clock {
    let base: ManualClock
    let afterWaking: @Sendable () async -> Void

    var now: ManualClock.Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
        await afterWaking()
    }
}

/// Waits until `task` has ended, or until the waiting task is cancelled: unlike `task.value`, it
/// lets a test's time limit end a test whose sleeper never ends.
func waitUntilEnded(_ task: Task<Void, Never>?) async {
    guard let task else { return }
    let (ended, continuation) = AsyncStream<Void>.makeStream()
    Task {
        await task.value
        continuation.finish()
    }
    for await _ in ended {}
}
