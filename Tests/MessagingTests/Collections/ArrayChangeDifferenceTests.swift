import Messaging
import Testing

@Suite("ArrayChange: diffs, CollectionDifference and table-view indices")
struct ArrayChangeDifferenceTests {
    let letters = ["a", "b", "c", "d", "e"]

    @Test func diffingTwoArraysGivesTheSlicesThatDiffer() {
        let change = ArrayChange(from: letters, to: ["a", "x", "c", "e", "f"])
        #expect(
            Array(change.modifications) == [.replace("b", with: "x", at: 1), .remove("d", at: 3), .insert("f", at: 5)])
        #expect(change.applied(to: letters) == ["a", "x", "c", "e", "f"])
    }

    @Test func diffingAnArrayWithItselfIsEmpty() {
        #expect(ArrayChange(from: letters, to: letters).isEmpty)
    }

    @Test func diffingFromEmptyIsOneInsertionOfEverything() {
        #expect(
            Array(ArrayChange(from: [], to: ["a", "b"]).modifications) == [.replaceSlice([], at: 0, with: ["a", "b"])])
    }

    @Test func collectionDifferenceRemovesAtOldOffsetsAndInsertsAtNewOffsets() {
        let change = ArrayChange(
            countBefore: 5,
            modifications: [.insert("x", at: 0), .remove("c", at: 2), .replaceSlice(["e"], at: 4, with: ["y", "z"])])
        let difference = change.collectionDifference
        #expect(
            Array(difference) == [
                .remove(offset: 4, element: "e", associatedWith: nil),
                .remove(offset: 2, element: "c", associatedWith: nil),
                .insert(offset: 0, element: "x", associatedWith: nil),
                .insert(offset: 4, element: "y", associatedWith: nil),
                .insert(offset: 5, element: "z", associatedWith: nil),
            ])
        #expect(letters.applying(difference) == ["x", "a", "b", "d", "y", "z"])
    }

    @Test func aMoveIsInferredFromTheCollectionDifference() {
        let difference = ArrayChange(movingFrom: 1, to: 3, in: letters).collectionDifference.inferringMoves()
        #expect(
            Array(difference) == [
                .remove(offset: 1, element: "b", associatedWith: 3),
                .insert(offset: 3, element: "b", associatedWith: 1),
            ])
    }

    @Test func aCollectionDifferenceBecomesTheSameSlices() {
        let difference = ["a", "x", "c", "e", "f"].difference(from: letters)
        let change = ArrayChange(difference, countBefore: 5)
        #expect(change == ArrayChange(from: letters, to: ["a", "x", "c", "e", "f"]))
        #expect(change.collectionDifference == difference)
    }

    @Test func aMoveInACollectionDifferenceBecomesARemovalAndAnInsertion() {
        let difference = ["a", "c", "d", "b", "e"].difference(from: letters).inferringMoves()
        #expect(
            Array(ArrayChange(difference, countBefore: 5).modifications) == [.remove("b", at: 1), .insert("b", at: 4)])
    }

    @Test func aCollectionDifferencePastTheEndStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let difference = CollectionDifference<String>([.remove(offset: 3, element: "d", associatedWith: nil)])!
            _ = ArrayChange(difference, countBefore: 3)
        }
    }

    @Test func settingAnElementReloadsItsRow() {
        #expect(ArrayChange(setting: "X", at: 1, in: letters).batchUpdates == ArrayBatchUpdates(reloaded: [1]))
    }

    @Test func batchUpdatesDeleteInOldAndInsertInNewCoordinates() {
        let change = ArrayChange(
            countBefore: 5,
            modifications: [.insert("x", at: 0), .remove("c", at: 2), .replaceSlice(["e"], at: 4, with: ["y", "z"])])
        #expect(change.batchUpdates == ArrayBatchUpdates(deleted: [2], inserted: [0, 5], reloaded: [4]))
    }

    @Test func aSliceReloadsAsManyRowsAsItKeeps() {
        let change = ArrayChange(replacingSubrange: 1..<4, with: ["x"], in: letters)
        #expect(change.batchUpdates == ArrayBatchUpdates(deleted: [2, 3], reloaded: [1]))
    }

    @Test func aMoveIsADeletionAndAnInsertionWithoutInference() {
        let change = ArrayChange(movingFrom: 1, to: 3, in: letters)
        #expect(change.batchUpdates == ArrayBatchUpdates(deleted: [1], inserted: [3]))
    }

    @Test func aMoveIsAMoveWithInference() {
        let change = ArrayChange(movingFrom: 1, to: 3, in: letters)
        #expect(change.batchUpdatesInferringMoves() == ArrayBatchUpdates(moved: [.init(from: 1, to: 3)]))
    }

    @Test func elementsThatAreNotMovedStillReloadWithInference() {
        // a b c d e -> c X d e: "c" moves from 2 to 0, "b" is replaced by "X", "a" is deleted.
        let change = ArrayChange(
            countBefore: 5, modifications: [.replaceSlice(["a", "b", "c"], at: 0, with: ["c", "X"])])
        #expect(
            change.batchUpdatesInferringMoves()
                == ArrayBatchUpdates(deleted: [1], moved: [.init(from: 2, to: 0)], reloaded: [0]))
        #expect(change.batchUpdates == ArrayBatchUpdates(deleted: [2], reloaded: [0, 1]))
    }

    @Test func emptyChangeHasNoBatchUpdates() {
        #expect(ArrayChange<String>(countBefore: 3).batchUpdates.isEmpty)
        #expect(ArrayChange<String>(countBefore: 3).batchUpdatesInferringMoves().isEmpty)
    }
}
