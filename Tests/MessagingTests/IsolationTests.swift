import Foundation
import Messaging
import Testing

@Suite("Isolation: handlers run on their observer's actor, on time and in order")
struct IsolationTests {
    /// A main-actor view model, written as an app would: no unchecked escape hatches.
    final class ViewModel: MainActorObserver {
        let receiver = Receiver()
        private(set) var values: [Int] = []

        func start(observing messenger: Messenger<Int>) {
            observeWeakly(messenger) { viewModel, value in
                MainActor.preconditionIsolated()
                viewModel.values.append(value)
            }
        }
    }

    /// A view model that shows two variables of one model.
    final class PairViewModel: MainActorObserver {
        let receiver = Receiver()
        private(set) var seen: [String] = []

        init(first: Var<Int>, second: Var<Int>) {
            observe(first) { self.seen.append("first \($0.new)") }
            observe(second) { self.seen.append("second \($0.new)") }
        }
    }

    /// An actor that observes with handlers isolated to itself.
    actor Tally: ActorObserver {
        let receiver = Receiver()
        private(set) var values: [Int] = []

        func start(observing messenger: Messenger<Int>) {
            observeWeakly(messenger) { tally, value in
                tally.preconditionIsolated()
                tally.values.append(value)
            }
        }

        /// Lets a background thread send `range` while the actor is busy in here, and reports what
        /// the handler had received by the time the thread finished: nothing, if it runs on the actor.
        func receivedWhileBusy(_ range: ClosedRange<Int>, from messenger: Messenger<Int>) -> [Int] {
            let finished = runOnThreads(1) { _ in
                for value in range { messenger.send(value) }
            }
            return finished ? values : [-1]
        }

        /// Sends from inside the actor, after a suspension, and reports what the handler had done
        /// by the time `send` returned.
        func send(_ value: Int, to messenger: Messenger<Int>) async -> [Int] {
            await Task.yield()
            messenger.send(value)
            return values
        }
    }

    @Test("a message sent on the main actor runs a main-actor handler before send returns, also after an await")
    @MainActor
    func sendFromTheMainActorIsSynchronous() async {
        let messenger = Messenger<Int>()
        let viewModel = ViewModel()
        viewModel.start(observing: messenger)

        messenger.send(1)
        #expect(viewModel.values == [1])
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
        messenger.send(2)
        #expect(viewModel.values == [1, 2])
    }

    @Test("a variable set on the main actor runs main-actor handlers before the setter returns")
    @MainActor
    func setterOnTheMainActorIsSynchronous() async {
        let first = Var(0)
        let second = Var(0)
        let viewModel = PairViewModel(first: first, second: second)

        first.value = 1
        #expect(viewModel.seen == ["first 1"])
        await Task.yield()
        second.value = 1
        #expect(viewModel.seen == ["first 1", "second 1"])
    }

    @Test("messages sent from a detached task reach a main-actor handler later, on the main actor, in order")
    @MainActor
    func sendFromADetachedTask() async {
        let messenger = Messenger<Int>()
        let viewModel = ViewModel()
        viewModel.start(observing: messenger)

        await Task.detached {
            for value in 1...50 { messenger.send(value) }
        }.value
        await waitForPendingDeliveries()

        #expect(viewModel.values == Array(1...50))
    }

    @Test("messages sent from a background thread are delivered on the main actor, not on that thread")
    @MainActor
    func sendFromABackgroundThread() async {
        let messenger = Messenger<Int>()
        let viewModel = ViewModel()
        viewModel.start(observing: messenger)

        // The main actor is busy in here while the thread sends: a handler run on the sending
        // thread would show up at once (and fail its isolation check); a handler run on the main
        // actor cannot run yet.
        let finished = runOnThreads(1) { _ in
            for value in 1...20 { messenger.send(value) }
        }
        #expect(finished)
        #expect(viewModel.values.isEmpty)

        await waitForPendingDeliveries()
        #expect(viewModel.values == Array(1...20))
    }

    @Test("causal order per actor: two variables set in turn on a background thread are seen in turn")
    @MainActor
    func causalOrderAcrossMessengers() async {
        let first = Var(0)
        let second = Var(0)
        let viewModel = PairViewModel(first: first, second: second)
        let steps = 2_000

        let finished = runOnThreads(1) { _ in
            for step in 1...steps {
                first.value = step
                second.value = step
            }
        }
        #expect(finished)
        await waitForPendingDeliveries()

        let expected = (1...steps).flatMap { ["first \($0)", "second \($0)"] }
        let outOfOrder = zip(viewModel.seen, expected).filter { $0 != $1 }.count
        #expect(viewModel.seen.count == expected.count)
        #expect(outOfOrder == 0)
    }

    @Test("a main-actor send first runs what still waits for the main actor, then its own message, before returning")
    @MainActor
    func mainActorSendKeepsTheOrder() async {
        let messenger = Messenger<Int>()
        let viewModel = ViewModel()
        viewModel.start(observing: messenger)

        #expect(runOnThreads(1) { _ in for value in 1...3 { messenger.send(value) } })
        #expect(viewModel.values.isEmpty)
        messenger.send(4)
        #expect(viewModel.values == [1, 2, 3, 4])

        // The drain task that the background sends scheduled finds nothing left to do.
        await waitForPendingDeliveries()
        #expect(viewModel.values == [1, 2, 3, 4])
    }

    @Test("a main-actor observer that is released receives nothing of what was on its way")
    @MainActor
    func releasedViewModelReceivesNothingMore() async {
        let messenger = Messenger<Int>()
        let log = EventLog()
        var viewModel: ViewModel? = ViewModel()
        weak let weakViewModel = viewModel
        viewModel?.observe(messenger) { log.append("view model:\($0)") }

        #expect(runOnThreads(1) { _ in messenger.send(1) })
        viewModel = nil
        #expect(weakViewModel == nil)
        await waitForPendingDeliveries()
        messenger.send(2)

        #expect(log.entries.isEmpty)
    }

    @Test(
        "an actor's handler runs on the actor: at once from inside (after an await too), later and in order from outside"
    )
    func actorIsolatedHandler() async {
        let messenger = Messenger<Int>()
        let tally = Tally()
        await tally.start(observing: messenger)

        #expect(await tally.receivedWhileBusy(1...20, from: messenger) == [])
        await waitForPendingDeliveries()
        #expect(await tally.values == Array(1...20))

        let seenBySendReturn = await tally.send(21, to: messenger)
        #expect(seenBySendReturn == Array(1...21))
    }

    @Test("an actor observer is freed when the last outside reference goes")
    func actorObserverIsFreed() async {
        let messenger = Messenger<Int>()
        var tally: Tally? = Tally()
        weak let weakTally = tally
        await tally?.start(observing: messenger)
        messenger.send(1)
        await waitForPendingDeliveries()
        #expect(await tally?.values == [1])

        tally = nil
        // The task that ran the delivery on the actor resumes the wait above from inside its run,
        // and lets go of the actor only when it finishes, a moment later: wait for that, bounded.
        var waited = 0
        while weakTally != nil, waited < 5_000 {
            try? await Task.sleep(for: .milliseconds(1))
            waited += 1
        }
        #expect(weakTally == nil)
        #expect(messenger.observationCount == 0)
        messenger.send(2)
        await waitForPendingDeliveries()
    }

    @Test("a main-actor observer that observes weakly is freed, and its observations end")
    @MainActor
    func mainActorObserverIsFreed() {
        let messenger = Messenger<Int>()
        var viewModel: ViewModel? = ViewModel()
        weak let weakViewModel = viewModel
        viewModel?.start(observing: messenger)
        messenger.send(1)
        #expect(viewModel?.values == [1])

        viewModel = nil
        #expect(weakViewModel == nil)
        #expect(messenger.observationCount == 0)
    }

    @Test("handlers on one actor never nest: a handler's send to the same actor runs after it returns")
    @MainActor
    func handlersOnOneActorDoNotNest() async {
        let outer = Messenger<Int>()
        let inner = Messenger<Int>()
        final class Recorder: MainActorObserver {
            let receiver = Receiver()
            var log: [String] = []
        }
        let recorder = Recorder()
        recorder.observe(outer) { value in
            recorder.log.append("outer \(value) begins")
            inner.send(value)
            recorder.log.append("outer \(value) ends")
        }
        recorder.observe(inner) { value in recorder.log.append("inner \(value)") }

        outer.send(1)
        // The inner call queues behind whatever other tests posted to the main actor before it;
        // past one slice of those, it runs in a later drain, so wait for it.
        #expect(await eventually { recorder.log.count == 3 })
        #expect(recorder.log == ["outer 1 begins", "outer 1 ends", "inner 1"])
    }

    @Test("a handler registered by a plain Observer runs on the sending thread, before send returns")
    func nonisolatedHandlerRunsOnTheSender() {
        let messenger = Messenger<Int>()
        let log = EventLog()
        let a = Spy("a")
        a.observe(messenger) { value in
            log.append("a:\(value) on \(Thread.current.name ?? "?")")
        }

        let finished = runOnThreads(1) { _ in
            Thread.current.name = "sender"
            messenger.send(1)
            log.append("send returned")
        }

        #expect(finished)
        #expect(log.entries == ["a:1 on sender", "send returned"])
        withExtendedLifetime(a) {}
    }

    @Test("waitForPendingDeliveries returns at once when nothing is queued")
    func waitingWithNothingQueued() async {
        await waitForPendingDeliveries()
    }
}
