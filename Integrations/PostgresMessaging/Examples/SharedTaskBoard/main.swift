// SharedTaskBoard: two processes share one task board through PostgreSQL.
//
//     bash Integrations/PostgresMessaging/Examples/run-shared-task-board
//
// starts a throwaway server and two boards, "alice" and "bob". Each board mirrors its messenger of
// task changes onto the channel `task_board` in logged mode, adds its own tasks, completes one,
// and applies every change (its own, and the other board's, whose author is the mirror) to its
// copy of the board. When both have seen everything, both print the same board.
//
// Usage: SharedTaskBoard NAME PEER [TASKS]. Reads the server's port from
// POSTGRES_MESSAGING_TEST_PORT. Exits with 1 if the board does not converge within 30 seconds.
import Foundation
import Logging
import Messaging
import NIOConcurrencyHelpers
import PostgresMessaging
import PostgresNIO

/// A change to the board, as every process sees it.
enum TaskChange: Codable, Sendable, Equatable {
    case present(board: String)
    case added(id: String, title: String)
    case completed(id: String)
}

/// One process's copy of the board. Changes arrive on the mirror's task and on the main task, so
/// the state is behind a lock.
final class Board: Sendable {
    private struct State {
        var titles: [String: String] = [:]
        var order: [String] = []
        var done: Set<String> = []
        var presentBoards: Set<String> = []
        var remoteChanges: [TaskChange] = []
    }

    private let state = NIOLockedValueBox(State())

    func apply(_ change: TaskChange, isRemote: Bool) {
        state.withLockedValue { state in
            switch change {
            case .present(let board):
                state.presentBoards.insert(board)
                return
            case .added(let id, let title):
                if state.titles[id] == nil { state.order.append(id) }
                state.titles[id] = title
            case .completed(let id):
                state.done.insert(id)
            }
            if isRemote { state.remoteChanges.append(change) }
        }
    }

    func sees(_ board: String) -> Bool { state.withLockedValue { $0.presentBoards.contains(board) } }

    var remoteChanges: [TaskChange] { state.withLockedValue { $0.remoteChanges } }

    var rendering: String {
        state.withLockedValue { state in
            state.order.sorted().map { id in
                "  [\(state.done.contains(id) ? "x" : " ")] \(id): \(state.titles[id] ?? "")"
            }
            .joined(separator: "\n")
        }
    }
}

/// What a board adds and completes, in order; the peer expects exactly this from it.
func changes(of board: String, tasks: Int) -> [TaskChange] {
    (1...tasks).map { TaskChange.added(id: "\(board)-\($0)", title: "Task \($0) of \(board)") }
        + [TaskChange.completed(id: "\(board)-1")]
}

func waitUntil(_ deadline: ContinuousClock.Instant, _ condition: () -> Bool) async -> Bool {
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

let arguments = CommandLine.arguments
guard arguments.count >= 3,
    let port = ProcessInfo.processInfo.environment["POSTGRES_MESSAGING_TEST_PORT"].flatMap({ Int($0) })
else {
    print("usage: POSTGRES_MESSAGING_TEST_PORT=PORT SharedTaskBoard NAME PEER [TASKS]")
    exit(2)
}
let name = arguments[1]
let peer = arguments[2]
let taskCount = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3

var logger = Logger(label: "SharedTaskBoard.\(name)")
logger.logLevel = .error
let connection = PostgresConnection.Configuration(
    host: ProcessInfo.processInfo.environment["POSTGRES_MESSAGING_TEST_HOST"] ?? "127.0.0.1",
    port: port,
    username: "postgres",
    password: nil,
    database: "postgres",
    tls: .disable
)

let taskChanges = Messenger<TaskChange>()
let mirror = try PostgresMirror(
    taskChanges,
    channel: "task_board",
    configuration: PostgresMirrorConfiguration(connection: connection, mode: .logged(retention: .seconds(600))),
    logger: logger
)
let board = Board()
observe(taskChanges) { [weak mirror] change, author in
    board.apply(change, isRemote: author === mirror)
}

let running = Task { try await mirror.run() }
let deadline = ContinuousClock.now + .seconds(30)
var converged = await waitUntil(deadline) { mirror.status.value.connection == .connected }

// A board listens once its mirror is connected; hearing the peer say so means that what this
// board sends from now on reaches the peer. Keep saying it until the peer was heard and has had
// time to hear it too.
while converged, !board.sees(peer) {
    taskChanges.send(.present(board: name))
    converged = await waitUntil(min(deadline, .now + .milliseconds(100))) { board.sees(peer) } || .now < deadline
}
for _ in 0..<3 where converged {
    taskChanges.send(.present(board: name))
    try await Task.sleep(for: .milliseconds(50))
}

if converged {
    print("\(name): adding \(taskCount) tasks")
    for change in changes(of: name, tasks: taskCount) { taskChanges.send(change) }
    let expected = changes(of: peer, tasks: taskCount)
    converged = await waitUntil(deadline) { board.remoteChanges.count >= expected.count }
    converged = converged && board.remoteChanges == expected
}

mirror.shutDown()
try await running.value
if converged {
    print("\(name) sees the board:\n\(board.rendering)")
} else {
    print("\(name): the board did not converge; remote changes: \(board.remoteChanges), status: \(mirror.status.value)")
    exit(1)
}
