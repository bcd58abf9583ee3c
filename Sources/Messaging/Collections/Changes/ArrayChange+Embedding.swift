extension ArrayChange {
    /// The same change, made to a part of a longer array: `leading` elements before the part and
    /// `trailing` after it; what a concatenation sends for a change of one of its arrays.
    ///
    /// - Complexity: O(*k*) for *k* modifications when `leading` is not zero, O(1) otherwise; the
    ///   elements are shared, not copied.
    @inlinable
    func _embedded(leading: Int, trailing: Int) -> ArrayChange {
        var embedded = self
        embedded._countBefore += leading + trailing
        embedded._countAfter += leading + trailing
        if leading != 0 {
            for index in embedded._spans.indices {
                embedded._spans[index].offset += leading
            }
        }
        return embedded
    }
}
