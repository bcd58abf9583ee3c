// A variable encodes as its value alone, so a type with `Var` properties stays `Codable` by
// declaring the conformance:
//
//     class Model: Codable {
//         private(set) var text = Var("String Variable")
//     }
//
// The property is a `var` because the synthesized `init(from:)` must assign it; clients set
// `text.value`, never `text`, so the setter is private.

extension Var: Encodable where Value: Encodable {
    /// Encodes the current value, as a single value: a `Var(42)` encodes exactly like `42`.
    ///
    /// Observers are not encoded.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The error of encoding the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension Var: Decodable where Value: Decodable {
    /// Creates a variable holding the decoded value: the inverse of ``encode(to:)``.
    ///
    /// Decoding sends nothing, and the new variable has no observers.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: The error of decoding the value.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode(Value.self))
    }
}
