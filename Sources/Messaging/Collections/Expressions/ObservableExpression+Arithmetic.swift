// The operators of observable expressions. Each takes at least one `ObservableExpression`, so none
// of them is a candidate for an expression of plain numbers: the type checker rules them out by
// their operand types.

extension ObservableExpression where Value: AdditiveArithmetic {
    /// The sum of two expressions, each source observed once.
    ///
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public static func + (lhs: ObservableExpression, rhs: ObservableExpression) -> ObservableExpression {
        lhs.combined(with: rhs) { $0 + $1 }
    }

    /// The sum of an expression and a value.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func + (lhs: ObservableExpression, rhs: Value) -> ObservableExpression {
        lhs.map { $0 + rhs }
    }

    /// The sum of a value and an expression.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func + (lhs: Value, rhs: ObservableExpression) -> ObservableExpression {
        rhs.map { lhs + $0 }
    }

    /// The difference of two expressions, each source observed once: `a - a` is always zero.
    ///
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public static func - (lhs: ObservableExpression, rhs: ObservableExpression) -> ObservableExpression {
        lhs.combined(with: rhs) { $0 - $1 }
    }

    /// The difference of an expression and a value.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func - (lhs: ObservableExpression, rhs: Value) -> ObservableExpression {
        lhs.map { $0 - rhs }
    }

    /// The difference of a value and an expression.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func - (lhs: Value, rhs: ObservableExpression) -> ObservableExpression {
        rhs.map { lhs - $0 }
    }
}

extension ObservableExpression where Value: Numeric {
    /// The product of two expressions, each source observed once.
    ///
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public static func * (lhs: ObservableExpression, rhs: ObservableExpression) -> ObservableExpression {
        lhs.combined(with: rhs) { $0 * $1 }
    }

    /// The product of an expression and a value.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func * (lhs: ObservableExpression, rhs: Value) -> ObservableExpression {
        lhs.map { $0 * rhs }
    }

    /// The product of a value and an expression.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func * (lhs: Value, rhs: ObservableExpression) -> ObservableExpression {
        rhs.map { lhs * $0 }
    }
}

extension ObservableExpression where Value: SignedNumeric {
    /// The negation of an expression.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static prefix func - (operand: ObservableExpression) -> ObservableExpression {
        operand.map { -$0 }
    }
}

extension ObservableExpression where Value: BinaryInteger {
    /// The quotient of two integer expressions, each source observed once, rounded toward zero.
    ///
    /// Like `Int`'s `/`, it traps when the divisor is zero: on the thread that delivers the change
    /// that made it zero, or that reads ``value``. Where the divisor can be zero, use
    /// ``divided(by:ifZero:)``.
    ///
    /// - Precondition: The divisor's value is never zero while the quotient is observed or read.
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public static func / (lhs: ObservableExpression, rhs: ObservableExpression) -> ObservableExpression {
        lhs.combined(with: rhs) { dividend, divisor in
            precondition(divisor != 0, "ObservableExpression: division by zero")
            return dividend / divisor
        }
    }

    /// The quotient of an expression and a value, rounded toward zero.
    ///
    /// - Precondition: `rhs` is not zero.
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func / (lhs: ObservableExpression, rhs: Value) -> ObservableExpression {
        precondition(rhs != 0, "ObservableExpression: division by zero")
        return lhs.map { $0 / rhs }
    }

    /// The quotient of a value and an expression, rounded toward zero.
    ///
    /// - Precondition: The divisor's value is never zero while the quotient is observed or read;
    ///   see ``/(_:_:)-(ObservableExpression<Value>,ObservableExpression<Value>)``.
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func / (lhs: Value, rhs: ObservableExpression) -> ObservableExpression {
        rhs.map { divisor in
            precondition(divisor != 0, "ObservableExpression: division by zero")
            return lhs / divisor
        }
    }

    /// The quotient of this expression and `divisor`, rounded toward zero, or `ifZero` while the
    /// divisor is zero: a division that never traps.
    ///
    /// ```swift
    /// let percentOpen = (open * 100).divided(by: all, ifZero: 0)
    /// ```
    ///
    /// - Parameters:
    ///   - divisor: The divisor.
    ///   - ifZero: The value while `divisor` is zero.
    /// - Returns: The quotient, each source observed once.
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public func divided(by divisor: ObservableExpression, ifZero: Value) -> ObservableExpression {
        combined(with: divisor) { dividend, divisor in divisor == 0 ? ifZero : dividend / divisor }
    }
}

extension ObservableExpression where Value: FloatingPoint {
    /// The quotient of two floating-point expressions, each source observed once; as with
    /// `Double`, a zero divisor gives an infinity or NaN.
    ///
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public static func / (lhs: ObservableExpression, rhs: ObservableExpression) -> ObservableExpression {
        lhs.combined(with: rhs) { $0 / $1 }
    }

    /// The quotient of an expression and a value.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func / (lhs: ObservableExpression, rhs: Value) -> ObservableExpression {
        lhs.map { $0 / rhs }
    }

    /// The quotient of a value and an expression.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public static func / (lhs: Value, rhs: ObservableExpression) -> ObservableExpression {
        rhs.map { lhs / $0 }
    }
}
