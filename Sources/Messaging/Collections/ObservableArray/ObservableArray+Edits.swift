extension ObservableArray {
    /// The element at `index`; setting it replaces the element and sends one replacement.
    ///
    /// Setting an element sends a replacement even when the new element equals the old one: the
    /// array does not compare elements.
    ///
    /// - Parameter index: A valid index: `0 <= index < count`. Any other index stops the program
    ///   with a message, as `Array` does.
    /// - Complexity: Reading is O(1). Setting is O(1), plus O(*n*) for *n* observers.
    @inlinable
    public subscript(index: Int) -> Element {
        get {
            messenger._core.withLock {
                precondition(
                    index >= 0 && index < _storage.count,
                    "ObservableArray: the index \(index) is out of range 0..<\(_storage.count)")
                return _storage[index]
            }
        }
        set {
            _edit(isolation: nil) { storage in
                Self._checkIndex(index, in: storage)
                var element = newValue
                swap(&element, &storage[index])
                return ArrayChange(
                    countBefore: storage.count,
                    modifications: CollectionOfOne(.replace(element, with: newValue, at: index)))
            }
        }
    }

    /// Appends an element and sends its insertion at the old end.
    ///
    /// - Parameters:
    ///   - element: The element to append.
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `append` returns.
    /// - Complexity: O(1) amortized, plus O(*n*) for *n* observers.
    @inlinable
    public func append(_ element: Element, isolation: isolated (any Actor)? = #isolation) {
        _edit(isolation: isolation) { storage in
            let change = ArrayChange(appending: element, to: storage)
            storage.append(element)
            return change
        }
    }

    /// Appends the elements of a sequence and sends one insertion of all of them at the old end;
    /// nothing if the sequence is empty.
    ///
    /// - Parameters:
    ///   - elements: The elements to append. The sequence is read before the array is locked.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*m*) for *m* elements, plus O(*n*) for *n* observers.
    @inlinable
    public func append(contentsOf elements: some Sequence<Element>, isolation: isolated (any Actor)? = #isolation) {
        let elements = Array(elements)
        _edit(isolation: isolation) { storage in
            let change = ArrayChange(appendingContentsOf: elements, to: storage)
            storage.append(contentsOf: elements)
            return change
        }
    }

    /// Inserts an element at `index` and sends its insertion.
    ///
    /// - Parameters:
    ///   - element: The element to insert.
    ///   - index: Where to insert it: `0 <= index <= count`. Any other index stops the program
    ///     with a message.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*count*), plus O(*n*) for *n* observers.
    @inlinable
    public func insert(_ element: Element, at index: Int, isolation: isolated (any Actor)? = #isolation) {
        _edit(isolation: isolation) { storage in
            Self._checkInsertionIndex(index, in: storage)
            let change = ArrayChange(inserting: element, at: index, into: storage)
            storage.insert(element, at: index)
            return change
        }
    }

    /// Inserts the elements of a sequence at `index` and sends one insertion of all of them;
    /// nothing if the sequence is empty.
    ///
    /// - Parameters:
    ///   - elements: The elements to insert. The sequence is read before the array is locked.
    ///   - index: Where to insert them: `0 <= index <= count`. Any other index stops the program
    ///     with a message.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*count* + *m*) for *m* elements, plus O(*n*) for *n* observers.
    @inlinable
    public func insert(
        contentsOf elements: some Sequence<Element>, at index: Int, isolation: isolated (any Actor)? = #isolation
    ) {
        let elements = Array(elements)
        _edit(isolation: isolation) { storage in
            Self._checkInsertionIndex(index, in: storage)
            let change = ArrayChange(insertingContentsOf: elements, at: index, into: storage)
            storage.insert(contentsOf: elements, at: index)
            return change
        }
    }

    /// Removes the element at `index` and sends its removal, with the element, at that index.
    ///
    /// - Parameters:
    ///   - index: A valid index: `0 <= index < count`. Any other index stops the program with a
    ///     message.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Returns: The removed element.
    /// - Complexity: O(*count*), plus O(*n*) for *n* observers.
    @inlinable
    @discardableResult
    public func remove(at index: Int, isolation: isolated (any Actor)? = #isolation) -> Element {
        var removed: Element?
        _edit(isolation: isolation) { storage in
            Self._checkIndex(index, in: storage)
            let element = storage.remove(at: index)
            removed = element
            return ArrayChange(
                countBefore: storage.count + 1, modifications: CollectionOfOne(.remove(element, at: index)))
        }
        // The edit ran exactly once, before `_edit` returned.
        return removed!
    }

    /// Removes the elements in `range` and sends one removal of all of them; nothing if the
    /// range is empty.
    ///
    /// - Parameters:
    ///   - range: A range of valid indices. A range outside `0..<count` stops the program with a
    ///     message.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*count*), plus O(*n*) for *n* observers.
    @inlinable
    public func removeSubrange(_ range: Range<Int>, isolation: isolated (any Actor)? = #isolation) {
        _replaceSubrange(range, with: [], isolation: isolation)
    }

    /// Replaces the elements in `range` with `elements` and sends one slice replacement; nothing
    /// if the range and the new elements are both empty.
    ///
    /// - Parameters:
    ///   - range: A range of valid indices. A range outside `0..<count` stops the program with a
    ///     message.
    ///   - elements: The new elements. The collection is read before the array is locked.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*count* + *m*) for *m* new elements, plus O(*n*) for *n* observers.
    @inlinable
    public func replaceSubrange(
        _ range: Range<Int>, with elements: some Collection<Element>, isolation: isolated (any Actor)? = #isolation
    ) {
        _replaceSubrange(range, with: Array(elements), isolation: isolation)
    }

    /// Removes every element and sends one removal of all of them; nothing if the array is empty.
    ///
    /// - Parameter isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*count*), plus O(*n*) for *n* observers.
    @inlinable
    public func removeAll(isolation: isolated (any Actor)? = #isolation) {
        _edit(isolation: isolation) { storage in
            let change = ArrayChange(removingAllFrom: storage)
            storage = []
            return change
        }
    }

    /// Moves the element at `source` so that it ends up at `destination`, and sends its removal
    /// and insertion as one change; nothing if `source == destination`.
    ///
    /// - Parameters:
    ///   - source: The index of the element to move: `0 <= source < count`.
    ///   - destination: Its index after the move: `0 <= destination < count`. Any other index
    ///     stops the program with a message.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*count*), plus O(*n*) for *n* observers.
    @inlinable
    public func move(from source: Int, to destination: Int, isolation: isolated (any Actor)? = #isolation) {
        _edit(isolation: isolation) { storage in
            Self._checkIndex(source, in: storage)
            Self._checkIndex(destination, in: storage)
            let change = ArrayChange(movingFrom: source, to: destination, in: storage)
            if source != destination {
                storage.insert(storage.remove(at: source), at: destination)
            }
            return change
        }
    }

    @usableFromInline
    func _replaceSubrange(_ range: Range<Int>, with elements: [Element], isolation: (any Actor)?) {
        _edit(isolation: isolation) { storage in
            precondition(
                range.lowerBound >= 0 && range.upperBound <= storage.count,
                "ObservableArray: the range \(range) is out of range 0..<\(storage.count)")
            let change = ArrayChange(replacingSubrange: range, with: elements, in: storage)
            storage.replaceSubrange(range, with: elements)
            return change
        }
    }

    @usableFromInline
    static func _checkIndex(_ index: Int, in storage: [Element]) {
        precondition(
            index >= 0 && index < storage.count,
            "ObservableArray: the index \(index) is out of range 0..<\(storage.count)")
    }

    @usableFromInline
    static func _checkInsertionIndex(_ index: Int, in storage: [Element]) {
        precondition(
            index >= 0 && index <= storage.count,
            "ObservableArray: the insertion index \(index) is out of range 0...\(storage.count)")
    }
}
