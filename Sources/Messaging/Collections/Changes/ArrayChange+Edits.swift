/// The change of each simple edit of an `Array`, made from the contents before the edit.
///
/// Each initializer checks its indices against the contents as the `Array` method of the same edit
/// does, and stops the program with a message if one is out of range.
extension ArrayChange {
    /// The change of `contents.insert(element, at: index)`: an insertion.
    ///
    /// - Parameters:
    ///   - element: The element inserted.
    ///   - index: Where it is inserted: from 0 to `contents.count`.
    ///   - contents: The array before the edit.
    /// - Complexity: O(1).
    @inlinable
    public init(inserting element: Element, at index: Int, into contents: [Element]) {
        precondition(
            index >= 0 && index <= contents.count,
            "ArrayChange: the insertion index \(index) is out of range 0...\(contents.count)")
        self.init(_countBefore: contents.count, offset: index, old: [], new: [element])
    }

    /// The change of `contents.insert(contentsOf: elements, at: index)`: one insertion of all of
    /// them, or no modification if `elements` is empty.
    ///
    /// - Parameters:
    ///   - elements: The elements inserted, in order.
    ///   - index: Where they are inserted: from 0 to `contents.count`.
    ///   - contents: The array before the edit.
    /// - Complexity: O(*k*), where *k* is the number of elements inserted.
    @inlinable
    public init(insertingContentsOf elements: some Sequence<Element>, at index: Int, into contents: [Element]) {
        precondition(
            index >= 0 && index <= contents.count,
            "ArrayChange: the insertion index \(index) is out of range 0...\(contents.count)")
        self.init(countBefore: contents.count)
        _new.append(contentsOf: elements)
        _closeSpan(at: index)
    }

    /// The change of `contents.append(element)`: an insertion at the end.
    ///
    /// - Parameters:
    ///   - element: The element appended.
    ///   - contents: The array before the edit.
    /// - Complexity: O(1).
    @inlinable
    public init(appending element: Element, to contents: [Element]) {
        self.init(inserting: element, at: contents.count, into: contents)
    }

    /// The change of `contents.append(contentsOf: elements)`: one insertion at the end, or no
    /// modification if `elements` is empty.
    ///
    /// - Parameters:
    ///   - elements: The elements appended, in order.
    ///   - contents: The array before the edit.
    /// - Complexity: O(*k*), where *k* is the number of elements appended.
    @inlinable
    public init(appendingContentsOf elements: some Sequence<Element>, to contents: [Element]) {
        self.init(insertingContentsOf: elements, at: contents.count, into: contents)
    }

    /// The change of `contents.remove(at: index)`: a removal of the element at `index`.
    ///
    /// - Parameters:
    ///   - index: The position of the element removed: from 0 to `contents.count - 1`.
    ///   - contents: The array before the edit.
    /// - Complexity: O(1).
    @inlinable
    public init(removingAt index: Int, from contents: [Element]) {
        precondition(
            index >= 0 && index < contents.count,
            "ArrayChange: the index \(index) is out of range 0..<\(contents.count)")
        self.init(_countBefore: contents.count, offset: index, old: [contents[index]], new: [])
    }

    /// The change of `contents.removeSubrange(range)`: one removal of the elements in `range`, or no
    /// modification if it is empty.
    ///
    /// - Parameters:
    ///   - range: The positions of the elements removed, inside `contents.indices`.
    ///   - contents: The array before the edit.
    /// - Complexity: O(*k*), where *k* is the number of elements removed.
    @inlinable
    public init(removingSubrange range: some RangeExpression<Int>, from contents: [Element]) {
        self.init(replacingSubrange: range, with: EmptyCollection(), in: contents)
    }

    /// The change of `contents.removeAll()`: one removal of every element, or no modification if
    /// `contents` is empty.
    ///
    /// - Parameter contents: The array before the edit.
    /// - Complexity: O(*n*), where *n* is `contents.count`.
    @inlinable
    public init(removingAllFrom contents: [Element]) {
        self.init(replacingSubrange: 0..<contents.count, with: EmptyCollection(), in: contents)
    }

    /// The change of `contents.replaceSubrange(range, with: elements)`: one slice replacement, or
    /// no modification if `range` and `elements` are both empty.
    ///
    /// - Parameters:
    ///   - range: The positions of the elements replaced, inside `contents.indices`.
    ///   - elements: The elements put in their place, in order.
    ///   - contents: The array before the edit.
    /// - Complexity: O(*k*), where *k* is the number of elements removed and inserted.
    @inlinable
    public init(
        replacingSubrange range: some RangeExpression<Int>, with elements: some Sequence<Element>,
        in contents: [Element]
    ) {
        let bounds = range.relative(to: contents)
        precondition(
            bounds.lowerBound >= 0 && bounds.upperBound <= contents.count,
            "ArrayChange: the range \(bounds) is out of range 0..<\(contents.count)")
        self.init(countBefore: contents.count)
        _old.append(contentsOf: contents[bounds])
        _new.append(contentsOf: elements)
        _closeSpan(at: bounds.lowerBound)
    }

    /// The change of `contents[index] = element`: a one-for-one replacement, even if `element`
    /// equals the element it replaces.
    ///
    /// - Parameters:
    ///   - element: The new element.
    ///   - index: The position of the element replaced: from 0 to `contents.count - 1`.
    ///   - contents: The array before the edit.
    /// - Complexity: O(1).
    @inlinable
    public init(setting element: Element, at index: Int, in contents: [Element]) {
        precondition(
            index >= 0 && index < contents.count,
            "ArrayChange: the index \(index) is out of range 0..<\(contents.count)")
        self.init(_countBefore: contents.count, offset: index, old: [contents[index]], new: [element])
    }

    /// The change of moving the element at `source` so that it ends at `destination`, as
    /// `contents.insert(contents.remove(at: source), at: destination)` does: a removal and an
    /// insertion, or no modification if the two indices are equal.
    ///
    /// ```swift
    /// ArrayChange(movingFrom: 1, to: 3, in: ["a", "b", "c", "d", "e"]).modifications
    /// // [.remove("b", at: 1), .insert("b", at: 4)]: the result is ["a", "c", "d", "b", "e"]
    /// ```
    ///
    /// The insertion's offset, like every offset of a change, is in the contents before the edit.
    ///
    /// - Parameters:
    ///   - source: The position of the element moved, in `contents.indices`.
    ///   - destination: Its position after the move, in `contents.indices`.
    ///   - contents: The array before the edit.
    /// - Complexity: O(1).
    @inlinable
    public init(movingFrom source: Int, to destination: Int, in contents: [Element]) {
        precondition(
            source >= 0 && source < contents.count,
            "ArrayChange: the source index \(source) is out of range 0..<\(contents.count)")
        precondition(
            destination >= 0 && destination < contents.count,
            "ArrayChange: the destination index \(destination) is out of range 0..<\(contents.count)")
        self.init(countBefore: contents.count)
        let element = contents[source]
        if source < destination {
            _old.append(element)
            _closeSpan(at: source)
            _new.append(element)
            _closeSpan(at: destination + 1)
        } else if source > destination {
            _new.append(element)
            _closeSpan(at: destination)
            _old.append(element)
            _closeSpan(at: source)
        }
    }
}
