import Foundation
import Messaging
import PostgresNIO
import Testing

@testable import PostgresMessaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A backend stopped with SIGSTOP keeps its socket open and answers nothing: a silently dead
/// connection, as after a network partition. The tests need to signal the server's processes, so
/// they run only where the server runs on this machine, under the same or a more powerful user.
@Suite(.needsPostgres, .timeLimit(.minutes(1)))
struct DeadConnectionTests {
    @Test func theHealthCheckReplacesASilentlyDeadListener() async throws {
        let channel = TestDatabase.uniqueChannel("dead_listener")
        let bName = "pm_\(channel)_b"
        let a = try PostgresMirror(
            Messenger<Note>(),
            channel: channel,
            configuration: TestDatabase.mirrorConfiguration(.logged(retention: .seconds(300)))
        )
        var configuration = TestDatabase.mirrorConfiguration(.logged(retention: .seconds(300)), applicationName: bName)
        configuration.healthCheckInterval = .milliseconds(200)
        configuration.healthCheckTimeout = .milliseconds(500)
        let b = try PostgresMirror(Messenger<Note>(), channel: channel, configuration: configuration)
        let atB = InboxObserver(b)
        let states = StateRecorder(b)
        try await withRunningMirrors([a, b]) {
            let stopped = try await TestDatabase.backendPIDs(named: bName)
            try #require(stopped.count == 1)
            try #require(kill(stopped[0], SIGSTOP) == 0, "could not stop the backend")
            defer {
                kill(stopped[0], SIGCONT)
            }
            a.messenger.send(Note(sender: "a", number: 1))
            #expect(await eventually(timeout: .seconds(10)) { states.seen.contains(.reconnecting) })
            #expect(await eventually(timeout: .seconds(10)) { atB.inbox.count == 1 })
            #expect(b.status.value.lastError?.contains("health check") == true)
        }
        #expect(atB.inbox.messages == [Note(sender: "a", number: 1)])
    }

    @Test func aPublishOnASilentlyDeadConnectionTimesOutAndIsRetried() async throws {
        let channel = TestDatabase.uniqueChannel("dead_publisher")
        let aName = "pm_\(channel)_a"
        var configuration = TestDatabase.mirrorConfiguration(.logged(retention: .seconds(300)), applicationName: aName)
        configuration.publishTimeout = .milliseconds(500)
        let a = try PostgresMirror(Messenger<Note>(), channel: channel, configuration: configuration)
        let b = try PostgresMirror(
            Messenger<Note>(),
            channel: channel,
            configuration: TestDatabase.mirrorConfiguration(.logged(retention: .seconds(300)))
        )
        let atB = InboxObserver(b)
        try await withRunningMirrors([a, b]) {
            a.messenger.send(Note(sender: "a", number: 1))
            #expect(await eventually { atB.inbox.count == 1 })
            // Both of A's connections are idle now: neither holds the channel's lock.
            let stopped = try await TestDatabase.backendPIDs(named: aName)
            try #require(stopped.count == 2)
            for pid in stopped { try #require(kill(pid, SIGSTOP) == 0) }
            defer {
                for pid in stopped { kill(pid, SIGCONT) }
            }
            a.messenger.send(Note(sender: "a", number: 2))
            #expect(await eventually(timeout: .seconds(10)) { atB.inbox.count == 2 })
            #expect(a.status.value.lastError?.contains("did not answer") == true)
        }
        #expect(atB.inbox.messages == [Note(sender: "a", number: 1), Note(sender: "a", number: 2)])
    }
}

extension TestDatabase {
    /// The process ids of the backends whose `application_name` is `name`.
    static func backendPIDs(named name: String) async throws -> [pid_t] {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT pid FROM pg_stat_activity WHERE application_name = \(name) ORDER BY pid",
                logger: logger
            )
            var pids: [pid_t] = []
            for try await pid in rows.decode(Int32.self) { pids.append(pid_t(pid)) }
            return pids
        }
    }
}
