import Foundation
import Messaging
import Testing

@testable import PostgresMessaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Restarts the server that `.ci/postgres-tests` started; every other test would see it, so the
/// script runs this suite alone and enables it with POSTGRES_MESSAGING_TEST_RESTARTABLE.
@Suite(
    .needsPostgres,
    .enabled(
        if: ProcessInfo.processInfo.environment["POSTGRES_MESSAGING_TEST_RESTARTABLE"] == "1",
        "restarts the server: `bash .ci/postgres-tests` runs it alone"
    ),
    .timeLimit(.minutes(1))
)
struct ServerRestartTests {
    @Test func loggedModeLosesNothingWhenTheServerRestartsMidStream() async throws {
        let channel = TestDatabase.uniqueChannel("restart")
        let a = try PostgresMirror(
            Messenger<Note>(),
            channel: channel,
            configuration: TestDatabase.mirrorConfiguration(.logged(retention: .seconds(300)))
        )
        let b = try PostgresMirror(
            Messenger<Note>(),
            channel: channel,
            configuration: TestDatabase.mirrorConfiguration(.logged(retention: .seconds(300)))
        )
        let plain = try PostgresMirror(
            Messenger<Note>(),
            channel: TestDatabase.uniqueChannel("restart_plain"),
            configuration: TestDatabase.mirrorConfiguration(.plain)
        )
        let atB = InboxObserver(b)
        let states = StateRecorder(b)
        let count = 3_000
        try await withRunningMirrors([a, b, plain]) {
            let sender = Task.detached {
                for number in 0..<count {
                    a.messenger.send(Note(sender: "a", number: number))
                    if number % 50 == 0 { try? await Task.sleep(for: .milliseconds(2)) }
                }
            }
            try await Task.sleep(for: .milliseconds(50))
            try await restartServer()
            await sender.value
            #expect(await eventually(timeout: .seconds(30)) { atB.inbox.count >= count })
            #expect(await eventually { plain.status.value.connection == .connected })
            try await Task.sleep(for: .milliseconds(300))
        }
        #expect(states.seen.contains(.reconnecting))
        #expect(atB.inbox.messages == (0..<count).map { Note(sender: "a", number: $0) })
        #expect(b.status.value.possibleGapCount == 0)
        #expect(plain.status.value.possibleGapCount >= 1, "plain mode reports what it may have missed")
    }
}

/// Restarts the server with `pg_ctl restart -m fast`, as its owner when running as root.
private func restartServer() async throws {
    let environment = ProcessInfo.processInfo.environment
    let dataDirectory = try #require(environment["POSTGRES_MESSAGING_TEST_DATA_DIR"])
    let binDirectory = try #require(environment["POSTGRES_MESSAGING_TEST_BIN_DIR"])
    let logFile = URL(fileURLWithPath: dataDirectory).deletingLastPathComponent().appendingPathComponent("restart.log")
    var arguments = ["\(binDirectory)/pg_ctl", "-D", dataDirectory, "-m", "fast", "-w", "-l", logFile.path, "restart"]
    if getuid() == 0 { arguments = ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments }
    let status = await exitStatus(of: arguments)
    try #require(status == 0, "pg_ctl restart failed")
}
