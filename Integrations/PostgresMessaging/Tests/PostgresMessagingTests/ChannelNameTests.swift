import Messaging
import Testing

@testable import PostgresMessaging

@Suite struct ChannelNameTests {
    @Test(arguments: ["a", "_", "task_changes", "t2", String(repeating: "x", count: 63)])
    func validNamesAreAccepted(_ name: String) throws {
        #expect(try PostgresChannelName(name).rawValue == name)
    }

    @Test(arguments: [
        "", "Tasks", "2tasks", "task-changes", "task changes", "tasks\"; DROP TABLE x; --", "täsks",
        String(repeating: "x", count: 64), "a\u{0}b",
    ])
    func invalidNamesAreRefusedWithAReason(_ name: String) {
        #expect {
            try PostgresChannelName(name)
        } throws: { error in
            guard case .invalidChannelName(let refused, let reason)? = error as? PostgresMessagingError else {
                return false
            }
            return refused == name && !reason.isEmpty
        }
    }

    @Test func aMirrorRefusesAnInvalidChannel() {
        let messenger = Messenger<Note>()
        #expect(throws: PostgresMessagingError.self) {
            try PostgresMirror(messenger, channel: "Bad Name", configuration: TestDatabase.mirrorConfiguration(.plain))
        }
    }
}
