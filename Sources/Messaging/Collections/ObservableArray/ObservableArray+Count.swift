extension ObservableArray {
    /// An observable of the array's count: it sends `Update(old, new)` whenever an edit changes
    /// the number of elements, and nothing for an edit that keeps it (setting an element, a move).
    ///
    /// ```swift
    /// observer.observe(list.observableCount) { update in
    ///     badge.text = "\(update.new)"
    /// }
    /// ```
    ///
    /// It is a standalone transform of the array (a ``Filtered`` of a ``Mapped``): it observes
    /// the array only while it is observed itself, and keeps the array alive while it is. A
    /// transaction's merged change gives one update, from the count before the transaction to the
    /// count after it.
    ///
    /// - Complexity: O(1) to make; per change of the array, while observed, O(1) and one send.
    public var observableCount: some ObservableSource<Update<Int>> {
        map { Update($0.countBefore, $0.countAfter) }.filter { $0.old != $0.new }
    }
}
