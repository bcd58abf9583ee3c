import Messaging

// Number conveniences: `int`, `float` and `double` on number variables, `+ - * /` between
// numbers, optional numbers, number variables and optional number variables, and `+= -= *= /=` on
// number variables.
//
// The operand kinds are unified by one protocol, `NumericOperand` (numbers, optionals and
// variables), so each operator needs a few generic overloads (see "Operators" below) instead of one
// per pair of operand types, which keeps the type checker fast in code that imports the module.
//
// At least one operand must be a variable (or an optional variable): plain numbers and optional
// numbers keep the standard library's rules, so importing this module does not make, say,
// `Int? + Int` compile.

// MARK: - Protocols
//
// The protocols only mark the types that the conveniences accept; they have no requirements, so
// conforming `Int`, `Float`, `Double` and `Optional` adds no members to them. The work is done by
// the internal helpers below, which cast to the few concrete types the protocols admit. They are
// public only because the public operators name them in their constraints.

/// A number type that number variables work with: `Int`, `Float` or `Double`.
///
/// It marks the number types that the number conveniences of `Var` accept: the `int`, `float`
/// and `double` properties and the `+ - * /` operators. Only the three standard conformances,
/// which this module declares, are supported: don't conform other types (the conveniences stop
/// the program on any other number type).
public protocol VariableNumber: VariableNumberValue, Numeric where OperandNumber == Self {}

/// A value that a number variable holds: a ``VariableNumber`` or an optional one.
///
/// `Var<Value>` has the `int`, `float` and `double` properties where `Value` is one. This module
/// conforms `Int`, `Float`, `Double` and their optionals; don't conform other types.
public protocol VariableNumberValue: NumericOperand, Equatable {}

/// An operand of the number operators `+ - * /` of this module: a number, a variable that holds
/// one, or an optional of either. `nil` counts as zero.
///
/// This module conforms the numbers (through ``VariableNumber``), `Optional` and `Var`; don't
/// conform other types.
public protocol NumericOperand {
    /// The number type of the operand: `Int`, `Float` or `Double`.
    associatedtype OperandNumber: VariableNumber
}

extension Int: VariableNumber {}

extension Float: VariableNumber {}

extension Double: VariableNumber {}

extension Optional: NumericOperand where Wrapped: NumericOperand {
    /// The number type of the wrapped operand.
    public typealias OperandNumber = Wrapped.OperandNumber
}

extension Optional: VariableNumberValue where Wrapped: VariableNumber {}

extension Var: NumericOperand where Value: NumericOperand {
    /// The number type of the variable's value.
    public typealias OperandNumber = Value.OperandNumber
}

// MARK: - Helpers
//
// Internal, so that they add nothing to the types they work on. They are inlinable, so that in
// optimized client code, where the operand types are concrete, the type comparisons fold away.

/// The number of `operand`: a number, a variable, or an optional of either; `nil` reads as zero.
@inlinable
func _number<Operand: NumericOperand>(_ operand: Operand) -> Operand.OperandNumber {
    typealias Number = Operand.OperandNumber
    if let number = _exactly(operand, Number.self) { return number }
    if let variable = _exactly(operand, Var<Number>.self) { return variable.value }
    if let variable = _exactly(operand, Var<Number?>.self) { return variable.value ?? .zero }
    if let number = _exactly(operand, Number?.self) { return number ?? .zero }
    if let variable = _exactly(operand, Var<Number>?.self) { return variable?.value ?? .zero }
    if let variable = _exactly(operand, Var<Number?>?.self) { return variable?.value ?? .zero }
    return _numberByCasting(operand)
}

/// The number of an operand nested deeper than `_number(_:)` looks (`Var<Var<Int>>`, `Int??`).
@usableFromInline
func _numberByCasting<Number: VariableNumber>(_ operand: Any) -> Number {
    switch operand {
    case let number as Number: number
    case let variable as any _NumberVariableReading: variable.currentNumber()
    default: .zero
    }
}

/// A variable whose value `_numberByCasting(_:)` reads, whatever its value type.
private protocol _NumberVariableReading: AnyObject {
    /// The value's number; `nil` reads as zero.
    func currentNumber<Number: VariableNumber>() -> Number
}

extension Var: _NumberVariableReading {
    fileprivate func currentNumber<Number: VariableNumber>() -> Number { _numberByCasting(value) }
}

/// `value` as a `Target`, if that is its type. Comparing the types costs far less than a cast.
@inlinable @inline(__always)
func _exactly<Value, Target>(_ value: Value, _: Target.Type) -> Target? {
    Value.self == Target.self ? (value as! Target) : nil
}

/// The value that holds `number`: `number` itself, or wrapped in an optional.
@inlinable
func _value<Value: VariableNumberValue>(holding number: Value.OperandNumber) -> Value {
    number as! Value
}

/// `number` converted, as the target type's `init(_:)` converts it.
@inlinable
func _converted<Target: VariableNumber>(_ number: some VariableNumber) -> Target {
    if let number = _exactly(number, Int.self) { return _choosing(number, Float(number), Double(number)) }
    if let number = _exactly(number, Float.self) { return _choosing(Int(number), number, Double(number)) }
    if let number = _exactly(number, Double.self) { return _choosing(Int(number), Float(number), number) }
    _unsupported(type(of: number))
}

/// `lhs / rhs`, as the number type's `/` divides.
@inlinable
func _quotient<Number: VariableNumber>(_ lhs: Number, _ rhs: Number) -> Number {
    _choosing(
        _exactly(lhs, Int.self)! / _exactly(rhs, Int.self)!,
        _exactly(lhs, Float.self)! / _exactly(rhs, Float.self)!,
        _exactly(lhs, Double.self)! / _exactly(rhs, Double.self)!
    )
}

/// The one of `int`, `float` and `double` that has the type `Number`; evaluates only that one.
@inlinable @inline(__always)
func _choosing<Number: VariableNumber>(
    _ int: @autoclosure () -> Int,
    _ float: @autoclosure () -> Float,
    _ double: @autoclosure () -> Double
) -> Number {
    if Number.self == Int.self { return int() as! Number }
    if Number.self == Float.self { return float() as! Number }
    if Number.self == Double.self { return double() as! Number }
    _unsupported(Number.self)
}

/// Stops: `type` conforms to `VariableNumber`, which only `Int`, `Float` and `Double` may.
@usableFromInline
func _unsupported(_ type: Any.Type) -> Never {
    preconditionFailure("Number variables support Int, Float and Double, not \(type)")
}

/// An operand of the number operators that is a variable: a number variable or an optional one.
///
/// Every number operator of this module takes at least one such operand, so that plain numbers
/// and optional numbers keep the standard library's rules. This module conforms `Var` and
/// `Optional`; don't conform other types.
public protocol NumericVariableOperand: NumericOperand {}

extension Var: NumericVariableOperand where Value: NumericOperand {}

extension Optional: NumericVariableOperand where Wrapped: NumericVariableOperand {}

// MARK: - Number Properties

/// A variable that holds a number or an optional number: a `Var<Number>` or `Var<Number?>`, for
/// `Number` in `Int`, `Float` and `Double`.
///
/// It exists so that optional variables (`Var<Number>?`, `Var<Number?>?`) have the number
/// properties too. This module conforms `Var`; don't conform other types.
public protocol NumberVariable: AnyObject {
    /// The value as an `Int`; see `Var.int`.
    var int: Int { get set }

    /// The value as a `Float`; see `Var.float`.
    var float: Float { get set }

    /// The value as a `Double`; see `Var.double`.
    var double: Double { get set }
}

extension Var: NumberVariable where Value: VariableNumberValue {
    /// The value as an `Int`, with `nil` read as zero. Setting it sets `value`, like `value =`.
    ///
    /// ```swift
    /// let number = Var<Int?>()  // number.value == nil
    /// print(number.int)         // 0
    /// number.int += 5           // number.value == 5, sends Update(nil, 5)
    /// ```
    ///
    /// Conversions are those of Swift's number initializers: a `Float` or `Double` value reads
    /// rounded toward zero (and traps if it is infinite, NaN or out of range), and an `Int` set on
    /// a `Var<Float>` is rounded to the nearest `Float`. `number.int += 1` reads, then sets: it is
    /// two steps, not one atomic step.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var int: Int {
        @inlinable get { _converted(_number(value)) }
        @inlinable set { value = _value(holding: _converted(newValue)) }
    }

    /// The value as a `Float`, with `nil` read as zero. Setting it sets `value`, like `value =`.
    ///
    /// Conversions are those of Swift's number initializers; see `int`.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var float: Float {
        @inlinable get { _converted(_number(value)) }
        @inlinable set { value = _value(holding: _converted(newValue)) }
    }

    /// The value as a `Double`, with `nil` read as zero. Setting it sets `value`, like `value =`.
    ///
    /// Conversions are those of Swift's number initializers; see `int`.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var double: Double {
        @inlinable get { _converted(_number(value)) }
        @inlinable set { value = _value(holding: _converted(newValue)) }
    }
}

extension Optional where Wrapped: NumberVariable {
    /// The variable's value as an `Int`, with a `nil` variable or value read as zero.
    ///
    /// Setting it sets the variable's value (see `Var.int`); on a `nil` variable it does
    /// nothing.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var int: Int {
        get { self?.int ?? 0 }
        nonmutating set { self?.int = newValue }
    }

    /// The variable's value as a `Float`, with a `nil` variable or value read as zero.
    ///
    /// Setting it sets the variable's value (see `Var.float`); on a `nil` variable it does
    /// nothing.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var float: Float {
        get { self?.float ?? 0 }
        nonmutating set { self?.float = newValue }
    }

    /// The variable's value as a `Double`, with a `nil` variable or value read as zero.
    ///
    /// Setting it sets the variable's value (see `Var.double`); on a `nil` variable it does
    /// nothing.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var double: Double {
        get { self?.double ?? 0 }
        nonmutating set { self?.double = newValue }
    }
}

// MARK: - Operators
//
// Each operator has five overloads, all with at least one variable operand: a variable with any
// operand, any operand with a variable, two variables (the most specific, so that `Var + Var` is
// not ambiguous), and a variable with a plain number of its own number type on either side. Those
// last two let a literal take the number type of the variable (`Var<Float>(1) * 2`); otherwise an
// unconstrained literal falls back to `Int` (then `Double`) and fails to match a `Float` operand.

/// Adds a variable operand and any operand: a number, an optional number, a number variable or
/// an optional number variable; `nil` counts as zero.
///
/// ```swift
/// let numVar = Var<Int?>()
/// numVar <- Var(1) + 2
/// ```
///
/// Both operands must have the same number type. Reading each variable's value is a separate
/// step. Overflow traps, as `+` on the numbers does.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The sum of the operands' numbers.
@inlinable
public func + <L: NumericVariableOperand, R: NumericOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _number(lhs) + _number(rhs)
}

/// Adds any operand and a variable operand; see the overload with the variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The sum of the operands' numbers.
@inlinable
public func + <L: NumericOperand, R: NumericVariableOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _number(lhs) + _number(rhs)
}

/// Adds two variable operands; see the overload with one variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The sum of the operands' numbers.
@inlinable
public func + <L: NumericVariableOperand, R: NumericVariableOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _number(lhs) + _number(rhs)
}

/// Adds a variable operand and a plain number of its number type: `Var<Float>(1) + 2`.
///
/// Lets a literal on the right take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The sum of the operands' numbers.
@inlinable
public func + <Operand: NumericVariableOperand>(lhs: Operand, rhs: Operand.OperandNumber) -> Operand.OperandNumber {
    _number(lhs) + rhs
}

/// Adds a plain number and a variable operand of the same number type: `2 + Var<Float>(1)`.
///
/// Lets a literal on the left take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The sum of the operands' numbers.
@inlinable
public func + <Operand: NumericVariableOperand>(lhs: Operand.OperandNumber, rhs: Operand) -> Operand.OperandNumber {
    lhs + _number(rhs)
}

/// Subtracts a variable operand and any operand: a number, an optional number, a number variable or
/// an optional number variable; `nil` counts as zero.
///
/// ```swift
/// let numVar = Var<Int?>()
/// numVar <- Var(1) - 2
/// ```
///
/// Both operands must have the same number type. Reading each variable's value is a separate
/// step. Overflow traps, as `-` on the numbers does.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The operand to subtract.
/// - Returns: The difference of the operands' numbers.
@inlinable
public func - <L: NumericVariableOperand, R: NumericOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _number(lhs) - _number(rhs)
}

/// Subtracts any operand and a variable operand; see the overload with the variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The operand to subtract.
/// - Returns: The difference of the operands' numbers.
@inlinable
public func - <L: NumericOperand, R: NumericVariableOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _number(lhs) - _number(rhs)
}

/// Subtracts two variable operands; see the overload with one variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The operand to subtract.
/// - Returns: The difference of the operands' numbers.
@inlinable
public func - <L: NumericVariableOperand, R: NumericVariableOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _number(lhs) - _number(rhs)
}

/// Subtracts a variable operand and a plain number of its number type: `Var<Float>(1) - 2`.
///
/// Lets a literal on the right take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The operand to subtract.
/// - Returns: The difference of the operands' numbers.
@inlinable
public func - <Operand: NumericVariableOperand>(lhs: Operand, rhs: Operand.OperandNumber) -> Operand.OperandNumber {
    _number(lhs) - rhs
}

/// Subtracts a plain number and a variable operand of the same number type: `2 - Var<Float>(1)`.
///
/// Lets a literal on the left take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The operand to subtract.
/// - Returns: The difference of the operands' numbers.
@inlinable
public func - <Operand: NumericVariableOperand>(lhs: Operand.OperandNumber, rhs: Operand) -> Operand.OperandNumber {
    lhs - _number(rhs)
}

/// Multiplies a variable operand and any operand: a number, an optional number, a number variable or
/// an optional number variable; `nil` counts as zero.
///
/// ```swift
/// let numVar = Var<Int?>()
/// numVar <- Var(1) * 2
/// ```
///
/// Both operands must have the same number type. Reading each variable's value is a separate
/// step. Overflow traps, as `*` on the numbers does.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The product of the operands' numbers.
@inlinable
public func * <L: NumericVariableOperand, R: NumericOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _number(lhs) * _number(rhs)
}

/// Multiplies any operand and a variable operand; see the overload with the variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The product of the operands' numbers.
@inlinable
public func * <L: NumericOperand, R: NumericVariableOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _number(lhs) * _number(rhs)
}

/// Multiplies two variable operands; see the overload with one variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The product of the operands' numbers.
@inlinable
public func * <L: NumericVariableOperand, R: NumericVariableOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _number(lhs) * _number(rhs)
}

/// Multiplies a variable operand and a plain number of its number type: `Var<Float>(1) * 2`.
///
/// Lets a literal on the right take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The product of the operands' numbers.
@inlinable
public func * <Operand: NumericVariableOperand>(lhs: Operand, rhs: Operand.OperandNumber) -> Operand.OperandNumber {
    _number(lhs) * rhs
}

/// Multiplies a plain number and a variable operand of the same number type: `2 * Var<Float>(1)`.
///
/// Lets a literal on the left take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The product of the operands' numbers.
@inlinable
public func * <Operand: NumericVariableOperand>(lhs: Operand.OperandNumber, rhs: Operand) -> Operand.OperandNumber {
    lhs * _number(rhs)
}

/// Divides a variable operand and any operand: a number, an optional number, a number variable or
/// an optional number variable; `nil` counts as zero.
///
/// ```swift
/// let numVar = Var<Int?>()
/// numVar <- Var(1) / 2
/// ```
///
/// Both operands must have the same number type. Reading each variable's value is a separate
/// step. Division is that of the number type. For `Int` it rounds toward zero, and dividing by zero
/// traps with Swift's "Division by zero" runtime error, exactly as `/` on `Int` values does.
/// That includes dividing by a `nil` value or a `nil` variable, since `nil` counts as zero: check
/// the divisor first when it can be zero or `nil`. For `Float` and `Double`, dividing by zero gives
/// an infinity, or NaN for zero divided by zero.
///
/// - Parameters:
///   - lhs: The dividend.
///   - rhs: The divisor.
/// - Returns: The quotient of the operands' numbers.
@inlinable
public func / <L: NumericVariableOperand, R: NumericOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _quotient(_number(lhs), _number(rhs))
}

/// Divides any operand and a variable operand; see the overload with the variable on the left.
///
/// - Parameters:
///   - lhs: The dividend.
///   - rhs: The divisor.
/// - Returns: The quotient of the operands' numbers.
@inlinable
public func / <L: NumericOperand, R: NumericVariableOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _quotient(_number(lhs), _number(rhs))
}

/// Divides two variable operands; see the overload with one variable on the left.
///
/// - Parameters:
///   - lhs: The dividend.
///   - rhs: The divisor.
/// - Returns: The quotient of the operands' numbers.
@inlinable
public func / <L: NumericVariableOperand, R: NumericVariableOperand>(lhs: L, rhs: R) -> L.OperandNumber
where L.OperandNumber == R.OperandNumber {
    _quotient(_number(lhs), _number(rhs))
}

/// Divides a variable operand and a plain number of its number type: `Var<Float>(1) / 2`.
///
/// Lets a literal on the right take the variable's number type.
///
/// - Parameters:
///   - lhs: The dividend.
///   - rhs: The divisor.
/// - Returns: The quotient of the operands' numbers.
@inlinable
public func / <Operand: NumericVariableOperand>(lhs: Operand, rhs: Operand.OperandNumber) -> Operand.OperandNumber {
    _quotient(_number(lhs), rhs)
}

/// Divides a plain number and a variable operand of the same number type: `2 / Var<Float>(1)`.
///
/// Lets a literal on the left take the variable's number type.
///
/// - Parameters:
///   - lhs: The dividend.
///   - rhs: The divisor.
/// - Returns: The quotient of the operands' numbers.
@inlinable
public func / <Operand: NumericVariableOperand>(lhs: Operand.OperandNumber, rhs: Operand) -> Operand.OperandNumber {
    _quotient(lhs, _number(rhs))
}

// MARK: - Compound Assignment
//
// Each goes through `modify(_:isolation:)`, so `count += 1` is one atomic step: increments from several threads
// are never lost. The left operand is a reference, so `let count = Var(0)` is enough.

extension Var where Value: Numeric {
    /// Adds `amount` to the value in one atomic step, and sends the update like `value =`.
    ///
    /// ```swift
    /// let count = Var(0)
    /// count += 1  // sends Update(0, 1)
    /// ```
    ///
    /// Unlike `count.value += 1`, no other change can come between the read and the write. Adding
    /// zero sends nothing. Overflow traps, as `+=` on the numbers does: `Var(Int.max) += 1` stops
    /// the program.
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - amount: The number to add.
    /// - Complexity: O(*n*) for *n* observers.
    public static func += (variable: Var, amount: Value) {
        variable.modify({ $0 += amount }, isolation: nil)
    }

    /// Subtracts `amount` from the value in one atomic step, and sends the update like `value =`.
    ///
    /// Overflow traps, as `-=` on the numbers does (`Var(Int.min) -= 1`, say, stops the program).
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - amount: The number to subtract.
    /// - Complexity: O(*n*) for *n* observers.
    public static func -= (variable: Var, amount: Value) {
        variable.modify({ $0 -= amount }, isolation: nil)
    }

    /// Multiplies the value by `factor` in one atomic step, and sends the update like `value =`.
    ///
    /// Overflow traps, as `*=` on the numbers does (`Var(Int.max) *= 2`, say, stops the program).
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - factor: The number to multiply by.
    /// - Complexity: O(*n*) for *n* observers.
    public static func *= (variable: Var, factor: Value) {
        variable.modify({ $0 *= factor }, isolation: nil)
    }
}

extension Var where Value: BinaryInteger {
    /// Divides the value by `divisor` in one atomic step, rounding toward zero, and sends the update
    /// like `value =`.
    ///
    /// Dividing by zero traps, as `/=` on integers does.
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - divisor: The number to divide by.
    /// - Complexity: O(*n*) for *n* observers.
    public static func /= (variable: Var, divisor: Value) {
        variable.modify({ $0 /= divisor }, isolation: nil)
    }
}

extension Var where Value: FloatingPoint {
    /// Divides the value by `divisor` in one atomic step, and sends the update like `value =`.
    ///
    /// Dividing by zero gives an infinity, or NaN for zero divided by zero.
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - divisor: The number to divide by.
    /// - Complexity: O(*n*) for *n* observers.
    public static func /= (variable: Var, divisor: Value) {
        variable.modify({ $0 /= divisor }, isolation: nil)
    }
}
