extension ObservableDictionary {
    /// Runs `body` as a transaction: the edits made meanwhile reach observers as one merged
    /// change, sent when the outermost transaction ends.
    ///
    /// ```swift
    /// scores.withTransaction {
    ///     scores["ann"] = nil
    ///     scores["bob"] = 2
    /// }                         // observers receive one change with both edits
    /// ```
    ///
    /// Transactions nest: an inner transaction's edits join the outer one. If the edits cancel
    /// out (an entry inserted and removed again), nothing is sent. The transaction ends even if
    /// `body` throws, and its edits are sent then: edits are never undone. While any transaction
    /// is open, edits from every thread join it, and so do those made while the thread that ended
    /// the last one merges their changes. Handlers run after the transaction has ended, so an edit
    /// made from a handler is a new change.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `withTransaction` returns.
    ///   - body: The edits to group.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, after the transaction has ended.
    /// - Complexity: The cost of `body`, in which each edit only adds its change to the
    ///   transaction's list, plus, at the end, merging the changes (O(*k*) on average for *k* keys
    ///   in them all) and one send.
    @discardableResult
    public func withTransaction<Result, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        _beginTransaction()
        defer { _endTransaction(isolation: isolation) }
        return try body()
    }
}
