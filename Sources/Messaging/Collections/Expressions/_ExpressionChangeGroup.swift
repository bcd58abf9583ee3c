// The folds and extremes of one array that an `ObservableExpression` uses, observed together.
//
// A group of folds alone is itself a fold (`_ExpressionFoldGroup.swift`). An extreme
// (`ArrayExtremum`, the array's `observableMin` or `observableMax`) is not: it keeps the elements
// ordered, a state that a fold's value cannot hold. A group with an extreme among its members
// follows the array's changes with one state per member, made from the contents when its
// observation starts, and reports the members' results together, so that `max - min` or the
// largest element against the count never mixes two moments of the array.

/// How one member of a group follows an array's changes, with its result's type erased.
@usableFromInline
struct _ArrayChangeMember<Element>: Sendable {
    /// Makes the member's state for the contents: a function that applies a change to it and
    /// tells whether its result changed, and one that reads its result. Both are called by one
    /// handler at a time.
    @usableFromInline let start:
        @Sendable ([Element]) -> (apply: (ArrayChange<Element>) -> Bool, result: () -> any Sendable)
    /// Whether two results are equal.
    @usableFromInline let isEqual: @Sendable (any Sendable, any Sendable) -> Bool

    @inlinable
    init(
        start: @escaping @Sendable ([Element]) -> (apply: (ArrayChange<Element>) -> Bool, result: () -> any Sendable),
        isEqual: @escaping @Sendable (any Sendable, any Sendable) -> Bool
    ) {
        self.start = start
        self.isEqual = isEqual
    }

    /// The member of a fold, from its functions with the result's type erased.
    @inlinable
    init(fold: _TypedFoldMember<Element>) {
        let adding = fold.adding
        let removing = fold.removing
        let initial = fold.initial
        let isEqual = fold.isEqual
        self.init(
            start: { contents in
                let box = _MemberResult(contents.reduce(initial, adding))
                return (
                    { change in
                        let old = box.value
                        for span in change._spans {
                            for position in span.oldRange { box.value = removing(box.value, change._old[position]) }
                            for position in span.newRange { box.value = adding(box.value, change._new[position]) }
                        }
                        return !isEqual(old, box.value)
                    },
                    { box.value }
                )
            },
            isEqual: isEqual)
    }
}

/// A member's running result, touched by one handler at a time.
@usableFromInline
final class _MemberResult {
    @usableFromInline var value: any Sendable

    @inlinable
    init(_ value: any Sendable) {
        self.value = value
    }
}

/// The folds and extremes of one array, in one observation of it: its value is the list of their
/// results, in the order of the members.
final class _ExpressionChangeGroup<Element: Sendable>: ObservableCache, _StandaloneOperator {
    let messenger = Messenger<Update<_FoldResults>>()
    let array: ObservableArray<Element>
    let _members: [_ArrayChangeMember<Element>]
    let _shape: _FoldGroupShape
    let _link: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>

    init(_ array: ObservableArray<Element>, members: [_ArrayChangeMember<Element>]) {
        self.array = array
        _members = members
        let shape = _FoldGroupShape(isEqual: members.map(\.isEqual))
        _shape = shape
        let core = messenger._core
        _link = Self._replayingLink(
            to: array, for: messenger,
            replayOf: { array in
                // The observation's states and their last results: made from the replay, its first
                // message (the contents as one insertion, read under the array's lock in the step
                // that starts it), then moved by each change. The messenger delivers to one
                // observation one change at a time, so they need no lock.
                var states: [(apply: (ArrayChange<Element>) -> Bool, result: () -> any Sendable)] = []
                var results: _FoldResults?
                return (
                    { array._latestMessageUnderLock() }, array,
                    { change, author, isolation in
                        guard let old = results else {
                            states = members.map { $0.start(change._new) }
                            results = _FoldResults(states.map { $0.result() }, shape: shape)
                            return
                        }
                        var changed = false
                        for state in states where state.apply(change) { changed = true }
                        guard changed else { return }
                        let new = _FoldResults(states.map { $0.result() }, shape: shape)
                        results = new
                        core.send(Update(old, new), author: author, checksChange: false, isolation: isolation)
                    }
                )
            }
        )
        core.keepAliveWhileObserved(self)
    }

    /// The results for one snapshot of the contents.
    ///
    /// - Complexity: O(*n*) for *n* elements per fold, O(*n* log *n*) per extreme.
    var latestMessage: Update<_FoldResults> {
        let contents = array.value
        let results = _FoldResults(_members.map { $0.start(contents).result() }, shape: _shape)
        return Update(results, results)
    }

    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The link guards the origin and its observation; each observation's states are touched by its
// handler alone, one change at a time; the rest is immutable.
extension _ExpressionChangeGroup: @unchecked Sendable {}

extension _ArrayChangeMember where Element: Equatable & Sendable {
    /// The member of the least element by `areInIncreasingOrder` among those `isIncluded`
    /// includes (all if `nil`): its state keeps them in order, as an ``ArrayExtremum`` does.
    ///
    /// Made by the extreme's initializer, in the client's code, where it is specialized for the
    /// element type.
    @inlinable
    static func extremum(
        isIncluded: (@Sendable (Element) -> Bool)?,
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> _ArrayChangeMember {
        _ArrayChangeMember(
            start: { contents in
                let included = isIncluded.map { contents.filter($0) } ?? contents
                let tree = _SortedCountedTree(sorted: included.sorted(by: areInIncreasingOrder))
                return (
                    { change in
                        let old = tree.first
                        _ = _SortedViewState<Element>._apply(
                            change, to: tree, limit: 0, by: areInIncreasingOrder, isIncluded: isIncluded,
                            locked: { body in
                                body()
                                return true
                            })
                        return tree.first != old
                    },
                    { tree.first }
                )
            },
            isEqual: { lhs, rhs in (lhs as! Element?) == (rhs as! Element?) })
    }
}

extension _ExpressionFoldMember {
    /// The member of an extreme of an array.
    @usableFromInline
    init<Element: Equatable & Sendable>(extremum: ArrayExtremum<Element>) {
        let array = extremum.array
        let member = extremum._changeMember
        self.init(
            collectionID: ObjectIdentifier(array), resultType: ObjectIdentifier(Element?.self), typed: member,
            changeMember: member, needsChangeGroup: true,
            makeGroup: { members in _ExpressionFoldMember.changeGroup(of: array, members) })
    }

    /// The one source that follows `members`, the folds and extremes of `array`, in one
    /// observation of it.
    @usableFromInline
    static func changeGroup<Element: Sendable>(
        of array: ObservableArray<Element>, _ members: [_ExpressionFoldMember]
    ) -> _ExpressionSource {
        // Every member follows the same array, so they share its element type.
        _ExpressionSource(
            _ExpressionChangeGroup(array, members: members.map { $0.changeMember as! _ArrayChangeMember<Element> }))
    }
}

extension ArrayExtremum: _ExpressionFoldSource {
    @usableFromInline
    var _expressionFoldMember: _ExpressionFoldMember? {
        _ExpressionFoldMember(extremum: self)
    }
}
