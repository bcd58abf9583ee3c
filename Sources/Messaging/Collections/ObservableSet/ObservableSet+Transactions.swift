extension ObservableSet {
    /// Runs `body` as a transaction: the edits made meanwhile reach observers as one merged
    /// change, sent when the outermost transaction ends.
    ///
    /// ```swift
    /// tags.withTransaction {
    ///     tags.remove("red")
    ///     tags.insert("blue")
    /// }                         // observers receive one change with both edits
    /// ```
    ///
    /// Transactions nest: an inner transaction's edits join the outer one. If the edits cancel
    /// out (a member inserted and removed again), nothing is sent. A member removed and inserted
    /// again is sent as a replacement. The transaction ends even if `body` throws, and its edits
    /// are sent then: edits are never undone.
    ///
    /// A transaction belongs to the set, not to the calling thread: while any transaction is
    /// open, edits from every thread join it, in the order they are made, and their merged change
    /// is sent when the last open transaction ends; the edits made while the thread that ended it
    /// merges their changes join it too. Reading ``value`` during a transaction shows
    /// the edits made so far. Handlers run after the transaction has ended, so an edit made from
    /// a handler is a new change.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `withTransaction` returns.
    ///   - body: The edits to group.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, after the transaction has ended.
    /// - Complexity: The cost of `body`, in which each edit only adds its change to the
    ///   transaction's list, plus, at the end, merging the changes (O(*k*) on average for *k*
    ///   members in them all) and one send.
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
