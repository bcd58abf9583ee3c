extension ObservableDictionary {
    /// An observable of the dictionary's count: it sends `Update(old, new)` whenever an edit
    /// changes the number of entries, and nothing for an edit that keeps it (an update of a value,
    /// or as many entries removed as inserted).
    ///
    /// It is an ``ObservableCount``: it observes the dictionary only while it is observed itself,
    /// reading the count in the step that starts its observation and moving it by what each change
    /// inserts and removes. A transaction's merged change gives one update. Its `value` is the
    /// dictionary's count, so it can be a source of an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; per change of the dictionary, while observed, O(1) and at most
    ///   one send.
    public var observableCount: ObservableCount<ObservableDictionary<Key, Value>> {
        ObservableCount(self, countingMembersOf: self) { $0.count }
    }
}
