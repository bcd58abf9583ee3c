import Foundation
import Messaging
import Testing

@Suite("Isolated tokens: handlers registered from actor code through tokens, bags and free observers")
struct IsolatedTokenTests {
    /// A main-actor view model that is no observer: it keeps tokens in a bag, as Combine code keeps
    /// cancellables.
    @MainActor
    final class ViewModel {
        private(set) var values: [Int] = []
        private(set) var titles: [String] = []
        let bag = ObservationBag()

        func start(observing messenger: Messenger<Int>) {
            bag += messenger.subscribeIsolated { [weak self] value in
                MainActor.preconditionIsolated()
                self?.values.append(value)
            }
        }

        func start(observing title: Var<String>, replaying: Bool) {
            bag += title.subscribeIsolated(replayingLatest: replaying) { [weak self] update in
                MainActor.preconditionIsolated()
                self?.titles.append(update.new)
            }
        }
    }

    /// An actor that keeps its tokens itself.
    actor Tally {
        private(set) var values: [Int] = []
        private var tokens: [ObservationToken] = []

        func start(observing messenger: Messenger<Int>) {
            tokens.append(
                messenger.subscribeIsolated { value in
                    self.preconditionIsolated()
                    self.values.append(value)
                })
        }

        func stop() {
            tokens.removeAll()
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

    @Test("a token's main-actor handler runs before send returns when sent on the main actor, after an await too")
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

    @Test("a variable set on the main actor reaches a token's main-actor handler before the setter returns")
    @MainActor
    func setterOnTheMainActorIsSynchronous() {
        let title = Var("")
        let viewModel = ViewModel()
        viewModel.start(observing: title, replaying: false)

        title.value = "Draft"
        #expect(viewModel.titles == ["Draft"])
    }

    @Test("messages sent from a background thread reach a token's handler on the main actor, later, in order")
    @MainActor
    func sendFromABackgroundThread() async {
        let messenger = Messenger<Int>()
        let viewModel = ViewModel()
        viewModel.start(observing: messenger)

        // The main actor is busy in here while the thread sends: a handler run on the sending
        // thread would show up at once (and fail its isolation check).
        let finished = runOnThreads(1) { _ in
            for value in 1...200 { messenger.send(value) }
        }
        #expect(finished)
        #expect(viewModel.values.isEmpty)

        await waitForPendingDeliveries()
        #expect(viewModel.values == Array(1...200))
    }

    @Test("a main-actor token shares the main actor's one queue: messages keep their order across messengers")
    @MainActor
    func orderAcrossMessengersAndObserverKinds() async {
        let first = Messenger<Int>()
        let second = Messenger<Int>()
        final class Recorder: MainActorObserver {
            let receiver = Receiver()
            var log: [String] = []
        }
        let recorder = Recorder()
        let bag = ObservationBag()
        // One through a token, one through a main-actor observer, one through a free observer.
        bag += first.subscribeIsolated { recorder.log.append("first \($0)") }
        recorder.observe(second) { recorder.log.append("second \($0)") }
        let free = FreeObserver()
        free.observeIsolated(second) { value, _ in recorder.log.append("free \(value)") }

        let steps = 500
        #expect(
            runOnThreads(1) { _ in
                for step in 1...steps {
                    first.send(step)
                    second.send(step)
                }
            })
        #expect(recorder.log.isEmpty)
        await waitForPendingDeliveries()

        let expected = (1...steps).flatMap { ["first \($0)", "second \($0)", "free \($0)"] }
        #expect(recorder.log == expected)
        withExtendedLifetime((bag, free)) {}
    }

    @Test("replaying a variable to a main-actor token: the latest value before subscribe returns, then changes")
    @MainActor
    func replayOnTheMainActor() async {
        let title = Var("first")
        let viewModel = ViewModel()
        viewModel.start(observing: title, replaying: true)
        #expect(viewModel.titles == ["first"])

        title.value = "second"
        #expect(viewModel.titles == ["first", "second"])
        await Task.detached { title.value = "third" }.value
        await waitForPendingDeliveries()
        #expect(viewModel.titles == ["first", "second", "third"])
    }

    @Test("an actor keeping tokens: its handler runs on it, at once from inside, later and in order from outside")
    func actorKeepingTokens() async {
        let messenger = Messenger<Int>()
        let tally = Tally()
        await tally.start(observing: messenger)

        #expect(await tally.receivedWhileBusy(1...50, from: messenger) == [])
        await waitForPendingDeliveries()
        #expect(await tally.values == Array(1...50))

        let seenBySendReturn = await tally.send(51, to: messenger)
        #expect(seenBySendReturn == Array(1...51))

        await tally.stop()
        #expect(messenger.observationCount == 0)
        messenger.send(52)
        await waitForPendingDeliveries()
        #expect(await tally.values == Array(1...51))
    }

    @Test("emptying the bag ends the observation, and drops what was on its way to the main actor")
    @MainActor
    func emptyingTheBagEndsIt() async {
        let messenger = Messenger<Int>()
        let viewModel = ViewModel()
        viewModel.start(observing: messenger)

        #expect(runOnThreads(1) { _ in for value in 1...10 { messenger.send(value) } })
        viewModel.bag.removeAll()
        #expect(messenger.observationCount == 0)
        await waitForPendingDeliveries()
        messenger.send(11)

        #expect(viewModel.values.isEmpty)
    }

    @Test("releasing the token ends the observation")
    @MainActor
    func releasingTheTokenEndsIt() async {
        let messenger = Messenger<Int>()
        var received: [Int] = []
        var token: ObservationToken? = messenger.subscribeIsolated { received.append($0) }
        messenger.send(1)
        #expect(token?.isObserving == true)

        token = nil
        messenger.send(2)
        await Task.detached { messenger.send(3) }.value
        await waitForPendingDeliveries()
        #expect(received == [1])
        #expect(messenger.observationCount == 0)
    }

    @Test("a view model that keeps its tokens in a bag and captures itself weakly is freed, and its observations end")
    @MainActor
    func viewModelIsFreed() {
        let messenger = Messenger<Int>()
        let title = Var("")
        var viewModel: ViewModel? = ViewModel()
        weak let weakViewModel = viewModel
        viewModel?.start(observing: messenger)
        viewModel?.start(observing: title, replaying: true)
        messenger.send(1)
        #expect(viewModel?.values == [1])
        #expect(messenger.observationCount == 1)

        viewModel = nil
        #expect(weakViewModel == nil)
        #expect(messenger.observationCount == 0)
        #expect(title.messenger.observationCount == 0)
    }

    @Test("an actor that ends its tokens is freed: the handlers that held it are gone")
    func actorIsFreedAfterEndingItsTokens() async {
        let messenger = Messenger<Int>()
        var tally: Tally? = Tally()
        weak let weakTally = tally
        await tally?.start(observing: messenger)
        messenger.send(1)
        await waitForPendingDeliveries()
        #expect(await tally?.values == [1])

        await tally?.stop()
        tally = nil
        // The task that ran the delivery on the actor lets go of it when it finishes, a moment
        // after resuming the wait above: wait for that, bounded.
        var waited = 0
        while weakTally != nil, waited < 5_000 {
            try? await Task.sleep(for: .milliseconds(1))
            waited += 1
        }
        #expect(weakTally == nil)
    }

    @Test("a free observer's and the global functions' main-actor handlers run on the main actor; observeOnce once")
    @MainActor
    func freeObserverAndGlobalFunctions() async {
        let messenger = Messenger<Int>()
        var log: [String] = []
        let free = FreeObserver()
        free.observeIsolated(messenger) { value in
            MainActor.preconditionIsolated()
            log.append("free \(value)")
        }
        // The global functions observe through `FreeObserver.shared`, which other tests end all
        // observations of: that part runs while no other test uses it, synchronously.
        withSharedState {
            observeIsolated(messenger) { value, author in
                MainActor.preconditionIsolated()
                log.append("shared \(value) by \(author === messenger ? "messenger" : "someone")")
            }
            weak let once = observeOnceIsolated(messenger) { value in
                MainActor.preconditionIsolated()
                log.append("once \(value)")
            }
            messenger.send(1)
            #expect(log == ["free 1", "shared 1 by messenger", "once 1"])
            #expect(once == nil)
            messenger.send(2)
            #expect(log == ["free 1", "shared 1 by messenger", "once 1", "free 2", "shared 2 by messenger"])
            FreeObserver.shared.stopObserving(messenger)
        }

        #expect(runOnThreads(1) { _ in messenger.send(3) })
        #expect(log.count == 5)
        await waitForPendingDeliveries()
        #expect(log == ["free 1", "shared 1 by messenger", "once 1", "free 2", "shared 2 by messenger", "free 3"])

        free.stopObserving()
        messenger.send(4)
        #expect(log.count == 6)
        #expect(messenger.observationCount == 0)
    }

    @Test("a read-only messenger's isolated token and free observation run on the main actor")
    @MainActor
    func readOnlyMessenger() async {
        let messenger = Messenger<Int>()
        let readOnly = messenger.readOnly
        var log: [String] = []
        let token = readOnly.subscribeIsolated { value in
            MainActor.preconditionIsolated()
            log.append("token \(value)")
        }
        let free = FreeObserver()
        free.observeIsolated(readOnly) { value in
            MainActor.preconditionIsolated()
            log.append("free \(value)")
        }

        messenger.send(1)
        #expect(log == ["token 1", "free 1"])
        #expect(runOnThreads(1) { _ in messenger.send(2) })
        #expect(log.count == 2)
        await waitForPendingDeliveries()
        #expect(log == ["token 1", "free 1", "token 2", "free 2"])
        withExtendedLifetime((token, free)) {}
    }
}
