import Foundation
import Logging
import Messaging
import NIOConcurrencyHelpers
import PostgresNIO
import Testing

@testable import PostgresMessaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The throwaway server that `.ci/postgres-tests` starts; its port comes in through the environment.
enum TestDatabase {
    static let port = ProcessInfo.processInfo.environment["POSTGRES_MESSAGING_TEST_PORT"].flatMap { Int($0) }
    static let host = ProcessInfo.processInfo.environment["POSTGRES_MESSAGING_TEST_HOST"] ?? "127.0.0.1"

    static let logger: Logger = {
        var logger = Logger(label: "PostgresMessagingTests")
        logger.logLevel = .critical
        return logger
    }()

    /// Connection settings whose `application_name` lets a test find and kill the backends.
    static func connection(applicationName: String) -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host,
            port: port ?? 5432,
            username: "postgres",
            password: nil,
            database: "postgres",
            tls: .disable
        )
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    /// A configuration with short timeouts, so that the tests see failures quickly.
    static func mirrorConfiguration(
        _ mode: PostgresMirrorMode,
        applicationName: String = "postgres_messaging_tests"
    ) -> PostgresMirrorConfiguration {
        var configuration = PostgresMirrorConfiguration(
            connection: connection(applicationName: applicationName),
            mode: mode
        )
        configuration.healthCheckInterval = .milliseconds(500)
        configuration.healthCheckTimeout = .seconds(2)
        configuration.publishTimeout = .seconds(5)
        configuration.initialReconnectDelay = .milliseconds(20)
        configuration.maximumReconnectDelay = .milliseconds(500)
        return configuration
    }

    /// Two mirrors of a new channel: `a` to send from, and `b`, whose connections carry the
    /// application name `bName`, so that ``terminateBackends(named:)`` cuts them and no others.
    static func senderAndNamedReceiver(
        _ prefix: String,
        _ mode: PostgresMirrorMode
    ) throws -> (a: PostgresMirror<Note>, b: PostgresMirror<Note>, bName: String) {
        let channel = uniqueChannel(prefix)
        let bName = "pm_\(channel)_b"
        let a = try PostgresMirror(Messenger<Note>(), channel: channel, configuration: mirrorConfiguration(mode))
        let b = try PostgresMirror(
            Messenger<Note>(), channel: channel, configuration: mirrorConfiguration(mode, applicationName: bName))
        return (a, b, bName)
    }

    /// A channel name no other test uses.
    static func uniqueChannel(_ prefix: String) -> String {
        "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// Runs `body` on a connection of its own.
    static func withConnection<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let connection = try await PostgresConnection.connect(
            configuration: connection(applicationName: "postgres_messaging_tests_admin"),
            id: 0,
            logger: logger
        )
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Terminates every backend whose `application_name` is `name`; returns how many.
    @discardableResult
    static func terminateBackends(named name: String) async throws -> Int {
        try await withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT count(*)::bigint FROM (
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(name)
                ) AS terminated
                """,
                logger: logger
            )
            var count: Int64 = 0
            for try await value in rows.decode(Int64.self) { count = value }
            return Int(count)
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a test, with a message that says why, when no test server is configured.
    static var needsPostgres: Self {
        .enabled(
            if: TestDatabase.port != nil,
            "POSTGRES_MESSAGING_TEST_PORT is not set: run `bash .ci/postgres-tests` from the repository root"
        )
    }
}

/// A message with its sender and its number in the sender's sequence.
struct Note: Codable, Sendable, Equatable {
    var sender: String
    var number: Int
    var text = ""
}

/// What a messenger delivered, with whether its author was the mirror.
final class Inbox<Message: Sendable>: Sendable {
    private let items = NIOLockedValueBox<[(message: Message, fromMirror: Bool)]>([])

    var messages: [Message] { items.withLockedValue { $0.map(\.message) } }
    var count: Int { items.withLockedValue { $0.count } }
    var allFromMirror: Bool { items.withLockedValue { $0.allSatisfy(\.fromMirror) } }

    func append(_ message: Message, fromMirror: Bool) {
        items.withLockedValue { $0.append((message, fromMirror)) }
    }
}

/// Observes `mirror`'s messenger into an inbox; the observation lasts as long as the returned
/// observer.
final class InboxObserver<Message: Codable & Sendable>: Observer {
    let receiver = Receiver()
    let inbox = Inbox<Message>()

    init(_ mirror: PostgresMirror<Message>, delayMilliseconds: Int = 0) {
        observe(mirror.messenger) { [inbox, weak mirror] message, author in
            if delayMilliseconds > 0 { Thread.sleep(forTimeInterval: Double(delayMilliseconds) / 1_000) }
            inbox.append(message, fromMirror: author === mirror)
        }
    }
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(20), _ condition: () -> Bool) async -> Bool {
    let end = ContinuousClock.now + timeout
    while ContinuousClock.now < end {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Runs the mirrors, waits until each listens, runs `body`, then shuts them down and waits for
/// them to finish; fails the test if any of that takes too long.
func withRunningMirrors<Message: Codable & Sendable, Result>(
    _ mirrors: [PostgresMirror<Message>],
    _ body: () async throws -> Result
) async throws -> Result {
    let runs = mirrors.map { mirror in Task { try await mirror.run() } }
    func stop() async {
        for mirror in mirrors { mirror.shutDown() }
        let finished = await eventually(timeout: .seconds(15)) {
            mirrors.allSatisfy { $0.status.value.connection == .disconnected }
        }
        #expect(finished, "a mirror did not shut down in time")
        if !finished {
            for run in runs { run.cancel() }
        }
    }
    let connected = await eventually {
        mirrors.allSatisfy { $0.status.value.connection == .connected }
    }
    guard connected else {
        await stop()
        Issue.record("the mirrors did not connect: \(mirrors.map { $0.status.value })")
        throw CancellationError()
    }
    do {
        let result = try await body()
        await stop()
        return result
    } catch {
        await stop()
        throw error
    }
}

/// An array behind a lock.
final class LockedBox<Element: Sendable>: Sendable {
    let box: NIOLockedValueBox<Element>

    init(_ value: Element) { box = NIOLockedValueBox(value) }

    var value: Element { box.withLockedValue { $0 } }

    func append<Item>(_ item: Item) where Element == [Item] {
        box.withLockedValue { $0.append(item) }
    }
}

/// Runs a program to its end on a thread of its own and returns its wait status.
///
/// Foundation's `Process` left `runuser` a zombie here and never reported its end, so this
/// spawns and reaps the child itself.
func exitStatus(of arguments: [String]) async -> Int32 {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            var pid: pid_t = 0
            var cArguments = arguments.map { strdup($0) } + [nil]
            defer {
                for argument in cArguments { free(argument) }
            }
            guard posix_spawn(&pid, arguments[0], nil, nil, &cArguments, environ) == 0 else {
                continuation.resume(returning: -1)
                return
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            continuation.resume(returning: status)
        }
    }
}
