/// What a mirror dropped or could not handle, since it was made.
public struct PostgresMirrorCounters: Sendable, Equatable {
    /// Received messages that the full incoming buffer dropped.
    ///
    /// Logged mode reads them again from the log; plain mode loses them.
    public var droppedIncoming = 0
    /// Local messages that the full outgoing buffer dropped; no instance receives them.
    public var droppedOutgoing = 0
    /// Local messages that were not published: they did not encode, were too large for a
    /// NOTIFY payload, or (plain mode) their round trip failed and may not have reached PostgreSQL.
    public var unsent = 0
    /// Received payloads that did not decode as a message; the following messages still arrive.
    public var undecodable = 0
    /// Messages this instance published (in plain mode: handed to PostgreSQL).
    public var published = 0
    /// Remote messages delivered to the local messenger.
    public var delivered = 0

    /// Creates counters at zero.
    public init() {}
}
