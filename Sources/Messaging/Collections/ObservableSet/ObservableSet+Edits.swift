extension ObservableSet {
    /// Inserts `member` if the set has no member equal to it, and sends its insertion; nothing if
    /// it has one.
    ///
    /// ```swift
    /// tags.insert("blue")  // (inserted: true, memberAfterInsert: "blue")
    /// tags.insert("blue")  // (inserted: false, memberAfterInsert: "blue"), nothing sent
    /// ```
    ///
    /// - Parameters:
    ///   - member: The member to insert.
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `insert` returns.
    /// - Returns: Whether `member` was inserted, and the member equal to it that the set holds
    ///   afterwards: `member` itself, or the member that was already there, as `Set` returns.
    /// - Complexity: O(1) on average, plus O(*n*) for *n* observers; see ``ObservableSet`` for
    ///   when an edit also copies the contents.
    @discardableResult
    public func insert(
        _ member: Element, isolation: isolated (any Actor)? = #isolation
    ) -> (inserted: Bool, memberAfterInsert: Element) {
        _edit(isolation: isolation) { contents in
            let (inserted, memberAfterInsert) = contents.insert(member)
            return (inserted ? SetChange(inserted: [member]) : SetChange(), (inserted, memberAfterInsert))
        }
    }

    /// Puts `member` in the set, replacing the member equal to it if there is one, and sends the
    /// replacement (the old member removed and `member` inserted) or the insertion.
    ///
    /// A replacement is a change even when the two members are indistinguishable, so
    /// `update(with:)` always sends one.
    ///
    /// - Parameters:
    ///   - member: The member to put in the set.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Returns: The member that `member` replaced, or `nil` if there was none.
    /// - Complexity: O(1) on average, plus O(*n*) for *n* observers; see ``ObservableSet`` for
    ///   when an edit also copies the contents.
    @discardableResult
    public func update(with member: Element, isolation: isolated (any Actor)? = #isolation) -> Element? {
        _edit(isolation: isolation) { contents in
            guard let replaced = contents.update(with: member) else { return (SetChange(inserted: [member]), nil) }
            return (SetChange(removed: [replaced], inserted: [member]), replaced)
        }
    }

    /// Removes the member equal to `member` and sends its removal; nothing if there is none.
    ///
    /// - Parameters:
    ///   - member: The member to remove.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Returns: The member the set held, or `nil` if it had none equal to `member`.
    /// - Complexity: O(1) on average, plus O(*n*) for *n* observers; see ``ObservableSet`` for
    ///   when an edit also copies the contents.
    @discardableResult
    public func remove(_ member: Element, isolation: isolated (any Actor)? = #isolation) -> Element? {
        _edit(isolation: isolation) { contents in
            guard let removed = contents.remove(member) else { return (SetChange(), nil) }
            return (SetChange(removed: [removed]), removed)
        }
    }

    /// Removes every member and sends one removal of all of them; nothing if the set is empty.
    ///
    /// - Parameter isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(1), plus O(*n*) for *n* observers. The members are released with the last copy
    ///   of the change, after its delivery.
    public func removeAll(isolation: isolated (any Actor)? = #isolation) {
        // The spare would remove the members one by one; the next edit copies no member.
        _edit(isolation: isolation, keepsSpare: false) { contents in
            let removed = contents
            contents = []
            return (SetChange(removed: removed), ())
        }
    }

    /// Inserts the elements of a sequence that the set has no member equal to, and sends one
    /// insertion of all of them; nothing if the set already has them all.
    ///
    /// Of elements of the sequence that are equal to each other, one is inserted.
    ///
    /// - Parameters:
    ///   - elements: The elements to insert. The sequence is read before the set is locked.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*m*) on average for *m* elements, plus O(*n*) for *n* observers.
    public func formUnion(_ elements: some Sequence<Element>, isolation: isolated (any Actor)? = #isolation) {
        let other = Set(elements)
        _edit(isolation: isolation) { contents in
            let inserted = other.filter { contents.insert($0).inserted }
            return (SetChange(inserted: inserted), ())
        }
    }

    /// Removes the members equal to elements of a sequence, and sends one removal of all of them;
    /// nothing if the set has none of them.
    ///
    /// - Parameters:
    ///   - elements: The elements to remove. The sequence is read before the set is locked.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*m*) on average for *m* elements, plus O(*n*) for *n* observers.
    public func subtract(_ elements: some Sequence<Element>, isolation: isolated (any Actor)? = #isolation) {
        let other = Set(elements)
        _edit(isolation: isolation) { contents in
            var removed = Set<Element>()
            for element in other {
                if let member = contents.remove(element) { removed.insert(member) }
            }
            return (SetChange(removed: removed), ())
        }
    }

    /// Removes the members that are not equal to an element of a sequence, and sends one removal
    /// of all of them; nothing if the set has no such member.
    ///
    /// - Parameters:
    ///   - elements: The elements to keep. The sequence is read before the set is locked.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*count* + *m*) for *m* elements, plus O(*n*) for *n* observers.
    public func formIntersection(_ elements: some Sequence<Element>, isolation: isolated (any Actor)? = #isolation) {
        let other = Set(elements)
        _edit(isolation: isolation) { contents in
            let removed = contents.filter { !other.contains($0) }
            contents.subtract(removed)
            return (SetChange(removed: removed), ())
        }
    }

    /// Removes the members equal to elements of a sequence and inserts the elements that no member
    /// is equal to, and sends both as one change; nothing if the sequence is empty.
    ///
    /// Of elements of the sequence that are equal to each other, one counts.
    ///
    /// - Parameters:
    ///   - elements: The elements to toggle. The sequence is read before the set is locked.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*m*) on average for *m* elements, plus O(*n*) for *n* observers.
    public func formSymmetricDifference(
        _ elements: some Sequence<Element>, isolation: isolated (any Actor)? = #isolation
    ) {
        let other = Set(elements)
        _edit(isolation: isolation) { contents in
            var removed = Set<Element>()
            var inserted = Set<Element>()
            for element in other {
                if let member = contents.remove(element) {
                    removed.insert(member)
                } else {
                    inserted.insert(element)
                }
            }
            contents.formUnion(inserted)
            return (SetChange(removed: removed, inserted: inserted), ())
        }
    }
}
