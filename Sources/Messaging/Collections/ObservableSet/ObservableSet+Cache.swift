extension ObservableSet: ObservableCache {
    /// The whole contents as one insertion into an empty set: what a new observation that asks
    /// for the latest message receives first.
    ///
    /// For an empty set it is an empty change.
    ///
    /// - Complexity: O(1) (the change shares the contents' storage).
    public var latestMessage: SetChange<Element> {
        messenger._core.withLock { _latestMessageUnderLock() }
    }
}

extension ObservableSet: _LatestUnderLock {
    func _latestMessageUnderLock() -> SetChange<Element> {
        SetChange(inserted: _storage)
    }
}
