import Testing

@testable import Messaging

/// The search for a view's slot from where it was last found: every slot is found whatever its
/// hint, and the hint becomes its index.
@Suite("Index-hinted slots: a slot is found from any hint")
struct IndexHintedSlotTests {
    final class Slot: _IndexHintedSlot, @unchecked Sendable {}

    struct Edit: _SlotEdit {
        var offset: Int
        var oldCount: Int
        var slots: [Slot]
    }

    @Test(arguments: [0, 1, 2, 7, 8])
    func everySlotIsFoundFromEveryHint(count: Int) {
        let slots = (0..<count).map { _ in Slot() }
        for (index, slot) in slots.enumerated() {
            for hint in [0, index, count - 1, count + 5, max(0, index - 3), index + 3] {
                slot.indexHint = hint
                #expect(slots._index(ofHinted: slot) == index)
                #expect(slot.indexHint == index)
            }
        }
        #expect(slots._index(ofHinted: Slot()) == nil)
    }

    @Test func insertedSlotsAreHintedAtTheirIndicesAfterTheChange() {
        var slots = (0..<6).map { _ in Slot() }
        slots._hintAll()
        #expect(slots.map(\.indexHint) == Array(0..<6))
        // Two inserted before index 1, one removed at 3 and replaced by three.
        let edits = [
            Edit(offset: 1, oldCount: 0, slots: [Slot(), Slot()]),
            Edit(offset: 3, oldCount: 1, slots: [Slot(), Slot(), Slot()]),
        ]
        for edit in edits.reversed() {
            slots.replaceSubrange(edit.offset..<(edit.offset + edit.oldCount), with: edit.slots)
        }
        Array._hintInserted(by: edits)
        for edit in edits {
            for slot in edit.slots { #expect(slots[slot.indexHint] === slot) }
        }
        // The slots that moved keep their old hints, and are found all the same.
        for (index, slot) in slots.enumerated() { #expect(slots._index(ofHinted: slot) == index) }
    }
}
