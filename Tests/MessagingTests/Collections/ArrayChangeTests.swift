import Testing

@testable import Messaging

@Suite("ArrayChange: canonical form, apply, reverse, isEmpty, map")
struct ArrayChangeTests {
    let letters = ["a", "b", "c", "d", "e"]

    @Test func modificationsChooseTheMostSpecificCase() {
        #expect(ArrayModification(at: 1, replacing: [], with: ["x"]) == .insert("x", at: 1))
        #expect(ArrayModification(at: 1, replacing: ["b"], with: [String]()) == .remove("b", at: 1))
        #expect(ArrayModification(at: 1, replacing: ["b"], with: ["x"]) == .replace("b", with: "x", at: 1))
        let slice = ArrayModification(at: 1, replacing: ["b", "c"], with: ["x"])
        guard case .replaceSlice(["b", "c"], at: 1, with: ["x"]) = slice else {
            Issue.record("expected a slice replacement, got \(slice)")
            return
        }
    }

    @Test func modificationsAreEqualWhateverCaseSpellsThem() {
        #expect(ArrayModification.replaceSlice([], at: 2, with: ["x"]) == .insert("x", at: 2))
        #expect(ArrayModification.replaceSlice(["b"], at: 2, with: ["x"]) == .replace("b", with: "x", at: 2))
        #expect(ArrayModification.replaceSlice(["b"], at: 2, with: ["x"]) != .replace("b", with: "x", at: 1))
        #expect(
            ArrayModification.insert("x", at: 2).hashValue
                == ArrayModification.replaceSlice([], at: 2, with: ["x"]).hashValue)
    }

    @Test func modificationsReportTheirRangesAndElements() {
        let modification = ArrayModification.replaceSlice(["b", "c"], at: 1, with: ["x", "y", "z"])
        #expect(modification.offset == 1)
        #expect(modification.oldCount == 2)
        #expect(modification.newCount == 3)
        #expect(modification.oldRange == 1..<3)
        #expect(modification.oldElements == ["b", "c"])
        #expect(modification.newElements == ["x", "y", "z"])
        #expect(ArrayModification.insert("x", at: 4).oldRange == 4..<4)
    }

    @Test func adjacentModificationsAreJoinedIntoOne() {
        let change = ArrayChange(
            countBefore: 5, modifications: [.remove("a", at: 0), .insert("z", at: 1), .replace("b", with: "y", at: 1)])
        #expect(Array(change.modifications) == [.replaceSlice(["a", "b"], at: 0, with: ["z", "y"])])
        #expect(change._isCanonical)
    }

    @Test func twoInsertionsAtTheSameOffsetAreJoinedInOrder() {
        let change = ArrayChange(countBefore: 2, modifications: [.insert("x", at: 1), .insert("y", at: 1)])
        #expect(Array(change.modifications) == [.replaceSlice([], at: 1, with: ["x", "y"])])
        #expect(change.applied(to: ["a", "b"]) == ["a", "x", "y", "b"])
    }

    @Test func modificationsSeparatedByAnUnchangedElementStayApart() {
        let change = ArrayChange(countBefore: 5, modifications: [.remove("a", at: 0), .insert("z", at: 2)])
        #expect(Array(change.modifications) == [.remove("a", at: 0), .insert("z", at: 2)])
        #expect(change.applied(to: letters) == ["b", "z", "c", "d", "e"])
    }

    @Test func modificationsThatChangeNothingAreDropped() {
        let change = ArrayChange<String>(countBefore: 3, modifications: [.replaceSlice([], at: 1, with: [])])
        #expect(change.isEmpty)
        #expect(change.modifications.isEmpty)
        #expect(change.countAfter == 3)
    }

    @Test func overlappingModificationsStopTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = ArrayChange(countBefore: 5, modifications: [.remove("b", at: 1), .remove("a", at: 0)])
        }
    }

    @Test func aModificationPastTheEndStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = ArrayChange(countBefore: 2, modifications: [.remove("c", at: 2)])
        }
    }

    @Test func applyingGivesTheNewContents() {
        // One modification, several of unchanged counts, several of changed counts: three paths.
        let one = ArrayChange(countBefore: 5, modifications: [.replaceSlice(["b", "c"], at: 1, with: ["x"])])
        #expect(one.applied(to: letters) == ["a", "x", "d", "e"])
        let sameCounts = ArrayChange(
            countBefore: 5,
            modifications: [.replace("a", with: "A", at: 0), .replaceSlice(["c", "d"], at: 2, with: ["C", "D"])])
        #expect(sameCounts.applied(to: letters) == ["A", "b", "C", "D", "e"])
        let counts = ArrayChange(
            countBefore: 5,
            modifications: [.insert("x", at: 0), .remove("c", at: 2), .replaceSlice(["e"], at: 4, with: ["y", "z"])])
        #expect(counts.applied(to: letters) == ["x", "a", "b", "d", "y", "z"])
        var inPlace = letters
        counts.apply(to: &inPlace)
        #expect(inPlace == ["x", "a", "b", "d", "y", "z"])
    }

    @Test func applyingPutsTheNewElementsWhateverTheArrayHoldsThere() {
        let change = ArrayChange(setting: "X", at: 1, in: ["a", "b"])
        #expect(change.applied(to: ["p", "q"]) == ["p", "X"])
    }

    @Test func applyingToAnArrayOfAnotherCountStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = ArrayChange(removingAt: 0, from: ["a", "b"]).applied(to: ["a"])
        }
    }

    @Test func reversedGoesFromTheNewContentsBackToTheOld() {
        let change = ArrayChange(
            countBefore: 5,
            modifications: [.insert("x", at: 0), .remove("c", at: 2), .replaceSlice(["e"], at: 4, with: ["y", "z"])])
        let reverse = change.reversed()
        #expect(reverse.countBefore == 6)
        #expect(reverse.countAfter == 5)
        #expect(
            Array(reverse.modifications) == [
                .remove("x", at: 0), .insert("c", at: 3), .replaceSlice(["y", "z"], at: 4, with: ["e"]),
            ])
        #expect(reverse.applied(to: ["x", "a", "b", "d", "y", "z"]) == letters)
        #expect(reverse.reversed() == change)
        #expect(reverse._isCanonical)
    }

    @Test func emptyChangeChangesNothing() {
        let change = ArrayChange<String>(countBefore: 5)
        #expect(change.isEmpty)
        #expect(change.countAfter == 5)
        #expect(change.applied(to: letters) == letters)
        #expect(change.reversed() == change)
    }

    @Test func mapTransformsEveryElementAndKeepsTheOffsets() {
        let change = ArrayChange(replacingSubrange: 1..<3, with: ["xx", "y", "zzz"], in: ["p", "qq", "rrr"])
        let counts = change.map(\.count)
        #expect(Array(counts.modifications) == [.replaceSlice([2, 3], at: 1, with: [2, 1, 3])])
        #expect(counts.applied(to: [1, 2, 3]) == [1, 2, 1, 3])
        #expect(counts.countBefore == 3)
        #expect(counts.countAfter == 4)
    }

    @Test func mapPassesOnTheTransformsError() {
        struct Refused: Error {}
        let change = ArrayChange(appending: "x", to: ["a"])
        #expect(throws: Refused.self) { try change.map { (_: String) throws(Refused) -> Int in throw Refused() } }
    }

    @Test func modificationsAreARandomAccessCollection() {
        let change = ArrayChange(countBefore: 5, modifications: [.remove("a", at: 0), .insert("z", at: 2)])
        #expect(change.modifications.count == 2)
        #expect(change.modifications[1] == .insert("z", at: 2))
        #expect(change.modifications.reversed().map(\.offset) == [2, 0])
    }
}
