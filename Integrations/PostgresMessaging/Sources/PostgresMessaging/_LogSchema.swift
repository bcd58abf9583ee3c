import Logging
import PostgresNIO

/// The table and function of logged mode.
///
/// Ids come from a sequence, and a sequence hands out ids at insert time, not at commit: two
/// publishers could commit ids 6 and 5 in that order, and a reader that saw 6 would skip 5 for
/// ever. So `general_observer_publish` takes a transaction-scoped advisory lock per channel
/// before it inserts: inserts into one channel are serialized, an id is never committed after
/// a larger one of the same channel, and a reader may always continue after the largest id it
/// has seen. The price is that publishers of one channel commit one at a time (one round trip
/// each, batched), and that a transactional publish holds the lock until the app's transaction
/// ends.
enum _LogSchema {
    static let table = "general_observer_log"

    /// The key of the advisory lock under which the schema is created; the channel locks use the
    /// same first key with the channel's hash as the second.
    static let lockClass: Int32 = 0x4F42_5352

    static func create(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockClass), 0)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS general_observer_log (
                    id bigserial PRIMARY KEY,
                    channel text NOT NULL,
                    instance text NOT NULL,
                    seq bigint NOT NULL,
                    payload text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    UNIQUE (channel, instance, seq)
                )
                """,
                logger: logger
            )
            try await connection.query(
                "CREATE INDEX IF NOT EXISTS general_observer_log_channel_id ON general_observer_log (channel, id)",
                logger: logger
            )
            try await connection.query(
                """
                CREATE OR REPLACE FUNCTION general_observer_publish(
                    p_channel text, p_instance text, p_seqs bigint[], p_payloads text[]
                ) RETURNS void LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_advisory_xact_lock(\(unescaped: String(lockClass)), hashtext(p_channel));
                    INSERT INTO general_observer_log (channel, instance, seq, payload)
                        SELECT p_channel, p_instance, s, p
                        FROM unnest(p_seqs, p_payloads) WITH ORDINALITY AS t(s, p, n)
                        ORDER BY n
                        ON CONFLICT (channel, instance, seq) DO NOTHING;
                    PERFORM pg_notify(p_channel, p_instance);
                END
                $$
                """,
                logger: logger
            )
        }
    }
}
