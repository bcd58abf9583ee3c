import Messaging
import ServiceLifecycle
import Testing

@testable import PostgresMessaging

@Suite(.needsPostgres, .timeLimit(.minutes(1)))
struct ServiceTests {
    @Test func aServiceGroupsGracefulShutdownPublishesWhatWaitsAndStopsTheMirror() async throws {
        let channel = TestDatabase.uniqueChannel("service")
        let a = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: TestDatabase.mirrorConfiguration(.plain))
        let atB = InboxObserver(b)
        let group = ServiceGroup(services: [a], logger: TestDatabase.logger)
        let run = Task { try await group.run() }
        try await withRunningMirrors([b]) {
            #expect(await eventually { a.status.value.connection == .connected })
            for number in 0..<100 { a.messenger.send(Note(sender: "a", number: number)) }
            await group.triggerGracefulShutdown()
            try await run.value
            #expect(a.status.value.connection == .disconnected)
            #expect(await eventually { atB.inbox.count == 100 })
        }
        #expect(atB.inbox.messages == (0..<100).map { Note(sender: "a", number: $0) })
    }
}
