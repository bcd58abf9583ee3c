import Messaging

/// A change that arrives from the server.
enum RemoteChange: Sendable {
    case add(title: String)
    case complete(title: String)
    /// Marks the end of a download: everything before it has been sent.
    case endOfBatch
}

/// Downloads changes in the background and announces them.
///
/// It hands out only the observing side of its messenger, so nobody else can send through it.
/// Everything it holds is `Sendable`, so a background task can use it.
final class SyncService: Sendable {
    private let inbox = Messenger<RemoteChange>()

    /// The changes, as they arrive.
    var changes: ReadOnlyMessenger<RemoteChange> { inbox.readOnly }

    /// Sends `changes` from a background task, followed by `.endOfBatch`.
    ///
    /// Each `send` returns as soon as the message is in the main actor's queue for every
    /// main-actor observer; the task does not wait for the main actor.
    func download(_ changes: [RemoteChange]) -> Task<Void, Never> {
        Task.detached { [inbox] in
            for change in changes {
                inbox.send(change)
            }
            inbox.send(.endOfBatch)
        }
    }
}
