import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// Thrown by ``_withTimeout(_:operation:)`` when the deadline passed first.
struct _TimeoutError: Error {}

/// Runs `operation` in a task of its own and returns its result, or throws ``_TimeoutError`` after
/// `timeout`, or `CancellationError` when the caller is cancelled, whichever comes first.
///
/// A task group would wait for its child, and a query on a PostgresNIO connection whose peer
/// vanished can wait forever: here the caller returns at the deadline and the operation is left
/// running. The caller closes the connection, which ends the operation. The deadline is a task
/// scheduled on an event loop rather than a sleeping Swift task: it costs less on every query.
func _withTimeout<Result: Sendable>(
    _ timeout: Duration,
    operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let gate = _ResumeGate<Result>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            gate.install(continuation)
            let work = Task {
                do {
                    gate.resume(with: .success(try await operation()))
                } catch {
                    gate.resume(with: .failure(error))
                }
            }
            let components = timeout.components
            let nanoseconds = components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
            let timer = PostgresConnection.defaultEventLoopGroup.any().scheduleTask(in: .nanoseconds(nanoseconds)) {
                gate.resume(with: .failure(_TimeoutError()))
                work.cancel()
            }
            gate.onResume { timer.cancel() }
        }
    } onCancel: {
        gate.resume(with: .failure(CancellationError()))
    }
}

/// Resumes a continuation once, whoever comes first; holds a result that arrives before the
/// continuation does.
private final class _ResumeGate<Result: Sendable>: Sendable {
    private enum State {
        case waiting
        case installed(CheckedContinuation<Result, any Error>)
        case early(Swift.Result<Result, any Error>)
        case done
    }

    private let state = NIOLockedValueBox(State.waiting)
    private let cleanup = NIOLockedValueBox<[@Sendable () -> Void]>([])

    func install(_ continuation: CheckedContinuation<Result, any Error>) {
        let early: Swift.Result<Result, any Error>? = state.withLockedValue { state in
            if case .early(let result) = state {
                state = .done
                return result
            }
            state = .installed(continuation)
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func onResume(_ action: @escaping @Sendable () -> Void) {
        let isDone = state.withLockedValue { state in
            if case .done = state { return true }
            if case .early = state { return true }
            return false
        }
        if isDone {
            action()
        } else {
            cleanup.withLockedValue { $0.append(action) }
            if state.withLockedValue({ if case .done = $0 { true } else { false } }) {
                runCleanup()
            }
        }
    }

    func resume(with result: Swift.Result<Result, any Error>) {
        let continuation: CheckedContinuation<Result, any Error>? = state.withLockedValue { state in
            switch state {
            case .waiting:
                state = .early(result)
                return nil
            case .installed(let continuation):
                state = .done
                return continuation
            case .early, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
        runCleanup()
    }

    private func runCleanup() {
        let actions = cleanup.withLockedValue { actions in
            defer { actions = [] }
            return actions
        }
        for action in actions { action() }
    }
}
