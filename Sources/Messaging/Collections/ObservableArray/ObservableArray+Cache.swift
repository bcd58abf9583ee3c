extension ObservableArray: ObservableCache {
    /// The whole contents as one insertion into an empty array: what a new observation that asks
    /// for the latest message receives first.
    ///
    /// For an empty array it is an empty change.
    ///
    /// - Complexity: O(*count*).
    @inlinable
    public var latestMessage: ArrayChange<Element> {
        messenger._core.withLock { _latestMessageUnderLock() }
    }
}

extension ObservableArray: _LatestUnderLock {
    @usableFromInline
    func _latestMessageUnderLock() -> ArrayChange<Element> {
        ArrayChange(insertingContentsOf: _storage, at: 0, into: [])
    }
}
