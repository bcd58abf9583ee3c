import Messaging

// String conveniences: `string` on string variables, `+` between a string variable (or an optional
// one) and a string, an optional string or another such variable, `+=` on string variables, and
// the standard string protocols on `Var<String>` and `Var<String?>`.

// MARK: - Protocols
//
// The protocols only mark the types that the conveniences accept; they have no requirements, so
// conforming `String` and `Optional` adds no members to them. They are public only because the
// public conveniences name them in their constraints.

/// A value that a string variable holds: `String` or `String?`.
///
/// `Var<String>` and `Var<String?>` share one conformance to each string protocol through it.
/// This module conforms `String` and `String?`; don't conform other types (the conveniences read
/// any other value as `""`).
public protocol VariableStringValue: StringOperand, Equatable {}

/// An operand of the `+` of string variables: a string, a variable that holds one, or an optional
/// of either. `nil` counts as the empty string.
///
/// This module conforms `String`, `Optional` and `Var`; don't conform other types.
public protocol StringOperand {}

extension String: VariableStringValue {}

extension Optional: StringOperand where Wrapped: StringOperand {}

extension Optional: VariableStringValue where Wrapped == String {}

extension Var: StringOperand where Value: StringOperand {}

// MARK: - Helpers
//
// Internal, so that they add nothing to the types they work on. They are inlinable, so that in
// optimized client code, where the operand types are concrete, the type comparisons fold away.

/// The string of `operand`: a string, a variable, or an optional of either; `nil` reads as `""`.
@inlinable
func _string(_ operand: some StringOperand) -> String {
    if let string = _exactly(operand, String.self) { return string }
    if let variable = _exactly(operand, Var<String>.self) { return variable.value }
    if let variable = _exactly(operand, Var<String?>.self) { return variable.value ?? "" }
    if let string = _exactly(operand, String?.self) { return string ?? "" }
    if let variable = _exactly(operand, Var<String>?.self) { return variable?.value ?? "" }
    if let variable = _exactly(operand, Var<String?>?.self) { return variable?.value ?? "" }
    return _stringByCasting(operand)
}

/// The string of an operand nested deeper than `_string(_:)` looks (`Var<Var<String>>`,
/// `String??`).
@usableFromInline
func _stringByCasting(_ operand: Any) -> String {
    switch operand {
    case let string as String: string
    case let variable as any _StringVariableReading: variable.currentString
    default: ""
    }
}

/// A variable whose value `_stringByCasting(_:)` reads, whatever its value type.
private protocol _StringVariableReading: AnyObject {
    /// The value's string; `nil` reads as `""`.
    var currentString: String { get }
}

extension Var: _StringVariableReading {
    fileprivate var currentString: String { _stringByCasting(value) }
}

/// The value that holds `string`: `string` itself, or wrapped in an optional.
@inlinable
func _value<Value: VariableStringValue>(holding string: String) -> Value {
    string as! Value
}

// MARK: - String Property

/// A variable that holds a string or an optional string: a `Var<String>` or `Var<String?>`.
///
/// It exists so that optional variables (`Var<String>?`, `Var<String?>?`) have the `string`
/// property too. This module conforms `Var`; don't conform other types.
public protocol StringVariable: AnyObject {
    /// The value as a string; see `Var.string`.
    var string: String { get set }
}

extension Var: StringVariable where Value: VariableStringValue {
    /// The value as a string, with `nil` read as `""`. Setting it sets `value`, like `value =`.
    ///
    /// ```swift
    /// let text = Var<String?>()  // text.value == nil
    /// print(text.string)         // ""
    /// text.string = "hi"         // text.value == "hi", sends Update(nil, "hi")
    /// ```
    ///
    /// Setting `""` on a `Var<String?>` sets the value to `""`, not to `nil`.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var string: String {
        @inlinable get { _string(value) }
        @inlinable set { value = _value(holding: newValue) }
    }
}

extension Optional where Wrapped: StringVariable {
    /// The variable's value as a string, with a `nil` variable or value read as `""`.
    ///
    /// Setting it sets the variable's value (see `Var.string`); on a `nil` variable it does
    /// nothing.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var string: String {
        get { self?.string ?? "" }
        nonmutating set { self?.string = newValue }
    }
}

// MARK: - Concatenation
//
// At least one operand must be a variable (or an optional variable), so importing this module
// does not make `String? + String` compile. Three overloads: a variable with any operand, any
// operand with a variable, and two variables (the most specific, so `Var + Var` is not ambiguous).

/// An operand of `+` that is a variable: a string variable or an optional one.
///
/// Every `+` of this module takes at least one such operand, so that `String? + String` stays
/// an error. This module conforms `Var` and `Optional`; don't conform other types.
public protocol StringVariableOperand: StringOperand {}

extension Var: StringVariableOperand where Value: StringOperand {}

extension Optional: StringVariableOperand where Wrapped: StringVariableOperand {}

/// Concatenates a string variable operand and any operand: a string, an optional string, a string
/// variable or an optional string variable; `nil` counts as `""`.
///
/// ```swift
/// let greeting = Var("Hello, ") + Var<String?>("world")  // "Hello, world"
/// ```
///
/// Reading each variable's value is a separate step.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The operands' strings, joined.
@inlinable
public func + <L: StringVariableOperand, R: StringOperand>(lhs: L, rhs: R) -> String {
    _string(lhs) + _string(rhs)
}

/// Concatenates any operand and a string variable operand; see the overload with the variable on
/// the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The operands' strings, joined.
@inlinable
public func + <L: StringOperand, R: StringVariableOperand>(lhs: L, rhs: R) -> String {
    _string(lhs) + _string(rhs)
}

/// Concatenates two string variable operands; see the overload with one variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The operands' strings, joined.
@inlinable
public func + <L: StringVariableOperand, R: StringVariableOperand>(lhs: L, rhs: R) -> String {
    _string(lhs) + _string(rhs)
}

// MARK: - Appending

extension Var where Value: VariableStringValue {
    /// Appends `text` to the value in one atomic step, and sends the update like `value =`.
    ///
    /// ```swift
    /// let log = Var<String?>()
    /// log += "started"  // sends Update(nil, "started")
    /// ```
    ///
    /// Unlike `log.value += "started"`, no other change can come between the read and the write,
    /// so appends from several threads are never lost. `nil` counts as `""`; appending `""` sends
    /// nothing.
    ///
    /// - Parameters:
    ///   - variable: The variable to append to.
    ///   - text: The text to append.
    /// - Complexity: O(*m* + *n*) for a value of length *m* and *n* observers.
    public static func += (variable: Var, text: String) {
        variable.write(text)
    }
}

// MARK: - String Protocols

extension Var: TextOutputStream where Value: VariableStringValue {
    /// Appends `string` to the value and sends the update, like `value =`.
    ///
    /// Reading the value and setting the appended one are one atomic step, so appends from
    /// several threads are never lost. Appending `""` sends nothing.
    ///
    /// ```swift
    /// var log = Var<String>()
    /// print("started", to: &log)  // log.value == "started\n"
    /// ```
    ///
    /// - Parameter string: The text to append.
    /// - Complexity: O(*m* + *n*) for a value of length *m* and *n* observers.
    public func write(_ string: String) {
        modify({ $0 = _value(holding: _string($0) + string) }, isolation: nil)
    }
}

extension Var: CustomStringConvertible where Value: VariableStringValue {
    /// The value as a string, with `nil` read as `""`: the same as `string`.
    public var description: String { string }
}

extension Var: CustomDebugStringConvertible where Value: VariableStringValue {
    /// The value as a quoted string literal, with `nil` read as `""`: `string.debugDescription`.
    public var debugDescription: String { string.debugDescription }
}

extension Var: Sequence where Value: VariableStringValue {
    /// An iterator over the characters of the current `string`.
    ///
    /// It iterates a snapshot: later changes to the variable do not affect it.
    ///
    /// - Returns: The iterator.
    /// - Complexity: O(1).
    public func makeIterator() -> String.Iterator {
        string.makeIterator()
    }
}

extension Var: Collection where Value: VariableStringValue {
    /// A position of a character in `string`.
    public typealias Index = String.Index

    /// The position of the first character of the current `string`.
    public var startIndex: String.Index { string.startIndex }

    /// The position past the last character of the current `string`.
    public var endIndex: String.Index { string.endIndex }

    /// The number of characters in the current `string`.
    ///
    /// - Complexity: O(*n*) for *n* characters.
    public var count: Int { string.count }

    /// Whether the current `string` is empty.
    public var isEmpty: Bool { string.isEmpty }

    /// The character at `position` in the current `string`.
    ///
    /// Every access reads the current value: when the variable can change meanwhile, read
    /// `string` once and index that instead.
    ///
    /// - Parameter position: A valid position in the current string.
    public subscript(position: String.Index) -> Character {
        string[position]
    }

    /// The characters in `bounds` of the current `string`, as a substring: a snapshot, which
    /// later changes to the variable do not affect.
    ///
    /// - Parameter bounds: A valid range of the current string.
    public subscript(bounds: Range<String.Index>) -> Substring {
        string[bounds]
    }

    /// The position after `i` in the current `string`.
    ///
    /// - Parameter i: A valid position in the current string, other than `endIndex`.
    /// - Returns: The next position.
    public func index(after i: String.Index) -> String.Index {
        string.index(after: i)
    }
}

extension Var: BidirectionalCollection where Value: VariableStringValue {
    /// The position before `i` in the current `string`.
    ///
    /// - Parameter i: A valid position in the current string, other than `startIndex`.
    /// - Returns: The previous position.
    public func index(before i: String.Index) -> String.Index {
        string.index(before: i)
    }
}
