import Messaging
import Testing

@Suite("DictionaryChange: removed, inserted and updated entries")
struct DictionaryChangeTests {
    let old = ["a": 1, "b": 2]

    @Test func diffingGivesRemovedInsertedAndUpdatedEntries() {
        let change = DictionaryChange(from: old, to: ["b": 3, "c": 4])
        #expect(change.removed == ["a": 1])
        #expect(change.inserted == ["c": 4])
        #expect(change.updated == ["b": Update(2, 3)])
    }

    @Test func diffingEqualValuesIsNoChange() {
        #expect(DictionaryChange(from: old, to: old).isEmpty)
    }

    @Test func applyingGivesTheNewEntries() {
        let change = DictionaryChange(removed: ["a": 1], inserted: ["c": 4], updated: ["b": Update(2, 3)])
        #expect(change.applied(to: old) == ["b": 3, "c": 4])
        var dictionary = old
        change.apply(to: &dictionary)
        #expect(dictionary == ["b": 3, "c": 4])
    }

    @Test func settingAValueIsAnUpdateOrAnInsertion() {
        #expect(
            DictionaryChange(updatingValue: 5, forKey: "a", in: old) == DictionaryChange(updated: ["a": Update(1, 5)]))
        #expect(DictionaryChange(updatingValue: 5, forKey: "z", in: old) == DictionaryChange(inserted: ["z": 5]))
    }

    @Test func settingAnEqualValueIsStillAnUpdate() {
        let change = DictionaryChange(updatingValue: 1, forKey: "a", in: old)
        #expect(change.updated == ["a": Update(1, 1)])
        #expect(!change.isEmpty)
    }

    @Test func removingAnAbsentKeyIsNoChange() {
        #expect(DictionaryChange(removingValueForKey: "z", from: old).isEmpty)
        #expect(DictionaryChange(removingValueForKey: "a", from: old) == DictionaryChange(removed: ["a": 1]))
    }

    @Test func reversedSwapsRemovalsAndInsertionsAndTurnsUpdatesAround() {
        let change = DictionaryChange(removed: ["a": 1], inserted: ["c": 4], updated: ["b": Update(2, 3)])
        #expect(
            change.reversed() == DictionaryChange(removed: ["c": 4], inserted: ["a": 1], updated: ["b": Update(3, 2)]))
        #expect(change.reversed().applied(to: ["b": 3, "c": 4]) == old)
    }

    @Test func insertingThenRemovingCancelsOut() {
        #expect(DictionaryChange(inserted: ["x": 1]).merged(with: DictionaryChange(removed: ["x": 1])).isEmpty)
    }

    @Test func insertingThenUpdatingIsAnInsertionOfTheLastValue() {
        let merged = DictionaryChange(inserted: ["x": 1]).merged(with: DictionaryChange(updated: ["x": Update(1, 2)]))
        #expect(merged == DictionaryChange(inserted: ["x": 2]))
    }

    @Test func removingThenInsertingIsAnUpdate() {
        let merged = DictionaryChange(removed: ["a": 1]).merged(with: DictionaryChange(inserted: ["a": 7]))
        #expect(merged == DictionaryChange(updated: ["a": Update(1, 7)]))
    }

    @Test func updatingTwiceIsOneUpdateFromTheFirstToTheLastValue() {
        let merged = DictionaryChange(updated: ["a": Update(1, 2)]).merged(
            with: DictionaryChange(updated: ["a": Update(2, 3)]))
        #expect(merged == DictionaryChange(updated: ["a": Update(1, 3)]))
    }

    @Test func updatingBackIsStillAnUpdate() {
        let merged = DictionaryChange(updated: ["a": Update(1, 2)]).merged(
            with: DictionaryChange(updated: ["a": Update(2, 1)]))
        #expect(merged == DictionaryChange(updated: ["a": Update(1, 1)]))
    }

    @Test func updatingThenRemovingIsARemovalOfTheFirstValue() {
        let merged = DictionaryChange(updated: ["a": Update(1, 2)]).merged(with: DictionaryChange(removed: ["a": 2]))
        #expect(merged == DictionaryChange(removed: ["a": 1]))
    }

    @Test func mergingKeepsUnrelatedEditsOfBoth() {
        let merged = DictionaryChange(removed: ["a": 1], inserted: ["c": 3]).merged(
            with: DictionaryChange(inserted: ["d": 4], updated: ["b": Update(2, 5)]))
        #expect(
            merged == DictionaryChange(removed: ["a": 1], inserted: ["c": 3, "d": 4], updated: ["b": Update(2, 5)]))
    }

    @Test func aKeyInTwoListsStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = DictionaryChange(removed: ["a": 1], inserted: ["a": 2])
        }
    }

    @Test func applyingAnInsertionOfAPresentKeyStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = DictionaryChange(inserted: ["a": 2]).applied(to: ["a": 1])
        }
    }

    @Test func applyingAnUpdateOfAnAbsentKeyStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = DictionaryChange(updated: ["a": Update(1, 2)]).applied(to: [:])
        }
    }
}
