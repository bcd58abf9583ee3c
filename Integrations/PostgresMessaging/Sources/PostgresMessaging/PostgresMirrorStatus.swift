/// What a mirror's connections are doing, observable through ``PostgresMirror/status``.
public struct PostgresMirrorStatus: Sendable, Equatable {
    /// The listening connection's state.
    public enum Connection: Sendable, Equatable {
        /// Not running, or shut down.
        case disconnected
        /// Connecting for the first time.
        case connecting
        /// Listening: remote messages arrive.
        case connected
        /// The connection was lost or failed its health check; a new one is being made.
        case reconnecting
    }

    /// The listening connection's state.
    public var connection: Connection
    /// The last error of any of the mirror's connections, or of a payload that did not decode.
    public var lastError: String?
    /// How many times this instance may have missed remote messages.
    ///
    /// In plain mode it grows after every reconnect, when the incoming buffer drops a message, and
    /// when a remote instance's sequence numbers skip. In logged mode it grows only when an outage
    /// lasted longer than the retention.
    public var possibleGapCount: Int

    /// Creates a status.
    ///
    /// - Parameters:
    ///   - connection: The listening connection's state.
    ///   - lastError: The last error, if any.
    ///   - possibleGapCount: How many times messages may have been missed.
    public init(connection: Connection, lastError: String? = nil, possibleGapCount: Int = 0) {
        self.connection = connection
        self.lastError = lastError
        self.possibleGapCount = possibleGapCount
    }
}
