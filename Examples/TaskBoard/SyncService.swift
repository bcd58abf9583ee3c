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

extension SyncService {
    /// Uploads the tasks in the background; the promise is fulfilled with how many were sent.
    ///
    /// Nobody needs to keep the promise: the upload task holds it until it fulfils it.
    func upload(_ tasks: [TaskItem]) -> Promise<Int> {
        let count = tasks.count
        return Promise { promise in
            Task.detached { promise.fulfill(count) }
        }
    }
}
