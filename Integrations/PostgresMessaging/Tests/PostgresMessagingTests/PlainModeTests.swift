import Foundation
import Messaging
import PostgresNIO
import Testing

@testable import PostgresMessaging

@Suite(.needsPostgres, .timeLimit(.minutes(1)))
struct PlainModeTests {
    @Test func twoInstancesExchangeThousandsOfMessagesInOrderWithoutEcho() async throws {
        let channel = TestDatabase.uniqueChannel("plain_exchange")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let atA = InboxObserver(a)
        let atB = InboxObserver(b)
        let count = 3_000
        try await withRunningMirrors([a, b]) {
            for number in 0..<count {
                a.messenger.send(Note(sender: "a", number: number))
                b.messenger.send(Note(sender: "b", number: number))
            }
            let arrived = await eventually {
                atA.inbox.messages.filter { $0.sender == "b" }.count == count
                    && atB.inbox.messages.filter { $0.sender == "a" }.count == count
            }
            #expect(arrived, "A has \(atA.inbox.count), B has \(atB.inbox.count)")
            // Anything echoed or looping would arrive within this time.
            try await Task.sleep(for: .milliseconds(300))
        }
        let expectedAtA =
            (0..<count).map { Note(sender: "a", number: $0) } + (0..<count).map { Note(sender: "b", number: $0) }
        #expect(atA.inbox.messages.filter { $0.sender == "b" } == (0..<count).map { Note(sender: "b", number: $0) })
        #expect(atB.inbox.messages.filter { $0.sender == "a" } == (0..<count).map { Note(sender: "a", number: $0) })
        #expect(atA.inbox.count == 2 * count, "every message once: \(count) own, \(count) remote")
        #expect(atB.inbox.count == 2 * count)
        #expect(Set(atA.inbox.messages.map { "\($0.sender)\($0.number)" }).count == expectedAtA.count)
        #expect(a.counters.published == count && b.counters.published == count, "nothing received was published again")
        #expect(a.counters.delivered == count && b.counters.delivered == count)
        #expect(a.status.value.possibleGapCount == 0 && b.status.value.possibleGapCount == 0)
    }

    @Test func remoteMessagesAreAuthoredByTheMirror() async throws {
        let channel = TestDatabase.uniqueChannel("plain_author")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let atB = InboxObserver(b)
        try await withRunningMirrors([a, b]) {
            a.messenger.send(Note(sender: "a", number: 1))
            #expect(await eventually { atB.inbox.count == 1 })
        }
        #expect(atB.inbox.messages == [Note(sender: "a", number: 1)])
        #expect(atB.inbox.allFromMirror)
    }

    @Test func aPayloadThatDoesNotDecodeIsCountedAndTheNextMessageStillArrives() async throws {
        let channel = TestDatabase.uniqueChannel("plain_decode")
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let atB = InboxObserver(b)
        try await withRunningMirrors([b]) {
            try await TestDatabase.withConnection { connection in
                let logger = TestDatabase.logger
                try await connection.query("SELECT pg_notify(\(channel), 'not an envelope')", logger: logger)
                try await connection.query("SELECT pg_notify(\(channel), 'other|1|{\"wrong\": true}')", logger: logger)
                try await connection.query(
                    "SELECT pg_notify(\(channel), 'other|2|{\"sender\":\"x\",\"number\":7,\"text\":\"\"}')",
                    logger: logger
                )
            }
            #expect(await eventually { atB.inbox.count == 1 })
        }
        #expect(atB.inbox.messages == [Note(sender: "x", number: 7)])
        #expect(b.counters.undecodable == 2)
        #expect(b.status.value.lastError?.contains("did not decode") == true)
    }

    @Test func aKilledListenerReconnectsAndReportsTheGap() async throws {
        let (a, b, bName) = try TestDatabase.senderAndNamedReceiver("plain_killed", .plain)
        let atB = InboxObserver(b)
        let states = StateRecorder(b)
        try await withRunningMirrors([a, b]) {
            for number in 0..<500 { a.messenger.send(Note(sender: "a", number: number)) }
            let killed = try await TestDatabase.terminateBackends(named: bName)
            #expect(killed == 1)
            for number in 500..<1_000 { a.messenger.send(Note(sender: "a", number: number)) }
            #expect(
                await eventually { b.status.value.possibleGapCount >= 1 && b.status.value.connection == .connected })
            a.messenger.send(Note(sender: "a", number: 1_000))
            #expect(await eventually { atB.inbox.messages.last == Note(sender: "a", number: 1_000) })
        }
        #expect(states.seen.contains(.reconnecting))
        let numbers = atB.inbox.messages.map(\.number)
        #expect(numbers == numbers.sorted(), "what arrives still arrives in order")
        #expect(b.status.value.lastError != nil)
    }

    @Test func eachReconnectWhileMessagesFlowCountsAsOnePossibleGap() async throws {
        let (a, b, bName) = try TestDatabase.senderAndNamedReceiver("plain_flowing", .plain)
        let atB = InboxObserver(b)
        let cuts = 3
        try await withRunningMirrors([a, b]) {
            // Messages keep coming while B reconnects, so some arrive on its new connection before
            // it has finished starting to listen: they follow the reconnect's gap, not a skip.
            let sending = Task {
                for number in 0..<4_000 {
                    a.messenger.send(Note(sender: "a", number: number))
                    try await Task.sleep(for: .microseconds(500))
                }
            }
            for _ in 0..<cuts {
                try await Task.sleep(for: .milliseconds(300))
                #expect(await eventually { b.status.value.connection == .connected })
                #expect(try await TestDatabase.terminateBackends(named: bName) == 1)
            }
            try await sending.value
            #expect(await eventually { b.status.value.connection == .connected })
            a.messenger.send(Note(sender: "a", number: 4_000))
            #expect(await eventually { atB.inbox.messages.last == Note(sender: "a", number: 4_000) })
        }
        #expect(b.counters.droppedIncoming == 0)
        #expect(b.status.value.possibleGapCount == cuts, "one per reconnect")
        let numbers = atB.inbox.messages.map(\.number)
        #expect(numbers == numbers.sorted())
    }

    @Test func aSlowConsumerDropsNewestMessagesAndReportsThemWhilePublishingGoesOn() async throws {
        let channel = TestDatabase.uniqueChannel("plain_slow")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        var slowConfiguration = TestDatabase.mirrorConfiguration(.plain)
        slowConfiguration.incomingCapacity = 10
        let b = try PostgresMirror(Messenger<Note>(), channel: channel, configuration: slowConfiguration)
        let atB = InboxObserver(b, delayMilliseconds: 20)
        let count = 1_000
        try await withRunningMirrors([a, b]) {
            let started = ContinuousClock.now
            for number in 0..<count { a.messenger.send(Note(sender: "a", number: number)) }
            #expect(await eventually { a.counters.published == count })
            let publishing = ContinuousClock.now - started
            // Delivering everything would take count × 20 ms = 20 s at B; a publisher that waited for
            // B would take that long. The bound is loose because the machine may be busy.
            #expect(publishing < .seconds(10), "publishing took \(publishing)")
            #expect(await eventually { atB.inbox.count + b.counters.droppedIncoming == count })
        }
        #expect(b.counters.droppedIncoming > 0)
        #expect(b.status.value.possibleGapCount > 0)
        let numbers = atB.inbox.messages.map(\.number)
        #expect(numbers == numbers.sorted())
    }

    @Test func aTransactionalPublishArrivesOnlyIfTheTransactionCommits() async throws {
        let channel = TestDatabase.uniqueChannel("plain_tx")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let atB = InboxObserver(b)
        try await withRunningMirrors([a, b]) {
            try await TestDatabase.withConnection { connection in
                let logger = TestDatabase.logger
                try await connection.query("BEGIN", logger: logger)
                try await a.publish(Note(sender: "a", number: 1), on: connection)
                try await connection.query("ROLLBACK", logger: logger)
                try await connection.query("BEGIN", logger: logger)
                try await a.publish(Note(sender: "a", number: 2), on: connection)
                try await Task.sleep(for: .milliseconds(200))
                #expect(atB.inbox.count == 0, "nothing arrives before the commit")
                try await connection.query("COMMIT", logger: logger)
            }
            #expect(await eventually { atB.inbox.count == 1 })
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(atB.inbox.messages == [Note(sender: "a", number: 2)])
    }

    @Test func shuttingDownWhilePublishingEndsPromptly() async throws {
        let channel = TestDatabase.uniqueChannel("plain_shutdown")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let run = Task { try await a.run() }
        #expect(await eventually { a.status.value.connection == .connected })
        let sender = Task.detached {
            for number in 0..<20_000 { a.messenger.send(Note(sender: "a", number: number)) }
        }
        try await Task.sleep(for: .milliseconds(20))
        a.shutDown()
        await sender.value
        let started = ContinuousClock.now
        try await run.value
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(a.status.value.connection == .disconnected)
        let counters = a.counters
        #expect(counters.published + counters.unsent + counters.droppedOutgoing <= 20_000)
        a.messenger.send(Note(sender: "a", number: 20_000))
        #expect(a.counters.unsent == counters.unsent + 1, "a stopped mirror counts what it no longer publishes")
    }

    @Test func aMirrorRunsOnce() async throws {
        let a = try PostgresMirror(
            Messenger<Note>(),
            channel: TestDatabase.uniqueChannel("plain_once"),
            configuration: TestDatabase.mirrorConfiguration(.plain)
        )
        a.shutDown()
        await #expect(throws: PostgresMessagingError.alreadyRunning) { try await a.run() }
    }
}

/// Every connection state a mirror's status took.
final class StateRecorder: Observer {
    let receiver = Receiver()
    private let states = LockedBox<[PostgresMirrorStatus.Connection]>([])

    var seen: [PostgresMirrorStatus.Connection] { states.value }

    init<Message>(_ mirror: PostgresMirror<Message>) {
        observe(mirror.status) { [states] update in states.append(update.new.connection) }
    }
}
