/// How a channel's messages travel through PostgreSQL.
public enum PostgresMirrorMode: Sendable, Equatable {
    /// NOTIFY alone: at most once.
    ///
    /// The lowest latency and no table. Messages sent while an instance is disconnected, or that
    /// its full incoming buffer drops, are lost for that instance; the mirror counts such a
    /// possible gap in ``PostgresMirrorStatus/possibleGapCount``. Payloads are limited to
    /// ``PostgresMirror/notifyPayloadLimit`` bytes.
    case plain

    /// NOTIFY as a doorbell and a table as the log: exactly once, in order, across outages
    /// shorter than `retention`.
    ///
    /// Publishers insert messages and notify in one transaction; listeners read every row after
    /// the last one they delivered, on every doorbell, every health check and every reconnect.
    /// Rows older than `retention` are deleted by the listening instances.
    case logged(retention: Duration)
}
