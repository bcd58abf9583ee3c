extension ArrayChange {
    /// The change from `old` to `new`, found by comparing their elements.
    ///
    /// The standard library's `new.difference(from: old)` finds which elements to remove and insert;
    /// consecutive removals and insertions become one slice replacement. Equal elements that stay
    /// in order are not part of the change, so diffing an array with itself gives an empty change.
    ///
    /// ```swift
    /// ArrayChange(from: ["a", "b", "c"], to: ["a", "x", "c"]).modifications
    /// // [.replace("b", with: "x", at: 1)]
    /// ```
    ///
    /// - Parameters:
    ///   - old: The contents before the change.
    ///   - new: The contents after it.
    /// - Complexity: That of `difference(from:)`: O(*n* × *m*) in the worst case, where *n* and
    ///   *m* are the counts, near O(*n* + *m*) when they differ little.
    @inlinable
    public init(from old: [Element], to new: [Element]) where Element: Equatable {
        self.init(new.difference(from: old), countBefore: old.count)
    }

    /// The change that `difference` describes, for an array of `countBefore` elements.
    ///
    /// Removals at consecutive offsets of the old contents and insertions at consecutive offsets of
    /// the new contents, with no unchanged element between them, become one slice replacement. A
    /// move (a removal associated with an insertion) is a removal and an insertion; the
    /// association is not kept.
    ///
    /// - Parameters:
    ///   - difference: The removals, at offsets in the old contents, and the insertions, at offsets
    ///     in the new contents.
    ///   - countBefore: The number of elements of the old contents; every removal must be inside
    ///     them and every insertion inside the new contents, or the program stops with a message.
    /// - Complexity: O(*k*), where *k* is the number of removals and insertions.
    @inlinable
    public init(_ difference: CollectionDifference<Element>, countBefore: Int) {
        self.init(countBefore: countBefore)
        let removals = difference.removals
        let insertions = difference.insertions
        var r = 0
        var s = 0
        var oldPosition = 0
        var newPosition = 0
        while r < removals.count || s < insertions.count {
            let nextRemoval = r < removals.count ? removals[r]._offset : Int.max
            let nextInsertion = s < insertions.count ? insertions[s]._offset : Int.max
            let unchanged = min(nextRemoval - oldPosition, nextInsertion - newPosition)
            oldPosition += unchanged
            newPosition += unchanged
            let start = oldPosition
            while true {
                if r < removals.count, removals[r]._offset == oldPosition {
                    _old.append(removals[r]._element)
                    oldPosition += 1
                    r += 1
                } else if s < insertions.count, insertions[s]._offset == newPosition {
                    _new.append(insertions[s]._element)
                    newPosition += 1
                    s += 1
                } else {
                    break
                }
            }
            precondition(
                oldPosition <= countBefore,
                "ArrayChange: the difference removes or inserts past the end of an array of \(countBefore) elements")
            _closeSpan(at: start)
        }
    }

    /// The change as the standard library's `CollectionDifference`: a removal of every old
    /// element at its offset in the contents before the change, and an insertion of every new
    /// element at its offset in the contents after it.
    ///
    /// `old.applying(change.collectionDifference)` gives the new contents. No removal is
    /// associated with an insertion; for elements that are `Hashable`, the difference's
    /// `inferringMoves()` pairs an element removed once with the equal element inserted once.
    ///
    /// - Complexity: O(*k* log *k*), where *k* is the number of elements removed and inserted
    ///   (`CollectionDifference` sorts its changes when it is made).
    @inlinable
    public var collectionDifference: CollectionDifference<Element> {
        var changes: [CollectionDifference<Element>.Change] = []
        changes.reserveCapacity(_old.count + _new.count)
        for span in _spans {
            for index in 0..<span.oldCount {
                changes.append(
                    .remove(offset: span.offset + index, element: _old[span.oldStart + index], associatedWith: nil))
            }
        }
        for span in _spans {
            let newOffset = span.newOffset
            for index in 0..<span.newCount {
                changes.append(
                    .insert(offset: newOffset + index, element: _new[span.newStart + index], associatedWith: nil))
            }
        }
        guard let difference = CollectionDifference(changes) else {
            preconditionFailure("ArrayChange.collectionDifference: the change is not in its canonical form")
        }
        return difference
    }
}

extension CollectionDifference.Change {
    /// The change's offset, whether it is a removal or an insertion.
    @inlinable
    var _offset: Int {
        switch self {
        case .insert(let offset, _, _), .remove(let offset, _, _): return offset
        }
    }

    /// The change's element, whether it is a removal or an insertion.
    @inlinable
    var _element: ChangeElement {
        switch self {
        case .insert(_, let element, _), .remove(_, let element, _): return element
        }
    }
}
