/// One slice replacement in an ``ArrayChange``: which elements of the contents before the change
/// were replaced, where, and by which elements.
///
/// Every modification replaces the elements at `offset ..< offset + oldCount` of the contents
/// *before* the change with its new elements. Each kind of edit has a case of its own:
///
/// ```swift
/// .insert("x", at: 2)                         // nothing replaced by ["x"] at offset 2
/// .remove("b", at: 1)                         // ["b"] at offset 1 replaced by nothing
/// .replace("b", with: "B", at: 1)             // ["b"] at offset 1 replaced by ["B"]
/// .replaceSlice(["b", "c"], at: 1, with: [])  // anything else
/// ```
///
/// A modification made with ``init(at:replacing:with:)``, and every modification an
/// ``ArrayChange`` reports, uses the most specific case: ``replaceSlice(_:at:with:)`` only when
/// the other three do not fit. Two modifications are equal when they replace the same elements at
/// the same offset with the same elements, whichever case spells them.
public enum ArrayModification<Element> {
    /// The element was inserted before the element at the offset in the contents before the change
    /// (after the last one, if the offset is that count).
    case insert(Element, at: Int)

    /// The element at the offset in the contents before the change was removed.
    case remove(Element, at: Int)

    /// The element at the offset in the contents before the change (the first payload) was replaced
    /// by the second payload.
    ///
    /// Replacing an element by an equal one is still a modification: the elements may differ in
    /// what equality does not look at, or have no equality at all.
    case replace(Element, with: Element, at: Int)

    /// The elements starting at the offset in the contents before the change (the first payload)
    /// were replaced by the last payload; used when no other case fits.
    case replaceSlice([Element], at: Int, with: [Element])
}

extension ArrayModification {
    /// Makes the modification that replaces `old`, found at `offset` in the contents before the
    /// change, with `new`, choosing the most specific case.
    ///
    /// ```swift
    /// ArrayModification(at: 3, replacing: [], with: ["x"])  // .insert("x", at: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - offset: Where `old` starts in the contents before the change; not negative.
    ///   - old: The elements replaced.
    ///   - new: The elements put in their place. `old` and `new` must not both be empty: a
    ///     modification changes something.
    /// - Complexity: O(`old.count + new.count`).
    @inlinable
    public init(at offset: Int, replacing old: some Collection<Element>, with new: some Collection<Element>) {
        precondition(offset >= 0, "ArrayModification: the offset \(offset) is negative")
        switch (old.count, new.count) {
        case (0, 0):
            preconditionFailure("ArrayModification: a modification must remove or insert at least one element")
        case (0, 1):
            self = .insert(new.first!, at: offset)
        case (1, 0):
            self = .remove(old.first!, at: offset)
        case (1, 1):
            self = .replace(old.first!, with: new.first!, at: offset)
        default:
            self = .replaceSlice(Array(old), at: offset, with: Array(new))
        }
    }

    /// Where the replaced elements start in the contents before the change.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var offset: Int {
        switch self {
        case .insert(_, let offset), .remove(_, let offset), .replace(_, _, let offset),
            .replaceSlice(_, let offset, _):
            return offset
        }
    }

    /// How many elements of the contents before the change were replaced.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var oldCount: Int {
        switch self {
        case .insert: return 0
        case .remove, .replace: return 1
        case .replaceSlice(let old, _, _): return old.count
        }
    }

    /// How many elements were put in their place.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var newCount: Int {
        switch self {
        case .remove: return 0
        case .insert, .replace: return 1
        case .replaceSlice(_, _, let new): return new.count
        }
    }

    /// The positions of the replaced elements in the contents before the change:
    /// `offset ..< offset + oldCount`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var oldRange: Range<Int> { offset..<(offset + oldCount) }

    /// The elements replaced, in order.
    ///
    /// - Complexity: O(``oldCount``).
    @inlinable
    public var oldElements: [Element] {
        switch self {
        case .insert: return []
        case .remove(let element, _), .replace(let element, _, _): return [element]
        case .replaceSlice(let old, _, _): return old
        }
    }

    /// The elements put in their place, in order.
    ///
    /// - Complexity: O(``newCount``).
    @inlinable
    public var newElements: [Element] {
        switch self {
        case .remove: return []
        case .insert(let element, _), .replace(_, let element, _): return [element]
        case .replaceSlice(_, _, let new): return new
        }
    }

    /// The same modification with every element transformed by `transform`, in the same case.
    ///
    /// - Parameter transform: Turns an element into the element of the result; called once per
    ///   old and new element, old elements first, each in order.
    /// - Returns: The transformed modification.
    /// - Complexity: O(``oldCount`` + ``newCount``) calls of `transform`.
    @inlinable
    public func map<T, E: Error>(_ transform: (Element) throws(E) -> T) throws(E) -> ArrayModification<T> {
        switch self {
        case .insert(let element, let offset):
            return .insert(try transform(element), at: offset)
        case .remove(let element, let offset):
            return .remove(try transform(element), at: offset)
        case .replace(let old, let new, let offset):
            let oldResult = try transform(old)
            return .replace(oldResult, with: try transform(new), at: offset)
        case .replaceSlice(let old, let offset, let new):
            var oldResult: [T] = []
            oldResult.reserveCapacity(old.count)
            for element in old { oldResult.append(try transform(element)) }
            var newResult: [T] = []
            newResult.reserveCapacity(new.count)
            for element in new { newResult.append(try transform(element)) }
            return .replaceSlice(oldResult, at: offset, with: newResult)
        }
    }

    /// Appends the old elements to `old` and the new elements to `new`.
    @inlinable
    func _appendElements(old: inout [Element], new: inout [Element]) {
        switch self {
        case .insert(let element, _):
            new.append(element)
        case .remove(let element, _):
            old.append(element)
        case .replace(let oldElement, let newElement, _):
            old.append(oldElement)
            new.append(newElement)
        case .replaceSlice(let oldElements, _, let newElements):
            old.append(contentsOf: oldElements)
            new.append(contentsOf: newElements)
        }
    }
}

extension ArrayModification: Equatable where Element: Equatable {
    /// Whether two modifications replace the same elements at the same offset with the same
    /// elements, whichever cases spell them.
    ///
    /// - Complexity: O(``oldCount`` + ``newCount``).
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.offset == rhs.offset && lhs.oldElements == rhs.oldElements && lhs.newElements == rhs.newElements
    }
}

extension ArrayModification: Hashable where Element: Hashable {
    /// Hashes the offset, the old elements and the new elements, as ``==(_:_:)`` compares them.
    ///
    /// - Parameter hasher: The hasher to feed.
    /// - Complexity: O(``oldCount`` + ``newCount``).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(offset)
        hasher.combine(oldElements)
        hasher.combine(newElements)
    }
}

extension ArrayModification: Sendable where Element: Sendable {}
