extension ArrayChange {
    /// The same change with every element transformed by `transform`: the change of an array
    /// derived element by element from the changed one.
    ///
    /// ```swift
    /// let names = ArrayChange(appending: person, to: people).map(\.name)
    /// ```
    ///
    /// The modifications keep their offsets and cases; applied to the transformed contents before
    /// the change, the result gives the transformed contents after it.
    ///
    /// - Parameter transform: Turns an element into the element of the result; called once per old
    ///   element, in order, then once per new element, in order.
    /// - Returns: The transformed change.
    /// - Complexity: O(*m* + *k*) with *k* calls of `transform`, where *m* is the number of
    ///   modifications and *k* the number of elements they remove and insert.
    @inlinable
    public func map<T, E: Error>(_ transform: (Element) throws(E) -> T) throws(E) -> ArrayChange<T> {
        var result = ArrayChange<T>(countBefore: _countBefore)
        result._countAfter = _countAfter
        result._spans = _spans
        result._old.reserveCapacity(_old.count)
        for element in _old { result._old.append(try transform(element)) }
        result._new.reserveCapacity(_new.count)
        for element in _new { result._new.append(try transform(element)) }
        return result
    }
}
