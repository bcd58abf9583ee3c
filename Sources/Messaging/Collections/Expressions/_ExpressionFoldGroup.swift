// The folds of one array that an `ObservableExpression` uses, observed together.
//
// Two folds of one array (its count and a count of some of its elements, say) each observe the
// array and report an edit in turn; an expression that observed both would compute its formula
// between the two reports from one new value and one old. So an expression that uses two or more
// folds of the same array observes that array once, through one fold whose result is the list
// of their results: each edit updates all of them in one step and reaches the expression as one
// change. When the folds share one result type (two counts, say), the list is an array of it and
// each step calls their functions without a cast. The counts of one set or dictionary (an
// `ObservableCount`) are grouped the same way (`_ExpressionCountGroup.swift`), and the count of a
// `FilteredArrayView` joins the folds of its array as the fold that counts what its predicate
// includes.

/// What an ``ArrayFold`` or an ``ObservableCount`` gives an expression so that it can be observed
/// together with the other sources that follow the same collection.
@usableFromInline
protocol _ExpressionFoldSource {
    /// The source, its collection, and how to observe it together with the other sources of that
    /// collection; `nil` for a source observed alone.
    var _expressionFoldMember: _ExpressionFoldMember? { get }
}

/// One fold of an ``ObservableExpression`` (an ``ArrayFold``, or a running count of a set or a
/// dictionary), with the types of its elements and result erased.
@usableFromInline
struct _ExpressionFoldMember: Sendable {
    /// The identity of the collection followed: sources with the same one are grouped. An array's
    /// folds and a set's counts never share one, since each collection is one object.
    @usableFromInline let collectionID: ObjectIdentifier
    /// The identity of the fold's result type: a group whose folds all have one result type
    /// keeps their results in an array of that type.
    @usableFromInline let resultType: ObjectIdentifier
    /// The fold's functions: a `_TypedFoldMember` of the array's element type; for a count, the
    /// function that counts a change.
    @usableFromInline let typed: any Sendable
    /// The fold's functions with their own types: a `_ResultTypedFoldMember`; for a count, the
    /// function that counts a change.
    @usableFromInline let resultTyped: any Sendable
    /// Makes the one source that folds `members`, the folds of this one's collection, in one
    /// observation of it; its value is an array of their results in that order when
    /// ``haveOneResultType(_:)``, a `_FoldResults` otherwise.
    @usableFromInline let makeGroup: @Sendable (_ members: [_ExpressionFoldMember]) -> _ExpressionSource
    /// For a member that follows an array (a fold or an extreme): how it follows the array's
    /// changes in a group with an extreme, an `_ArrayChangeMember` of its element type.
    @usableFromInline let changeMember: (any Sendable)?
    /// Whether the member's group must follow the array's changes member by member, not as one
    /// fold: an extreme's, and a view's count.
    @usableFromInline let needsChangeGroup: Bool
    /// For the count of a view that follows each element's property: the view's identity. Its
    /// member leads the group, which follows the view's count steps; the counts of another view
    /// of the same array are observed alone.
    @usableFromInline let viewID: ObjectIdentifier?
    /// For a membership: the group keeps its running count (0 or 1) with the other counts, and
    /// the formula reads it as a `Bool`.
    @usableFromInline let readsCountAsBool: Bool

    /// A member made of its parts: a count's or an extreme's.
    @usableFromInline
    init(
        collectionID: ObjectIdentifier,
        resultType: ObjectIdentifier,
        typed: any Sendable,
        changeMember: (any Sendable)? = nil,
        needsChangeGroup: Bool = false,
        viewID: ObjectIdentifier? = nil,
        readsCountAsBool: Bool = false,
        makeGroup: @escaping @Sendable (_ members: [_ExpressionFoldMember]) -> _ExpressionSource
    ) {
        self.readsCountAsBool = readsCountAsBool
        self.collectionID = collectionID
        self.resultType = resultType
        self.typed = typed
        resultTyped = typed
        self.changeMember = changeMember
        self.needsChangeGroup = needsChangeGroup
        self.viewID = viewID
        self.makeGroup = makeGroup
    }

    @inlinable
    init<Element: Sendable, Result: Equatable & Sendable>(_ fold: ArrayFold<Element, Result>) {
        self.init(array: fold.array, initial: fold._initial, adding: fold._adding, removing: fold._removing)
    }

    /// The member of the fold of `array` with these functions, without making an ``ArrayFold``.
    @inlinable
    init<Element: Sendable, Result: Equatable & Sendable>(
        array: ObservableArray<Element>,
        initial: Result,
        adding: @escaping @Sendable (Result, Element) -> Result,
        removing: @escaping @Sendable (Result, Element) -> Result
    ) {
        collectionID = ObjectIdentifier(array)
        resultType = ObjectIdentifier(Result.self)
        resultTyped = _ResultTypedFoldMember<Element, Result>(initial: initial, adding: adding, removing: removing)
        let typed = _TypedFoldMember<Element>(
            initial: initial,
            adding: { result, element in adding(result as! Result, element) },
            removing: { result, element in removing(result as! Result, element) },
            isEqual: { lhs, rhs in (lhs as! Result) == (rhs as! Result) })
        self.typed = typed
        changeMember = _ArrayChangeMember(fold: typed)
        needsChangeGroup = false
        viewID = nil
        readsCountAsBool = false
        makeGroup = { members in
            if members.contains(where: \.needsChangeGroup) {
                // An extreme is among them: each member follows the changes with a state of its own.
                return _ExpressionFoldMember.changeGroup(of: array, members)
            }
            if _ExpressionFoldMember.haveOneResultType(members) {
                // Every member's functions keep their types: no cast and no existential per element.
                let folds = members.map { $0.resultTyped as! _ResultTypedFoldMember<Element, Result> }
                let addings = folds.map(\.adding)
                let removings = folds.map(\.removing)
                let group = ArrayFold<Element, [Result]>(
                    array,
                    initial: folds.map(\.initial),
                    adding: { results, element in
                        var results = results
                        for index in addings.indices { results[index] = addings[index](results[index], element) }
                        return results
                    },
                    removing: { results, element in
                        var results = results
                        for index in removings.indices { results[index] = removings[index](results[index], element) }
                        return results
                    })
                return _ExpressionSource(group)
            }
            // Every member folds the same array, so they share its element type.
            let folds = members.map { $0.typed as! _TypedFoldMember<Element> }
            let shape = _FoldGroupShape(isEqual: folds.map(\.isEqual))
            let group = ArrayFold<Element, _FoldResults>(
                array,
                initial: _FoldResults(folds.map(\.initial), shape: shape),
                adding: { results, element in
                    var results = results
                    for index in folds.indices {
                        results.values[index] = folds[index].adding(results.values[index], element)
                    }
                    return results
                },
                removing: { results, element in
                    var results = results
                    for index in folds.indices {
                        results.values[index] = folds[index].removing(results.values[index], element)
                    }
                    return results
                })
            return _ExpressionSource(group)
        }
    }
}

extension _ExpressionFoldMember {
    /// Whether the folds of a group all have one result type, so that the group's results are an
    /// array of it.
    ///
    /// - Complexity: O(*k*) for *k* folds.
    @inlinable
    static func haveOneResultType(_ members: [_ExpressionFoldMember]) -> Bool {
        guard let first = members.first else { return true }
        return members.allSatisfy { $0.resultType == first.resultType }
    }
}

/// The functions of one fold of an array of `Element`s into a `Result`.
@usableFromInline
struct _ResultTypedFoldMember<Element, Result: Sendable>: Sendable {
    @usableFromInline let initial: Result
    @usableFromInline let adding: @Sendable (Result, Element) -> Result
    @usableFromInline let removing: @Sendable (Result, Element) -> Result

    @inlinable
    init(
        initial: Result,
        adding: @escaping @Sendable (Result, Element) -> Result,
        removing: @escaping @Sendable (Result, Element) -> Result
    ) {
        self.initial = initial
        self.adding = adding
        self.removing = removing
    }
}

/// The functions of one fold of an array of `Element`s, with its result's type erased.
@usableFromInline
struct _TypedFoldMember<Element>: Sendable {
    @usableFromInline let initial: any Sendable
    @usableFromInline let adding: @Sendable (any Sendable, Element) -> any Sendable
    @usableFromInline let removing: @Sendable (any Sendable, Element) -> any Sendable
    @usableFromInline let isEqual: @Sendable (any Sendable, any Sendable) -> Bool

    @inlinable
    init(
        initial: any Sendable,
        adding: @escaping @Sendable (any Sendable, Element) -> any Sendable,
        removing: @escaping @Sendable (any Sendable, Element) -> any Sendable,
        isEqual: @escaping @Sendable (any Sendable, any Sendable) -> Bool
    ) {
        self.initial = initial
        self.adding = adding
        self.removing = removing
        self.isEqual = isEqual
    }
}

/// How to compare the results of a group of folds, shared by every `_FoldResults` of the group.
@usableFromInline
final class _FoldGroupShape: Sendable {
    @usableFromInline let isEqual: [@Sendable (any Sendable, any Sendable) -> Bool]

    @inlinable
    init(isEqual: [@Sendable (any Sendable, any Sendable) -> Bool]) {
        self.isEqual = isEqual
    }
}

/// The results of a group of folds of one array, in the order of the group's members.
@usableFromInline
struct _FoldResults: Equatable, Sendable {
    @usableFromInline var values: [any Sendable]
    @usableFromInline let shape: _FoldGroupShape

    @inlinable
    init(_ values: [any Sendable], shape: _FoldGroupShape) {
        self.values = values
        self.shape = shape
    }

    /// Equal when every result is equal to the other's: the group sends nothing for an edit
    /// that changes none of them.
    @inlinable
    static func == (lhs: _FoldResults, rhs: _FoldResults) -> Bool {
        for index in lhs.values.indices where !lhs.shape.isEqual[index](lhs.values[index], rhs.values[index]) {
            return false
        }
        return true
    }
}

extension ArrayFold: _ExpressionFoldSource {
    @inlinable
    var _expressionFoldMember: _ExpressionFoldMember? {
        _ExpressionFoldMember(self)
    }
}

/// Where an ``ObservableExpression``'s formula reads the value of one of its sources: a source's
/// own value, or one result of a group of folds.
@usableFromInline
struct _ExpressionSlot: Sendable {
    /// The index of the observed source.
    @usableFromInline let index: Int
    /// The index of the result in the group's results; `nil` for a source observed alone.
    @usableFromInline let member: Int?
    /// Whether the group's results are an array of the result type, not a `_FoldResults`.
    @usableFromInline let isTypedGroup: Bool
    /// Whether the result is a membership's count (0 or 1) that the formula reads as a `Bool`.
    @usableFromInline let readsCountAsBool: Bool

    @inlinable
    init(index: Int, member: Int?, isTypedGroup: Bool = false, readsCountAsBool: Bool = false) {
        self.index = index
        self.member = member
        self.isTypedGroup = isTypedGroup
        self.readsCountAsBool = readsCountAsBool
    }

    /// The function that reads the source's value among the values of the observed sources.
    @inlinable
    func reader<Value>(of type: Value.Type) -> @Sendable ([any Sendable]) -> Value {
        let index = index
        guard let member else { return { values in values[index] as! Value } }
        if readsCountAsBool {
            // A group of counts is always typed: its results are an array of `Int`.
            return { values in ((values[index] as! [Int])[member] > 0) as! Value }
        }
        if isTypedGroup { return { values in (values[index] as! [Value])[member] } }
        return { values in (values[index] as! _FoldResults).values[member] as! Value }
    }
}

extension _ExpressionSource {
    /// The sources to observe for `sources`, with two or more folds of one collection replaced by
    /// one source that folds them together, and where the formula reads each of `sources`.
    ///
    /// A group has the counts of at most one view that follows its elements' properties, the
    /// first one among `sources`; it leads the group. The counts of another such view of the same
    /// array are observed alone.
    ///
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    static func observed(
        _ sources: [_ExpressionSource]
    ) -> (sources: [_ExpressionSource], slots: [ObjectIdentifier: _ExpressionSlot]) {
        var foldsOfCollection: [ObjectIdentifier: [Int]] = [:]
        var viewOfCollection: [ObjectIdentifier: ObjectIdentifier] = [:]
        var alone = Set<Int>()
        for (index, source) in sources.enumerated() {
            guard let member = source.foldMember else { continue }
            if let viewID = member.viewID {
                let leading = viewOfCollection[member.collectionID, default: viewID]
                viewOfCollection[member.collectionID] = leading
                if leading != viewID {
                    alone.insert(index)
                    continue
                }
            }
            foldsOfCollection[member.collectionID, default: []].append(index)
        }
        var observed: [_ExpressionSource] = []
        var slots: [ObjectIdentifier: _ExpressionSlot] = [:]
        for (index, source) in sources.enumerated() {
            guard let member = source.foldMember, !alone.contains(index),
                let group = foldsOfCollection[member.collectionID], group.count > 1
            else {
                slots[source.id] = _ExpressionSlot(index: observed.count, member: nil)
                observed.append(source)
                continue
            }
            // The group takes the place of its first fold.
            guard group[0] == index else { continue }
            let members = group.map { sources[$0].foldMember! }
            let isTypedGroup =
                _ExpressionFoldMember.haveOneResultType(members) && !members.contains(where: \.needsChangeGroup)
            for (position, memberIndex) in group.enumerated() {
                slots[sources[memberIndex].id] = _ExpressionSlot(
                    index: observed.count, member: position, isTypedGroup: isTypedGroup,
                    readsCountAsBool: sources[memberIndex].foldMember!.readsCountAsBool)
            }
            // A view's count leads its group: the group follows the view's count steps.
            let leader = members.first { $0.viewID != nil } ?? member
            observed.append(leader.makeGroup(members))
        }
        return (observed, slots)
    }
}
