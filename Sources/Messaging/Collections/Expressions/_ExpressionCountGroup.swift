// The counts of one set or dictionary that an `ObservableExpression` uses, observed together.
//
// A set's `observableCount` and the count of a `FilteredSetView` of it each observe the set and
// report an edit in turn, as two folds of one array would; an expression over both would compute
// its formula between the two reports. So, as for the folds of one array, an expression that uses
// two or more counts of one collection observes it once, through one running count per member:
// each change moves all of them in one step and reaches the formula as one update.

/// The running counts of one set or dictionary, in one observation of it: its value is what
/// `present` makes of the counts, in the order of the counting functions (the counts themselves,
/// or a `_FoldResults` where a membership presents its count as a `Bool`).
final class _ExpressionCountGroup<Origin: _LatestUnderLock & Sendable, Results: Equatable & Sendable>:
    ObservableCache, _StandaloneOperator
where Origin.Message: _CountingChange {
    let messenger = Messenger<Update<Results>>()
    let origin: Origin
    /// How many members each count gains and loses in a change; they run outside every lock.
    let _counts: [@Sendable (Origin.Message) -> (inserted: Int, removed: Int)]
    /// Makes the group's results of the counts.
    let _present: @Sendable ([Int]) -> Results
    let _link: _OriginLink<Origin, Origin.Message>

    init(
        _ origin: Origin, counts: [@Sendable (Origin.Message) -> (inserted: Int, removed: Int)],
        present: @escaping @Sendable ([Int]) -> Results
    ) {
        self.origin = origin
        _counts = counts
        _present = present
        let core = messenger._core
        _link = Self._replayingLink(
            to: origin, for: messenger,
            replayOf: { origin in
                // `nil` until the replay, the observation's first message, seeds the counts.
                let box = _LockedBox<[Int]?>(nil)
                return (
                    { origin._latestMessageUnderLock() }, origin,
                    { change, author, isolation in
                        let moves = counts.map { count in count(change) }
                        box._lock.lock()
                        let old = box._value
                        let new =
                            old.map { old in
                                Swift.zip(old, moves).map { count, move in count + move.inserted - move.removed }
                            } ?? moves.map(\.inserted)
                        box._value = new
                        box._lock.unlock()
                        guard let old, old != new else { return }
                        core.send(
                            Update(present(old), present(new)), author: author, checksChange: false,
                            isolation: isolation)
                    }
                )
            }
        )
        core.keepAliveWhileObserved(self)
    }

    /// The counts of one snapshot of the collection: its contents, counted by each function.
    ///
    /// - Complexity: O(*n*) for *n* members, times the number of counts.
    var latestMessage: Update<Results> {
        let contents = origin.latestMessage
        let results = _present(_counts.map { count in count(contents).inserted })
        return Update(results, results)
    }

    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The link guards the origin and its observation, each observation's box its counts; the rest is
// immutable.
extension _ExpressionCountGroup: @unchecked Sendable {}

/// One running count of a set or a dictionary in an expression's group: how a change moves it,
/// and, for a membership, how its count (0 or 1) is presented to the formula.
struct _CountingMember<Change>: Sendable {
    let counts: @Sendable (Change) -> (inserted: Int, removed: Int)
    /// `nil` for a count, which the formula reads as it is.
    let present: (@Sendable (Int) -> any Sendable)?
    let isEqual: @Sendable (any Sendable, any Sendable) -> Bool
}

extension _ExpressionFoldMember {
    /// The member of a running count of `origin`, a set or a dictionary, that `counts` counts.
    static func count<Origin: _LatestUnderLock & Sendable>(
        of origin: Origin,
        counts: @escaping @Sendable (Origin.Message) -> (inserted: Int, removed: Int)
    ) -> _ExpressionFoldMember where Origin.Message: _CountingChange {
        _counting(of: origin, member: _CountingMember(counts: counts, present: nil, isEqual: _intsAreEqual))
    }

    /// The member of whether `origin`, a set, has a member: a running count of it (0 or 1) that
    /// `counts` counts, presented to the formula as a `Bool`.
    static func membership<Origin: _LatestUnderLock & Sendable>(
        of origin: Origin,
        counts: @escaping @Sendable (Origin.Message) -> (inserted: Int, removed: Int)
    ) -> _ExpressionFoldMember where Origin.Message: _CountingChange {
        _counting(
            of: origin,
            member: _CountingMember(
                counts: counts, present: { count in count > 0 },
                isEqual: { lhs, rhs in (lhs as! Bool) == (rhs as! Bool) }),
            resultType: Bool.self)
    }

    @Sendable static func _intsAreEqual(_ lhs: any Sendable, _ rhs: any Sendable) -> Bool {
        (lhs as! Int) == (rhs as! Int)
    }

    static func _counting<Origin: _LatestUnderLock & Sendable>(
        of origin: Origin,
        member: _CountingMember<Origin.Message>,
        resultType: Any.Type = Int.self
    ) -> _ExpressionFoldMember where Origin.Message: _CountingChange {
        _ExpressionFoldMember(
            collectionID: ObjectIdentifier(origin),
            resultType: ObjectIdentifier(resultType),
            typed: member,
            erasesResults: member.present != nil,
            makeGroup: { members in
                // Every member counts the same collection, so they share its change type.
                let counting = members.map { $0.typed as! _CountingMember<Origin.Message> }
                let counts = counting.map(\.counts)
                guard counting.contains(where: { $0.present != nil }) else {
                    return _ExpressionSource(_ExpressionCountGroup(origin, counts: counts, present: { $0 }))
                }
                let shape = _FoldGroupShape(isEqual: counting.map(\.isEqual))
                let presents = counting.map(\.present)
                return _ExpressionSource(
                    _ExpressionCountGroup(
                        origin, counts: counts,
                        present: { values in
                            _FoldResults(
                                Swift.zip(values, presents).map { value, present in present?(value) ?? value },
                                shape: shape)
                        }))
            })
    }
}
