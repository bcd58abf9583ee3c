/// The observable count of a collection or a view other than an ``ObservableArray`` (whose count
/// is an ``ArrayFold``): it sends `Update(old, new)` whenever a change of the collection changes
/// its count, and nothing for a change that keeps it. It is a cache too: its ``value`` is the
/// current count, so it can be a source of an ``ObservableExpression``.
///
/// ```swift
/// let selected = selection.observableCount        // an ObservableCount<ObservableSet<Item>>
/// observer.observe(selected) { update in badge.text = "\(update.new)" }
///
/// let percentSelected = ObservableExpression(selected).multiplied(by: 100)
///     .divided(by: ObservableExpression(items.observableCount), ifZero: 0)
/// ```
///
/// Get one from the `observableCount` of an ``ObservableSet``, an ``ObservableDictionary`` or a
/// view. An ``ObservableExpression`` observes the counts of one set or dictionary (its own and
/// those of ``FilteredSetView``s of it) as one source, and the count of a ``FilteredArrayView`` or
/// of a ``PropertyFilteredArrayView`` with the folds of its array, so a share of them never mixes
/// two moments of the collection. The count of any other view (a sorted view, a filter by a
/// parameter) and a count of the view's collection are two sources, which report one edit in
/// turn; see ``ObservableExpression`` for what that means.
///
/// ## Observed or not
///
/// It is a standalone operator of the collection: it observes the collection only while it is
/// observed itself, and keeps the collection alive while it is. How it follows the count depends
/// on what the collection's changes say:
/// - A change of an array view (``ArrayChange``) carries the view's count before and after it, so
///   the count's update is read from each change.
/// - A change of a set or a dictionary (``SetChange``, ``DictionaryChange``) tells which members
///   came and went, not how many there were, so each observation of the collection keeps a
///   running count. It starts from the count read in the same atomic step that starts the
///   observation (the contents of a set or a dictionary, or the view's own count), and moves by
///   the members each change inserts less those it removes. A ``FilteredSetView``'s count counts
///   the included members of each change of the set.
///
/// A transaction's merged change gives one update, from the count before the transaction to the
/// count after it. ``value`` reads the collection's current count: as fast as the collection's
/// own `count`.
///
/// Limit: if its last observer stops while another thread starts observing it, its old
/// observation of the collection can outlive the new one's start for a moment (as for every
/// standalone transform), and a change delivered to both in that moment is sent twice. Each count
/// stays right, since each observation of the collection keeps its own.
///
/// - Complexity: Per change of the collection, while observed: O(1) and at most one send; a
///   ``FilteredSetView``'s count calls the predicate once per member the change inserts or removes.
public final class ObservableCount<Counted: Sendable>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the count's updates.
    public let messenger = Messenger<Update<Int>>()

    /// The collection or view counted.
    public let counted: Counted

    /// Reads the current count of `counted`.
    let _readCount: @Sendable (Counted) -> Int
    let _link: any _AnyOriginLink
    /// How an expression observes this count together with the other sources of its collection;
    /// `nil` for a count an expression observes alone.
    @usableFromInline let _expressionMember: _ExpressionFoldMember?

    /// The current count of the collection.
    ///
    /// - Complexity: The complexity of the collection's own `count`: O(1) for a set, a
    ///   dictionary and an observed view.
    public var value: Int { _readCount(counted) }

    /// The current count as an update whose `old` and `new` are equal, as ``Var`` gives.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: Update<Int> {
        let count = value
        return Update(count, count)
    }

    /// Counts an array view, whose changes carry its count before and after them.
    ///
    /// - Parameters:
    ///   - view: The view counted.
    ///   - member: For a view whose count is a fold of its array, that fold, which an expression
    ///     observes with the array's other folds.
    ///   - read: Reads the current count of the view.
    init<Element>(
        view: Counted, member: _ExpressionFoldMember? = nil, read: @escaping @Sendable (Counted) -> Int
    )
    where Counted: ObservableSource<ArrayChange<Element>> {
        counted = view
        _readCount = read
        _expressionMember = member
        let core = messenger._core
        _link = Self._link(to: view, for: messenger) { change, author, isolation in
            guard let update = change._countUpdate else { return }
            core.send(update, author: author, checksChange: false, isolation: isolation)
        }
        core.keepAliveWhileObserved(self)
    }

    /// Counts `counted` by observing `origin` (the collection itself, or the set a view filters)
    /// with a running count per observation.
    ///
    /// - Parameters:
    ///   - counted: The collection or view counted.
    ///   - origin: The collection observed.
    ///   - start: Makes the replay an observation starts with, under the origin's lock in the
    ///     step that starts it; it may give the observation's running count (the second argument)
    ///     its value instead. Library code only.
    ///   - counts: How many members a change (or the replay) inserts and removes; by default all of
    ///     them. It runs outside every lock of the library.
    ///   - member: How an expression observes this count with the other counts of `origin`.
    ///   - read: Reads the current count of `counted`.
    init<Origin: ObservableSource>(
        _ counted: Counted,
        observing origin: Origin,
        start: @escaping (Origin, _LockedBox<Int?>) -> Origin.Message,
        counts: @escaping @Sendable (Origin.Message) -> (inserted: Int, removed: Int) = {
            ($0._insertedCount, $0._removedCount)
        },
        member: _ExpressionFoldMember? = nil,
        read: @escaping @Sendable (Counted) -> Int
    ) where Origin.Message: _CountingChange {
        self.counted = counted
        _readCount = read
        _expressionMember = member
        let core = messenger._core
        _link = Self._replayingLink(
            to: origin, for: messenger,
            replayOf: { origin in
                // `nil` until the replay arrives, the observation's first message, or until
                // `start` or the collection sets it.
                let count = _LockedBox<Int?>(nil)
                return (
                    { start(origin, count) }, origin,
                    { change, author, isolation in
                        let (inserted, removed) = counts(change)
                        let delta = inserted - removed
                        count._lock.lock()
                        let old = count._value
                        count._value = old.map { $0 + delta } ?? inserted
                        count._lock.unlock()
                        guard let old, delta != 0 else { return }
                        core.send(Update(old, old + delta), author: author, checksChange: false, isolation: isolation)
                    }
                )
            }
        )
        core.keepAliveWhileObserved(self)
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The link guards the origin and its observation, each observation's box its count; the rest is
// immutable.
extension ObservableCount: @unchecked Sendable {}

extension ObservableCount: _ExpressionFoldSource {
    @usableFromInline
    var _expressionFoldMember: _ExpressionFoldMember? { _expressionMember }
}

extension ObservableCount {
    /// Counts the members of `collection`, a set or a dictionary, that `counts` counts in each
    /// change: each observation's count is seeded by the contents, read in the step that starts
    /// it. An expression observes it together with the other counts of the collection.
    convenience init<Origin: _LatestUnderLock & Sendable>(
        _ counted: Counted,
        countingMembersOf collection: Origin,
        counts: @escaping @Sendable (Origin.Message) -> (inserted: Int, removed: Int) = {
            ($0._insertedCount, $0._removedCount)
        },
        read: @escaping @Sendable (Counted) -> Int
    ) where Origin.Message: _CountingChange {
        self.init(
            counted, observing: collection, start: { collection, _ in collection._latestMessageUnderLock() },
            counts: counts, member: .count(of: collection, counts: counts), read: read)
    }
}

/// A change that tells how many members or entries it inserts and removes.
protocol _CountingChange {
    var _insertedCount: Int { get }
    var _removedCount: Int { get }
}

extension SetChange: _CountingChange {
    var _insertedCount: Int { inserted.count }
    var _removedCount: Int { removed.count }
}

extension DictionaryChange: _CountingChange {
    var _insertedCount: Int { inserted.count }
    var _removedCount: Int { removed.count }
}
