extension Var: ObservableCache {
    /// The current value as an update whose `old` and `new` are equal: what ``send(isolation:)``
    /// sends.
    ///
    /// - Complexity: O(1).
    public var latestMessage: Update<Value> {
        let value = value
        return Update(value, value)
    }
}
