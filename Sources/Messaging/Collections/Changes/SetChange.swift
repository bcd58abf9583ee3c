/// Exactly what changed in a set, against its members before the change: the members removed and
/// the members inserted.
///
/// ```swift
/// let old: Set = ["a", "b"]
/// let change = SetChange(from: old, to: ["b", "c"])  // removed ["a"], inserted ["c"]
/// change.applied(to: old)                             // ["b", "c"]
/// ```
///
/// A member in both ``removed`` and ``inserted`` was *replaced*: the set held a member equal to it
/// before and after, but the instance in ``inserted`` took the place of the one in ``removed``
/// (as `update(with:)` does). Members that are equal may still differ in what equality does not
/// look at, so a replacement is a change, and ``isEmpty`` is `false` for it.
///
/// Rules of a valid change, for the set it applies to: every removed member is in it, and no
/// inserted member is in it unless it is also removed.
///
/// A change is a value: it holds its members, no reference to the set, no lock.
public struct SetChange<Element: Hashable> {
    @usableFromInline var _removed: Set<Element>
    @usableFromInline var _inserted: Set<Element>

    /// The members the change removes from the set before it; a member also in ``inserted`` is
    /// replaced.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var removed: Set<Element> { _removed }

    /// The members the change inserts; a member also in ``removed`` replaces it.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var inserted: Set<Element> { _inserted }

    /// Makes the change that removes `removed` and inserts `inserted`.
    ///
    /// - Parameters:
    ///   - removed: The members removed from the set before the change.
    ///   - inserted: The members inserted; those also in `removed` replace them.
    /// - Complexity: O(1).
    @inlinable
    public init(removed: Set<Element> = [], inserted: Set<Element> = []) {
        _removed = removed
        _inserted = inserted
    }

    /// The change from `old` to `new`: the members of `old` not in `new` are removed, the members of
    /// `new` not in `old` are inserted. A member in both is not part of the change.
    ///
    /// - Parameters:
    ///   - old: The members before the change.
    ///   - new: The members after it.
    /// - Complexity: O(*n* + *m*), where *n* and *m* are the counts of `old` and `new`.
    @inlinable
    public init(from old: Set<Element>, to new: Set<Element>) {
        _removed = old.subtracting(new)
        _inserted = new.subtracting(old)
    }

    /// The change of `contents.insert(member)`: an insertion, or nothing if `contents` already has
    /// an equal member (which `insert` keeps).
    ///
    /// - Parameters:
    ///   - member: The member inserted.
    ///   - contents: The set before the edit.
    /// - Complexity: O(1) on average.
    @inlinable
    public init(inserting member: Element, into contents: Set<Element>) {
        self.init(inserted: contents.contains(member) ? [] : [member])
    }

    /// The change of `contents.update(with: member)`: a replacement of the equal member if
    /// `contents` has one, else an insertion.
    ///
    /// - Parameters:
    ///   - member: The member put in the set.
    ///   - contents: The set before the edit.
    /// - Complexity: O(1) on average.
    @inlinable
    public init(updatingWith member: Element, in contents: Set<Element>) {
        if let index = contents.firstIndex(of: member) {
            self.init(removed: [contents[index]], inserted: [member])
        } else {
            self.init(inserted: [member])
        }
    }

    /// The change of `contents.remove(member)`: a removal of the set's member equal to `member`, or
    /// nothing if there is none.
    ///
    /// - Parameters:
    ///   - member: The member to remove.
    ///   - contents: The set before the edit.
    /// - Complexity: O(1) on average.
    @inlinable
    public init(removing member: Element, from contents: Set<Element>) {
        if let index = contents.firstIndex(of: member) {
            self.init(removed: [contents[index]])
        } else {
            self.init()
        }
    }

    /// Whether the change changes nothing: it removes and inserts no member.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { _removed.isEmpty && _inserted.isEmpty }

    /// Turns `set`, which must hold the members before the change, into the members after it.
    ///
    /// - Parameter set: The set to change. Every removed member must be in it, and no inserted
    ///   member that is not also removed, or the program stops with a message.
    /// - Complexity: O(*k*) on average, where *k* is the number of members removed and inserted.
    @inlinable
    public func apply(to set: inout Set<Element>) {
        // The edits stay out of the preconditions, which `-Ounchecked` does not evaluate.
        for member in _removed {
            let wasPresent = set.remove(member) != nil
            precondition(wasPresent, "SetChange.apply(to:): the removed member \(member) is not in the set")
        }
        for member in _inserted {
            let wasAbsent = set.insert(member).inserted
            precondition(wasAbsent, "SetChange.apply(to:): the inserted member \(member) is already in the set")
        }
    }

    /// The members after the change, made from `set`, the members before it.
    ///
    /// - Parameter set: The members before the change, as ``apply(to:)`` requires them.
    /// - Returns: The members after the change.
    /// - Complexity: O(*k*) on average, plus copying `set`.
    @inlinable
    public func applied(to set: Set<Element>) -> Set<Element> {
        var result = set
        apply(to: &result)
        return result
    }

    /// The change from the members after this change back to the members before it: the removed
    /// and inserted members trade places.
    ///
    /// - Returns: The reverse change.
    /// - Complexity: O(1).
    @inlinable
    public func reversed() -> SetChange {
        SetChange(removed: inserted, inserted: removed)
    }

    /// One change equivalent to applying this change, then `next`.
    ///
    /// A member this change inserted and `next` removes is in neither list (the two cancel out); a
    /// member this change removed and `next` inserts is replaced (removed as it was before, inserted
    /// as `next` put it); a member this change inserted and `next` replaces is inserted as `next`
    /// put it.
    ///
    /// ```swift
    /// let first = SetChange(inserted: ["x"])
    /// first.merged(with: SetChange(removed: ["x"])).isEmpty  // true
    /// ```
    ///
    /// - Parameter next: The change that follows this one. It must not remove a member this change
    ///   removed and did not insert again, nor insert a member this change inserted and `next` does
    ///   not remove, or the program stops with a message.
    /// - Returns: The change from the members before this change to the members after `next`.
    /// - Complexity: O(*a* + *b*) on average, where *a* and *b* are the sizes of the two changes.
    @inlinable
    public func merged(with next: SetChange) -> SetChange {
        var result = self
        result.merge(with: next)
        return result
    }

    /// Makes this change the one equivalent to applying it, then `next`: see ``merged(with:)``.
    ///
    /// - Parameter next: The change that follows this one, as ``merged(with:)`` requires it.
    /// - Complexity: O(*a* + *b*) on average, where *a* and *b* are the sizes of the two changes.
    @inlinable
    public mutating func merge(with next: SetChange) {
        for member in next.removed {
            if _inserted.remove(member) == nil {
                let wasKept = _removed.insert(member).inserted
                precondition(
                    wasKept, "SetChange.merge(with:): the next change removes \(member), which this change removed")
            }
        }
        for member in next.inserted {
            let wasAbsent = _inserted.insert(member).inserted
            precondition(
                wasAbsent, "SetChange.merge(with:): the next change inserts \(member), which this change inserted")
        }
    }
}

extension SetChange: Equatable {}
extension SetChange: Hashable {}
extension SetChange: Sendable where Element: Sendable {}
