/// Exactly what changed in an array, against its contents before the change: a value that turns the
/// old contents into the new ones.
///
/// A change is the count of elements before it and a list of ``ArrayModification``s, each the
/// replacement of a slice of the old contents: an insertion replaces nothing, a removal replaces
/// with nothing, setting an element is a one-for-one replacement, a range edit is one slice
/// replacement.
///
/// ```swift
/// let old = ["a", "b", "c"]
/// let change = ArrayChange(inserting: "x", at: 1, into: old)
/// change.modifications.first       // .insert("x", at: 1)
/// change.applied(to: old)          // ["a", "x", "b", "c"]
/// change.reversed().applied(to: ["a", "x", "b", "c"])  // ["a", "b", "c"]
/// ```
///
/// ## The canonical form
///
/// Every change is kept in one form, so that two changes that make the same edits are equal:
/// - every offset is a position in the contents *before* the change;
/// - the modifications are sorted by offset, do not overlap and are never adjacent: a modification
///   that starts where the previous one's replaced elements end is joined to it, so at least one
///   unchanged element separates two modifications;
/// - every modification removes or inserts something, in the most specific case.
///
/// Because every offset is in the old contents, a modification does not move the offsets of the
/// ones before it: applying the modifications one by one, from the last to the first, turns the
/// old contents into the new ones. The offset of a modification in the new contents is its offset
/// plus the sum of `newCount - oldCount` of the modifications before it.
///
/// A change does not compare elements: replacing an element by an equal one is a modification,
/// and merging a replacement with the one that puts the old element back leaves a one-for-one
/// replacement. Such a change is not ``isEmpty``. To compare contents, diff them with
/// ``init(from:to:)``.
///
/// A change is a value: it holds its old and new elements, no reference to the array, no lock.
public struct ArrayChange<Element> {
    @usableFromInline var _countBefore: Int
    @usableFromInline var _countAfter: Int
    /// The modifications, sorted, in the canonical form; their elements live in `_old` and `_new`.
    @usableFromInline var _spans: [_ArraySpan]
    /// The replaced elements of every modification, one after the other.
    @usableFromInline var _old: [Element]
    /// The inserted elements of every modification, one after the other.
    @usableFromInline var _new: [Element]

    /// Makes the change that changes nothing in an array of `countBefore` elements.
    ///
    /// - Parameter countBefore: The number of elements of the array the change applies to; not
    ///   negative.
    /// - Complexity: O(1).
    @inlinable
    public init(countBefore: Int) {
        precondition(countBefore >= 0, "ArrayChange: the count before the change (\(countBefore)) is negative")
        _countBefore = countBefore
        _countAfter = countBefore
        _spans = []
        _old = []
        _new = []
    }

    /// Makes the change made of `modifications`, on an array of `countBefore` elements.
    ///
    /// The modifications must be sorted by ``ArrayModification/offset``, must not overlap, and must
    /// lie inside the `countBefore` elements (an insertion may be at `countBefore`). Adjacent
    /// modifications are joined into one, and the most specific case is chosen for each, so the
    /// change is in its canonical form and ``modifications`` may not list exactly what was given.
    ///
    /// ```swift
    /// ArrayChange(countBefore: 3, modifications: [.remove("a", at: 0), .insert("z", at: 1)])
    ///     .modifications  // [.replace("a", with: "z", at: 0)]
    /// ```
    ///
    /// - Parameters:
    ///   - countBefore: The number of elements of the array the change applies to.
    ///   - modifications: The modifications, sorted, each at its offset in the contents before the
    ///     change.
    /// - Complexity: O(*m* + *k*), where *m* is the number of modifications and *k* the number of
    ///   elements they remove and insert.
    @inlinable
    public init(countBefore: Int, modifications: some Sequence<ArrayModification<Element>>) {
        self.init(countBefore: countBefore)
        for modification in modifications {
            modification._appendElements(old: &_old, new: &_new)
            _closeSpan(at: modification.offset)
        }
    }

    /// The number of elements of the array before the change: the only count the change applies to.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var countBefore: Int { _countBefore }

    /// The number of elements of the array after the change.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var countAfter: Int { _countAfter }

    /// `Update(countBefore, countAfter)` if the change changes the count, `nil` otherwise: what the
    /// views' `observableCount` sends.
    @inlinable
    var _countUpdate: Update<Int>? {
        _countBefore == _countAfter ? nil : Update(_countBefore, _countAfter)
    }

    /// Whether the change changes nothing: it has no modification.
    ///
    /// A change that replaces an element by an equal one is not empty (see the discussion of
    /// ``ArrayChange``); a merge in which an insertion is removed again is.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { _spans.isEmpty }

    /// The modifications, sorted by offset in the contents before the change.
    ///
    /// - Complexity: O(1); reading a ``ArrayModification/replaceSlice(_:at:with:)`` copies its
    ///   elements.
    @inlinable
    public var modifications: Modifications { Modifications(_change: self) }

    /// The modifications of an ``ArrayChange``, sorted by offset in the contents before the change,
    /// in the canonical form: never adjacent, each in its most specific case.
    public struct Modifications: RandomAccessCollection {
        @usableFromInline let _change: ArrayChange

        @inlinable
        init(_change: ArrayChange) {
            self._change = _change
        }

        /// The position of the first modification: 0.
        ///
        /// - Complexity: O(1).
        @inlinable
        public var startIndex: Int { 0 }

        /// The number of modifications: the position after the last one.
        ///
        /// - Complexity: O(1).
        @inlinable
        public var endIndex: Int { _change._spans.count }

        /// The modification at `position`.
        ///
        /// - Parameter position: A position from `startIndex` up to, not including, `endIndex`.
        /// - Complexity: O(1), plus copying the elements of a
        ///   ``ArrayModification/replaceSlice(_:at:with:)``.
        @inlinable
        public subscript(position: Int) -> ArrayModification<Element> {
            _change._modification(at: position)
        }
    }
}

extension ArrayChange: Equatable where Element: Equatable {}
extension ArrayChange: Hashable where Element: Hashable {}
extension ArrayChange: Sendable where Element: Sendable {}
extension ArrayChange.Modifications: Sendable where Element: Sendable {}

extension ArrayChange {
    /// The modification of span `index`, in its most specific case.
    @inlinable
    func _modification(at index: Int) -> ArrayModification<Element> {
        let span = _spans[index]
        switch (span.oldCount, span.newCount) {
        case (0, 1):
            return .insert(_new[span.newStart], at: span.offset)
        case (1, 0):
            return .remove(_old[span.oldStart], at: span.offset)
        case (1, 1):
            return .replace(_old[span.oldStart], with: _new[span.newStart], at: span.offset)
        default:
            return .replaceSlice(Array(_old[span.oldRange]), at: span.offset, with: Array(_new[span.newRange]))
        }
    }

    /// The change of one modification that replaces `old`, at `offset` in the `countBefore`
    /// elements before the change, with `new`. The caller checks that it fits and is not empty.
    ///
    /// The one-element edits make their changes this way: each array is allocated once, at its
    /// size, instead of growing from empty.
    ///
    /// - Complexity: O(1) beyond the arrays given.
    @inlinable
    init(_countBefore countBefore: Int, offset: Int, old: [Element], new: [Element]) {
        _countBefore = countBefore
        _countAfter = countBefore - old.count + new.count
        _spans = [_ArraySpan(offset: offset, oldStart: 0, oldCount: old.count, newStart: 0, newCount: new.count)]
        _old = old
        _new = new
    }

    /// Ends the modification whose elements were appended to `_old` and `_new` since the previous
    /// one: it starts at `offset` in the contents before the change.
    ///
    /// A modification that removes and inserts nothing is dropped; one that starts where the
    /// previous one's replaced elements end is joined to it. Checks that the modifications come in
    /// order, do not overlap and lie inside the contents before the change.
    @inlinable
    mutating func _closeSpan(at offset: Int) {
        let oldStart: Int
        let newStart: Int
        if let last = _spans.last {
            oldStart = last.oldStart + last.oldCount
            newStart = last.newStart + last.newCount
        } else {
            oldStart = 0
            newStart = 0
        }
        let oldCount = _old.count - oldStart
        let newCount = _new.count - newStart
        guard oldCount > 0 || newCount > 0 else { return }
        precondition(
            offset >= 0 && offset <= _countBefore - oldCount,
            "ArrayChange: a modification replacing \(oldCount) elements at \(offset) does not fit in the \(_countBefore) elements before the change"
        )
        _countAfter += newCount - oldCount
        if let last = _spans.last {
            let lastEnd = last.offset + last.oldCount
            precondition(
                offset >= lastEnd,
                "ArrayChange: modifications must be sorted by offset and must not overlap (\(offset) comes before \(lastEnd))"
            )
            if offset == lastEnd {
                _spans[_spans.count - 1].oldCount += oldCount
                _spans[_spans.count - 1].newCount += newCount
                return
            }
        }
        _spans.append(
            _ArraySpan(offset: offset, oldStart: oldStart, oldCount: oldCount, newStart: newStart, newCount: newCount))
    }

    /// Whether the change is in its canonical form; for tests.
    var _isCanonical: Bool {
        var oldStart = 0
        var newStart = 0
        var previousEnd = -1
        for span in _spans {
            guard span.oldStart == oldStart, span.newStart == newStart, span.oldCount + span.newCount > 0,
                span.offset > previousEnd, span.oldCount >= 0, span.newCount >= 0
            else { return false }
            oldStart += span.oldCount
            newStart += span.newCount
            previousEnd = span.offset + span.oldCount
        }
        return previousEnd <= _countBefore && _spans.first.map { $0.offset >= 0 } != false
            && oldStart == _old.count && newStart == _new.count
            && _countAfter == _countBefore - oldStart + newStart
    }
}

/// One modification of an ``ArrayChange``: where it starts in the contents before the change, and
/// where its replaced and inserted elements lie in the change's flat storage.
@usableFromInline
struct _ArraySpan: Hashable, Sendable {
    /// Where the replaced elements start in the contents before the change.
    @usableFromInline var offset: Int
    /// Where the replaced elements start in `_old`.
    @usableFromInline var oldStart: Int
    @usableFromInline var oldCount: Int
    /// Where the inserted elements start in `_new`.
    @usableFromInline var newStart: Int
    @usableFromInline var newCount: Int

    @inlinable
    init(offset: Int, oldStart: Int, oldCount: Int, newStart: Int, newCount: Int) {
        self.offset = offset
        self.oldStart = oldStart
        self.oldCount = oldCount
        self.newStart = newStart
        self.newCount = newCount
    }

    /// The replaced elements' positions in `_old`.
    @inlinable
    var oldRange: Range<Int> { oldStart..<(oldStart + oldCount) }

    /// The inserted elements' positions in `_new`.
    @inlinable
    var newRange: Range<Int> { newStart..<(newStart + newCount) }

    /// How many positions the elements after this modification move by, counting those before it:
    /// the offset in the new contents minus the offset in the old.
    @inlinable
    var shiftBefore: Int { newStart - oldStart }

    /// Where the inserted elements start in the contents after the change.
    @inlinable
    var newOffset: Int { offset + newStart - oldStart }
}
