extension ObservableDictionary: ObservableCache {
    /// All the entries as one insertion into an empty dictionary: what a new observation that
    /// asks for the latest message receives first. For an empty dictionary it is an empty change.
    ///
    /// - Complexity: O(1) (the change shares the entries' storage).
    public var latestMessage: DictionaryChange<Key, Value> {
        messenger._core.withLock { _latestMessageUnderLock() }
    }
}

extension ObservableDictionary: _LatestUnderLock {
    func _latestMessageUnderLock() -> DictionaryChange<Key, Value> {
        DictionaryChange(inserted: _storage)
    }
}
