/// A slot of a view that follows each element of an array (an element's property, its observation
/// and its last value), which keeps the index where it was installed or last found among the
/// view's slots: where the search for it starts when its property changes, since an edit of the
/// array before it moves it.
///
/// `indexHint` is guarded by the lock of the view state that holds the slot, as the subclasses'
/// fields are.
class _IndexHintedSlot: @unchecked Sendable {  // guarded by the view state's lock
    @exclusivity(unchecked) final var indexHint = 0
}

/// A change of a view's slots: at `offset` among the slots before the change, `oldCount` slots
/// replaced by `slots`.
protocol _SlotEdit {
    associatedtype Slot: _IndexHintedSlot
    var offset: Int { get }
    var oldCount: Int { get }
    var slots: [Slot] { get }
}

extension Array where Element: _IndexHintedSlot {
    /// The index of `slot`, searched from its hint outward, and kept as its new hint. Call under
    /// the lock that guards the slots.
    ///
    /// A slot that did not move since it was last found is found at once, and one that moved by
    /// *d* places (the elements inserted before it less those removed) after about 2*d*
    /// comparisons. A loop over the buffer rather than a generic algorithm: this code is not
    /// specialized for the client's types, and the generic algorithm costs about 180 instructions
    /// per slot where the loop costs a few.
    ///
    /// - Complexity: O(*d*) for a slot *d* places from its hint; O(*n*) at most.
    func _index(ofHinted slot: Element) -> Int? {
        guard !isEmpty else { return nil }
        return withUnsafeBufferPointer { buffer -> Int? in
            let count = buffer.count
            let hint = Swift.min(slot.indexHint, count - 1)
            var distance = 0
            while distance <= hint || hint + distance < count {
                let after = hint + distance
                if after < count, buffer[after] === slot {
                    slot.indexHint = after
                    return after
                }
                let before = hint - distance
                if distance > 0, before >= 0, buffer[before] === slot {
                    slot.indexHint = before
                    return before
                }
                distance += 1
            }
            return nil
        }
    }

    /// Sets the hints of every slot, to its index. Call under the lock that guards the slots.
    ///
    /// - Complexity: O(*n*).
    func _hintAll() {
        for (index, slot) in enumerated() { slot.indexHint = index }
    }

    /// Sets the hints of the slots that `edits`, in order of offset, inserted: their indices after
    /// the change. The slots after an edit that changes the count move and keep their old hints.
    /// Call under the lock that guards the slots.
    ///
    /// - Complexity: O(*k*) for *k* inserted slots.
    static func _hintInserted<Edit: _SlotEdit>(by edits: [Edit]) where Edit.Slot == Element {
        var shift = 0
        for edit in edits {
            for (step, slot) in edit.slots.enumerated() { slot.indexHint = edit.offset + shift + step }
            shift += edit.slots.count - edit.oldCount
        }
    }
}
