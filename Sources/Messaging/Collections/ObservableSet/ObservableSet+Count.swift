extension ObservableSet {
    /// An observable of the set's count: it sends `Update(old, new)` whenever an edit changes the
    /// number of members, and nothing for an edit that keeps it (a replacement by
    /// ``update(with:isolation:)``, or as many members removed as inserted).
    ///
    /// ```swift
    /// observer.observe(selection.observableCount) { update in
    ///     badge.text = "\(update.new)"
    /// }
    /// ```
    ///
    /// It is an ``ObservableCount``, a standalone operator of the set: it observes the set only
    /// while it is observed itself, and keeps the set alive while it is. Its `value` is the set's
    /// count, so it can be a source of an ``ObservableExpression``. A change of a set does not say how many
    /// members the set had, so the operator counts: when it starts observing the set, it reads
    /// the count in the same step, and adds what each change inserts and subtracts what it
    /// removes. A transaction's merged change gives one update, from the count before the
    /// transaction to the count after it.
    ///
    /// - Complexity: O(1) to make; per change of the set, while observed, O(1) and at most one
    ///   send.
    public var observableCount: ObservableCount<ObservableSet<Element>> {
        ObservableCount(self, countingMembersOf: self) { $0.count }
    }
}
