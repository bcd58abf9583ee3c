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
    /// It is an ``ArrayFold``: it observes the array only while it is observed itself, keeps the
    /// array alive while it is, and its `value` is the current count. A transaction's merged
    /// change gives one update, from the count before the transaction to the count after it.
    ///
    /// - Complexity: O(1) to make; per change of the array, while observed, O(*k*) for *k*
    ///   elements removed and inserted, and one send.
    @inlinable
    public var observableCount: ArrayFold<Element, Int> {
        ArrayFold(self, initial: 0, adding: { count, _ in count + 1 }, removing: { count, _ in count - 1 })
    }
}
