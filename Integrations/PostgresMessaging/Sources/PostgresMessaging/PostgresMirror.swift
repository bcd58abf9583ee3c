import Foundation
import Logging
import Messaging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// Mirrors a `Messenger` (from `Messaging`) onto a PostgreSQL channel, so that every instance of an
/// app receives every instance's messages.
///
/// ```swift
/// let changes = Messenger<TaskChange>()
/// let mirror = try PostgresMirror(changes, channel: "task_changes", configuration: configuration)
/// // run it, for instance in a ServiceGroup
/// changes.send(.added(task))        // observers here and in every other instance receive it
/// ```
///
/// - Messages sent locally through the messenger are published, in the order they were sent,
///   batched into one round trip per burst. Messages whose author is the mirror are not: they are
///   the ones it received.
/// - Messages from other instances are sent locally with the mirror as their author, in the order
///   each instance sent them. An instance never receives its own messages back.
/// - How much is guaranteed depends on the ``PostgresMirrorMode``.
///
/// The mirror uses two connections: one listens (and checks its health), one publishes. Every
/// query has a deadline; a connection that fails or misses one is closed and never used again,
/// and a new one is made after a backoff with jitter. ``status`` shows the listening side.
///
/// Received messages wait in a buffer of ``PostgresMirrorConfiguration/incomingCapacity``
/// messages for the local messenger; when it is full, newer messages are dropped (counted in
/// ``counters``, and in plain mode reported as a possible gap). The listening connection keeps
/// reading meanwhile, so a slow observer never holds up PostgreSQL's notification queue, nor
/// other instances' publishing.
public final class PostgresMirror<Message: Codable & Sendable>: Observer, Service {
    /// The largest NOTIFY payload PostgreSQL accepts, in bytes.
    public static var notifyPayloadLimit: Int { 7_999 }

    /// What plain mode adds to a message's JSON in a NOTIFY payload, at most, in bytes.
    public static var envelopeLength: Int { 36 + 1 + 20 + 1 }

    /// The receiver that makes the mirror an observer of its messenger.
    public let receiver = Receiver()
    /// The mirrored messenger.
    public let messenger: Messenger<Message>
    /// The PostgreSQL channel.
    public let channel: PostgresChannelName
    /// The settings the mirror was made with.
    public let configuration: PostgresMirrorConfiguration
    /// The listening connection's state, the last error and how often messages may have been
    /// missed.
    public let status = Var(PostgresMirrorStatus(connection: .disconnected))
    /// The id in every payload this mirror publishes; other mirrors with the same id would take
    /// its messages for their own.
    public let instanceID: String

    private let logger: Logger
    // One encoder for every message: making one per message cost more than encoding small ones.
    private let encoder = JSONEncoder()
    private let state = NIOLockedValueBox(_MirrorState())
    private let doorbell: AsyncStream<Void>
    private let doorbellContinuation: AsyncStream<Void>.Continuation
    private let incoming: AsyncStream<String>
    private let incomingContinuation: AsyncStream<String>.Continuation

    /// Makes a mirror of `messenger` on `channel`; it starts observing the messenger at once and
    /// connects when ``run()`` runs.
    ///
    /// Messages sent before `run()` wait in the outgoing buffer.
    ///
    /// - Parameters:
    ///   - messenger: The messenger to mirror.
    ///   - channel: The PostgreSQL channel; see ``PostgresChannelName`` for what is allowed.
    ///   - configuration: Where to connect, the mode and the limits.
    ///   - logger: Where connection problems and undecodable payloads are logged.
    /// - Throws: ``PostgresMessagingError/invalidChannelName(_:reason:)``.
    public init(
        _ messenger: Messenger<Message>,
        channel: String,
        configuration: PostgresMirrorConfiguration,
        logger: Logger = Logger(label: "PostgresMessaging")
    ) throws(PostgresMessagingError) {
        self.channel = try PostgresChannelName(channel)
        self.messenger = messenger
        self.configuration = configuration
        self.instanceID = UUID().uuidString.lowercased()
        var logger = logger
        logger[metadataKey: "channel"] = "\(channel)"
        self.logger = logger
        (doorbell, doorbellContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        (incoming, incomingContinuation) = AsyncStream.makeStream(
            bufferingPolicy: .bufferingOldest(max(1, configuration.incomingCapacity))
        )
        observe(messenger) { [weak self] message, author in
            guard let self, author !== self else { return }
            self._enqueue(message)
        }
    }

    /// What the mirror dropped, could not handle, published and delivered so far.
    public var counters: PostgresMirrorCounters { state.withLockedValue { $0.counters } }

    /// Checks that `message` can be published, then sends it through the messenger.
    ///
    /// Sending through the messenger directly publishes too, but a message that cannot be
    /// published is then only counted and logged; this method throws instead, before anything
    /// is sent.
    ///
    /// - Parameter message: The message.
    /// - Throws: ``PostgresMessagingError/encodingFailed(_:)``, or
    ///   ``PostgresMessagingError/payloadTooLarge(bytes:limit:)`` in plain mode.
    public func send(_ message: Message) throws(PostgresMessagingError) {
        _ = try _body(of: message)
        messenger.send(message)
    }

    /// Publishes `message` inside the app's transaction on `connection`: other instances receive
    /// it only if that transaction commits, and when it commits.
    ///
    /// Call it between `BEGIN` and `COMMIT` (PostgresNIO's `withTransaction`, say). The message is
    /// not sent to the local messenger; send it after the commit if local observers need it.
    /// In logged mode the channel's insert lock is held until the transaction ends, so keep such
    /// transactions short.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - connection: The app's connection, inside a transaction.
    /// - Throws: The errors of ``send(_:)``, a timeout, or PostgreSQL's error.
    public func publish(_ message: Message, on connection: PostgresConnection) async throws {
        let body = try _body(of: message)
        let channel = channel.rawValue
        let instanceID = instanceID
        let logger = logger
        switch configuration.mode {
        case .plain:
            let payload = "\(instanceID)|0|\(body)"
            try await _deadline("a transactional publish") {
                try await connection.query("SELECT pg_notify(\(channel), \(payload))", logger: logger).drain()
            }
        case .logged:
            try await _ensureSchemaOnOwnConnection()
            let seq = state.withLockedValue { state in
                defer { state.nextTransactionalSeq -= 1 }
                return state.nextTransactionalSeq
            }
            try await _deadline("a transactional publish") {
                try await connection.query(
                    "SELECT general_observer_publish(\(channel), \(instanceID), \([seq]), \([body]))",
                    logger: logger
                ).drain()
            }
        }
        state.withLockedValue { $0.counters.published += 1 }
    }

    /// Connects, listens, publishes and delivers until ``shutDown()``, a graceful shutdown of its
    /// `ServiceGroup`, or cancellation.
    ///
    /// A graceful shutdown publishes what is waiting (each batch within the publish timeout),
    /// delivers what was received, and closes both connections. Cancellation stops at once.
    ///
    /// - Throws: ``PostgresMessagingError/alreadyRunning`` when it runs, or ran, already.
    public func run() async throws {
        let starts = state.withLockedValue { state in
            guard state.phase == .idle else { return false }
            state.phase = .running
            return true
        }
        guard starts else { throw PostgresMessagingError.alreadyRunning }
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self._runListener() }
                group.addTask { await self._runPublisher() }
                group.addTask { await self._runDelivery() }
            }
        } onGracefulShutdown: {
            self.shutDown()
        }
        state.withLockedValue { $0.phase = .finished }
        status.modify { $0.connection = .disconnected }
    }

    /// Begins a graceful shutdown: ``run()`` publishes what waits, closes its connections and
    /// returns.
    public func shutDown() {
        let connection: PostgresConnection? = state.withLockedValue { state in
            if state.phase == .running || state.phase == .idle { state.phase = .shuttingDown }
            defer { state.listenConnection = nil }
            return state.listenConnection
        }
        doorbellContinuation.finish()
        if let connection { _closeInBackground(connection) }
    }

    // MARK: Publishing

    private func _body(of message: Message) throws(PostgresMessagingError) -> String {
        let data: Data
        do {
            data = try encoder.encode(message)
        } catch {
            throw .encodingFailed(String(describing: error))
        }
        let body = String(decoding: data, as: UTF8.self)
        if case .plain = configuration.mode {
            let bytes = body.utf8.count + Self.envelopeLength
            guard bytes <= Self.notifyPayloadLimit else {
                throw .payloadTooLarge(bytes: bytes, limit: Self.notifyPayloadLimit)
            }
        }
        return body
    }

    func _enqueue(_ message: Message) {
        let body: String
        do {
            body = try _body(of: message)
        } catch {
            state.withLockedValue { $0.counters.unsent += 1 }
            logger.error("Message not published", metadata: ["error": "\(error)"])
            status.modify { $0.lastError = error.description }
            return
        }
        let accepted = state.withLockedValue { state in
            guard state.phase == .idle || state.phase == .running else {
                // Nothing publishes any more.
                state.counters.unsent += 1
                return false
            }
            guard state.pending.count < configuration.outgoingCapacity else {
                state.counters.droppedOutgoing += 1
                return false
            }
            state.pending.append(_Outgoing(seq: state.nextSeq, body: body))
            state.nextSeq += 1
            return true
        }
        if accepted {
            doorbellContinuation.yield()
        } else {
            logger.warning("Message not published: the outgoing buffer is full or the mirror has stopped")
        }
    }

    private func _runPublisher() async {
        var connection: PostgresConnection?
        var failures = 0
        for await _ in doorbell {
            await _publishPending(connection: &connection, failures: &failures)
            if Task.isCancelled { break }
        }
        if !Task.isCancelled {
            await _publishPending(connection: &connection, failures: &failures)
        }
        if let connection { await _closeGracefully(connection) }
    }

    private func _publishPending(connection: inout PostgresConnection?, failures: inout Int) async {
        while !Task.isCancelled {
            let batch = state.withLockedValue { Array($0.pending.prefix(max(1, configuration.maximumBatchSize))) }
            guard !batch.isEmpty else { return }
            var wasSent = false
            do {
                let ready: PostgresConnection
                if let connection {
                    ready = connection
                } else {
                    ready = try await _connect()
                    if case .logged = configuration.mode { try await _ensureSchema(on: ready) }
                    connection = ready
                }
                wasSent = true
                try await _publish(batch, on: ready)
                state.withLockedValue { state in
                    state.pending.removeFirst(batch.count)
                    state.counters.published += batch.count
                }
                failures = 0
            } catch {
                if let failed = connection { _closeInBackground(failed) }
                connection = nil
                _record(error, while: "publishing")
                let isShuttingDown = state.withLockedValue { $0.phase != .running }
                state.withLockedValue { state in
                    if isShuttingDown {
                        // Nothing more will be tried: what waits is not published.
                        state.counters.unsent += state.pending.count
                        state.pending.removeAll()
                    } else if wasSent, case .plain = configuration.mode {
                        // The batch may or may not have been notified: sending it again could
                        // duplicate it, and plain mode promises at most once.
                        state.counters.unsent += batch.count
                        state.pending.removeFirst(batch.count)
                    }
                    // In logged mode the batch is sent again: the log's unique key on
                    // (channel, instance, seq) drops whatever was inserted already.
                }
                if isShuttingDown { return }
                failures += 1
                await _sleepUnlessShuttingDown(_backoff(attempt: failures))
            }
        }
    }

    private func _publish(_ batch: [_Outgoing], on connection: PostgresConnection) async throws {
        let channel = channel.rawValue
        let instanceID = instanceID
        let logger = logger
        switch configuration.mode {
        case .plain where batch.count == 1:
            // One message, the common case at low load: the plain call costs the server less to
            // parse and run than the array form, and is what a raw pg_notify sends.
            let payload = "\(instanceID)|\(batch[0].seq)|\(batch[0].body)"
            try await _deadline("a publish") {
                try await connection.query("SELECT pg_notify(\(channel), \(payload))", logger: logger).drain()
            }
        case .plain:
            let payloads = batch.map { "\(instanceID)|\($0.seq)|\($0.body)" }
            try await _deadline("a publish") {
                try await connection.query(
                    """
                    SELECT pg_notify(\(channel), p)
                    FROM unnest(\(payloads)::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n
                    """,
                    logger: logger
                ).drain()
            }
        case .logged:
            let seqs = batch.map(\.seq)
            let bodies = batch.map(\.body)
            try await _deadline("a publish") {
                try await connection.query(
                    "SELECT general_observer_publish(\(channel), \(instanceID), \(seqs), \(bodies))",
                    logger: logger
                ).drain()
            }
        }
    }

    // MARK: Listening

    private func _runListener() async {
        defer { incomingContinuation.finish() }
        var attempt = 0
        while !Task.isCancelled {
            let connection: PostgresConnection
            do {
                connection = try await _connect()
            } catch {
                _record(error, while: "connecting")
                if !_isRunning { break }
                attempt += 1
                await _sleepUnlessShuttingDown(_backoff(attempt: attempt))
                continue
            }
            let accepted = state.withLockedValue { state in
                guard state.phase == .running else { return false }
                state.listenConnection = connection
                return true
            }
            guard accepted else {
                await _closeGracefully(connection)
                break
            }
            do {
                try await withTaskCancellationHandler {
                    try await _listen(on: connection)
                } onCancel: {
                    _closeInBackground(connection)
                }
            } catch {
                if _isRunning { _record(error, while: "listening") }
            }
            _closeInBackground(connection)
            let wasEstablished = state.withLockedValue { state in
                if state.listenConnection === connection { state.listenConnection = nil }
                defer { state.isListening = false }
                if state.isListening { state.disconnectedAt = .now }
                return state.isListening
            }
            guard _isRunning, !Task.isCancelled else { break }
            status.modify { $0.connection = .reconnecting }
            attempt = wasEstablished ? 1 : attempt + 1
            await _sleepUnlessShuttingDown(_backoff(attempt: attempt))
        }
    }

    private func _listen(on connection: PostgresConnection) async throws {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        defer { wake.finish() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await connection.listen(on: self.channel.rawValue) { notifications in
                    try await self._didStartListening(on: connection)
                    wake.yield()
                    for try await notification in notifications {
                        self._received(notification.payload, wake: wake)
                    }
                }
                throw _ConnectionEnded()
            }
            group.addTask {
                try await self._checkHealth(of: connection, wake: wake)
            }
            if case .logged = configuration.mode {
                group.addTask {
                    for await _ in wakes {
                        try await self._readLog(on: connection)
                    }
                }
            }
            do {
                try await group.next()
            } catch {
                // Ending the connection ends the other tasks' queries, even a hanging one.
                _closeInBackground(connection)
                group.cancelAll()
                throw error
            }
            _closeInBackground(connection)
            group.cancelAll()
        }
    }

    private func _didStartListening(on connection: PostgresConnection) async throws {
        if case .logged(let retention) = configuration.mode {
            try await _ensureSchema(on: connection)
            if state.withLockedValue({ $0.cursor }) == nil {
                let channel = channel.rawValue
                let logger = logger
                let last = try await _deadline("reading the log's end") {
                    let rows = try await connection.query(
                        "SELECT coalesce(max(id), 0)::bigint FROM general_observer_log WHERE channel = \(channel)",
                        logger: logger
                    )
                    var last: Int64 = 0
                    for try await id in rows.decode(Int64.self) { last = id }
                    return last
                }
                state.withLockedValue { $0.cursor = last }
            }
            let outage = state.withLockedValue { state in state.disconnectedAt.map { ContinuousClock.now - $0 } }
            state.withLockedValue { state in
                state.isListening = true
                state.disconnectedAt = nil
            }
            let lostSome = outage.map { $0 > retention } ?? false
            if lostSome {
                logger.error("Disconnected for longer than the retention; messages may be lost")
            }
            status.modify { status in
                status.connection = .connected
                if lostSome { status.possibleGapCount += 1 }
            }
        } else {
            let wasListening = state.withLockedValue { state in
                defer {
                    state.isListening = true
                    state.disconnectedAt = nil
                    state.lastSeqByInstance.removeAll()
                }
                return state.everListened
            }
            state.withLockedValue { $0.everListened = true }
            status.modify { status in
                status.connection = .connected
                // Plain mode cannot know what was sent while it did not listen.
                if wasListening { status.possibleGapCount += 1 }
            }
        }
        logger.debug("Listening")
    }

    private func _received(_ payload: String, wake: AsyncStream<Void>.Continuation) {
        if case .logged = configuration.mode {
            if payload != instanceID { wake.yield() }
            return
        }
        guard let envelope = _Envelope(payload) else {
            _countUndecodable(reason: "a notification without the mirror's envelope")
            return
        }
        guard envelope.instance != instanceID else { return }
        let skipped = state.withLockedValue { state -> Bool in
            guard envelope.seq > 0 else { return false }
            defer { state.lastSeqByInstance[envelope.instance] = envelope.seq }
            guard let last = state.lastSeqByInstance[envelope.instance] else { return false }
            return envelope.seq != last + 1
        }
        if skipped {
            logger.warning("Messages of instance \(envelope.instance) were skipped")
            status.modify { $0.possibleGapCount += 1 }
        }
        if case .dropped = incomingContinuation.yield(envelope.body) {
            state.withLockedValue { $0.counters.droppedIncoming += 1 }
            status.modify { status in
                status.possibleGapCount += 1
                status.lastError = "The incoming buffer was full; a message was dropped."
            }
        }
    }

    private func _readLog(on connection: PostgresConnection) async throws {
        let channel = channel.rawValue
        let logger = logger
        let pageSize = 1_000
        while true {
            guard let cursor = state.withLockedValue({ $0.cursor }) else { return }
            let rows = try await _deadline("reading the log") {
                let rows = try await connection.query(
                    """
                    SELECT id, instance, payload FROM general_observer_log
                    WHERE channel = \(channel) AND id > \(cursor) ORDER BY id LIMIT \(pageSize)
                    """,
                    logger: logger
                )
                var page: [(Int64, String, String)] = []
                for try await row in rows.decode((Int64, String, String).self) { page.append(row) }
                return page.map { _LogRow(id: $0.0, instance: $0.1, payload: $0.2) }
            }
            var read = cursor
            var dropped = false
            for row in rows {
                if row.instance != instanceID, case .dropped = incomingContinuation.yield(row.payload) {
                    dropped = true
                    break
                }
                read = row.id
            }
            state.withLockedValue { state in
                state.cursor = read
                state.rereadSoon = dropped
                if dropped { state.counters.droppedIncoming += 1 }
            }
            if dropped {
                // Read again from the first message not delivered, once the buffer has room.
                status.modify { $0.lastError = "The incoming buffer was full; reading the log again." }
                return
            }
            if rows.count < pageSize { return }
        }
    }

    private func _checkHealth(of connection: PostgresConnection, wake: AsyncStream<Void>.Continuation) async throws {
        var lastCleanup = ContinuousClock.now
        while true {
            let rereadSoon = state.withLockedValue { $0.rereadSoon }
            if rereadSoon {
                try await Task.sleep(for: .milliseconds(20))
                wake.yield()
                continue
            }
            try await Task.sleep(for: configuration.healthCheckInterval)
            let logger = logger
            do {
                try await _withTimeout(configuration.healthCheckTimeout) {
                    try await connection.query("SELECT 1", logger: logger).drain()
                }
            } catch is _TimeoutError {
                throw PostgresMessagingError.timedOut(operation: "the health check")
            }
            wake.yield()
            if case .logged(let retention) = configuration.mode,
                ContinuousClock.now - lastCleanup >= max(retention / 10, .seconds(1))
            {
                lastCleanup = .now
                try await _deleteExpiredRows(retention: retention, on: connection)
            }
        }
    }

    private func _deleteExpiredRows(retention: Duration, on connection: PostgresConnection) async throws {
        let channel = channel.rawValue
        let seconds = Double(retention.components.seconds) + Double(retention.components.attoseconds) / 1e18
        let logger = logger
        try await _deadline("deleting expired log rows") {
            try await connection.query(
                """
                DELETE FROM general_observer_log
                WHERE channel = \(channel) AND created_at < now() - make_interval(secs => \(seconds))
                """,
                logger: logger
            ).drain()
        }
    }

    // MARK: Delivering

    private func _runDelivery() async {
        let decoder = JSONDecoder()
        for await body in incoming {
            let message: Message
            do {
                message = try decoder.decode(Message.self, from: Data(body.utf8))
            } catch {
                _countUndecodable(reason: String(describing: error))
                continue
            }
            state.withLockedValue { $0.counters.delivered += 1 }
            messenger.send(message, from: self)
        }
    }

    private func _countUndecodable(reason: String) {
        state.withLockedValue { $0.counters.undecodable += 1 }
        logger.error("Payload did not decode", metadata: ["reason": "\(reason)"])
        status.modify { $0.lastError = "A received payload did not decode: \(reason)" }
    }

    // MARK: Connections

    private var _isRunning: Bool { state.withLockedValue { $0.phase == .running } }

    private func _connect() async throws -> PostgresConnection {
        let id = state.withLockedValue { state in
            defer { state.nextConnectionID += 1 }
            return state.nextConnectionID
        }
        let connectionConfiguration = configuration.connection
        let logger = logger
        return try await _deadline("connecting") {
            let connection = try await PostgresConnection.connect(
                configuration: connectionConfiguration,
                id: id,
                logger: logger
            )
            if Task.isCancelled {
                // The deadline passed while the connection was made: nobody will use it.
                _closeInBackground(connection)
                throw CancellationError()
            }
            return connection
        }
    }

    private func _ensureSchema(on connection: PostgresConnection) async throws {
        guard !state.withLockedValue({ $0.isSchemaReady }) else { return }
        let logger = logger
        try await _deadline("creating the log table") {
            try await _LogSchema.create(on: connection, logger: logger)
        }
        state.withLockedValue { $0.isSchemaReady = true }
    }

    private func _ensureSchemaOnOwnConnection() async throws {
        guard !state.withLockedValue({ $0.isSchemaReady }) else { return }
        let connection = try await _connect()
        do {
            try await _ensureSchema(on: connection)
        } catch {
            _closeInBackground(connection)
            throw error
        }
        await _closeGracefully(connection)
    }

    /// Runs `operation` with the publish timeout, turning a timeout into a clear error.
    private func _deadline<Result: Sendable>(
        _ operation: String,
        _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        do {
            return try await _withTimeout(configuration.publishTimeout, operation: body)
        } catch is _TimeoutError {
            throw PostgresMessagingError.timedOut(operation: operation)
        }
    }

    private func _closeGracefully(_ connection: PostgresConnection) async {
        do {
            try await _withTimeout(.seconds(1)) { try await connection.closeGracefully() }
        } catch {
            _closeInBackground(connection)
        }
    }

    private func _record(_ error: any Error, while activity: String) {
        let text = "\(activity): \(String(reflecting: error))"
        logger.warning("PostgreSQL connection error", metadata: ["error": "\(text)"])
        status.modify { $0.lastError = text }
    }

    private func _backoff(attempt: Int) -> Duration {
        let initial = configuration.initialReconnectDelay
        let cap = min(configuration.maximumReconnectDelay, initial * (1 << min(max(attempt - 1, 0), 20)))
        // Half fixed, half random: instances that lost the server together do not return together.
        return cap / 2 + cap / 2 * Double.random(in: 0...1)
    }

    private func _sleepUnlessShuttingDown(_ duration: Duration) async {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end, _isRunning, !Task.isCancelled {
            try? await Task.sleep(for: min(.milliseconds(50), end - .now))
        }
    }
}

/// Closes a connection without waiting; a close may wait for a peer that is gone.
///
/// The connection is kept until it is closed: PostgresNIO asserts that a connection is closed
/// when it is deinitialized.
private func _closeInBackground(_ connection: PostgresConnection) {
    let closed: EventLoopFuture<Void> = connection.close()
    closed.whenComplete { _ in withExtendedLifetime(connection) {} }
}

private struct _ConnectionEnded: Error, CustomStringConvertible {
    var description: String { "the listening connection ended" }
}

private struct _Outgoing: Sendable {
    let seq: Int64
    let body: String
}

private struct _LogRow: Sendable {
    let id: Int64
    let instance: String
    let payload: String
}

/// A plain-mode NOTIFY payload: `instance|seq|json`; `seq` 0 marks a transactional publish.
private struct _Envelope {
    let instance: String
    let seq: Int64
    let body: String

    init?(_ payload: String) {
        let parts = payload.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let seq = Int64(parts[1]) else { return nil }
        instance = String(parts[0])
        self.seq = seq
        body = String(parts[2])
    }
}

private struct _MirrorState {
    enum Phase {
        case idle
        case running
        case shuttingDown
        case finished
    }

    var phase = Phase.idle
    var pending: [_Outgoing] = []
    var nextSeq: Int64 = 1
    var nextTransactionalSeq: Int64 = -1
    var nextConnectionID = 1
    var counters = PostgresMirrorCounters()
    var listenConnection: PostgresConnection?
    var isListening = false
    var everListened = false
    var disconnectedAt: ContinuousClock.Instant?
    var lastSeqByInstance: [String: Int64] = [:]
    var cursor: Int64?
    var rereadSoon = false
    var isSchemaReady = false
}

extension PostgresRowSequence {
    /// Reads and discards every row, so that the query's errors surface and it has completed.
    fileprivate func drain() async throws {
        for try await _ in self {}
    }
}
