import Foundation
import Testing

@testable import Messaging

@Suite("Async sequences of messages: order, broadcast, buffering, end and cancellation")
struct AsyncMessagesTests {
    @Test func aLoopReceivesTheMessagesSentAfterItStartedInOrder() async {
        let messenger = Messenger<Int>()
        messenger.send(0)  // before the loop: not received
        var received: [Int] = []
        for await message in messenger.messages.afterStart({ messenger.send(each: 1...5) }) {
            received.append(message)
            if message == 5 { break }
        }
        #expect(received == [1, 2, 3, 4, 5])
    }

    @Test func breakEndsTheObservationAtOnce() async {
        let messenger = Messenger<Int>()
        var received: [Int] = []
        for await message in messenger.messages.afterStart({ messenger.send(each: 1...10) }) {
            #expect(messenger.observationCount == 1)
            received.append(message)
            if message == 3 { break }
        }
        #expect(messenger.observationCount == 0)
        #expect(received == [1, 2, 3])
        messenger.send(11)  // reaches nobody, keeps nothing
        #expect(buffers(of: messenger).isEmpty)
    }

    @Test func releasingAnIteratorEndsTheObservation() async {
        let messenger = Messenger<Int>()
        do {
            var iterator = messenger.messages.makeAsyncIterator()
            #expect(messenger.observationCount == 1)
            messenger.send(1)
            #expect(await iterator.next() == 1)
        }
        #expect(messenger.observationCount == 0)
    }

    @Test func theObservationStartsWhenTheIteratorIsMadeNotTheSequence() async {
        let messenger = Messenger<Int>()
        let messages = messenger.messages
        #expect(messenger.observationCount == 0)
        messenger.send(1)
        var iterator = messages.makeAsyncIterator()
        messenger.send(2)
        messenger.stopBeingObserved()
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == nil)
    }

    @Test func cancellingAWaitingConsumerEndsTheObservationDuringCancel() async {
        let messenger = Messenger<Int>()
        let consumer = Task {
            var received: [Int] = []
            for await message in messenger.messages { received.append(message) }
            return received
        }
        #expect(await consumersWait(1, on: messenger))
        messenger.send(1)
        #expect(await consumersWait(1, on: messenger))
        consumer.cancel()
        // The cancellation handler ran inside `cancel()`.
        #expect(messenger.observationCount == 0)
        #expect(await consumer.value == [1])
    }

    @Test func aCancelledTaskGetsNilAtItsNextCallAndBufferedMessagesAreDropped() async {
        let messenger = Messenger<Parcel>()
        let dropped = Locked<[Parcel]>([])
        let received = await Task {
            var received: [Int] = []
            for await parcel in messenger.messages.afterStart({
                let parcels = (1...3).map(Parcel.init)
                for parcel in parcels { messenger.send(parcel) }
                dropped.withLock { $0 = Array(parcels.dropFirst()) }
            }) {
                received.append(parcel.number)
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return received
        }.value
        #expect(received == [1])
        #expect(messenger.observationCount == 0)
        weak let second = dropped.value.first
        dropped.withLock { $0 = [] }
        #expect(second == nil)
    }

    @Test func aTaskCancelledBeforeItStartsReceivesNothing() async {
        let messenger = Messenger<Int>()
        let started = Locked(false)
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var received: [Int] = []
            for await message in messenger.messages.afterStart({
                started.withLock { $0 = true }
                messenger.send(1)
            }) {
                received.append(message)
            }
            return received
        }
        #expect(await consumer.value == [])
        #expect(started.value)
        #expect(messenger.observationCount == 0)
    }

    @Test func everyConsumerReceivesEveryMessageInOrder() async {
        let messenger = Messenger<Int>()
        let consumerCount = 6
        let messageCount = 2_000
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let consumers = (0..<consumerCount).map { _ in
            Task {
                var received: [Int] = []
                for await message in messenger.messages.afterStart({ startedContinuation.yield() }) {
                    received.append(message)
                }
                return received
            }
        }
        var startedCount = 0
        for await _ in started {
            startedCount += 1
            if startedCount == consumerCount { break }
        }
        #expect(messenger.observationCount == consumerCount)
        for message in 1...messageCount { messenger.send(message) }
        messenger.stopBeingObserved()
        for consumer in consumers {
            #expect(await consumer.value == Array(1...messageCount))
        }
        #expect(messenger.observationCount == 0)
    }

    @Test func oneSequenceMakesIndependentIterators() async {
        let messenger = Messenger<Int>()
        let messages = messenger.messages(bufferingPolicy: .oldest(10))
        var first = messages.makeAsyncIterator()
        messenger.send(1)
        var second = messages.makeAsyncIterator()
        messenger.send(2)
        #expect(messenger.observationCount == 2)
        #expect(await first.next() == 1)
        #expect(await first.next() == 2)
        #expect(await second.next() == 2)
    }

    @Test func copiesOfAnIteratorShareOnePosition() async {
        let messenger = Messenger<Int>()
        var iterator = messenger.messages.makeAsyncIterator()
        var copy = iterator
        messenger.send(each: 1...3)
        #expect(await iterator.next() == 1)
        #expect(await copy.next() == 2)
        #expect(await iterator.next() == 3)
    }

    /// A consumer that takes one message after 10 were sent (if any waits), then everything after 5
    /// more.
    static let slowConsumerCases: [(MessageBuffering, [Int])] = [
        (.unbounded, Array(1...15)),
        (.newest(3), [8, 13, 14, 15]),
        (.newest(1), [10, 15]),
        (.newest(0), []),
        (.oldest(3), [1, 2, 3, 11]),
        (.oldest(1), [1, 11]),
        (.oldest(0), []),
        (.newest(20), Array(1...15)),
        (.oldest(20), Array(1...15)),
    ]

    @Test(arguments: slowConsumerCases)
    func aSlowConsumerKeepsWhatItsPolicySays(policy: MessageBuffering, expected: [Int]) async {
        let messenger = Messenger<Int>()
        var iterator = messenger.messages(bufferingPolicy: policy).makeAsyncIterator()
        var received: [Int] = []
        messenger.send(each: 1...10)
        // With a limit of 0 nothing waits, so a `next()` now would wait for a message to come.
        if policy.limit != 0, let message = await iterator.next() { received.append(message) }
        messenger.send(each: 11...15)
        messenger.stopBeingObserved()
        while let message = await iterator.next() { received.append(message) }
        #expect(received == expected)
    }

    @Test(arguments: [MessageBuffering.newest(0), .oldest(0), .newest(1), .unbounded])
    func aWaitingConsumerGetsTheNextMessageWhateverItsPolicy(policy: MessageBuffering) async {
        let messenger = Messenger<Int>()
        let consumer = Task {
            var iterator = messenger.messages(bufferingPolicy: policy).makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await consumersWait(1, on: messenger))
        messenger.send(7)
        #expect(await consumer.value == 7)
    }

    @Test func droppedMessagesAreReleased() async {
        let messenger = Messenger<Parcel>()
        var iterator = messenger.messages(bufferingPolicy: .newest(1)).makeAsyncIterator()
        weak var pushedOut: Parcel?
        do {
            let first = Parcel(1)
            pushedOut = first
            messenger.send(first)
            messenger.send(Parcel(2))
        }
        #expect(pushedOut == nil)
        #expect(await iterator.next()?.number == 2)
    }

    @Test func theSequenceEndsAfterTheBufferedMessagesWhenTheMessengerDies() async {
        var messenger: Messenger<Int>? = Messenger()
        weak let weakMessenger = messenger
        var iterator = messenger!.messages.makeAsyncIterator()
        messenger!.send(1)
        messenger!.send(2)
        messenger = nil
        #expect(weakMessenger == nil)
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    @Test func aWaitingConsumerEndsWhenTheObservableDies() async {
        var sky: Relay? = Relay(Messenger())
        weak let weakMessenger = sky?.messenger
        let messages = sky!.messages
        let consumer = Task {
            var received: [String] = []
            for await message in messages { received.append(message) }
            return received
        }
        #expect(await consumersWait(1, on: sky!.messenger))
        sky!.send("blue")
        sky = nil
        #expect(weakMessenger == nil)
        #expect(await consumer.value == ["blue"])
    }

    @Test func stopBeingObservedEndsTheSequence() async {
        let messenger = Messenger<Int>()
        let consumer = Task {
            var received: [Int] = []
            for await message in messenger.messages { received.append(message) }
            return received
        }
        #expect(await consumersWait(1, on: messenger))
        messenger.send(1)
        messenger.stopBeingObserved()
        #expect(await consumer.value == [1])
        #expect(messenger.observationCount == 0)
    }

    @Test func anIteratorMadeAfterTheMessengerDiedIsEmpty() async {
        var messenger: Messenger<Int>? = Messenger()
        let messages = messenger!.messages
        messenger = nil
        var iterator = messages.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test func neitherTheSequenceNorTheIteratorKeepsTheMessengerAlive() async {
        weak var weakMessenger: Messenger<Int>?
        var iterator: ObservableMessages<Int>.Iterator
        let messages: ObservableMessages<Int>
        do {
            let messenger = Messenger<Int>()
            weakMessenger = messenger
            messages = messenger.messages
            iterator = messages.makeAsyncIterator()
            messenger.send(1)
        }
        #expect(weakMessenger == nil)
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == nil)
        withExtendedLifetime(messages) {}
    }

    @Test func theMessengerDoesNotKeepAReleasedConsumerAlive() async {
        let messenger = Messenger<Parcel>()
        weak var consumer: _MessageConsumer<Parcel>?
        weak var buffer: _MessageBuffer<Parcel>?
        weak var parcel: Parcel?
        do {
            let iterator = messenger.messages.makeAsyncIterator()
            consumer = iterator._consumer
            buffer = iterator._consumer._buffer
            let sent = Parcel(1)
            parcel = sent
            messenger.send(sent)
            withExtendedLifetime(iterator) {}
        }
        #expect(consumer == nil)
        #expect(buffer == nil)
        #expect(parcel == nil)
        #expect(messenger.observationCount == 0)
    }

    @Test func aFinishedConsumerKeepsNothingOfTheMessenger() async {
        var messenger: Messenger<Int>? = Messenger()
        var iterator = messenger!.messages.makeAsyncIterator()
        weak let buffer = iterator._consumer._buffer
        weak let core = messenger!._core
        messenger = nil
        #expect(await iterator.next() == nil)
        // The buffer let go of its observation, which held the core.
        #expect(core == nil)
        withExtendedLifetime(iterator) { #expect(buffer != nil) }
    }

    @Test func optionalMessagesAreNotMistakenForTheEnd() async {
        let messenger = Messenger<Int?>()
        var iterator = messenger.messages.makeAsyncIterator()
        messenger.send(nil)
        messenger.send(1)
        messenger.stopBeingObserved()
        #expect(await iterator.next() == .some(nil))
        #expect(await iterator.next() == .some(1))
        #expect(await iterator.next() == nil)
    }

    @Test func aMainActorLoopReceivesOnTheMainActor() async {
        let messenger = Messenger<Int>()
        let received = await Task { @MainActor in
            var received: [Int] = []
            for await message in messenger.messages.afterStart({ messenger.send(each: 1...3) }) {
                MainActor.assertIsolated()
                received.append(message)
                if message == 3 { break }
            }
            return received
        }.value
        #expect(received == [1, 2, 3])
    }

    @Test func aNegativeLimitIsRejectedWithAClearMessage() async {
        await #expect(processExitsWith: .failure) {
            _ = MessageBuffering.newest(-1)
        }
    }

    @Test func theLimitIsReported() {
        #expect(MessageBuffering.unbounded.limit == nil)
        #expect(MessageBuffering.newest(3).limit == 3)
        #expect(MessageBuffering.oldest(0).limit == 0)
        #expect(MessageBuffering.newest(.max) == .unbounded)
    }
}
