import Foundation
import Messaging
import PostgresNIO
import Testing

@testable import PostgresMessaging

@Suite(.needsPostgres, .timeLimit(.minutes(1)))
struct LoggedModeTests {
    static let mode = PostgresMirrorMode.logged(retention: .seconds(300))

    @Test func twoInstancesExchangeThousandsOfMessagesInOrderWithoutEcho() async throws {
        let channel = TestDatabase.uniqueChannel("logged_exchange")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(Self.mode))
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(Self.mode))
        let atA = InboxObserver(a)
        let atB = InboxObserver(b)
        let count = 3_000
        try await withRunningMirrors([a, b]) {
            for number in 0..<count {
                a.messenger.send(Note(sender: "a", number: number))
                b.messenger.send(Note(sender: "b", number: number))
            }
            #expect(await eventually { atA.inbox.count == 2 * count && atB.inbox.count == 2 * count })
            try await Task.sleep(for: .milliseconds(700))
        }
        #expect(atA.inbox.messages.filter { $0.sender == "b" } == (0..<count).map { Note(sender: "b", number: $0) })
        #expect(atB.inbox.messages.filter { $0.sender == "a" } == (0..<count).map { Note(sender: "a", number: $0) })
        #expect(atA.inbox.count == 2 * count && atB.inbox.count == 2 * count, "no echo, no loop, no duplicate")
        #expect(a.counters.published == count && b.counters.published == count)
    }

    @Test func messagesLargerThanANotifyPayloadTravelThroughTheLog() async throws {
        let channel = TestDatabase.uniqueChannel("logged_large")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(Self.mode))
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(Self.mode))
        let atB = InboxObserver(b)
        let large = Note(sender: "a", number: 1, text: String(repeating: "é", count: 50_000))
        try await withRunningMirrors([a, b]) {
            try a.send(large)
            a.messenger.send(Note(sender: "a", number: 2))
            #expect(await eventually { atB.inbox.count == 2 })
        }
        #expect(atB.inbox.messages == [large, Note(sender: "a", number: 2)])
    }

    @Test func nothingIsLostWhenTheListenersBackendIsKilledMidStream() async throws {
        let (a, b, bName) = try TestDatabase.senderAndNamedReceiver("logged_killed", Self.mode)
        let atB = InboxObserver(b)
        let states = StateRecorder(b)
        let count = 5_000
        try await withRunningMirrors([a, b]) {
            let sender = Task.detached {
                for number in 0..<count {
                    a.messenger.send(Note(sender: "a", number: number))
                    if number % 100 == 0 { try? await Task.sleep(for: .milliseconds(2)) }
                }
            }
            var killed = 0
            for _ in 0..<3 {
                try await Task.sleep(for: .milliseconds(60))
                killed += try await TestDatabase.terminateBackends(named: bName)
                _ = await eventually(timeout: .seconds(5)) { b.status.value.connection == .connected }
            }
            await sender.value
            #expect(killed >= 1)
            #expect(await eventually { atB.inbox.count >= count })
            try await Task.sleep(for: .milliseconds(300))
        }
        #expect(
            atB.inbox.messages == (0..<count).map { Note(sender: "a", number: $0) },
            "every message exactly once, in order")
        #expect(states.seen.contains(.reconnecting))
        #expect(b.status.value.possibleGapCount == 0)
    }

    @Test func nothingIsLostWhenThePublishersBackendIsKilledMidStream() async throws {
        let channel = TestDatabase.uniqueChannel("logged_pubkill")
        let aName = "pm_\(channel)_a"
        let a = try PostgresMirror(
            Messenger<Note>(),
            channel: channel,
            configuration: TestDatabase.mirrorConfiguration(Self.mode, applicationName: aName)
        )
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(Self.mode))
        let atB = InboxObserver(b)
        let count = 3_000
        try await withRunningMirrors([a, b]) {
            let sender = Task.detached {
                for number in 0..<count {
                    a.messenger.send(Note(sender: "a", number: number))
                    if number % 100 == 0 { try? await Task.sleep(for: .milliseconds(2)) }
                }
            }
            for _ in 0..<3 {
                try await Task.sleep(for: .milliseconds(50))
                try await TestDatabase.terminateBackends(named: aName)
            }
            await sender.value
            #expect(await eventually { atB.inbox.count >= count })
            try await Task.sleep(for: .milliseconds(300))
        }
        #expect(atB.inbox.messages == (0..<count).map { Note(sender: "a", number: $0) })
    }

    @Test func aSlowConsumerRecoversDroppedMessagesFromTheLog() async throws {
        let channel = TestDatabase.uniqueChannel("logged_slow")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(Self.mode))
        var slowConfiguration = TestDatabase.mirrorConfiguration(Self.mode)
        slowConfiguration.incomingCapacity = 10
        let b = try PostgresMirror(Messenger<Note>(), channel: channel, configuration: slowConfiguration)
        let atB = InboxObserver(b, delayMilliseconds: 1)
        let count = 500
        try await withRunningMirrors([a, b]) {
            for number in 0..<count { a.messenger.send(Note(sender: "a", number: number)) }
            #expect(await eventually { a.counters.published == count })
            #expect(await eventually { atB.inbox.count >= count })
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(b.counters.droppedIncoming > 0, "the buffer was too small for the burst")
        #expect(atB.inbox.messages == (0..<count).map { Note(sender: "a", number: $0) })
        #expect(b.status.value.possibleGapCount == 0)
    }

    @Test func aTransactionalPublishArrivesOnlyIfTheTransactionCommits() async throws {
        let channel = TestDatabase.uniqueChannel("logged_tx")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(Self.mode))
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(Self.mode))
        let atB = InboxObserver(b)
        try await withRunningMirrors([a, b]) {
            try await TestDatabase.withConnection { connection in
                let logger = TestDatabase.logger
                try await connection.query("BEGIN", logger: logger)
                try await a.publish(Note(sender: "a", number: 1), on: connection)
                try await connection.query("ROLLBACK", logger: logger)
                try await connection.query("BEGIN", logger: logger)
                try await a.publish(Note(sender: "a", number: 2), on: connection)
                try await connection.query("COMMIT", logger: logger)
            }
            a.messenger.send(Note(sender: "a", number: 3))
            #expect(await eventually { atB.inbox.count == 2 })
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(atB.inbox.messages == [Note(sender: "a", number: 2), Note(sender: "a", number: 3)])
    }

    @Test func rowsOlderThanTheRetentionAreDeleted() async throws {
        let channel = TestDatabase.uniqueChannel("logged_retention")
        let a = try PostgresMirror(
            Messenger<Note>(),
            channel: channel,
            configuration: TestDatabase.mirrorConfiguration(.logged(retention: .seconds(1)))
        )
        try await withRunningMirrors([a]) {
            for number in 0..<10 { a.messenger.send(Note(sender: "a", number: number)) }
            #expect(await eventually { a.counters.published == 10 })
            var remaining = try await rowCount(channel: channel)
            let end = ContinuousClock.now + .seconds(10)
            while remaining > 0, ContinuousClock.now < end {
                try await Task.sleep(for: .milliseconds(200))
                remaining = try await rowCount(channel: channel)
            }
            #expect(remaining == 0, "the rows outlived their retention")
        }
    }
}

/// Counts a channel's rows in the log.
private func rowCount(channel: String) async throws -> Int {
    try await TestDatabase.withConnection { connection in
        let rows = try await connection.query(
            "SELECT count(*)::bigint FROM general_observer_log WHERE channel = \(channel)",
            logger: TestDatabase.logger
        )
        var count: Int64 = -1
        for try await value in rows.decode(Int64.self) { count = value }
        return Int(count)
    }
}
