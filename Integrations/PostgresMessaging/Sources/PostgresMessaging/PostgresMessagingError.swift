/// An error of the PostgreSQL mirror that the caller can act on.
public enum PostgresMessagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The channel name cannot be used safely; see ``PostgresChannelName``.
    case invalidChannelName(String, reason: String)
    /// The message did not encode to JSON; the associated value describes the encoder's error.
    case encodingFailed(String)
    /// The encoded message is larger than a NOTIFY payload may be; only logged mode carries it.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// A query did not finish in time; its connection was closed and is not used again.
    case timedOut(operation: String)
    /// ``PostgresMirror/run()`` was called while the mirror was already running or had run.
    case alreadyRunning

    /// A sentence that says what went wrong and what to do.
    public var description: String {
        switch self {
        case .invalidChannelName(let name, let reason):
            "Invalid PostgreSQL channel name \"\(name)\": \(reason)."
        case .encodingFailed(let reason):
            "The message could not be encoded as JSON: \(reason)."
        case .payloadTooLarge(let bytes, let limit):
            "The encoded message is \(bytes) bytes; a NOTIFY payload holds at most \(limit). "
                + "Send smaller messages or mirror the channel in logged mode, which keeps payloads in a table."
        case .timedOut(let operation):
            "PostgreSQL did not answer \(operation) in time; the connection was closed."
        case .alreadyRunning:
            "The mirror is already running; a mirror runs once."
        }
    }
}
