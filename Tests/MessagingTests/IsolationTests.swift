import Foundation
import Messaging
import Testing

@Suite("Isolation: handlers run on the actor they were registered from")
struct IsolationTests {
    /// A main-actor view model, written as an app would: no unchecked escape hatches.
    @MainActor
    final class ViewModel: Observer {
        let receiver = Receiver()
        private(set) var values: [Int] = []
        /// For each handler call, whether it ran on the thread that runs the main actor's code.
        private(set) var ranOnMainActorThread: [Bool] = []
        /// The main actor's thread. (`Thread.isMainThread` does not tell: under `swift test` on
        /// Linux the main actor's jobs run on a thread other than the process's first one.)
        private let mainActorThread = pthread_self()

        func start(observing messenger: Messenger<Int>) {
            observe(messenger) { [weak self] value in
                guard let self else { return }
                values.append(value)
                ranOnMainActorThread.append(pthread_equal(pthread_self(), mainActorThread) != 0)
            }
        }
    }

    /// An actor that observes with a handler isolated to itself.
    actor Tally: Observer {
        let receiver = Receiver()
        private(set) var values: [Int] = []

        func start(observing messenger: Messenger<Int>) {
            observe(messenger) { value in
                self.values.append(value)
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

        /// Sends from inside the actor and reports what the handler had done by the time `send` returned.
        func send(_ value: Int, to messenger: Messenger<Int>) -> [Int] {
            messenger.send(value)
            return values
        }
    }

    @Test("a message sent on the main actor runs a main-actor handler before send returns")
    @MainActor
    func sendFromTheMainActorIsSynchronous() {
        let messenger = Messenger<Int>()
        let viewModel = ViewModel()
        viewModel.start(observing: messenger)

        messenger.send(1)
        #expect(viewModel.values == [1])
        messenger.send(2)
        #expect(viewModel.values == [1, 2])
        #expect(viewModel.ranOnMainActorThread == [true, true])
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

        #expect(await eventually { viewModel.values.count >= 50 })
        #expect(viewModel.values == Array(1...50))
        #expect(viewModel.ranOnMainActorThread == Array(repeating: true, count: 50))
    }

    @Test("messages sent from a background thread are delivered on the main actor, not on that thread")
    @MainActor
    func sendFromABackgroundThread() async {
        let messenger = Messenger<Int>()
        let viewModel = ViewModel()
        viewModel.start(observing: messenger)

        // The main actor is busy in here while the thread sends: a handler run on the sending
        // thread would show up at once (and race); a handler run on the main actor cannot run yet.
        let finished = runOnThreads(1) { _ in
            for value in 1...20 { messenger.send(value) }
        }
        #expect(finished)
        #expect(viewModel.values.isEmpty)

        #expect(await eventually { viewModel.values.count >= 20 })
        #expect(viewModel.values == Array(1...20))
        #expect(viewModel.ranOnMainActorThread == Array(repeating: true, count: 20))
    }

    @Test("a main-actor send waits behind earlier messages that are still on their way to the main actor")
    @MainActor
    func mainActorSendKeepsTheOrder() async {
        let messenger = Messenger<Int>()
        let viewModel = ViewModel()
        viewModel.start(observing: messenger)

        #expect(runOnThreads(1) { _ in for value in 1...3 { messenger.send(value) } })
        messenger.send(4)

        #expect(await eventually { viewModel.values.count >= 4 })
        #expect(viewModel.values == [1, 2, 3, 4])
    }

    @Test("a main-actor observeOnce receives exactly one of several messages sent from a background thread")
    @MainActor
    func mainActorObserveOnce() async {
        let messenger = Messenger<Int>()
        let log = EventLog()
        weak let weakOnce = observeOnce(messenger) { log.append("once:\($0)") }

        #expect(runOnThreads(1) { _ in for value in 1...5 { messenger.send(value) } })
        #expect(await eventually { !log.entries.isEmpty })
        for _ in 0..<20 {
            await Task.yield()
        }

        #expect(log.entries == ["once:1"])
        #expect(await eventually { weakOnce == nil })
    }

    @Test("a main-actor observer that is released stops receiving messages that were on their way")
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
        // Give a delivery that should not happen every chance to happen.
        for _ in 0..<20 {
            await Task.yield()
        }
        messenger.send(2)

        #expect(log.entries.isEmpty)
    }

    @Test("an actor's isolated handler runs on the actor: synchronously from inside, later and in order from outside")
    func actorIsolatedHandler() async {
        let messenger = Messenger<Int>()
        let tally = Tally()
        await tally.start(observing: messenger)

        #expect(await tally.receivedWhileBusy(1...20, from: messenger) == [])
        #expect(await eventually { await tally.values.count >= 20 })
        #expect(await tally.values == Array(1...20))

        let seenBySendReturn = await tally.send(21, to: messenger)
        #expect(seenBySendReturn == Array(1...21))
    }

    @Test("a handler registered outside any actor runs on the sending thread, before send returns")
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
}
