import Messaging

// SwiftObserver's assignment operator. It lives here, not in Messaging, because an operator
// declaration is global: every module that imports one declaring `<-` with another precedence
// group would find its own uses ambiguous.

/// Sets a variable's value: `number <- 42` is `number.value = 42`.
infix operator <- : AssignmentPrecedence

extension Var {
    /// Sets the variable's value: `number <- 42` is `number.value = 42`.
    ///
    /// Like `value =`, it sends `Update(old, new)` if the value changed, authored by the variable.
    ///
    /// - Parameters:
    ///   - variable: The variable to set.
    ///   - value: The new value.
    /// - Complexity: O(*n*) for *n* observers.
    public static func <- (variable: Var, value: Value) {
        variable.value = value
    }
}
