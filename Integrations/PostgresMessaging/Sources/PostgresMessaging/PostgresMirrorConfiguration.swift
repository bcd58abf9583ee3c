import PostgresNIO

/// Where and how a ``PostgresMirror`` connects, buffers and retries.
public struct PostgresMirrorConfiguration: Sendable {
    /// The connection settings; the mirror opens two connections with them, one to listen and one
    /// to publish.
    ///
    /// Point them at PostgreSQL itself or at a pooler in session mode: `LISTEN` belongs to a
    /// session, and a pooler in transaction mode would hand the listening session to others.
    public var connection: PostgresConnection.Configuration
    /// How the channel's messages travel.
    public var mode: PostgresMirrorMode
    /// How many received messages wait for delivery before newer ones are dropped.
    public var incomingCapacity: Int = 10_000
    /// How many local messages wait for publishing before newer ones are dropped.
    public var outgoingCapacity: Int = 100_000
    /// How many waiting messages one round trip publishes at most.
    public var maximumBatchSize: Int = 1_000
    /// How long publishing one batch may take before its connection is closed.
    public var publishTimeout: Duration = .seconds(5)
    /// How often the listening connection is checked with `SELECT 1` (and, in logged mode, the
    /// log read).
    public var healthCheckInterval: Duration = .seconds(5)
    /// How long a health check may take before the listening connection counts as dead.
    public var healthCheckTimeout: Duration = .seconds(3)
    /// The first delay before reconnecting; it doubles per failed attempt, up to
    /// ``maximumReconnectDelay``, and each delay is between half of that and all of it, at random.
    public var initialReconnectDelay: Duration = .milliseconds(100)
    /// The longest delay before reconnecting.
    public var maximumReconnectDelay: Duration = .seconds(10)

    /// Creates a configuration with the default limits.
    ///
    /// - Parameters:
    ///   - connection: The connection settings.
    ///   - mode: How the channel's messages travel; ``PostgresMirrorMode/plain`` by default.
    public init(connection: PostgresConnection.Configuration, mode: PostgresMirrorMode = .plain) {
        self.connection = connection
        self.mode = mode
    }
}
