extension ObservableSet {
    /// Changes the contents in place in one atomic step, and sends one change with only what
    /// differs between the old and new contents; nothing if they are equal.
    ///
    /// ```swift
    /// tags.modify { $0 = $0.filter { !$0.isEmpty } }  // sends the removals only
    /// ```
    ///
    /// `body` runs on a copy of the contents, and the difference is worked out, outside the set's
    /// lock. The copy replaces the contents only if no other edit came meanwhile; otherwise `body`
    /// runs again on the newer contents. So `body` may run more than once, and must not do
    /// anything but compute the new contents (and its result) from the ones it is given.
    ///
    /// A member that `body` replaces with a different instance equal to it is in the new contents
    /// but not in the change: only members that come or go are part of it. Use
    /// ``update(with:isolation:)`` to send a replacement.
    ///
    /// If `body` throws, the contents stay as they were, nothing is sent, and `modify` throws the
    /// error.
    ///
    /// - Parameters:
    ///   - body: Changes the contents it is given; may return a result.
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `modify` returns.
    /// - Returns: What `body` returns, from its last run.
    /// - Throws: What `body` throws, with the contents unchanged.
    /// - Complexity: O(*count*) for the copy, plus the cost of `body` (once for each retry), plus
    ///   the difference of the old and new contents (O(*count*)), plus O(*n*) for *n* observers.
    @discardableResult
    public func modify<Result, Failure: Error>(
        _ body: (inout Set<Element>) throws(Failure) -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) throws(Failure) -> Result {
        try _edit(isolation: isolation, keepsSpare: false) { contents throws(Failure) in
            let old = contents
            let result = try body(&contents)
            return (SetChange(from: old, to: contents), result)
        }
    }
}
