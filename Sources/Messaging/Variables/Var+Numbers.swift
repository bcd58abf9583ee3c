// Number conveniences: `int`, `float` and `double` on number variables, and `+ - * /` between
// numbers, optional numbers, number variables and optional number variables.
//
// The operand kinds are unified by one protocol, `_NumericOperand` (numbers, optionals and
// variables), so each operator needs a few generic overloads (see "Operators" below) instead of one
// per pair of operand types, which keeps the type checker fast in code that imports the module.
//
// At least one operand must be a variable (or an optional variable): plain numbers and optional
// numbers keep the standard library's rules, so importing this module does not make, say,
// `Int? + Int` compile.

// MARK: - Protocols

/// A number type that number variables work with: `Int`, `Float` or `Double`.
///
/// An implementation detail of the number conveniences of ``Var``: only the three standard
/// conformances are supported. Don't conform other types.
public protocol _VarNumber: _VarNumberValue, Numeric where _Number == Self {
    /// The number as an `Int`, as `Int(_:)` converts it.
    var _int: Int { get }

    /// The number as a `Float`, as `Float(_:)` converts it.
    var _float: Float { get }

    /// The number as a `Double`, as `Double(_:)` converts it.
    var _double: Double { get }

    /// Converts an `Int`, as this type's `init(_:)` does.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: The converted value.
    static func _converting(_ value: Int) -> Self

    /// Converts a `Float`, as this type's `init(_:)` does.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: The converted value.
    static func _converting(_ value: Float) -> Self

    /// Converts a `Double`, as this type's `init(_:)` does.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: The converted value.
    static func _converting(_ value: Double) -> Self

    /// Divides, as this type's `/` does.
    ///
    /// - Parameters:
    ///   - lhs: The dividend.
    ///   - rhs: The divisor.
    /// - Returns: `lhs / rhs`.
    static func _quotient(_ lhs: Self, _ rhs: Self) -> Self
}

/// A value that a number variable holds: a ``_VarNumber`` or an optional one.
///
/// An implementation detail of the number conveniences of ``Var``. Don't conform other types.
public protocol _VarNumberValue: _NumericOperand, Equatable {
    /// The value that holds `number`.
    ///
    /// - Parameter number: The number.
    /// - Returns: `number` itself, or wrapped in an optional.
    static func _holding(_ number: _Number) -> Self
}

/// An operand of the number operators of ``Var``: a number, a variable that holds one, or an
/// optional of either. `nil` counts as zero.
///
/// An implementation detail of the number conveniences of ``Var``. Don't conform other types.
public protocol _NumericOperand {
    /// The number type of the operand.
    associatedtype _Number: _VarNumber

    /// The operand's number: its value, with `nil` read as zero.
    var _numericValue: _Number { get }
}

extension _VarNumber {
    /// The number itself.
    public var _numericValue: Self { self }

    /// The number itself.
    ///
    /// - Parameter number: The number.
    /// - Returns: `number`.
    public static func _holding(_ number: Self) -> Self { number }
}

extension Int: _VarNumber {
    /// The number itself.
    public var _int: Int { self }

    /// The number as a `Float`.
    public var _float: Float { Float(self) }

    /// The number as a `Double`.
    public var _double: Double { Double(self) }

    /// Returns `value`.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: `value`.
    public static func _converting(_ value: Int) -> Int { value }

    /// Converts a `Float`, rounding toward zero; traps if it is not finite or out of range.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: `Int(value)`.
    public static func _converting(_ value: Float) -> Int { Int(value) }

    /// Converts a `Double`, rounding toward zero; traps if it is not finite or out of range.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: `Int(value)`.
    public static func _converting(_ value: Double) -> Int { Int(value) }

    /// Divides, rounding toward zero; traps if `rhs` is zero, or on overflow.
    ///
    /// - Parameters:
    ///   - lhs: The dividend.
    ///   - rhs: The divisor.
    /// - Returns: `lhs / rhs`.
    public static func _quotient(_ lhs: Int, _ rhs: Int) -> Int { lhs / rhs }
}

extension Float: _VarNumber {
    /// The number as an `Int`; traps if it is not finite or out of range.
    public var _int: Int { Int(self) }

    /// The number itself.
    public var _float: Float { self }

    /// The number as a `Double`.
    public var _double: Double { Double(self) }

    /// Converts an `Int`, rounding to the nearest `Float`.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: `Float(value)`.
    public static func _converting(_ value: Int) -> Float { Float(value) }

    /// Returns `value`.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: `value`.
    public static func _converting(_ value: Float) -> Float { value }

    /// Converts a `Double`, rounding to the nearest `Float`.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: `Float(value)`.
    public static func _converting(_ value: Double) -> Float { Float(value) }

    /// Divides; dividing by zero gives an infinity or NaN.
    ///
    /// - Parameters:
    ///   - lhs: The dividend.
    ///   - rhs: The divisor.
    /// - Returns: `lhs / rhs`.
    public static func _quotient(_ lhs: Float, _ rhs: Float) -> Float { lhs / rhs }
}

extension Double: _VarNumber {
    /// The number as an `Int`; traps if it is not finite or out of range.
    public var _int: Int { Int(self) }

    /// The number as a `Float`.
    public var _float: Float { Float(self) }

    /// The number itself.
    public var _double: Double { self }

    /// Converts an `Int`, rounding to the nearest `Double`.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: `Double(value)`.
    public static func _converting(_ value: Int) -> Double { Double(value) }

    /// Converts a `Float`.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: `Double(value)`.
    public static func _converting(_ value: Float) -> Double { Double(value) }

    /// Returns `value`.
    ///
    /// - Parameter value: The value to convert.
    /// - Returns: `value`.
    public static func _converting(_ value: Double) -> Double { value }

    /// Divides; dividing by zero gives an infinity or NaN.
    ///
    /// - Parameters:
    ///   - lhs: The dividend.
    ///   - rhs: The divisor.
    /// - Returns: `lhs / rhs`.
    public static func _quotient(_ lhs: Double, _ rhs: Double) -> Double { lhs / rhs }
}

extension Optional: _NumericOperand where Wrapped: _NumericOperand {
    /// The wrapped operand's number, or zero for `nil`.
    public var _numericValue: Wrapped._Number {
        switch self {
        case .some(let wrapped): wrapped._numericValue
        case .none: .zero
        }
    }
}

extension Optional: _VarNumberValue where Wrapped: _VarNumber {
    /// `number`, wrapped.
    ///
    /// - Parameter number: The number.
    /// - Returns: `.some(number)`.
    public static func _holding(_ number: Wrapped) -> Wrapped? { number }
}

extension Var: _NumericOperand where Value: _NumericOperand {
    /// The variable's value as a number, with `nil` read as zero.
    public var _numericValue: Value._Number { value._numericValue }
}

/// An operand of the number operators that is a variable: a number variable or an optional one.
///
/// Every number operator of ``Var`` takes at least one such operand. An implementation detail;
/// don't conform other types.
public protocol _NumericVariableOperand: _NumericOperand {}

extension Var: _NumericVariableOperand where Value: _NumericOperand {}

extension Optional: _NumericVariableOperand where Wrapped: _NumericVariableOperand {}

// MARK: - Number Properties

/// A variable that holds a number or an optional number: a `Var<Number>` or `Var<Number?>`, for
/// `Number` in `Int`, `Float` and `Double`.
///
/// It exists so that optional variables (`Var<Number>?`, `Var<Number?>?`) have the number
/// properties too. Don't conform other types.
public protocol _NumberVariable: AnyObject {
    /// The value as an `Int`; see ``Var/int``.
    var int: Int { get set }

    /// The value as a `Float`; see ``Var/float``.
    var float: Float { get set }

    /// The value as a `Double`; see ``Var/double``.
    var double: Double { get set }
}

extension Var: _NumberVariable where Value: _VarNumberValue {
    /// The value as an `Int`, with `nil` read as zero. Setting it sets ``value``, like `value =`.
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
        get { value._numericValue._int }
        set { value = Value._holding(Value._Number._converting(newValue)) }
    }

    /// The value as a `Float`, with `nil` read as zero. Setting it sets ``value``, like `value =`.
    ///
    /// Conversions are those of Swift's number initializers; see ``int``.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var float: Float {
        get { value._numericValue._float }
        set { value = Value._holding(Value._Number._converting(newValue)) }
    }

    /// The value as a `Double`, with `nil` read as zero. Setting it sets ``value``, like `value =`.
    ///
    /// Conversions are those of Swift's number initializers; see ``int``.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var double: Double {
        get { value._numericValue._double }
        set { value = Value._holding(Value._Number._converting(newValue)) }
    }
}

extension Optional where Wrapped: _NumberVariable {
    /// The variable's value as an `Int`, with a `nil` variable or value read as zero.
    ///
    /// Setting it sets the variable's value (see ``Var/int``); on a `nil` variable it does
    /// nothing.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var int: Int {
        get { self?.int ?? 0 }
        nonmutating set { self?.int = newValue }
    }

    /// The variable's value as a `Float`, with a `nil` variable or value read as zero.
    ///
    /// Setting it sets the variable's value (see ``Var/float``); on a `nil` variable it does
    /// nothing.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var float: Float {
        get { self?.float ?? 0 }
        nonmutating set { self?.float = newValue }
    }

    /// The variable's value as a `Double`, with a `nil` variable or value read as zero.
    ///
    /// Setting it sets the variable's value (see ``Var/double``); on a `nil` variable it does
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
public func + <L: _NumericVariableOperand, R: _NumericOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    lhs._numericValue + rhs._numericValue
}

/// Adds any operand and a variable operand; see the overload with the variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The sum of the operands' numbers.
public func + <L: _NumericOperand, R: _NumericVariableOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    lhs._numericValue + rhs._numericValue
}

/// Adds two variable operands; see the overload with one variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The sum of the operands' numbers.
public func + <L: _NumericVariableOperand, R: _NumericVariableOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    lhs._numericValue + rhs._numericValue
}

/// Adds a variable operand and a plain number of its number type: `Var<Float>(1) + 2`.
///
/// Lets a literal on the right take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The sum of the operands' numbers.
public func + <Operand: _NumericVariableOperand>(lhs: Operand, rhs: Operand._Number) -> Operand._Number {
    lhs._numericValue + rhs
}

/// Adds a plain number and a variable operand of the same number type: `2 + Var<Float>(1)`.
///
/// Lets a literal on the left take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The sum of the operands' numbers.
public func + <Operand: _NumericVariableOperand>(lhs: Operand._Number, rhs: Operand) -> Operand._Number {
    lhs + rhs._numericValue
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
public func - <L: _NumericVariableOperand, R: _NumericOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    lhs._numericValue - rhs._numericValue
}

/// Subtracts any operand and a variable operand; see the overload with the variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The operand to subtract.
/// - Returns: The difference of the operands' numbers.
public func - <L: _NumericOperand, R: _NumericVariableOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    lhs._numericValue - rhs._numericValue
}

/// Subtracts two variable operands; see the overload with one variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The operand to subtract.
/// - Returns: The difference of the operands' numbers.
public func - <L: _NumericVariableOperand, R: _NumericVariableOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    lhs._numericValue - rhs._numericValue
}

/// Subtracts a variable operand and a plain number of its number type: `Var<Float>(1) - 2`.
///
/// Lets a literal on the right take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The operand to subtract.
/// - Returns: The difference of the operands' numbers.
public func - <Operand: _NumericVariableOperand>(lhs: Operand, rhs: Operand._Number) -> Operand._Number {
    lhs._numericValue - rhs
}

/// Subtracts a plain number and a variable operand of the same number type: `2 - Var<Float>(1)`.
///
/// Lets a literal on the left take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The operand to subtract.
/// - Returns: The difference of the operands' numbers.
public func - <Operand: _NumericVariableOperand>(lhs: Operand._Number, rhs: Operand) -> Operand._Number {
    lhs - rhs._numericValue
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
public func * <L: _NumericVariableOperand, R: _NumericOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    lhs._numericValue * rhs._numericValue
}

/// Multiplies any operand and a variable operand; see the overload with the variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The product of the operands' numbers.
public func * <L: _NumericOperand, R: _NumericVariableOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    lhs._numericValue * rhs._numericValue
}

/// Multiplies two variable operands; see the overload with one variable on the left.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The product of the operands' numbers.
public func * <L: _NumericVariableOperand, R: _NumericVariableOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    lhs._numericValue * rhs._numericValue
}

/// Multiplies a variable operand and a plain number of its number type: `Var<Float>(1) * 2`.
///
/// Lets a literal on the right take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The product of the operands' numbers.
public func * <Operand: _NumericVariableOperand>(lhs: Operand, rhs: Operand._Number) -> Operand._Number {
    lhs._numericValue * rhs
}

/// Multiplies a plain number and a variable operand of the same number type: `2 * Var<Float>(1)`.
///
/// Lets a literal on the left take the variable's number type.
///
/// - Parameters:
///   - lhs: The first operand.
///   - rhs: The second operand.
/// - Returns: The product of the operands' numbers.
public func * <Operand: _NumericVariableOperand>(lhs: Operand._Number, rhs: Operand) -> Operand._Number {
    lhs * rhs._numericValue
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
public func / <L: _NumericVariableOperand, R: _NumericOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    L._Number._quotient(lhs._numericValue, rhs._numericValue)
}

/// Divides any operand and a variable operand; see the overload with the variable on the left.
///
/// - Parameters:
///   - lhs: The dividend.
///   - rhs: The divisor.
/// - Returns: The quotient of the operands' numbers.
public func / <L: _NumericOperand, R: _NumericVariableOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    L._Number._quotient(lhs._numericValue, rhs._numericValue)
}

/// Divides two variable operands; see the overload with one variable on the left.
///
/// - Parameters:
///   - lhs: The dividend.
///   - rhs: The divisor.
/// - Returns: The quotient of the operands' numbers.
public func / <L: _NumericVariableOperand, R: _NumericVariableOperand>(lhs: L, rhs: R) -> L._Number
where L._Number == R._Number {
    L._Number._quotient(lhs._numericValue, rhs._numericValue)
}

/// Divides a variable operand and a plain number of its number type: `Var<Float>(1) / 2`.
///
/// Lets a literal on the right take the variable's number type.
///
/// - Parameters:
///   - lhs: The dividend.
///   - rhs: The divisor.
/// - Returns: The quotient of the operands' numbers.
public func / <Operand: _NumericVariableOperand>(lhs: Operand, rhs: Operand._Number) -> Operand._Number {
    Operand._Number._quotient(lhs._numericValue, rhs)
}

/// Divides a plain number and a variable operand of the same number type: `2 / Var<Float>(1)`.
///
/// Lets a literal on the left take the variable's number type.
///
/// - Parameters:
///   - lhs: The dividend.
///   - rhs: The divisor.
/// - Returns: The quotient of the operands' numbers.
public func / <Operand: _NumericVariableOperand>(lhs: Operand._Number, rhs: Operand) -> Operand._Number {
    Operand._Number._quotient(lhs, rhs._numericValue)
}

// MARK: - Compound Assignment
//
// Each goes through `_modify`, so `count += 1` is one atomic step: increments from several threads
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
    /// zero sends nothing. Overflow traps, as `+=` on the numbers does.
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - amount: The number to add.
    /// - Complexity: O(*n*) for *n* observers.
    public static func += (variable: Var, amount: Value) {
        variable._modify(isolation: nil) { $0 += amount }
    }

    /// Subtracts `amount` from the value in one atomic step; see ``+=(_:_:)-(_,Value)``.
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - amount: The number to subtract.
    /// - Complexity: O(*n*) for *n* observers.
    public static func -= (variable: Var, amount: Value) {
        variable._modify(isolation: nil) { $0 -= amount }
    }

    /// Multiplies the value by `factor` in one atomic step; see ``+=(_:_:)-(_,Value)``.
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - factor: The number to multiply by.
    /// - Complexity: O(*n*) for *n* observers.
    public static func *= (variable: Var, factor: Value) {
        variable._modify(isolation: nil) { $0 *= factor }
    }
}

extension Var where Value: BinaryInteger {
    /// Divides the value by `divisor` in one atomic step, rounding toward zero; see ``+=(_:_:)-(_,Value)``.
    ///
    /// Dividing by zero traps, as `/=` on integers does.
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - divisor: The number to divide by.
    /// - Complexity: O(*n*) for *n* observers.
    public static func /= (variable: Var, divisor: Value) {
        variable._modify(isolation: nil) { $0 /= divisor }
    }
}

extension Var where Value: FloatingPoint {
    /// Divides the value by `divisor` in one atomic step; see ``+=(_:_:)-(_,Value)``.
    ///
    /// Dividing by zero gives an infinity, or NaN for zero divided by zero.
    ///
    /// - Parameters:
    ///   - variable: The variable to change.
    ///   - divisor: The number to divide by.
    /// - Complexity: O(*n*) for *n* observers.
    public static func /= (variable: Var, divisor: Value) {
        variable._modify(isolation: nil) { $0 /= divisor }
    }
}
