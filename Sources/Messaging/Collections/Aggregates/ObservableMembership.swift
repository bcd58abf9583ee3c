/// Whether a set, or a view of one, has a given member, as an observable: it sends
/// `Update(old, new)` whenever a change inserts or removes that member, and nothing for a change
/// that keeps its membership. It is a cache too: its ``value`` is whether the collection has the
/// member now, so a new observer can start from it and an ``ObservableExpression`` can use it.
///
/// ```swift
/// let isSelected = selection.observableContains(item)   // an ObservableMembership
/// isSelected.subscribe(replayingLatest: true) { update in checkmark.isHidden = !update.new }
/// ```
///
/// Get one from the `observableContains(_:)` of an ``ObservableSet``, a ``FilteredSetView``, a
/// ``ParameterFilteredSetView`` or a ``PropertyFilteredSetView``: GlueKit's `observableContains`.
/// An ``ObservableExpression`` observes the membership of a set or of a ``FilteredSetView`` of it
/// together with the set's counts (its own and those of its ``FilteredSetView``s), so a badge of
/// the selected items other than a pinned one never counts an edit half-way; a membership of the
/// other views is a source of its own.
///
/// ## Observed or not
///
/// It is a standalone operator of the collection: it observes the collection only while it is
/// observed itself, and keeps the collection alive while it is. Each change of the collection
/// (a ``SetChange``) says whether it removed the member and whether it inserted it; a replacement
/// of the member by an equal one (``ObservableSet/update(with:isolation:)``) does both and sends
/// nothing. A transaction's merged change gives one update at most, from the membership before the
/// transaction to the membership after it. ``value`` asks the collection: as fast as its own
/// `contains(_:)`.
///
/// - Complexity: Per change of the collection, while observed: O(1) on average (two hashed
///   lookups in the change) and at most one send.
public final class ObservableMembership<Collection: ObservableSource & Sendable, Member: Hashable & Sendable>:
    ObservableCache, _StandaloneOperator
where Collection.Message == SetChange<Member> {
    /// The messenger that sends the membership's updates.
    public let messenger = Messenger<Update<Bool>>()

    /// The set or view whose membership is followed.
    public let collection: Collection

    /// The member followed.
    public let member: Member

    /// Whether `collection` has `member` now.
    let _contains: @Sendable (Collection, Member) -> Bool
    let _link: _OriginLink<Collection, SetChange<Member>>
    /// How an expression observes this membership together with the counts of its set; `nil` for
    /// one an expression observes alone.
    let _expressionMember: _ExpressionFoldMember?

    /// Follows whether `collection` has `member`, which `contains` reads.
    ///
    /// - Parameters:
    ///   - collection: The set or view observed.
    ///   - member: The member followed.
    ///   - expressionMember: How an expression observes the membership with the counts of the set
    ///     it follows.
    ///   - contains: Reads whether `collection` has `member` now.
    /// - Complexity: O(1).
    init(
        _ collection: Collection, member: Member, expressionMember: _ExpressionFoldMember? = nil,
        contains: @escaping @Sendable (Collection, Member) -> Bool
    ) {
        self.collection = collection
        self.member = member
        _expressionMember = expressionMember
        _contains = contains
        let core = messenger._core
        _link = Self._link(to: collection, for: messenger) { change, author, isolation in
            let update = Update(change.removed.contains(member), change.inserted.contains(member))
            guard update.old != update.new else { return }
            core.send(update, author: author, checksChange: false, isolation: isolation)
        }
        core.keepAliveWhileObserved(self)
    }

    /// Whether the collection has the member now.
    ///
    /// - Complexity: The complexity of the collection's `contains(_:)`: O(1) on average for a set
    ///   and an observed view.
    public var value: Bool { _contains(collection, member) }

    /// The current membership as an update whose `old` and `new` are equal, as ``Var`` gives.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: Update<Bool> {
        let contains = value
        return Update(contains, contains)
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The link guards the collection's observation; the rest is immutable and `Sendable`.
extension ObservableMembership: @unchecked Sendable {}

extension ObservableMembership: _ExpressionFoldSource {
    @usableFromInline
    var _expressionFoldMember: _ExpressionFoldMember? { _expressionMember }
}

extension SetChange where Element: Sendable {
    /// How a change moves the count of `member` (0 or 1) among the members of the set, counting
    /// only a member that `isIncluded` includes.
    static func _moves(
        of member: Element, isIncluded: @escaping @Sendable (Element) -> Bool = { _ in true }
    ) -> @Sendable (SetChange) -> (inserted: Int, removed: Int) {
        guard isIncluded(member) else { return { _ in (0, 0) } }
        return { change in (change.inserted.contains(member) ? 1 : 0, change.removed.contains(member) ? 1 : 0) }
    }
}
