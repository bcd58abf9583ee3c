extension ArrayChange: CustomStringConvertible {
    /// The counts before and after the change, and its modifications:
    /// `5 -> 6 elements: [insert("x", at: 2)]`.
    ///
    /// - Complexity: O(*m* + *k*), where *m* is the number of modifications and *k* the number of
    ///   elements they remove and insert.
    public var description: String {
        "\(countBefore) -> \(countAfter) elements: [\(modifications.map { "\($0)" }.joined(separator: ", "))]"
    }
}

extension SetChange: CustomStringConvertible {
    /// The members removed and inserted: `removed ["a"], inserted ["c"]`.
    ///
    /// - Complexity: O(*k*), where *k* is the number of members removed and inserted.
    public var description: String {
        "removed \(removed), inserted \(inserted)"
    }
}

extension DictionaryChange: CustomStringConvertible {
    /// The entries removed, inserted and updated: `removed ["a": 1], inserted [:], updated ["b": 2 -> 3]`.
    ///
    /// - Complexity: O(*k*), where *k* is the number of entries of the change.
    public var description: String {
        "removed \(removed), inserted \(inserted), updated \(updated)"
    }
}
