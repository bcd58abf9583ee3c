/// The counts of a ``ConcatenatedArray``'s two arrays as their changes reported them, and the
/// changes of one array that arrive before the other array's count is known.
///
/// Every field, and the outbox's queue, is guarded by `_lock`, a leaf: nothing else is locked
/// while it is held, and no user code runs under it. A count is `nil` while the concatenation does
/// not observe that array.
@usableFromInline
final class _ConcatenationState<Element: Sendable>: @unchecked Sendable {  // guarded by `_lock`
    @usableFromInline let _lock: _Lock
    @usableFromInline let _outbox: _Outbox<ArrayChange<Element>>
    @exclusivity(unchecked) @usableFromInline var _firstCount: Int?
    @exclusivity(unchecked) @usableFromInline var _secondCount: Int?
    /// Changes of an observed array, waiting for the other array's count, with whether they are
    /// the second array's.
    @exclusivity(unchecked) @usableFromInline var _waiting:
        [(isSecond: Bool, change: _Authored<ArrayChange<Element>>)] =
            []

    @inlinable
    init(core: _MessengerCore<ArrayChange<Element>>) {
        let lock = _Lock()
        _lock = lock
        _outbox = _Outbox(core: core, lock: lock)
    }

    /// Turns a change of one array into a change of the concatenation and posts it; `true` if the
    /// caller must then send (``_Outbox/send(isolation:)``). Call under the lock.
    ///
    /// A change of an array that is not observed (one that was on its way when the observation
    /// ended) is dropped; one that arrives before the other array's count is known waits for it.
    ///
    /// - Complexity: As ``ArrayChange/_embedded(leading:trailing:)``, and O(1) amortized posting.
    @inlinable
    func _receiveUnderLock(_ change: ArrayChange<Element>, isSecond: Bool, author: AnyObject) -> Bool {
        guard let firstCount = _firstCount, let secondCount = _secondCount else {
            if (isSecond ? _secondCount : _firstCount) != nil {
                _waiting.append((isSecond, _Authored(value: change, author: author)))
            }
            return false
        }
        return _post(change, isSecond: isSecond, author: author, firstCount: firstCount, secondCount: secondCount)
    }

    /// Posts the change of the concatenation for `change` and records the array's new count.
    @inlinable
    func _post(
        _ change: ArrayChange<Element>, isSecond: Bool, author: AnyObject, firstCount: Int, secondCount: Int
    ) -> Bool {
        guard !change.isEmpty else { return false }
        if isSecond {
            assert(change.countBefore == secondCount, "ConcatenatedArray: a change of the second array does not fit")
            _secondCount = change.countAfter
            return _outbox.post(change._embedded(leading: firstCount, trailing: 0), author: author)
        }
        assert(change.countBefore == firstCount, "ConcatenatedArray: a change of the first array does not fit")
        _firstCount = change.countAfter
        return _outbox.post(change._embedded(leading: 0, trailing: secondCount), author: author)
    }

    /// Records an array's count, read in the step that starts observing it, and posts the waiting
    /// changes once both counts are known. Returns whether the caller must send, and the changes
    /// that an earlier observation of the array left waiting, to release after unlocking.
    ///
    /// Runs under the array's lock.
    @inlinable
    func seed(count: Int, isSecond: Bool) -> (sends: Bool, stale: [_Authored<ArrayChange<Element>>]) {
        _lock.withLock {
            if isSecond {
                _secondCount = count
            } else {
                _firstCount = count
            }
            var stale: [_Authored<ArrayChange<Element>>] = []
            var waiting: [(isSecond: Bool, change: _Authored<ArrayChange<Element>>)] = []
            for entry in _waiting {
                if entry.isSecond == isSecond {
                    stale.append(entry.change)
                } else {
                    waiting.append(entry)
                }
            }
            guard _firstCount != nil, _secondCount != nil else {
                _waiting = waiting
                return (false, stale)
            }
            _waiting = []
            var sends = false
            for entry in waiting {
                // Both counts are known: `_post` updates them as it goes.
                if _post(
                    entry.change.value, isSecond: entry.isSecond, author: entry.change.author,
                    firstCount: _firstCount!, secondCount: _secondCount!)
                {
                    sends = true
                }
            }
            return (sends, stale + waiting.map(\.change))
        }
    }

    /// Forgets the counts once the concatenation is no longer observed.
    ///
    /// `isUnobserved` takes the concatenation's messenger lock, which is never held while this
    /// lock is taken: checked under this lock, a start that follows it seeds after this.
    @inlinable
    func forgetIfUnobserved(_ isUnobserved: () -> Bool) {
        let forgotten: [(isSecond: Bool, change: _Authored<ArrayChange<Element>>)] = _lock.withLock {
            guard isUnobserved() else { return [] }
            _firstCount = nil
            _secondCount = nil
            defer { _waiting = [] }
            return _waiting
        }
        // Released here, outside the lock.
        withExtendedLifetime(forgotten) {}
    }
}
