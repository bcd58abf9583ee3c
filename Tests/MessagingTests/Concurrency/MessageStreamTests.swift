import Foundation
import Testing

@testable import Messaging

@Suite(
    "Message and value streams: started when made, one consumer, ended by their loop or release",
    .timeLimit(.minutes(10))
)
struct MessageStreamTests {
    /// The main actor runs the new task only after this function suspends, so every message is
    /// sent before the loop makes its iterator: a stream that started then would receive nothing.
    @MainActor
    @Test func aLoopInATaskReceivesEverythingSentRightAfterTheTaskWasCreated() async {
        let messenger = Messenger<Int>()
        let stream = messenger.makeMessageStream()
        let consumer = Task {
            var received: [Int] = []
            for await message in stream {
                MainActor.assertIsolated()
                received.append(message)
            }
            return received
        }
        messenger.send(each: 1...1_000)
        messenger.stopBeingObserved()
        #expect(await consumer.value == Array(1...1_000))
        #expect(messenger.observationCount == 0)
    }

    /// Why streams exist: the observation of a `messages` loop in a task starts only when the task
    /// runs its loop, so what is sent before that is missed. On the main actor that moment comes
    /// only after this function suspends; elsewhere it depends on timing.
    @MainActor
    @Test func aMessagesLoopInATaskStartsItsObservationOnlyWhenTheTaskRuns() async {
        let messenger = Messenger<Int>()
        let late = Task {
            for await _ in messenger.messages {}
        }
        #expect(messenger.observationCount == 0)  // what is sent now reaches no loop
        let stream = messenger.makeMessageStream()
        let early = Task {
            for await _ in stream {}
        }
        #expect(messenger.observationCount == 1)  // the stream's: what is sent now waits for it
        late.cancel()
        early.cancel()
        await late.value
        await early.value
        #expect(messenger.observationCount == 0)
    }

    /// The loop runs on another thread and starts while the messages are being sent.
    @Test func aDetachedLoopReceivesEverythingSentWhileItStarts() async {
        for _ in 1...50 {
            let messenger = Messenger<Int>()
            let stream = messenger.makeMessageStream()
            let consumer = Task.detached {
                var received: [Int] = []
                for await message in stream { received.append(message) }
                return received
            }
            messenger.send(each: 1...200)
            messenger.stopBeingObserved()
            let received = await consumer.value
            #expect(received == Array(1...200))
            if received != Array(1...200) { return }
        }
    }

    @MainActor
    @Test func aValueStreamStartsWithTheValueOfItsMakingThenEveryChange() async {
        let number = Var(0)
        let stream = number.makeValueStream()
        let consumer = Task {
            var seen: [Int] = []
            for await value in stream { seen.append(value) }
            return seen
        }
        for value in 1...500 { number.value = value }
        number.stopBeingObserved()
        #expect(await consumer.value == Array(0...500))
        #expect(number.messenger.observationCount == 0)
    }

    @Test func theStreamKeepsWhatItsPolicySaysUntilTheLoopStarts() async {
        let messenger = Messenger<Int>()
        let newest = messenger.makeMessageStream(bufferingPolicy: .newest(2))
        let oldest = messenger.makeMessageStream(bufferingPolicy: .oldest(2))
        messenger.send(each: 1...5)
        messenger.stopBeingObserved()
        #expect(await newest.collected() == [4, 5])
        #expect(await oldest.collected() == [1, 2])
    }

    @Test func releasingAStreamThatWasNeverIteratedEndsItsObservation() {
        let messenger = Messenger<Parcel>()
        weak var parcel: Parcel?
        weak var buffer: _MessageBuffer<Parcel>?
        do {
            let stream = messenger.makeMessageStream()
            #expect(messenger.observationCount == 1)
            buffer = buffers(of: messenger).first
            let sent = Parcel(1)
            parcel = sent
            messenger.send(sent)
            let copy = stream
            withExtendedLifetime(copy) {}
            // One copy is gone; the other keeps the observation.
            #expect(messenger.observationCount == 1)
            withExtendedLifetime(stream) {}
        }
        #expect(messenger.observationCount == 0)
        #expect(buffers(of: messenger).isEmpty)
        #expect(buffer == nil)
        #expect(parcel == nil)
    }

    @Test func releasingAnUniteratedValueStreamEndsItsObservation() {
        let flag = Var(false)
        do {
            let stream = flag.makeValueStream()
            #expect(flag.messenger.observationCount == 1)
            withExtendedLifetime(stream) {}
        }
        #expect(flag.messenger.observationCount == 0)
    }

    @Test func theIteratorEndsTheObservationWhileTheStreamIsStillHeld() async {
        let messenger = Messenger<Int>()
        let stream = messenger.makeMessageStream()
        do {
            var iterator = stream.makeAsyncIterator()
            messenger.send(1)
            #expect(await iterator.next() == 1)
        }
        #expect(messenger.observationCount == 0)
        var later = stream.makeAsyncIterator()
        #expect(await later.next() == nil)
    }

    @Test func theIteratorOutlivesItsStream() async {
        let messenger = Messenger<Int>()
        var iterator: MessageStream<Int>.Iterator
        do {
            let stream = messenger.makeMessageStream()
            iterator = stream.makeAsyncIterator()
        }
        messenger.send(1)
        #expect(messenger.observationCount == 1)
        #expect(await iterator.next() == 1)
    }

    @Test func aBreakEndsTheObservation() async {
        let messenger = Messenger<Int>()
        let stream = messenger.makeMessageStream()
        messenger.send(each: 1...5)
        var received: [Int] = []
        for await message in stream {
            received.append(message)
            if message == 2 { break }
        }
        #expect(received == [1, 2])
        #expect(messenger.observationCount == 0)
    }

    @Test func cancellingAWaitingLoopEndsTheObservationDuringCancel() async {
        let messenger = Messenger<Int>()
        let stream = messenger.makeMessageStream()
        let consumer = Task {
            var received: [Int] = []
            for await message in stream { received.append(message) }
            return received
        }
        messenger.send(1)
        #expect(await consumersWait(1, on: messenger))
        consumer.cancel()
        // The cancellation handler ran inside `cancel()`.
        #expect(messenger.observationCount == 0)
        #expect(await consumer.value == [1])
    }

    /// The task is cancelled before it runs: its loop's first `next()` returns `nil`, drops what
    /// was buffered and ends the observation.
    @MainActor
    @Test func aTaskCancelledBeforeItsLoopStartsEndsTheObservation() async {
        let messenger = Messenger<Parcel>()
        let stream = messenger.makeMessageStream()
        weak var parcel: Parcel?
        do {
            let sent = Parcel(1)
            parcel = sent
            messenger.send(sent)
        }
        let consumer = Task {
            var received: [Int] = []
            for await message in stream { received.append(message.number) }
            return received
        }
        consumer.cancel()
        #expect(await consumer.value == [])
        #expect(messenger.observationCount == 0)
        #expect(parcel == nil)
    }

    @Test func aSecondIteratorIsEmptyAndTheFirstStillGetsEverything() async {
        let messenger = Messenger<Int>()
        let stream = messenger.makeMessageStream()
        messenger.send(1)
        var first = stream.makeAsyncIterator()
        var second = stream.makeAsyncIterator()
        let copy = stream
        var fromACopy = copy.makeAsyncIterator()
        messenger.send(2)
        #expect(await second.next() == nil)
        #expect(await fromACopy.next() == nil)
        #expect(messenger.observationCount == 1)
        messenger.send(3)
        messenger.stopBeingObserved()
        #expect(await first.next() == 1)
        #expect(await first.next() == 2)
        #expect(await first.next() == 3)
        #expect(await first.next() == nil)
    }

    @Test func ofTwoLoopsOnOneStreamOneGetsEverythingAndTheOtherNothing() async {
        for _ in 1...20 {
            let messenger = Messenger<Int>()
            let stream = messenger.makeMessageStream()
            let loops = (1...2).map { _ in
                Task.detached {
                    var received: [Int] = []
                    for await message in stream { received.append(message) }
                    return received
                }
            }
            messenger.send(each: 1...100)
            messenger.stopBeingObserved()
            var results: [[Int]] = []
            for loop in loops { results.append(await loop.value) }
            #expect(results.sorted { $0.count < $1.count } == [[], Array(1...100)])
        }
    }

    @Test func neitherTheStreamNorItsIteratorKeepsTheMessengerAlive() async {
        var messenger: Messenger<Int>? = Messenger()
        weak let weakMessenger = messenger
        let stream = messenger!.makeMessageStream()
        messenger!.send(1)
        messenger!.send(2)
        messenger = nil
        #expect(weakMessenger == nil)
        #expect(await stream.collected() == [1, 2])
    }
}

extension AsyncSequence where Failure == Never {
    /// Every element, until the sequence ends.
    fileprivate func collected(isolation: isolated (any Actor)? = #isolation) async -> [Element] {
        var elements: [Element] = []
        var iterator = makeAsyncIterator()
        while let element = await iterator.next(isolation: isolation) { elements.append(element) }
        return elements
    }
}
