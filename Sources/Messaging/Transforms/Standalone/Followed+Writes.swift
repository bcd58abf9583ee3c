extension Followed {
    /// Writes `value` to the current inner variable, the one the origin's current value leads to.
    ///
    /// ```swift
    /// let projectName = currentProject.follow(\.name)
    /// projectName.set("Launch", as: editor)   // currentProject.value.name.value is now "Launch"
    /// ```
    ///
    /// This is the two-way side of a relationship that leads to variables (GlueKit's "updatable"
    /// mapping); read the current value as `latestMessage.new`. The inner variable is read from the
    /// origin at the time of the call, whether or not the follower is observed. The write is the variable's own: it sends its update (nothing if the
    /// value is equal), which the follower forwards like any other, with `author`.
    ///
    /// - Parameters:
    ///   - value: The new value of the current inner variable.
    ///   - author: The author of the update; `nil`: the follower.
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `set` returns.
    /// - Returns: `true` if there was an inner variable to write; `false` if the origin's value
    ///   leads to none (an optional relationship), and nothing was written.
    /// - Complexity: Reading the origin's latest message and the selection, then the variable's
    ///   set: O(*n*) for its *n* observers.
    @discardableResult
    public func set<Value>(
        _ value: Value,
        as author: AnyObject? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> Bool where Inner == Var<Value> {
        guard let inner else { return false }
        inner.set(value, as: author ?? self, isolation: isolation)
        return true
    }
}
