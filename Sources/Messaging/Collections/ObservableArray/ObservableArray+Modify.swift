extension ObservableArray {
    /// Changes the contents in place in one atomic step, and sends one change that describes the
    /// whole edit: the slice from the first to the last changed element, replaced.
    ///
    /// ```swift
    /// let sorted = list.modify { $0.sort() }
    /// ```
    ///
    /// `body` runs on a copy of the contents, outside the array's lock, so it may be as long as it
    /// needs. The copy replaces the contents only if no other edit came meanwhile; otherwise
    /// `body` runs again on the newer contents. So `body` may run more than once, and must not do
    /// anything but compute the new contents (and its result) from the ones it is given.
    ///
    /// Without `Equatable` elements, the change replaces all the old elements with all the new
    /// ones; for `Equatable` elements, the overload of `modify` that compares them sends only
    /// what differs. If the contents stay empty, nothing is sent.
    ///
    /// If `body` throws, the contents stay as they were, nothing is sent, and `modify` throws the
    /// error.
    ///
    /// - Parameters:
    ///   - body: Changes the contents it is given; may return a result.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Returns: What `body` returns, from its last run.
    /// - Throws: What `body` throws, with the contents unchanged.
    /// - Complexity: O(*count*) for the copy, plus the cost of `body` (once for each retry), plus
    ///   O(*n*) for *n* observers.
    @discardableResult
    public func modify<Result, Failure: Error>(
        _ body: (inout [Element]) throws(Failure) -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) throws(Failure) -> Result {
        try _modify(isolation: isolation, body) { old, new in
            ArrayChange(replacingSubrange: 0..<old.count, with: new, in: old)
        }
    }

    /// Runs `body` on a copy, describes the edit with `describe`, both outside the lock, and
    /// commits the new contents and the change in one atomic step if no edit came meanwhile;
    /// otherwise starts again.
    func _modify<Result, Failure: Error>(
        isolation: (any Actor)?,
        _ body: (inout [Element]) throws(Failure) -> Result,
        describe: ([Element], [Element]) -> ArrayChange<Element>
    ) throws(Failure) -> Result {
        while true {
            let (old, version) = messenger._core.withLock { (_storage, _version) }
            var new = old
            let result = try body(&new)
            let change = describe(old, new)
            var committed = false
            // What the lock replaces leaves in `replaced`, so that no element is released under it.
            var replaced: [Element] = []
            _edit(isolation: isolation) { storage in
                guard _version == version else { return ArrayChange(countBefore: storage.count) }
                committed = true
                replaced = storage
                storage = new
                return change
            }
            _ = consume replaced
            if committed { return result }
        }
    }
}

extension ObservableArray where Element: Equatable {
    /// Changes the contents in place in one atomic step, and sends one change with only what
    /// differs between the old and new contents; nothing if they are equal.
    ///
    /// ```swift
    /// list.modify { $0.removeAll { $0.isEmpty } }  // sends the removals only
    /// ```
    ///
    /// `body` runs on a copy of the contents, and the difference is computed, outside the array's
    /// lock. The copy replaces the contents only if no other edit came meanwhile; otherwise
    /// `body` runs again on the newer contents. So `body` may run more than once, and must not do
    /// anything but compute the new contents (and its result) from the ones it is given.
    ///
    /// If `body` throws, the contents stay as they were, nothing is sent, and `modify` throws the
    /// error.
    ///
    /// - Parameters:
    ///   - body: Changes the contents it is given; may return a result.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Returns: What `body` returns, from its last run.
    /// - Throws: What `body` throws, with the contents unchanged.
    /// - Complexity: The cost of `body` (once for each retry), plus the difference of the old and
    ///   new contents (O(*count* × *d*) for *d* differences at worst), plus O(*n*) for *n*
    ///   observers.
    @discardableResult
    public func modify<Result, Failure: Error>(
        _ body: (inout [Element]) throws(Failure) -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) throws(Failure) -> Result {
        try _modify(isolation: isolation, body) { old, new in ArrayChange(from: old, to: new) }
    }
}
