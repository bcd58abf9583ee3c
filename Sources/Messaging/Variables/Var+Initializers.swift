// Parameterless initializers for the values that have an obvious empty state. Each constraint
// excludes the others for every standard type, so `Var<T>()` is never ambiguous: `Optional` is the
// only standard type that is `ExpressibleByNilLiteral`, and no standard type is both a
// `RangeReplaceableCollection` and `AdditiveArithmetic`.

extension Var where Value: ExpressibleByNilLiteral {
    /// Creates a variable holding `nil`.
    ///
    /// ```swift
    /// let text = Var<String?>()  // text.value == nil
    /// ```
    ///
    /// Creating a variable sends nothing.
    public convenience init() {
        self.init(nil)
    }
}

extension Var where Value: RangeReplaceableCollection {
    /// Creates a variable holding an empty collection, such as `""` or `[]`.
    ///
    /// ```swift
    /// let text = Var<String>()  // text.value == ""
    /// ```
    ///
    /// Creating a variable sends nothing.
    public convenience init() {
        self.init(Value())
    }
}

extension Var where Value: AdditiveArithmetic {
    /// Creates a variable holding zero.
    ///
    /// ```swift
    /// let count = Var<Int>()  // count.value == 0
    /// ```
    ///
    /// Creating a variable sends nothing.
    public convenience init() {
        self.init(Value.zero)
    }
}
