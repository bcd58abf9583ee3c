/// The message a ``Var`` sends: its value before and after a change.
///
/// ```swift
/// observer.observe(number) { update in
///     let whatsTheBigDifference = update.new - update.old
/// }
/// ```
///
/// ``Var/send(isolation:)`` sends an update whose `old` and `new` are both the current value.
public struct Update<Value> {
    /// The value before the change.
    public let old: Value

    /// The value after the change.
    public let new: Value

    /// Creates an update from `old` to `new`.
    ///
    /// - Parameters:
    ///   - old: The value before the change.
    ///   - new: The value after the change.
    public init(_ old: Value, _ new: Value) {
        self.old = old
        self.new = new
    }
}

extension Update: Equatable where Value: Equatable {}
extension Update: Hashable where Value: Hashable {}
extension Update: Sendable where Value: Sendable {}
extension Update: Encodable where Value: Encodable {}
extension Update: Decodable where Value: Decodable {}

extension Update: CustomStringConvertible {
    /// `old -> new`.
    public var description: String { "\(old) -> \(new)" }
}
