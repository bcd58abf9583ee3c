/// The ordered elements of a ``SortedArrayView`` or an ``ArrayExtremum``, and the changes that
/// arrive while the tree is first built.
///
/// Every field is guarded by `_lock`, a leaf: nothing else is locked while it is held, and no user
/// code runs under it. `_epoch` counts the starts and ends of the view's observation, so that a
/// tree built for an older one is never stored or changed.
///
/// The tree is changed by one owner at a time: the start that builds it, until it is stored, then
/// the handler of the array's changes, whose calls the array's messenger never overlaps. The owner
/// compares elements (user code) outside the lock, reading the tree while other threads may read
/// it too, and changes it only under the lock, at the ranks it found, without comparing. Readers
/// read it under the lock.
@usableFromInline
final class _SortedViewState<Element>: @unchecked Sendable {  // guarded by `_lock`
    @usableFromInline let _lock = _Lock()
    @exclusivity(unchecked) @usableFromInline var _tree: _SortedCountedTree<Element>?
    @exclusivity(unchecked) @usableFromInline var _isSeeding = false
    @exclusivity(unchecked) @usableFromInline var _queued: [ArrayChange<Element>] = []
    @exclusivity(unchecked) @usableFromInline var _epoch: UInt64 = 0

    @inlinable
    init() {}

    /// `body`'s result on the tree, under the lock, while the view is observed and its tree built;
    /// `nil` otherwise.
    @inlinable
    func read<Result>(_ body: (_SortedCountedTree<Element>) -> Result) -> Result? {
        _lock.withLock {
            guard !_isSeeding, let tree = _tree else { return nil }
            return body(tree)
        }
    }

    /// Starts building a new tree: changes are queued until ``finishSeeding(_:ifEpochIs:)``.
    ///
    /// It runs under the array's lock; what it replaces is released after both locks, by the
    /// caller's releasing the returned value.
    @inlinable
    func beginSeeding() -> (epoch: UInt64, replaced: (_SortedCountedTree<Element>?, [ArrayChange<Element>])) {
        _lock.withLock {
            _epoch &+= 1
            _isSeeding = true
            let replaced = (_tree.take(), _queued)
            _queued = []
            return (_epoch, replaced)
        }
    }

    /// Stores `tree` and ends the seeding if no change waits, returning `nil`; otherwise hands out
    /// the waiting changes to apply first. Also `nil` when a newer start or an end made the tree
    /// obsolete.
    @inlinable
    func finishSeeding(_ tree: _SortedCountedTree<Element>, ifEpochIs epoch: UInt64) -> [ArrayChange<Element>]? {
        _lock.withLock {
            guard _epoch == epoch else { return nil }
            if _queued.isEmpty {
                _tree = tree
                _isSeeding = false
                return nil
            }
            defer { _queued = [] }
            return _queued
        }
    }

    /// The tree to apply `change` to, with its epoch; or `nil` when the change was queued for the
    /// seeding, or the view has no tree.
    @inlinable
    func treeOrQueue(_ change: ArrayChange<Element>) -> (_SortedCountedTree<Element>, UInt64)? {
        _lock.withLock {
            if _isSeeding {
                _queued.append(change)
                return nil
            }
            guard let tree = _tree else { return nil }
            return (tree, _epoch)
        }
    }

    /// Runs `body`, a change of the tree, under the lock, unless a newer start or an end made the
    /// epoch obsolete; returns whether it ran.
    @inlinable
    func mutate(ifEpochIs epoch: UInt64, _ body: () -> Void) -> Bool {
        _lock.withLock {
            guard _epoch == epoch, !_isSeeding else { return false }
            body()
            return true
        }
    }

    /// Forgets the tree once the view is no longer observed, so that reads sort the contents.
    ///
    /// `isUnobserved` takes the view's messenger lock, which is never held while this lock is
    /// taken: checked under this lock, a start that follows it begins its seeding after this.
    @inlinable
    func forgetIfUnobserved(_ isUnobserved: () -> Bool) {
        let forgotten: (_SortedCountedTree<Element>?, [ArrayChange<Element>]) = _lock.withLock {
            guard isUnobserved() else { return (nil, []) }
            _epoch &+= 1
            _isSeeding = false
            defer {
                _tree = nil
                _queued = []
            }
            return (_tree, _queued)
        }
        // Released here, outside the lock.
        withExtendedLifetime(forgotten) {}
    }
}

extension _SortedViewState where Element: Equatable {
    /// Applies `change` of the array to `tree`, returning the change of the tree's first `limit`
    /// elements (an empty change for a `limit` of 0), or `nil` when `locked` found the tree
    /// obsolete. With `isIncluded`, the tree holds only the elements it includes, and the others
    /// are skipped.
    ///
    /// For each element the change removes or inserts, the comparator finds its rank here, outside
    /// every lock; `locked` then runs the tree's change under the state's lock.
    ///
    /// - Complexity: O(*k* log *n*) for *k* elements removed and inserted, plus, for each removal,
    ///   the elements equivalent to the removed one that come before it in the tree.
    @inlinable
    static func _apply(
        _ change: ArrayChange<Element>,
        to tree: _SortedCountedTree<Element>,
        limit: Int,
        by areInIncreasingOrder: (Element, Element) -> Bool,
        isIncluded: ((Element) -> Bool)?,
        locked: (() -> Void) -> Bool
    ) -> ArrayChange<Element>? {
        var result = ArrayChange<Element>(countBefore: Swift.min(tree.count, limit))
        func emit(_ modification: ArrayModification<Element>) {
            result.merge(
                with: ArrayChange(countBefore: result.countAfter, modifications: CollectionOfOne(modification)))
        }
        func insert(_ element: Element) -> Bool {
            if let isIncluded, !isIncluded(element) { return true }
            let rank = tree.upperBound(of: element, by: areInIncreasingOrder)
            var pushedOut: Element?
            let isCurrent = locked {
                tree.insert(element, at: rank)
                if rank < limit, tree.count > limit { pushedOut = tree.element(at: limit) }
            }
            guard isCurrent else { return false }
            if rank < limit {
                emit(.insert(element, at: rank))
                if let pushedOut { emit(.remove(pushedOut, at: limit)) }
            }
            return true
        }
        func remove(_ element: Element) -> Bool {
            if let isIncluded, !isIncluded(element) { return true }
            guard
                let rank = tree.rank(of: element, by: areInIncreasingOrder) ?? tree.linearRank(of: element)
            else {
                preconditionFailure(
                    "SortedArrayView: an element removed from the array is not in the view; every element must be == to itself (a NaN is not)"
                )
            }
            var removed: Element?
            var movedIn: Element?
            let isCurrent = locked {
                removed = tree.remove(at: rank)
                if rank < limit, tree.count >= limit { movedIn = tree.element(at: limit - 1) }
            }
            guard isCurrent, let removed else { return false }
            if rank < limit {
                emit(.remove(removed, at: rank))
                if let movedIn { emit(.insert(movedIn, at: limit - 1)) }
            }
            return true
        }
        for modification in change.modifications {
            switch modification {
            case .insert(let element, _):
                guard insert(element) else { return nil }
            case .remove(let element, _):
                guard remove(element) else { return nil }
            case .replace(let old, let new, _):
                guard remove(old), insert(new) else { return nil }
            case .replaceSlice(let old, _, let new):
                for element in old { guard remove(element) else { return nil } }
                for element in new { guard insert(element) else { return nil } }
            }
        }
        return result._droppingReplacementsByEqualElements()
    }
}

extension ArrayChange where Element: Equatable {
    /// The change without its modifications that replace elements by equal ones, in order: an
    /// element of the array that moved, or was replaced by an equal one, keeps its place in a
    /// sorted view, which sends nothing for it.
    ///
    /// - Complexity: O(*k*) for *k* elements removed and inserted.
    @inlinable
    func _droppingReplacementsByEqualElements() -> ArrayChange {
        func isNoOp(_ modification: ArrayModification<Element>) -> Bool {
            switch modification {
            case .replace(let old, let new, _): old == new
            case .replaceSlice(let old, _, let new): old == new
            case .insert, .remove: false
            }
        }
        guard modifications.contains(where: isNoOp) else { return self }
        return ArrayChange(countBefore: countBefore, modifications: modifications.filter { !isNoOp($0) })
    }
}
