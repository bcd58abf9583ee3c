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
    /// The modifications of this change that end before `next`'s first modification begins (in the
    /// contents between the two changes) are left as they are, so merging edits that each come
    /// after the previous ones (appends, edits in increasing order of position) into one change
    /// costs, per edit, only what that edit holds.
    ///
    /// - Parameter next: The change that follows this one; its ``countBefore`` must be this
    ///   change's ``countAfter``, or the program stops with a message.
    /// - Complexity: O(*t* + *b*), where *b* is the size of `next` and *t* that of the
    ///   modifications of this change that do not end before `next`'s first one (their elements
    ///   included); O(*b*) amortized when `next` begins at or after the end of this change's last
    ///   modification.
    @inlinable
    public mutating func merge(with next: ArrayChange) {
        precondition(
            next._countBefore == _countAfter,
            "ArrayChange.merge(with:): the next change is for an array of \(next._countBefore) elements, but this change leaves \(_countAfter)"
        )
        guard let firstNext = next._spans.first else { return }
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
        var kept = _spans.count - 1
        while kept > 0, _spans[kept - 1].newOffset + _spans[kept - 1].newCount >= firstNext.offset {
            kept -= 1
        }
        let oldStart = _spans[kept].oldStart
        let newStart = _spans[kept].newStart
        let tail = _spans[kept...].map {
            _ArraySpan(
                offset: $0.offset, oldStart: $0.oldStart - oldStart, oldCount: $0.oldCount,
                newStart: $0.newStart - newStart, newCount: $0.newCount)
        }
        let tailOld = Array(_old[oldStart...])
        let tailNew = Array(_new[newStart...])
        _spans.removeSubrange(kept...)
        _old.removeSubrange(oldStart...)
        _new.removeSubrange(newStart...)
        _countAfter = _countBefore + newStart - oldStart
        _appendMerge(of: tail, old: tailOld, new: tailNew, shiftBefore: newStart - oldStart, with: next)
        assert(_countAfter == next._countAfter, "ArrayChange.merge(with:) lost count of the elements")
    }

    /// Appends the modifications of `a` (whose elements are in `aOld` and `aNew`, its starts counted
    /// from 0 there; `shiftBefore` is the shift of the modifications before it) merged with `next`,
    /// none of whose modifications reaches the modifications of this change that come before `a`.
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
