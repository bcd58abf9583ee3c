// The counts of one set or dictionary that an `ObservableExpression` uses, observed together.
//
// A set's `observableCount` and the count of a `FilteredSetView` of it each observe the set and
// report an edit in turn, as two folds of one array would; an expression over both would compute
// its formula between the two reports. So, as for the folds of one array, an expression that uses
// two or more counts of one collection observes it once, through one running count per member:
// each change moves all of them in one step and reaches the formula as one update.

/// The running counts of one set or dictionary, in one observation of it: its value is the list
/// of the counts, in the order of the counting functions.
final class _ExpressionCountGroup<Origin: _LatestUnderLock & Sendable>: ObservableCache, _StandaloneOperator
where Origin.Message: _CountingChange {
    let messenger = Messenger<Update<[Int]>>()
    let origin: Origin
    /// How many members each count gains and loses in a change; they run outside every lock.
    let _counts: [@Sendable (Origin.Message) -> (inserted: Int, removed: Int)]
    let _link: _OriginLink<Origin, Origin.Message>

    init(_ origin: Origin, counts: [@Sendable (Origin.Message) -> (inserted: Int, removed: Int)]) {
        self.origin = origin
        _counts = counts
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
                        core.send(Update(old, new), author: author, checksChange: false, isolation: isolation)
                    }
                )
            }
        )
        core.keepAliveWhileObserved(self)
    }

    /// The counts of one snapshot of the collection: its contents, counted by each function.
    ///
    /// - Complexity: O(*n*) for *n* members, times the number of counts.
    var latestMessage: Update<[Int]> {
        let contents = origin.latestMessage
        let counts = _counts.map { count in count(contents).inserted }
        return Update(counts, counts)
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

extension _ExpressionFoldMember {
    /// The member of a running count of `origin`, a set or a dictionary, that `counts` counts;
    /// for a membership (`readsCountAsBool`), the count of one member, which the formula reads as
    /// whether the member is there.
    static func count<Origin: _LatestUnderLock & Sendable>(
        of origin: Origin,
        counts: @escaping @Sendable (Origin.Message) -> (inserted: Int, removed: Int),
        readsCountAsBool: Bool = false
    ) -> _ExpressionFoldMember where Origin.Message: _CountingChange {
        _ExpressionFoldMember(
            collectionID: ObjectIdentifier(origin),
            resultType: ObjectIdentifier(Int.self),
            typed: counts,
            readsCountAsBool: readsCountAsBool,
            makeGroup: { members in
                // Every member counts the same collection, so they share its change type.
                let counts = members.map { $0.typed as! @Sendable (Origin.Message) -> (inserted: Int, removed: Int) }
                return _ExpressionSource(_ExpressionCountGroup(origin, counts: counts))
            })
    }
}
