import Messaging

// SwiftObserver compared variables by value. Messaging's `Var` is a reference type with no
// equality of its own (two variables holding equal values are still two variables); this module
// gives it SwiftObserver's.

extension Var: Equatable {
    /// Whether both variables hold equal values.
    ///
    /// Each variable's value is read in a separate step: a change in between is not seen.
    ///
    /// - Parameters:
    ///   - lhs: A variable.
    ///   - rhs: Another variable.
    /// - Returns: `lhs.value == rhs.value`.
    public static func == (lhs: Var, rhs: Var) -> Bool { lhs.value == rhs.value }
}

extension Var: Comparable where Value: Comparable {
    /// Whether the first variable's value is less than the second's.
    ///
    /// Each variable's value is read in a separate step: a change in between is not seen.
    ///
    /// - Parameters:
    ///   - lhs: A variable.
    ///   - rhs: Another variable.
    /// - Returns: `lhs.value < rhs.value`.
    public static func < (lhs: Var, rhs: Var) -> Bool { lhs.value < rhs.value }
}
