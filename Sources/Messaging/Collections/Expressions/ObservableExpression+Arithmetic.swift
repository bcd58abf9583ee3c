// The arithmetic of observable expressions, as methods rather than operators: an operator
// declared here, even one that needs an expression operand, is read and ruled out by the type
// checker in every arithmetic expression of every file that imports the module
// (`Benchmarks/TypeCheck`: 16 operators added a tenth to the instructions of type-checking 200
// expressions on plain `Int`s). Methods are looked up only on an expression.

extension ObservableExpression where Value: AdditiveArithmetic {
    /// The sum of this expression and `other`, each source observed once.
    ///
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public func adding(_ other: ObservableExpression) -> ObservableExpression {
        combined(with: other) { $0 + $1 }
    }

    /// The sum of this expression and a value.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public func adding(_ value: Value) -> ObservableExpression {
        map { $0 + value }
    }

    /// The difference of this expression and `other`, each source observed once:
    /// `a.subtracting(a)` is always zero.
    ///
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public func subtracting(_ other: ObservableExpression) -> ObservableExpression {
        combined(with: other) { $0 - $1 }
    }

    /// The difference of this expression and a value.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public func subtracting(_ value: Value) -> ObservableExpression {
        map { $0 - value }
    }
}

extension ObservableExpression where Value: Numeric {
    /// The product of this expression and `other`, each source observed once.
    ///
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public func multiplied(by other: ObservableExpression) -> ObservableExpression {
        combined(with: other) { $0 * $1 }
    }

    /// The product of this expression and a value.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public func multiplied(by value: Value) -> ObservableExpression {
        map { $0 * value }
    }
}

extension ObservableExpression where Value: SignedNumeric {
    /// The negation of this expression.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public func negated() -> ObservableExpression {
        map { -$0 }
    }
}

extension ObservableExpression where Value: BinaryInteger {
    /// The quotient of this integer expression and `divisor`, each source observed once, rounded
    /// toward zero.
    ///
    /// Like `Int`'s `/`, it traps when the divisor is zero: on the thread that delivers the change
    /// that made it zero, or that reads ``value``. Where the divisor can be zero, use
    /// ``divided(by:ifZero:)``.
    ///
    /// - Precondition: The divisor's value is never zero while the quotient is observed or read.
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public func divided(by divisor: ObservableExpression) -> ObservableExpression {
        combined(with: divisor) { dividend, divisor in
            precondition(divisor != 0, "ObservableExpression: division by zero")
            return dividend / divisor
        }
    }

    /// The quotient of this expression and a value, rounded toward zero.
    ///
    /// - Precondition: `divisor` is not zero.
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public func divided(by divisor: Value) -> ObservableExpression {
        precondition(divisor != 0, "ObservableExpression: division by zero")
        return map { $0 / divisor }
    }

    /// The quotient of this expression and `divisor`, rounded toward zero, or `ifZero` while the
    /// divisor is zero: a division that never traps.
    ///
    /// ```swift
    /// let percentUsed = used.multiplied(by: 100).divided(by: used.adding(free), ifZero: 0)
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
    /// The quotient of this floating-point expression and `divisor`, each source observed once;
    /// as with `Double`, a zero divisor gives an infinity or NaN.
    ///
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public func divided(by divisor: ObservableExpression) -> ObservableExpression {
        combined(with: divisor) { $0 / $1 }
    }

    /// The quotient of this expression and a value.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public func divided(by divisor: Value) -> ObservableExpression {
        map { $0 / divisor }
    }
}
