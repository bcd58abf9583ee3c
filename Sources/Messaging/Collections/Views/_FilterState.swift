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

/// The inclusion bits of a ``FilteredArrayView``, and which observation of the array they follow.
///
/// Every field is guarded by `_lock`, a leaf: nothing else is locked while it is held, and no user
/// code runs and no element is released under it.
///
/// Each observation of the array starts with a replay of its contents, read under the array's lock
/// in the step that starts the observation. That replay claims a new generation, so that an older
/// observation that is still delivering a change (its end and the new start may overlap for a
/// moment) no longer touches the bits; the bits filtered from the replay are stored only if no
/// newer observation or end came meanwhile. Until then, and while the view is not observed,
/// ``currentCount`` is `nil`.
@usableFromInline
final class _FilterState<Element>: @unchecked Sendable {  // guarded by `_lock`
    @usableFromInline let _lock = _Lock()
    @exclusivity(unchecked) @usableFromInline var _bits: _CountedBits?
    @exclusivity(unchecked) @usableFromInline var _generation: UInt64 = 0

    @inlinable
    init() {}

    /// The number of included elements while the view is observed and seeded; `nil` otherwise.
    @inlinable
    var currentCount: Int? {
        _lock.withLock { _bits?.onesCount }
    }

    /// What an observation's handler does with a change of the array.
    @usableFromInline
    enum _Step {
        /// The observation's first message, the replay of the contents: filter them, then
        /// ``install(_:generation:)`` the bits.
        case seed(generation: UInt64)
        /// A newer observation or an end made this observation obsolete: drop the change.
        case stale
        /// The change, applied to the bits: send the view's change that `plan` describes.
        case send(_FilterPlan)
    }

    /// Applies the array's `change` to the bits for the observation whose generation `claimed`
    /// holds (0 before its first message, which claims a new one), or says what to do instead.
    /// `included` tells which inserted elements are included.
    @inlinable
    func step(_ change: ArrayChange<Element>, included: [Bool], claimed: _FilterGeneration) -> _Step {
        _lock.lock()
        if claimed._value == 0 {
            _generation &+= 1
            claimed._value = _generation
            let replaced = _bits.take()
            _lock.unlock()
            withExtendedLifetime(replaced) {}  // released after unlocking
            return .seed(generation: claimed._value)
        }
        guard claimed._value == _generation, let bits = _bits else {
            _lock.unlock()
            return .stale
        }
        let plan = Self._apply(change, included: included, to: bits)
        _lock.unlock()
        return .send(plan)
    }

    /// Stores the bits filtered from an observation's replay, unless a newer observation or an
    /// end came meanwhile.
    @inlinable
    func install(_ bits: _CountedBits, generation: UInt64) {
        var bits: _CountedBits? = bits
        _lock.withLock {
            guard _generation == generation else { return }
            swap(&bits, &_bits)
        }
        bits = nil  // the bits not stored are released here, outside the lock
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

    /// Forgets the bits once the view is no longer observed, and makes the observation that
    /// follows them obsolete.
    ///
    /// `isUnobserved` takes the view's messenger lock, which is never held while this lock is
    /// taken: checked under this lock, an observation that starts after it claims its generation
    /// after this.
    @inlinable
    func forgetIfUnobserved(_ isUnobserved: () -> Bool) {
        let forgotten: _CountedBits? = _lock.withLock {
            guard isUnobserved() else { return nil }
            _generation &+= 1
            return _bits.take()
        }
        // Released here, outside the lock.
        withExtendedLifetime(forgotten) {}
    }
}

/// The generation one observation of the array claimed with its first message; 0 before.
/// Guarded by the lock of the view's ``_FilterState``.
@usableFromInline
final class _FilterGeneration: @unchecked Sendable {  // `_value` is guarded by the state's lock
    @exclusivity(unchecked) @usableFromInline var _value: UInt64 = 0

    @inlinable
    init() {}
}
