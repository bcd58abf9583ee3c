import Messaging
import Testing

/// Rule: simple edits map one-to-one: an insert is an insertion at that index, a removal reports
/// the removed element at its old index, setting an element is a replacement, a range edit is one
/// slice replacement, a move is a removal plus an insertion.
@Suite("ArrayChange: each simple edit is exactly one modification")
struct ArrayChangeEditTests {
    let letters = ["a", "b", "c", "d", "e"]

    @Test func insertIsAnInsertionAtThatIndex() {
        let change = ArrayChange(inserting: "x", at: 2, into: letters)
        #expect(Array(change.modifications) == [.insert("x", at: 2)])
        #expect(change.countBefore == 5)
        #expect(change.countAfter == 6)
        #expect(change.applied(to: letters) == ["a", "b", "x", "c", "d", "e"])
    }

    @Test func insertAtTheEndIsAnInsertionAtTheCount() {
        let change = ArrayChange(inserting: "x", at: 5, into: letters)
        #expect(Array(change.modifications) == [.insert("x", at: 5)])
        #expect(change == ArrayChange(appending: "x", to: letters))
    }

    @Test func insertingContentsIsOneSliceReplacementOfNothing() {
        let change = ArrayChange(insertingContentsOf: ["x", "y"], at: 1, into: letters)
        #expect(Array(change.modifications) == [.replaceSlice([], at: 1, with: ["x", "y"])])
        #expect(change.applied(to: letters) == ["a", "x", "y", "b", "c", "d", "e"])
    }

    @Test func appendingContentsInsertsAtTheEnd() {
        let change = ArrayChange(appendingContentsOf: ["x", "y"], to: letters)
        #expect(Array(change.modifications) == [.replaceSlice([], at: 5, with: ["x", "y"])])
        #expect(change.applied(to: letters) == letters + ["x", "y"])
    }

    @Test func insertingNothingIsNoChange() {
        let change = ArrayChange(insertingContentsOf: [], at: 1, into: letters)
        #expect(change.isEmpty)
        #expect(change == ArrayChange(countBefore: 5))
    }

    @Test func removalReportsTheRemovedElementAtItsOldIndex() {
        let change = ArrayChange(removingAt: 3, from: letters)
        #expect(Array(change.modifications) == [.remove("d", at: 3)])
        #expect(change.countAfter == 4)
        #expect(change.applied(to: letters) == ["a", "b", "c", "e"])
    }

    @Test func removingARangeIsOneSliceReplacementByNothing() {
        let change = ArrayChange(removingSubrange: 1..<4, from: letters)
        #expect(Array(change.modifications) == [.replaceSlice(["b", "c", "d"], at: 1, with: [])])
        #expect(change.applied(to: letters) == ["a", "e"])
    }

    @Test func removingARangeExpressionReadsItAgainstTheContents() {
        #expect(
            ArrayChange(removingSubrange: 3..., from: letters)
                == ArrayChange(countBefore: 5, modifications: [.replaceSlice(["d", "e"], at: 3, with: [])]))
    }

    @Test func removingAllIsOneRemovalOfEverything() {
        let change = ArrayChange(removingAllFrom: letters)
        #expect(Array(change.modifications) == [.replaceSlice(letters, at: 0, with: [])])
        #expect(change.applied(to: letters) == [])
        #expect(ArrayChange<String>(removingAllFrom: []).isEmpty)
    }

    @Test func settingAnElementIsAReplacement() {
        let change = ArrayChange(setting: "X", at: 4, in: letters)
        #expect(Array(change.modifications) == [.replace("e", with: "X", at: 4)])
        #expect(change.countAfter == 5)
        #expect(change.applied(to: letters) == ["a", "b", "c", "d", "X"])
    }

    @Test func settingAnElementToAnEqualOneIsStillAReplacement() {
        let change = ArrayChange(setting: "c", at: 2, in: letters)
        #expect(Array(change.modifications) == [.replace("c", with: "c", at: 2)])
        #expect(!change.isEmpty)
    }

    @Test func replacingASubrangeIsOneSliceReplacement() {
        let change = ArrayChange(replacingSubrange: 1..<3, with: ["x", "y", "z"], in: letters)
        #expect(Array(change.modifications) == [.replaceSlice(["b", "c"], at: 1, with: ["x", "y", "z"])])
        #expect(change.countAfter == 6)
        #expect(change.applied(to: letters) == ["a", "x", "y", "z", "d", "e"])
    }

    @Test func replacingOneElementByOneIsAReplacement() {
        let change = ArrayChange(replacingSubrange: 2...2, with: ["x"], in: letters)
        #expect(Array(change.modifications) == [.replace("c", with: "x", at: 2)])
    }

    @Test func replacingAnEmptyRangeIsAnInsertion() {
        let change = ArrayChange(replacingSubrange: 2..<2, with: ["x"], in: letters)
        #expect(Array(change.modifications) == [.insert("x", at: 2)])
    }

    @Test func moveForwardIsARemovalAndAnInsertionAfterTheDestination() {
        let change = ArrayChange(movingFrom: 1, to: 3, in: letters)
        #expect(Array(change.modifications) == [.remove("b", at: 1), .insert("b", at: 4)])
        #expect(change.applied(to: letters) == ["a", "c", "d", "b", "e"])
    }

    @Test func moveBackwardIsAnInsertionAtTheDestinationAndARemoval() {
        let change = ArrayChange(movingFrom: 3, to: 1, in: letters)
        #expect(Array(change.modifications) == [.insert("d", at: 1), .remove("d", at: 3)])
        #expect(change.applied(to: letters) == ["a", "d", "b", "c", "e"])
    }

    @Test func moveToTheNextPlaceKeepsTheTwoModificationsApart() {
        let change = ArrayChange(movingFrom: 1, to: 2, in: letters)
        #expect(Array(change.modifications) == [.remove("b", at: 1), .insert("b", at: 3)])
        #expect(change.applied(to: letters) == ["a", "c", "b", "d", "e"])
    }

    @Test func moveToTheLastPlaceInsertsAtTheCount() {
        let change = ArrayChange(movingFrom: 0, to: 4, in: letters)
        #expect(Array(change.modifications) == [.remove("a", at: 0), .insert("a", at: 5)])
        #expect(change.applied(to: letters) == ["b", "c", "d", "e", "a"])
    }

    @Test func moveToTheSamePlaceIsNoChange() {
        #expect(ArrayChange(movingFrom: 2, to: 2, in: letters).isEmpty)
    }

    @Test func anOutOfRangeIndexStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = ArrayChange(removingAt: 3, from: ["a", "b", "c"])
        }
        await #expect(processExitsWith: .failure) {
            _ = ArrayChange(inserting: "x", at: 4, into: ["a", "b", "c"])
        }
    }
}
