extension ArrayChange {
    /// One change equivalent to applying this change, then `next`.
    ///
    /// `next` applies to the contents after this change. Its edits may overlap this change's in any
    /// way: an insertion that `next` removes again disappears, an element that this change inserted
    /// and `next` replaces is inserted as `next` left it, and an element that this change replaced
    /// and `next` removes is a removal of the original element.
    ///
    /// ```swift
    /// let old = ["a", "b", "c"]
    /// let first = ArrayChange(inserting: "x", at: 1, into: old)          // a x b c
    /// let second = ArrayChange(removingSubrange: 1...2, from: ["a", "x", "b", "c"])  // a c
    /// first.merged(with: second).modifications  // [.remove("b", at: 1)]
    /// ```
    ///
    /// Elements are not compared: a replacement followed by the one that puts the old element back
    /// is a one-for-one replacement, not an empty change.
    ///
    /// - Parameter next: The change that follows this one; its ``countBefore`` must be this
    ///   change's ``countAfter``, or the program stops with a message.
    /// - Returns: The change from the contents before this change to the contents after `next`.
    /// - Complexity: O(*a* + *b*), where *a* and *b* are the sizes of the two changes (their
    ///   modifications plus the elements they remove and insert); never the size of the array.
    @inlinable
    public func merged(with next: ArrayChange) -> ArrayChange {
        var result = self
        result.merge(with: next)
        return result
    }

    /// Makes this change the one equivalent to applying it, then `next`: see ``merged(with:)``.
    ///
    /// Only the modifications of this change that `next`'s modifications overlap or touch are
    /// merged again; those before them are left as they are, and those after them keep their
    /// offsets, their elements moving in the storage as a block. So merging the edits of a
    /// transaction one by one costs, per edit, what that edit touches, not the whole transaction;
    /// an edit at or after the end of every earlier one (an append) costs only what it holds.
    ///
    /// - Parameter next: The change that follows this one; its ``countBefore`` must be this
    ///   change's ``countAfter``, or the program stops with a message.
    /// - Complexity: O(*b* + *t* + log *m*), where *b* is the size of `next`, *t* that of the
    ///   modifications of this change that `next` overlaps or touches (their elements included), and
    ///   *m* the number of this change's modifications; plus, when `next` is not after all of them,
    ///   moving the storage of the modifications after the ones it touches (one block copy, and
    ///   O(1) per modification). O(*b*) amortized when `next` begins at or after the end of this
    ///   change's last modification.
    @inlinable
    public mutating func merge(with next: ArrayChange) {
        precondition(
            next._countBefore == _countAfter,
            "ArrayChange.merge(with:): the next change is for an array of \(next._countBefore) elements, but this change leaves \(_countAfter)"
        )
        guard let firstNext = next._spans.first, let lastNext = next._spans.last else { return }
        let shift = _countAfter - _countBefore
        guard let last = _spans.last, last.newOffset + last.newCount > firstNext.offset else {
            // `next` begins after every modification of this change: its slices are unchanged
            // elements of the original contents, at its offsets minus this change's shift.
            for span in next._spans {
                _old.append(contentsOf: next._old[span.oldRange])
                _new.append(contentsOf: next._new[span.newRange])
                _closeSpan(at: span.offset - shift)
            }
            return
        }
        // In the contents between the two changes, the modifications that end before `next`'s
        // first one begins and those that begin after its last one ends are separated from it by
        // unchanged elements: only the window between them is merged.
        let nextEnd = lastNext.offset + lastNext.oldCount
        let start = Self._partitionPoint(of: _spans) { $0.newOffset + $0.newCount >= firstNext.offset }
        let end = Self._partitionPoint(of: _spans) { $0.newOffset > nextEnd }
        let oldLower = start < _spans.count ? _spans[start].oldStart : _old.count
        let newLower = start < _spans.count ? _spans[start].newStart : _new.count
        let oldUpper = end < _spans.count ? _spans[end].oldStart : _old.count
        let newUpper = end < _spans.count ? _spans[end].newStart : _new.count
        let window = _spans[start..<end].map {
            _ArraySpan(
                offset: $0.offset, oldStart: $0.oldStart - oldLower, oldCount: $0.oldCount,
                newStart: $0.newStart - newLower, newCount: $0.newCount)
        }
        var merged = ArrayChange(countBefore: _countBefore)
        merged._appendMerge(
            of: window, old: Array(_old[oldLower..<oldUpper]), new: Array(_new[newLower..<newUpper]),
            shiftBefore: newLower - oldLower, with: next)
        let oldMoved = merged._old.count - (oldUpper - oldLower)
        let newMoved = merged._new.count - (newUpper - newLower)
        _old.replaceSubrange(oldLower..<oldUpper, with: merged._old)
        _new.replaceSubrange(newLower..<newUpper, with: merged._new)
        _spans.replaceSubrange(
            start..<end,
            with: merged._spans.lazy.map {
                _ArraySpan(
                    offset: $0.offset, oldStart: $0.oldStart + oldLower, oldCount: $0.oldCount,
                    newStart: $0.newStart + newLower, newCount: $0.newCount)
            })
        if oldMoved != 0 || newMoved != 0 {
            for index in (start + merged._spans.count)..<_spans.count {
                _spans[index].oldStart += oldMoved
                _spans[index].newStart += newMoved
            }
        }
        _countAfter = next._countAfter
    }

    /// The number of leading spans for which `isAfter` is false, for an `isAfter` that is false
    /// and then true along the spans.
    @inlinable
    static func _partitionPoint(of spans: [_ArraySpan], _ isAfter: (_ArraySpan) -> Bool) -> Int {
        var low = 0
        var high = spans.count
        while low < high {
            let middle = low + (high - low) / 2
            if isAfter(spans[middle]) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }

    /// Appends the modifications of `a` (whose elements are in `aOld` and `aNew`, its starts counted
    /// from 0 there; `shiftBefore` is the shift of the modifications before it) merged with `next`,
    /// none of whose modifications reaches a modification of this change outside `a`.
    ///
    /// The contents between the two changes, *Y*, are a sequence of slices: those `a` inserted and
    /// unchanged elements of the contents before it. `a`'s slices and `next`'s replaced slices are
    /// intervals of *Y*; intervals that overlap or touch form a cluster, which becomes one
    /// modification of the result. Every position inside a cluster is in some interval, so an
    /// element of the cluster that `a` did not insert was replaced by `next`, and `next`'s old
    /// elements hold it: a cluster's old elements are `a`'s old elements and `next`'s old elements
    /// between them; its new elements are `next`'s new elements and `a`'s new elements between them.
    @inlinable
    mutating func _appendMerge(
        of a: [_ArraySpan], old aOld: [Element], new aNew: [Element], shiftBefore: Int, with next: ArrayChange
    ) {
        let b = next._spans
        /// Where the slice that `a[k]` inserted starts in *Y*.
        func start(_ k: Int) -> Int { a[k].offset + shiftBefore + a[k].newStart - a[k].oldStart }
        /// Appends the old elements of positions `from ..< to` of *Y*, which `a` did not insert.
        func appendUnchanged(from: Int, to end: Int, cursor: inout Int) {
            var position = from
            while position < end {
                while b[cursor].offset + b[cursor].oldCount <= position { cursor += 1 }
                let span = b[cursor]
                assert(span.offset <= position, "ArrayChange.merge(with:): an unchanged element inside a cluster")
                let sliceEnd = min(end, span.offset + span.oldCount)
                let first = span.oldStart + position - span.offset
                _old.append(contentsOf: next._old[first..<(first + sliceEnd - position)])
                position = sliceEnd
            }
        }
        /// Appends the elements at positions `from ..< to` of *Y*, which `a` inserted.
        func appendInserted(from: Int, to end: Int, cursor: inout Int) {
            var position = from
            while position < end {
                while start(cursor) + a[cursor].newCount <= position { cursor += 1 }
                let sliceStart = start(cursor)
                assert(sliceStart <= position, "ArrayChange.merge(with:): a kept element inside a cluster")
                let sliceEnd = min(end, sliceStart + a[cursor].newCount)
                let first = a[cursor].newStart + position - sliceStart
                _new.append(contentsOf: aNew[first..<(first + sliceEnd - position)])
                position = sliceEnd
            }
        }

        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            let clusterStart = min(i < a.count ? start(i) : Int.max, j < b.count ? b[j].offset : Int.max)
            let shiftAtStart = shiftBefore + (i < a.count ? a[i].newStart - a[i].oldStart : aNew.count - aOld.count)
            var clusterEnd = clusterStart
            let firstA = i
            let firstB = j
            while true {
                if i < a.count, start(i) <= clusterEnd {
                    clusterEnd = max(clusterEnd, start(i) + a[i].newCount)
                    i += 1
                } else if j < b.count, b[j].offset <= clusterEnd {
                    clusterEnd = max(clusterEnd, b[j].offset + b[j].oldCount)
                    j += 1
                } else {
                    break
                }
            }
            var position = clusterStart
            var cursor = firstB
            for k in firstA..<i {
                appendUnchanged(from: position, to: start(k), cursor: &cursor)
                _old.append(contentsOf: aOld[a[k].oldRange])
                position = start(k) + a[k].newCount
            }
            appendUnchanged(from: position, to: clusterEnd, cursor: &cursor)
            position = clusterStart
            cursor = firstA
            for k in firstB..<j {
                appendInserted(from: position, to: b[k].offset, cursor: &cursor)
                _new.append(contentsOf: next._new[b[k].newRange])
                position = b[k].offset + b[k].oldCount
            }
            appendInserted(from: position, to: clusterEnd, cursor: &cursor)
            _closeSpan(at: clusterStart - shiftAtStart)
        }
    }
}
