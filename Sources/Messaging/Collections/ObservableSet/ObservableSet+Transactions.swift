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
    /// is sent when the last open transaction ends. Reading ``value`` during a transaction shows
    /// the edits made so far. Handlers run after the transaction has ended, so an edit made from
    /// a handler is a new change.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `withTransaction` returns.
    ///   - body: The edits to group.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, after the transaction has ended.
    /// - Complexity: The cost of `body`, in which each edit also merges its change into the
    ///   transaction's (O(*k*) on average for a change of *k* members, plus a copy of the merged
    ///   change so far), plus one send at the end.
    @discardableResult
    public func withTransaction<Result, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        messenger._core.withLock { _transactionDepth += 1 }
        defer { _endTransaction(isolation: isolation) }
        return try body()
    }

    /// Closes one transaction; the last one out sends the merged change.
    func _endTransaction(isolation: (any Actor)?) {
        // The change leaves the lock in `taken`, so that no member it holds is released under it.
        var taken = SetChange<Element>()
        var tracking: _VarTracking?
        messenger._core.sendChange(
            author: self,
            checksChange: true,
            isolation: isolation,
            isUnchanged: { $0.isEmpty },
            standIn: messenger,
            {
                self._transactionDepth -= 1
                guard self._transactionDepth == 0 else { return SetChange() }
                swap(&taken, &self._pending)
                // An edit that merged into the change just taken must start again.
                self._version &+= 1
                if !taken.isEmpty { tracking = self._tracking }
                return taken
            }
        )
        tracking?._changed()
        _ = consume taken
    }
}
