import Foundation
import Messaging
import Testing

@Suite("Actor buffering: a bounded observation keeps the latest or the first messages, and counts the rest")
struct ActorBufferingTests {
    /// A main-actor observer that logs what its handlers receive.
    final class Recorder: MainActorObserver {
        let receiver = Receiver()
        private(set) var log: [String] = []

        func record(_ entry: String) {
            log.append(entry)
        }
    }

    /// An actor observer that logs what its handler receives.
    actor Tally: ActorObserver {
        let receiver = Receiver()
        private(set) var values: [Int] = []

        func start(observing messenger: Messenger<Int>, buffering: MessageBuffering, counting: MessageDropCounter) {
            observeWeakly(messenger, buffering: buffering, counting: counting) { tally, value in
                tally.preconditionIsolated()
                tally.values.append(value)
            }
        }

        /// Lets a background thread send `values` while the actor is busy in here, so that every
        /// message waits for it.
        func sendWhileBusy(_ values: [Int], on messenger: Messenger<Int>) -> Bool {
            runOnThreads(1) { _ in for value in values { messenger.send(value) } }
        }
    }

    /// Runs `body` on a background thread while the main actor waits, so that everything it sends
    /// to main-actor handlers waits in the main actor's queue.
    @MainActor
    private func whileTheMainActorIsBusy(_ body: @escaping @Sendable () -> Void) {
        #expect(runOnThreads(1) { _ in body() })
    }

    @Test("newest(1) keeps only the latest of a flood and counts the others")
    @MainActor
    func latestOnly() async {
        let messenger = Messenger<Int>()
        let recorder = Recorder()
        let dropped = MessageDropCounter()
        recorder.observe(messenger, buffering: .newest(1), counting: dropped) { recorder.record("\($0)") }

        whileTheMainActorIsBusy { for value in 1...100 { messenger.send(value) } }
        await waitForPendingDeliveries()

        #expect(recorder.log == ["100"])
        #expect(dropped.count == 99)
    }

    @Test("newest(1): the latest message runs in the place of the first one still waiting")
    @MainActor
    func latestTakesThePlaceOfTheFirst() async {
        let a = Messenger<Int>()
        let b = Messenger<Int>()
        let recorder = Recorder()
        recorder.observe(a, buffering: .newest(1)) { recorder.record("a\($0)") }
        recorder.observe(b) { recorder.record("b\($0)") }

        whileTheMainActorIsBusy {
            a.send(1)
            b.send(10)
            a.send(2)
            b.send(20)
        }
        await waitForPendingDeliveries()

        #expect(recorder.log == ["a2", "b10", "b20"])
    }

    @Test("newest(3): each waiting call delivers the oldest message left, the first ones pushed out")
    @MainActor
    func newestThree() async {
        let a = Messenger<Int>()
        let b = Messenger<Int>()
        let recorder = Recorder()
        let dropped = MessageDropCounter()
        recorder.observe(a, buffering: .newest(3), counting: dropped) { recorder.record("a\($0)") }
        recorder.observe(b) { recorder.record("b\($0)") }

        whileTheMainActorIsBusy {
            a.send(1)
            b.send(10)
            a.send(2)
            b.send(20)
            a.send(3)
            b.send(30)
            a.send(4)
            a.send(5)
        }
        await waitForPendingDeliveries()

        #expect(recorder.log == ["a3", "b10", "a4", "b20", "a5", "b30"])
        #expect(dropped.count == 2)
    }

    @Test("oldest(2) keeps the first messages in their places and drops the later ones")
    @MainActor
    func oldestTwo() async {
        let a = Messenger<Int>()
        let b = Messenger<Int>()
        let recorder = Recorder()
        let dropped = MessageDropCounter()
        recorder.observe(a, buffering: .oldest(2), counting: dropped) { recorder.record("a\($0)") }
        recorder.observe(b) { recorder.record("b\($0)") }

        whileTheMainActorIsBusy {
            a.send(1)
            b.send(10)
            a.send(2)
            b.send(20)
            a.send(3)
            b.send(30)
        }
        await waitForPendingDeliveries()
        #expect(recorder.log == ["a1", "b10", "a2", "b20", "b30"])
        #expect(dropped.count == 1)

        // Once the calls have run, there is room again.
        whileTheMainActorIsBusy { a.send(4) }
        await waitForPendingDeliveries()
        #expect(recorder.log == ["a1", "b10", "a2", "b20", "b30", "a4"])
        #expect(dropped.count == 1)
    }

    @Test("a limit of 0 keeps nothing waiting: only messages sent on the main actor arrive")
    @MainActor
    func limitZero() async {
        let messenger = Messenger<Int>()
        let recorder = Recorder()
        let dropped = MessageDropCounter()
        recorder.observe(messenger, buffering: .oldest(0), counting: dropped) { recorder.record("oldest \($0)") }
        recorder.observe(messenger, buffering: .newest(0), counting: dropped) { recorder.record("newest \($0)") }

        whileTheMainActorIsBusy { messenger.send(1) }
        await waitForPendingDeliveries()
        #expect(recorder.log.isEmpty)
        #expect(dropped.count == 2)

        messenger.send(2)
        #expect(recorder.log == ["oldest 2", "newest 2"])
        #expect(dropped.count == 2)
    }

    @Test("a bounded observation's main-actor send runs what waits, then its own message, before returning")
    @MainActor
    func sendOnTheMainActorRunsAtOnce() async {
        let messenger = Messenger<Int>()
        let recorder = Recorder()
        let dropped = MessageDropCounter()
        recorder.observe(messenger, buffering: .newest(1), counting: dropped) { recorder.record("\($0)") }

        whileTheMainActorIsBusy { for value in 1...3 { messenger.send(value) } }
        messenger.send(4)
        #expect(recorder.log == ["3", "4"])
        #expect(dropped.count == 2)

        await waitForPendingDeliveries()
        #expect(recorder.log == ["3", "4"])
    }

    @Test("a bounded observation that ends receives nothing of what waited for it")
    @MainActor
    func endedObservationReceivesNothing() async {
        let messenger = Messenger<Int>()
        let recorder = Recorder()
        recorder.observe(messenger, buffering: .oldest(10)) { recorder.record("\($0)") }

        whileTheMainActorIsBusy { for value in 1...3 { messenger.send(value) } }
        recorder.stopObserving(messenger)
        await waitForPendingDeliveries()

        #expect(recorder.log.isEmpty)
    }

    @Test("unbounded buffering delivers everything, like observe without a policy")
    @MainActor
    func unboundedDeliversEverything() async {
        let messenger = Messenger<Int>()
        let recorder = Recorder()
        let dropped = MessageDropCounter()
        recorder.observeWeakly(messenger, buffering: .unbounded, counting: dropped) { recorder, value in
            recorder.record("\(value)")
        }

        whileTheMainActorIsBusy { for value in 1...5 { messenger.send(value) } }
        await waitForPendingDeliveries()

        #expect(recorder.log == ["1", "2", "3", "4", "5"])
        #expect(dropped.count == 0)
    }

    @Test("an actor observer with newest(1) sees only the latest of what was sent while it was busy")
    func actorLatestOnly() async {
        let messenger = Messenger<Int>()
        let tally = Tally()
        let dropped = MessageDropCounter()
        await tally.start(observing: messenger, buffering: .newest(1), counting: dropped)

        #expect(await tally.sendWhileBusy(Array(1...50), on: messenger))
        await waitForPendingDeliveries()

        #expect(await tally.values == [50])
        #expect(dropped.count == 49)
    }

    @Test("an actor observer with oldest(3) sees the first three of what was sent while it was busy")
    func actorOldestThree() async {
        let messenger = Messenger<Int>()
        let tally = Tally()
        let dropped = MessageDropCounter()
        await tally.start(observing: messenger, buffering: .oldest(3), counting: dropped)

        #expect(await tally.sendWhileBusy(Array(1...50), on: messenger))
        await waitForPendingDeliveries()

        #expect(await tally.values == [1, 2, 3])
        #expect(dropped.count == 47)
    }
}
