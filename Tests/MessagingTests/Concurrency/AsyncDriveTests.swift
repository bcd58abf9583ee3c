import Foundation
import Testing

@testable import Messaging

@Suite("Driving a messenger or a variable from an async sequence")
struct AsyncDriveTests {
    @Test func sendContentsOfSendsEveryElementInOrderAndReturnsAtTheEnd() async {
        let messenger = Messenger<Int>()
        let log = Locked<[Int]>([])
        let token = messenger.subscribe { message in log.withLock { $0.append(message) } }
        let (numbers, input) = AsyncStream.makeStream(of: Int.self)
        for number in 1...5 { input.yield(number) }
        input.finish()
        await messenger.send(contentsOf: numbers)
        #expect(log.value == [1, 2, 3, 4, 5])
        withExtendedLifetime(token) {}
    }

    @Test func cancellingTheTaskStopsForwarding() async {
        let source = Messenger<Int>()
        let target = Messenger<Int>()
        let (forwarded, output) = AsyncStream.makeStream(of: Int.self)
        let token = target.subscribe { output.yield($0) }
        let forwarding = Task { await target.send(contentsOf: source.messages) }
        #expect(await consumersWait(1, on: source))
        source.send(1)
        source.send(2)
        var received: [Int] = []
        for await message in forwarded {
            received.append(message)
            if message == 2 { break }
        }
        forwarding.cancel()
        await forwarding.value
        #expect(source.observationCount == 0)
        source.send(3)
        #expect(received == [1, 2])
        withExtendedLifetime(token) {}
    }

    @Test func anErrorOfTheSequenceIsRethrownAfterTheElementsBeforeIt() async {
        let messenger = Messenger<Int>()
        let log = Locked<[Int]>([])
        let token = messenger.subscribe { message in log.withLock { $0.append(message) } }
        let (numbers, input) = AsyncThrowingStream.makeStream(of: Int.self)
        input.yield(1)
        input.yield(2)
        input.finish(throwing: SequenceFailure())
        await #expect(throws: SequenceFailure.self) {
            try await messenger.send(contentsOf: numbers)
        }
        #expect(log.value == [1, 2])
        withExtendedLifetime(token) {}
    }

    @Test func assignContentsOfSetsEachValueAndSendsOnlyChanges() async {
        let number = Var(0)
        let log = Locked<[Update<Int>]>([])
        let token = number.subscribe { update in log.withLock { $0.append(update) } }
        let (values, input) = AsyncStream.makeStream(of: Int.self)
        for value in [1, 1, 2] { input.yield(value) }
        input.finish()
        await number.assign(contentsOf: values)
        #expect(number.value == 2)
        #expect(log.value == [Update(0, 1), Update(1, 2)])
        withExtendedLifetime(token) {}
    }

    @Test func aVariableCanFollowAnotherOnTheMainActor() async {
        let source = Var(1)
        let mirror = Var(0)
        let seen = await Task { @MainActor in
            var seen: [Int] = []
            let following = Task { @MainActor in await mirror.assign(contentsOf: source.values) }
            for await value in mirror.values {
                seen.append(value)
                if value == 1 { source.value = 2 }
                if value == 2 { break }
            }
            following.cancel()
            await following.value
            return seen
        }.value
        #expect(seen.last == 2)
        #expect(mirror.value == 2)
        #expect(source.messenger.observationCount == 0)
    }
}
