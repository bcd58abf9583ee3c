import Dispatch
import Foundation
import Messaging
import Testing

/// Spins for `nanoseconds` of wall-clock time: a handler that takes that long, however loaded the
/// machine is.
private func spin(_ nanoseconds: UInt64) {
    let end = DispatchTime.now().uptimeNanoseconds + nanoseconds
    while DispatchTime.now().uptimeNanoseconds < end {}
}

/// The longest time between two of `points`, which are in order.
private func longestGap(_ points: [ContinuousClock.Instant]) -> Duration {
    zip(points, points.dropFirst()).map { $1 - $0 }.max() ?? .zero
}

@Suite("Actor slices: a flood of slow handlers lets its actor's other work run, in order", .serialized)
struct ActorSliceTests {
    /// A main-actor view model whose handler takes a while.
    final class SlowViewModel: MainActorObserver {
        let receiver = Receiver()
        private(set) var values: [Int] = []

        func start(observing messenger: Messenger<Int>, taking nanoseconds: UInt64) {
            observeWeakly(messenger) { viewModel, value in
                spin(nanoseconds)
                viewModel.values.append(value)
            }
        }
    }

    /// An actor whose handler takes a while.
    actor SlowTally: ActorObserver {
        let receiver = Receiver()
        private(set) var values: [Int] = []

        func start(observing messenger: Messenger<Int>, taking nanoseconds: UInt64) {
            observeWeakly(messenger) { tally, value in
                spin(nanoseconds)
                tally.values.append(value)
            }
        }
    }

    @Test("a main-actor task keeps ticking while a background thread floods a slow main-actor observer")
    @MainActor
    func mainActorTicksDuringAFlood() async {
        // A send on the main actor by another test that runs meanwhile runs the whole backlog at
        // once (the calls that wait come before its own), so a flood may be swallowed in one go
        // now and then, and a machine busy with other processes may not run the ticker for a
        // while; the bound must hold in one of five floods. Without slices it holds in none.
        var gaps: [Duration] = []
        for _ in 0..<5 {
            let gap = await longestTickGapDuringAFlood()
            gaps.append(gap)
            // A slice lasts about 4 ms; the bound leaves room for a loaded machine and stays well
            // under the flood's 0.8 s.
            if gap < .milliseconds(400) { break }
        }
        #expect(gaps.contains { $0 < .milliseconds(400) }, "the longest times between two ticks were \(gaps)")
    }

    /// Floods a slow main-actor observer from a background thread while a main-actor task ticks,
    /// and returns the longest time between two ticks (or the flood's start or end).
    @MainActor
    private func longestTickGapDuringAFlood() async -> Duration {
        // 4,000 calls of 0.2 ms: 0.8 s of handlers, all queued before the first one runs (the main
        // actor waits for the thread here). Run to the end at once, they would keep the ticker
        // from running for at least 0.8 s.
        let count = 4_000
        let messenger = Messenger<Int>()
        let viewModel = SlowViewModel()
        viewModel.start(observing: messenger, taking: 200_000)
        #expect(runOnThreads(1) { _ in for value in 0..<count { messenger.send(value) } })

        let clock = ContinuousClock()
        let start = clock.now
        let ticker = Task { @MainActor in
            var ticks: [ContinuousClock.Instant] = []
            while viewModel.values.count < count {
                try? await Task.sleep(for: .milliseconds(2))
                ticks.append(clock.now)
            }
            return ticks
        }
        await waitForPendingDeliveries()
        let end = clock.now
        let ticks = await ticker.value

        #expect(viewModel.values == Array(0..<count))
        return longestGap([start] + ticks.filter { $0 < end } + [end])
    }

    @Test("a main-actor send between two slices runs the rest of the flood first, then its own message")
    @MainActor
    func mainActorSendBetweenSlicesKeepsTheOrder() async {
        // 500 calls of 0.1 ms: about a dozen slices.
        let count = 500
        let messenger = Messenger<Int>()
        let viewModel = SlowViewModel()
        viewModel.start(observing: messenger, taking: 100_000)
        #expect(runOnThreads(1) { _ in for value in 0..<count { messenger.send(value) } })

        // Let the first slice run; the next one is scheduled behind this task.
        while viewModel.values.isEmpty { await Task.yield() }
        let handledBeforeTheSend = viewModel.values.count
        #expect(handledBeforeTheSend < count)

        messenger.send(-1)
        #expect(viewModel.values == Array(0..<count) + [-1])

        // The drain that was scheduled for the rest finds nothing left to do.
        await waitForPendingDeliveries()
        #expect(viewModel.values == Array(0..<count) + [-1])
    }

    @Test("an actor answers calls while a background thread floods its slow handler, which sees every message in order")
    func actorAnswersDuringAFlood() async {
        let count = 4_000
        let messenger = Messenger<Int>()
        let tally = SlowTally()
        await tally.start(observing: messenger, taking: 200_000)
        let sender = Task.detached {
            for value in 0..<count { messenger.send(value) }
        }

        let clock = ContinuousClock()
        var longestWait = Duration.zero
        while true {
            let asked = clock.now
            let handled = await tally.values.count
            longestWait = max(longestWait, clock.now - asked)
            if handled == count { break }
            try? await Task.sleep(for: .milliseconds(2))
        }
        await sender.value

        #expect(await tally.values == Array(0..<count))
        #expect(longestWait < .milliseconds(400), "the longest wait for the actor was \(longestWait)")
    }
}
