extension ObservableArray {
    /// Runs `body` as a transaction: the edits made meanwhile reach observers as one merged
    /// change, sent when the outermost transaction ends.
    ///
    /// ```swift
    /// list.withTransaction {
    ///     list.remove(at: 0)
    ///     list.append("last")
    /// }                         // observers receive one change with both edits
    /// ```
    ///
    /// Transactions nest: an inner transaction's edits join the outer one. If the edits cancel
    /// out (an element inserted and removed again), nothing is sent. The transaction ends even if
    /// `body` throws, and its edits are sent then: edits are never undone.
    ///
    /// A transaction belongs to the array, not to the calling thread: while any transaction is
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
    /// - Complexity: The cost of `body`, plus, at the end, merging the *k* changes made during the
    ///   transaction (O(*k* × the size of the changes) at worst) and one send.
    @inlinable
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
    ///
    /// Inlinable, so that the merge runs specialized for the element type in the client's code:
    /// unspecialized, it looked up generic metadata for every change it merged (about 4,000
    /// instructions per edit of a transaction).
    @inlinable
    func _endTransaction(isolation: (any Actor)?) {
        // The changes leave the lock in `taken`, so that no element they hold is released under it.
        var taken: [ArrayChange<Element>] = []
        var tracking: _VarTracking?
        defer { tracking?._changed() }
        messenger._core.sendChange(
            author: self,
            checksChange: true,
            isolation: isolation,
            isUnchanged: { $0.isEmpty },
            standIn: messenger,
            {
                self._transactionDepth -= 1
                guard self._transactionDepth == 0, !self._pending.isEmpty else {
                    return ArrayChange(countBefore: self._storage.count)
                }
                swap(&taken, &self._pending)
                var merged = taken[0]
                for change in taken.dropFirst() { merged.merge(with: change) }
                if !merged.isEmpty { tracking = self._tracking }
                return merged
            }
        )
        _ = consume taken
    }
}
