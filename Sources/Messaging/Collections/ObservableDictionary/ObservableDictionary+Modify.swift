extension ObservableDictionary {
    /// Changes the entries in place in one atomic step, and sends one change with only what
    /// differs between the old and new entries; nothing if they are equal.
    ///
    /// ```swift
    /// scores.modify { $0 = $0.filter { $0.value > 0 } }  // sends the removals only
    /// ```
    ///
    /// `body` runs on a copy of the entries, and the difference is worked out, outside the
    /// dictionary's lock. The copy replaces the entries only if no other edit came meanwhile;
    /// otherwise `body` runs again on the newer entries. So `body` may run more than once, and must
    /// not do anything but compute the new entries (and its result) from the ones it is given.
    ///
    /// If `body` throws, the entries stay as they were, nothing is sent, and `modify` throws the
    /// error.
    ///
    /// - Parameters:
    ///   - body: Changes the entries it is given; may return a result.
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `modify` returns.
    /// - Returns: What `body` returns, from its last run.
    /// - Throws: What `body` throws, with the entries unchanged.
    /// - Complexity: O(*count*) for the copy, plus the cost of `body` (once for each retry), plus
    ///   the difference of the old and new entries (O(*count*)), plus O(*n*) for *n* observers.
    @discardableResult
    public func modify<Result, Failure: Error>(
        _ body: (inout [Key: Value]) throws(Failure) -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) throws(Failure) -> Result {
        try _edit(isolation: isolation, keepsSpare: false) { entries throws(Failure) in
            let old = entries
            let result = try body(&entries)
            return (DictionaryChange(from: old, to: entries), result)
        }
    }
}
