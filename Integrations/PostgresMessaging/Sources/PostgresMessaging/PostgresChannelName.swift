/// A validated PostgreSQL LISTEN/NOTIFY channel name.
///
/// PostgreSQL limits identifiers to 63 bytes, and PostgresNIO quotes the name it sends in `LISTEN`
/// without escaping it, so the mirror accepts only names that need no quoting at all: a lowercase
/// ASCII letter or `_`, then lowercase ASCII letters, digits or `_`, 63 bytes at most. Such a name
/// means the same thing quoted or unquoted, in `LISTEN` as in `pg_notify`.
public struct PostgresChannelName: Sendable, Hashable, CustomStringConvertible {
    /// The name as PostgreSQL sees it.
    public let rawValue: String

    /// The longest name PostgreSQL keeps without truncating it, in bytes.
    public static let maximumLength = 63

    /// Validates `name`.
    ///
    /// - Parameter name: The channel name.
    /// - Throws: ``PostgresMessagingError/invalidChannelName(_:reason:)`` when the name is empty,
    ///   longer than 63 bytes, or contains anything but lowercase ASCII letters, digits and `_`,
    ///   or starts with a digit.
    public init(_ name: String) throws(PostgresMessagingError) {
        let bytes = Array(name.utf8)
        guard let first = bytes.first else {
            throw .invalidChannelName(name, reason: "it is empty")
        }
        guard bytes.count <= Self.maximumLength else {
            throw .invalidChannelName(
                name,
                reason: "it is \(bytes.count) bytes long; PostgreSQL truncates names after \(Self.maximumLength)"
            )
        }
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let underscore = UInt8(ascii: "_")
        guard isLetter(first) || first == underscore else {
            throw .invalidChannelName(name, reason: "it must start with a lowercase ASCII letter or '_'")
        }
        guard bytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == underscore }) else {
            throw .invalidChannelName(name, reason: "only lowercase ASCII letters, digits and '_' are allowed")
        }
        rawValue = name
    }

    /// The name.
    public var description: String { rawValue }
}
