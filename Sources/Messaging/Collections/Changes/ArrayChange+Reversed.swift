extension ArrayChange {
    /// The change from the contents after this change back to the contents before it.
    ///
    /// Each modification's old and new elements trade places, and its offset becomes its offset in
    /// the contents after this change: applying the result to the new contents gives the old ones.
    ///
    /// ```swift
    /// let change = ArrayChange(inserting: "x", at: 1, into: ["a", "b"])
    /// change.reversed().modifications  // [.remove("x", at: 1)]
    /// ```
    ///
    /// - Returns: The reverse change, whose ``countBefore`` is this change's ``countAfter``.
    /// - Complexity: O(*m*), where *m* is the number of modifications; the elements are shared, not
    ///   copied.
    @inlinable
    public func reversed() -> ArrayChange {
        var result = ArrayChange(countBefore: _countAfter)
        result._countAfter = _countBefore
        result._old = _new
        result._new = _old
        result._spans = _spans.map {
            _ArraySpan(
                offset: $0.newOffset, oldStart: $0.newStart, oldCount: $0.newCount, newStart: $0.oldStart,
                newCount: $0.oldCount)
        }
        return result
    }
}
