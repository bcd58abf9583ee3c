extension ArrayChange {
    /// The rows to delete, insert and reload in a table or collection view for this change; no
    /// moves.
    ///
    /// In each modification, the first replaced elements, as many as it has new elements, are
    /// reloaded; the rest of its old elements are deleted, the rest of its new elements inserted.
    /// So setting an element reloads its row, and a removal and an insertion deletes one row and
    /// inserts another. See ``ArrayBatchUpdates`` for the coordinates.
    ///
    /// ```swift
    /// ArrayChange(setting: "B", at: 1, in: ["a", "b", "c"]).batchUpdates
    /// // reloaded: [1], nothing deleted, inserted or moved
    /// ```
    ///
    /// - Complexity: O(*k*), where *k* is the number of elements removed and inserted.
    @inlinable
    public var batchUpdates: ArrayBatchUpdates {
        var updates = ArrayBatchUpdates()
        for span in _spans {
            let reloads = Swift.min(span.oldCount, span.newCount)
            for index in 0..<span.oldCount {
                if index < reloads {
                    updates.reloaded.append(span.offset + index)
                } else {
                    updates.deleted.append(span.offset + index)
                }
            }
            for index in reloads..<span.newCount {
                updates.inserted.append(span.newOffset + index)
            }
        }
        return updates
    }

    /// The rows to delete, insert, move and reload in a table or collection view for this change,
    /// where an element that is removed once and inserted once (by equality) moves.
    ///
    /// The moves are those of the standard library's `inferringMoves()` on
    /// ``collectionDifference``. The old and new elements of a modification that are not moved pair
    /// up in order: as many as both have are reloaded, the rest of the old ones deleted and the
    /// rest of the new ones inserted. See ``ArrayBatchUpdates`` for the coordinates.
    ///
    /// ```swift
    /// ArrayChange(movingFrom: 0, to: 2, in: ["a", "b", "c"]).batchUpdatesInferringMoves()
    /// // moved: [0 -> 2], nothing deleted, inserted or reloaded
    /// ```
    ///
    /// - Returns: The batch updates.
    /// - Complexity: O(*k* log *k*), where *k* is the number of elements removed and inserted.
    @inlinable
    public func batchUpdatesInferringMoves() -> ArrayBatchUpdates where Element: Hashable {
        let difference = collectionDifference.inferringMoves()
        var updates = ArrayBatchUpdates()
        var movedFrom: Set<Int> = []
        var movedTo: Set<Int> = []
        for case .remove(let offset, _, let destination?) in difference.removals {
            updates.moved.append(ArrayBatchUpdates.Move(from: offset, to: destination))
            movedFrom.insert(offset)
            movedTo.insert(destination)
        }
        guard !updates.moved.isEmpty else { return batchUpdates }
        for span in _spans {
            let removed = (span.offset..<(span.offset + span.oldCount)).filter { !movedFrom.contains($0) }
            let newOffset = span.newOffset
            let inserted = (newOffset..<(newOffset + span.newCount)).filter { !movedTo.contains($0) }
            let reloads = Swift.min(removed.count, inserted.count)
            updates.reloaded.append(contentsOf: removed[..<reloads])
            updates.deleted.append(contentsOf: removed[reloads...])
            updates.inserted.append(contentsOf: inserted[reloads...])
        }
        return updates
    }
}
