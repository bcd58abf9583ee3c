import Foundation
import Messaging
import Testing

@testable import PostgresMessaging

/// A message that JSON cannot encode when its value is not finite.
struct Reading: Codable, Sendable {
    var value: Double
}

@Suite struct PayloadTests {
    @Test func plainModeRefusesAMessageLargerThanANotifyPayloadBeforeSending() throws {
        let messenger = Messenger<Note>()
        let mirror = try PostgresMirror(
            messenger, channel: "payloads", configuration: TestDatabase.mirrorConfiguration(.plain))
        let inbox = Inbox<Note>()
        let token = messenger.subscribe { inbox.append($0, fromMirror: false) }
        let large = Note(sender: "a", number: 1, text: String(repeating: "x", count: 8_000))
        #expect {
            try mirror.send(large)
        } throws: { error in
            guard case .payloadTooLarge(let bytes, let limit)? = error as? PostgresMessagingError else { return false }
            return bytes > limit && limit == 7_999
        }
        #expect(inbox.count == 0, "a refused message is not sent locally either")
        withExtendedLifetime(token) {}
    }

    @Test func theLargestMessageThatFitsIsAccepted() throws {
        let messenger = Messenger<Note>()
        let mirror = try PostgresMirror(
            messenger, channel: "payloads", configuration: TestDatabase.mirrorConfiguration(.plain))
        let overhead = try #require(String(data: JSONEncoder().encode(Note(sender: "a", number: 1)), encoding: .utf8))
            .utf8.count
        let fitting = PostgresMirror<Note>.notifyPayloadLimit - PostgresMirror<Note>.envelopeLength - overhead
        try mirror.send(Note(sender: "a", number: 1, text: String(repeating: "x", count: fitting)))
        #expect(throws: PostgresMessagingError.self) {
            try mirror.send(Note(sender: "a", number: 1, text: String(repeating: "x", count: fitting + 1)))
        }
    }

    @Test func loggedModeAcceptsLargeMessages() throws {
        let messenger = Messenger<Note>()
        let mirror = try PostgresMirror(
            messenger,
            channel: "payloads",
            configuration: TestDatabase.mirrorConfiguration(.logged(retention: .seconds(60)))
        )
        try mirror.send(Note(sender: "a", number: 1, text: String(repeating: "x", count: 100_000)))
    }

    @Test func aMessageThatDoesNotEncodeIsRefusedWithTheEncodersReason() throws {
        let messenger = Messenger<Reading>()
        let mirror = try PostgresMirror(
            messenger, channel: "readings", configuration: TestDatabase.mirrorConfiguration(.plain))
        #expect {
            try mirror.send(Reading(value: .nan))
        } throws: { error in
            guard case .encodingFailed(let reason)? = error as? PostgresMessagingError else { return false }
            return !reason.isEmpty
        }
    }

    @Test func aMessageSentThroughTheMessengerThatCannotBePublishedIsCounted() throws {
        let messenger = Messenger<Reading>()
        let mirror = try PostgresMirror(
            messenger, channel: "readings", configuration: TestDatabase.mirrorConfiguration(.plain))
        messenger.send(Reading(value: .infinity))
        messenger.send(Reading(value: 1))
        #expect(mirror.counters.unsent == 1)
        #expect(mirror.status.value.lastError?.contains("could not be encoded") == true)
    }
}
