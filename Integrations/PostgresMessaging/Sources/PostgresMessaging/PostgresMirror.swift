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
    private let incoming: AsyncStream<_Incoming>
    private let incomingContinuation: AsyncStream<_Incoming>.Continuation

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
        let maximumBatchSize = configuration.maximumBatchSize
        let outcome = state.withLockedValue { state -> _EnqueueOutcome in
            guard state.phase == .idle || state.phase == .running else {
                // Nothing publishes any more.
                state.counters.unsent += 1
                return .refused
            }
            guard state.pending.count < configuration.outgoingCapacity else {
                state.counters.droppedOutgoing += 1
                return .refused
            }
            state.pending.append(_Outgoing(seq: state.nextSeq, body: body))
            state.nextSeq += 1
            if let next = state.takeBatch(maximumSize: maximumBatchSize) { return .publish(next) }
            return state.publishConnection == nil ? .needsConnection : .queued
        }
        switch outcome {
        case .publish(let next):
            _startPublishing(next.batch, on: next.connection)
        case .needsConnection:
            doorbellContinuation.yield()
        case .queued:
            break
        case .refused:
            logger.warning("Message not published: the outgoing buffer is full or the mirror has stopped")
        }
    }

    /// Connects the publishing connection whenever messages wait without one, and publishes what
    /// waits at shutdown.
    ///
    /// While the connection works, publishing needs no task: the first message that finds the
    /// publisher idle sends its batch at once, and each batch's completion, on the connection's
    /// event loop, sends the next. The doorbell rings when a message waits without a connection
    /// and when a publish failed.
    private func _runPublisher() async {
        for await _ in doorbell {
            if Task.isCancelled { break }
            await _connectPublisherWhileNeeded()
        }
        if !Task.isCancelled { await _publishWaitingAtShutdown() }
        let connection: PostgresConnection? = state.withLockedValue { state in
            defer { state.publishConnection = nil }
            return state.publishConnection
        }
        if let connection {
            if Task.isCancelled { _closeInBackground(connection) } else { await _closeGracefully(connection) }
        }
    }

    /// Reports what failed since the last call, then connects while messages wait and there is
    /// no publishing connection, with a backoff after each failure.
    private func _connectPublisherWhileNeeded() async {
        while true {
            let (error, failures, needsConnection) = state.withLockedValue { state in
                defer { state.publishError = nil }
                return (
                    state.publishError, state.publishFailures,
                    state.publishConnection == nil && !state.pending.isEmpty
                )
            }
            if let error { _record(error, while: "publishing") }
            guard needsConnection, _isRunning, !Task.isCancelled else { return }
            if failures > 0 {
                await _sleepUnlessShuttingDown(_backoff(attempt: failures))
                guard _isRunning, !Task.isCancelled else { return }
            }
            do {
                try await _openPublishingConnection()
            } catch {
                state.withLockedValue { $0.publishFailures += 1 }
                _record(error, while: "publishing")
            }
        }
    }

    /// Connects, prepares the log in logged mode, makes the connection the publishing one and
    /// sends the first waiting batch on it.
    private func _openPublishingConnection() async throws {
        let connection = try await _connect()
        do {
            if case .logged = configuration.mode { try await _ensureSchema(on: connection) }
        } catch {
            _closeInBackground(connection)
            throw error
        }
        let maximumBatchSize = configuration.maximumBatchSize
        let next = state.withLockedValue { state in
            state.publishConnection = connection
            return state.takeBatch(maximumSize: maximumBatchSize)
        }
        if let next { _startPublishing(next.batch, on: next.connection) }
    }

    /// At a graceful shutdown: waits for the batch in flight and publishes what waits, each batch
    /// within the publish timeout. What cannot be published is counted as unsent.
    private func _publishWaitingAtShutdown() async {
        while !Task.isCancelled {
            let (isDone, isPublishing, needsConnection) = state.withLockedValue { state in
                (
                    state.pending.isEmpty && !state.isPublishing, state.isPublishing,
                    state.publishConnection == nil
                )
            }
            if isDone { return }
            if isPublishing {
                // The batch's completion or its deadline ends this wait.
                try? await Task.sleep(for: .milliseconds(1))
                continue
            }
            guard needsConnection else {
                let maximumBatchSize = configuration.maximumBatchSize
                let next = state.withLockedValue { $0.takeBatch(maximumSize: maximumBatchSize) }
                if let next { _startPublishing(next.batch, on: next.connection) }
                continue
            }
            do {
                try await _openPublishingConnection()
            } catch {
                _record(error, while: "publishing")
                // Nothing more will be tried: what waits is not published.
                state.withLockedValue { state in
                    guard !state.isPublishing else { return }
                    state.counters.unsent += state.pending.count
                    state.pending.removeAll()
                }
            }
        }
        if let error = state.withLockedValue({ $0.publishError }) { _record(error, while: "publishing") }
    }

    /// Sends `batch` on `connection` without a task: the query's completion or its deadline,
    /// whichever comes first, runs ``_finishPublishing(_:on:with:)`` on the connection's event
    /// loop. A query on a dead connection may never complete; its deadline closes the connection.
    private func _startPublishing(_ batch: [_Outgoing], on connection: PostgresConnection) {
        let settled = NIOLockedValueBox(false)
        @Sendable func settle() -> Bool {
            settled.withLockedValue { settled in
                defer { settled = true }
                return !settled
            }
        }
        let components = configuration.publishTimeout.components
        let nanoseconds = components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
        let deadline = connection.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            if settle() {
                self._finishPublishing(
                    batch,
                    on: connection,
                    with: .failure(PostgresMessagingError.timedOut(operation: "a publish"))
                )
            }
        }
        let completed: EventLoopFuture<PostgresQueryResult> = connection.query(_publishQuery(batch), logger: logger)
        completed.whenComplete { result in
            if settle() {
                deadline.cancel()
                self._finishPublishing(batch, on: connection, with: result.map { _ in })
            }
        }
    }

    /// Records how `batch` ended and sends the next batch, or hands a failure to the publisher
    /// task; runs on the connection's event loop, so it runs no user code.
    private func _finishPublishing(
        _ batch: [_Outgoing],
        on connection: PostgresConnection,
        with result: Result<Void, any Error>
    ) {
        let lastSeq = batch[batch.count - 1].seq
        switch result {
        case .success:
            let maximumBatchSize = configuration.maximumBatchSize
            let next = state.withLockedValue { state -> (batch: [_Outgoing], connection: PostgresConnection)? in
                state.removePending(through: lastSeq)
                state.counters.published += batch.count
                state.publishFailures = 0
                state.isPublishing = false
                guard state.publishConnection === connection else { return nil }
                return state.takeBatch(maximumSize: maximumBatchSize)
            }
            if let next { _startPublishing(next.batch, on: next.connection) }
        case .failure(let error):
            _closeInBackground(connection)
            let isPlain = if case .plain = configuration.mode { true } else { false }
            state.withLockedValue { state in
                state.isPublishing = false
                if state.publishConnection === connection { state.publishConnection = nil }
                state.publishFailures += 1
                state.publishError = error
                if state.phase != .running {
                    // Nothing more will be tried: what waits is not published.
                    state.counters.unsent += state.pending.count
                    state.pending.removeAll()
                } else if isPlain {
                    // The batch may or may not have been notified: sending it again could
                    // duplicate it, and plain mode promises at most once.
                    let before = state.pending.count
                    state.removePending(through: lastSeq)
                    state.counters.unsent += before - state.pending.count
                }
                // In logged mode the batch is sent again: the log's unique key on
                // (channel, instance, seq) drops whatever was inserted already.
            }
            doorbellContinuation.yield()
        }
    }

    /// The query that publishes `batch`.
    private func _publishQuery(_ batch: [_Outgoing]) -> PostgresQuery {
        let channel = channel.rawValue
        switch configuration.mode {
        case .plain where batch.count == 1:
            // One message, the common case at low load: the plain call costs the server less to
            // parse and run than the array form, and is what a raw pg_notify sends.
            let payload = "\(instanceID)|\(batch[0].seq)|\(batch[0].body)"
            return "SELECT pg_notify(\(channel), \(payload))"
        case .plain:
            let payloads = batch.map { "\(instanceID)|\($0.seq)|\($0.body)" }
            return """
                SELECT pg_notify(\(channel), p)
                FROM unnest(\(payloads)::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n
                """
        case .logged:
            let seqs = batch.map(\.seq)
            let bodies = batch.map(\.body)
            return "SELECT general_observer_publish(\(channel), \(instanceID), \(seqs), \(bodies))"
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
        // What a new connection receives follows a gap that the reconnect reports, not a skip:
        // forget the sequence numbers before its first notification can arrive.
        state.withLockedValue { $0.lastSeqByInstance.removeAll() }
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

    /// Sorts a notification into the incoming buffer, on the listening task: it leaves the status
    /// to the delivery task, so that a slow status observer never holds up the listening.
    private func _received(_ payload: String, wake: AsyncStream<Void>.Continuation) {
        if case .logged = configuration.mode {
            if payload != instanceID { wake.yield() }
            return
        }
        let incoming: _Incoming
        if let envelope = _Envelope(payload) {
            guard envelope.instance != instanceID else { return }
            let skipped = state.withLockedValue { state -> Bool in
                guard envelope.seq > 0 else { return false }
                defer { state.lastSeqByInstance[envelope.instance] = envelope.seq }
                guard let last = state.lastSeqByInstance[envelope.instance] else { return false }
                return envelope.seq != last + 1
            }
            if skipped { logger.warning("Messages of instance \(envelope.instance) were skipped") }
            incoming = .message(envelope.body, afterGap: skipped)
        } else {
            incoming = .undecodable("a notification without the mirror's envelope")
        }
        if case .dropped = incomingContinuation.yield(incoming) {
            state.withLockedValue { state in
                state.counters.droppedIncoming += 1
                state.unreportedDrops += 1
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
                // The page is collected on the connection's event loop, as its rows arrive.
                // PostgresNIO traps when a connection closes while an async row sequence has rows
                // waiting for its consumer's demand (a slow reader and a cut connection): a page
                // is at most `pageSize` rows, so it is read whole instead.
                let page: EventLoopFuture<PostgresQueryResult> = connection.query(
                    """
                    SELECT id, instance, payload FROM general_observer_log
                    WHERE channel = \(channel) AND id > \(cursor) ORDER BY id LIMIT \(pageSize)
                    """,
                    logger: logger
                )
                return try await page.get().rows.map { row in
                    let (id, instance, payload) = try row.decode((Int64, String, String).self)
                    return _LogRow(id: id, instance: instance, payload: payload)
                }
            }
            var read = cursor
            var dropped = false
            for row in rows {
                if row.instance != instanceID,
                    case .dropped = incomingContinuation.yield(.message(row.payload, afterGap: false))
                {
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
        for await incoming in incoming {
            switch incoming {
            case .message(let body, let afterGap):
                if afterGap { status.modify { $0.possibleGapCount += 1 } }
                do {
                    let message = try decoder.decode(Message.self, from: Data(body.utf8))
                    state.withLockedValue { $0.counters.delivered += 1 }
                    messenger.send(message, from: self)
                } catch {
                    _countUndecodable(reason: String(describing: error))
                }
            case .undecodable(let reason):
                _countUndecodable(reason: reason)
            }
            _reportDrops()
        }
        _reportDrops()
    }

    /// Reports in the status the messages the full incoming buffer dropped since the last call.
    private func _reportDrops() {
        let drops = state.withLockedValue { state in
            defer { state.unreportedDrops = 0 }
            return state.unreportedDrops
        }
        guard drops > 0 else { return }
        logger.warning("The incoming buffer was full; messages were dropped", metadata: ["dropped": "\(drops)"])
        status.modify { status in
            status.possibleGapCount += drops
            status.lastError = "The incoming buffer was full; a message was dropped."
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
    /// The connection batches are published on; set by the publisher task once it works.
    var publishConnection: PostgresConnection?
    /// Whether a batch is in flight; its completion sends the next one.
    var isPublishing = false
    /// Failed publishes and connection attempts since the last published batch.
    var publishFailures = 0
    /// The last publish failure, for the publisher task to report.
    var publishError: (any Error)?
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
    /// Drops of the incoming buffer the delivery task has not reported in the status yet.
    var unreportedDrops = 0

    /// Marks the first waiting batch as in flight and returns it with the connection to send it
    /// on, when there is a publishing connection, no batch in flight and a message waits.
    mutating func takeBatch(maximumSize: Int) -> (batch: [_Outgoing], connection: PostgresConnection)? {
        guard !isPublishing, let connection = publishConnection, !pending.isEmpty else { return nil }
        isPublishing = true
        return (Array(pending.prefix(max(1, maximumSize))), connection)
    }

    /// Removes the waiting messages up to the one numbered `seq`.
    mutating func removePending(through seq: Int64) {
        let count = pending.prefix { $0.seq <= seq }.count
        pending.removeFirst(count)
    }
}

/// What `_enqueue` does once its message is in the outgoing buffer, or is not.
private enum _EnqueueOutcome {
    /// Send this batch, the publisher being idle.
    case publish((batch: [_Outgoing], connection: PostgresConnection))
    /// Ring the doorbell: there is no publishing connection.
    case needsConnection
    /// A batch is in flight; its completion sends this message.
    case queued
    /// The buffer is full or the mirror has stopped.
    case refused
}

/// What the listening connection hands to the delivery task, in the order it arrived.
private enum _Incoming: Sendable {
    /// A message's JSON; `afterGap` when messages of its instance were skipped before it.
    case message(String, afterGap: Bool)
    /// A notification that is not a mirror's envelope.
    case undecodable(String)
}

extension PostgresRowSequence {
    /// Reads and discards every row, so that the query's errors surface and it has completed.
    fileprivate func drain() async throws {
        for try await _ in self {}
    }
}
