/// Where a change of the array lands in a ``FilteredArrayView``: the view's count before it, the
/// view offset of each of its modifications, and which of its removed elements were included.
@usableFromInline
struct _FilterPlan {
    @usableFromInline var countBefore: Int
    /// For each modification of the array's change, its offset in the view before the change.
    @usableFromInline var offsets: [Int]
    /// For each element the change removes (in the order of its flat storage), whether it was
    /// included.
    @usableFromInline var wasIncluded: [Bool]

    @inlinable
    init(countBefore: Int, offsets: [Int], wasIncluded: [Bool]) {
        self.countBefore = countBefore
        self.offsets = offsets
        self.wasIncluded = wasIncluded
    }
}

/// The inclusion bits of a ``FilteredArrayView``, and the changes that arrive while its first
/// filtering of the contents runs.
///
/// Every field is guarded by `_lock`, a leaf: nothing else is locked while it is held, and no user
/// code runs and no element is released under it (the queued changes leave it in the returned
/// values). `_epoch` counts the starts and ends of the view's observation, so that bits made for
/// an older one are never stored.
@usableFromInline
final class _FilterState<Element>: @unchecked Sendable {  // guarded by `_lock`
    /// What a new start or an end replaces: the bits and the changes waiting, released by the
    /// caller after unlocking.
    @usableFromInline typealias Forgotten = (_CountedBits?, [(ArrayChange<Element>, [Bool])])

    @usableFromInline let _lock = _Lock()
    @exclusivity(unchecked) @usableFromInline var _bits: _CountedBits?
    @exclusivity(unchecked) @usableFromInline var _isSeeding = false
    @exclusivity(unchecked) @usableFromInline var _queued: [(ArrayChange<Element>, [Bool])] = []
    @exclusivity(unchecked) @usableFromInline var _epoch: UInt64 = 0

    @inlinable
    init() {}

    /// The number of included elements while the view is observed and seeded; `nil` otherwise.
    @inlinable
    var currentCount: Int? {
        _lock.withLock { _isSeeding ? nil : _bits?.onesCount }
    }

    /// Starts a new seeding: changes are queued until ``finishSeeding(_:ifEpochIs:)``.
    ///
    /// It runs under the array's lock; what it replaces is released after both locks, by the
    /// caller's releasing the returned value.
    @inlinable
    func beginSeeding() -> (epoch: UInt64, replaced: Forgotten) {
        _lock.withLock {
            _epoch &+= 1
            _isSeeding = true
            let replaced = (_bits.take(), _queued)
            _queued = []
            return (_epoch, replaced)
        }
    }

    /// Stores `bits` and ends the seeding if no change waits, returning `nil`; otherwise hands
    /// out the waiting changes, to apply to `bits` and send first. Also `nil` when a newer start
    /// or an end made the seeding obsolete.
    @inlinable
    func finishSeeding(_ bits: _CountedBits, ifEpochIs epoch: UInt64) -> [(ArrayChange<Element>, [Bool])]? {
        _lock.withLock {
            guard _epoch == epoch else { return nil }
            if _queued.isEmpty {
                _bits = bits
                _isSeeding = false
                return nil
            }
            defer { _queued = [] }
            return _queued
        }
    }

    /// Applies the array's `change` to the bits and returns where it lands in the view; or `nil`
    /// when the change was queued for the seeding, or the view is not observed. `included` tells
    /// which inserted elements are included.
    @inlinable
    func applyOrQueue(_ change: ArrayChange<Element>, included: [Bool]) -> _FilterPlan? {
        _lock.lock()
        if _isSeeding {
            _queued.append((change, included))
            _lock.unlock()
            return nil
        }
        guard let bits = _bits else {
            _lock.unlock()
            return nil
        }
        let plan = Self._apply(change, included: included, to: bits)
        _lock.unlock()
        return plan
    }

    /// Applies `change` to `bits`, from its last modification to its first so that every offset
    /// is still one of the contents before the change when it is used.
    ///
    /// - Complexity: O(*k* log *n*) for *k* elements removed and inserted.
    @inlinable
    static func _apply(_ change: ArrayChange<Element>, included: [Bool], to bits: _CountedBits) -> _FilterPlan {
        precondition(
            change.countBefore == bits.count,
            "FilteredArrayView: a change of \(change.countBefore) elements does not follow the \(bits.count) the view knows"
        )
        let spans = change._spans
        var plan = _FilterPlan(
            countBefore: bits.onesCount, offsets: Array(repeating: 0, count: spans.count),
            wasIncluded: Array(repeating: false, count: change._old.count))
        var index = spans.count
        while index > 0 {
            index -= 1
            let span = spans[index]
            plan.offsets[index] = bits.rank(span.offset)
            let common = min(span.oldCount, span.newCount)
            for step in 0..<common {
                plan.wasIncluded[span.oldStart + step] = bits.set(
                    included[span.newStart + step], at: span.offset + step)
            }
            for step in common..<span.oldCount {
                plan.wasIncluded[span.oldStart + step] = bits.remove(at: span.offset + common)
            }
            for step in common..<span.newCount {
                bits.insert(included[span.newStart + step], at: span.offset + step)
            }
        }
        return plan
    }

    /// Forgets the bits once the view is no longer observed.
    ///
    /// `isUnobserved` takes the view's messenger lock, which is never held while this lock is
    /// taken: checked under this lock, a start that follows it begins its seeding after this.
    @inlinable
    func forgetIfUnobserved(_ isUnobserved: () -> Bool) {
        let forgotten: Forgotten = _lock.withLock {
            guard isUnobserved() else { return (nil, []) }
            _epoch &+= 1
            _isSeeding = false
            defer {
                _bits = nil
                _queued = []
            }
            return (_bits, _queued)
        }
        // Released here, outside the lock.
        withExtendedLifetime(forgotten) {}
    }
}
