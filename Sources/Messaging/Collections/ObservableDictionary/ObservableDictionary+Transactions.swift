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
    /// is open, edits from every thread join it. Handlers run after the transaction has ended, so
    /// an edit made from a handler is a new change.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `withTransaction` returns.
    ///   - body: The edits to group.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, after the transaction has ended.
    /// - Complexity: The cost of `body`, in which each edit also merges its change into the
    ///   transaction's, plus one send at the end.
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
        // The change leaves the lock in `taken`, so that no entry it holds is released under it.
        var taken = DictionaryChange<Key, Value>()
        var tracking: _VarTracking?
        messenger._core.sendChange(
            author: self,
            checksChange: true,
            isolation: isolation,
            isUnchanged: { $0.isEmpty },
            standIn: messenger,
            {
                self._transactionDepth -= 1
                guard self._transactionDepth == 0 else { return DictionaryChange() }
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
