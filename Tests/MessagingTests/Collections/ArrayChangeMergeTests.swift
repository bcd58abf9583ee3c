import Testing

@testable import Messaging

@Suite("ArrayChange: merging a change with the next one")
struct ArrayChangeMergeTests {
    let letters = ["a", "b", "c", "d", "e"]

    /// Merges `edits`, each made from the contents the previous one left, and checks the result
    /// against applying them in turn, with both forms of merging.
    func merge(_ contents: [String], _ edits: [([String]) -> ArrayChange<String>]) -> ArrayChange<String> {
        var current = contents
        var merged = ArrayChange<String>(countBefore: contents.count)
        var copied = merged
        for edit in edits {
            let change = edit(current)
            current = change.applied(to: current)
            merged.merge(with: change)
            copied = copied.merged(with: change)
        }
        #expect(merged == copied)
        #expect(merged._isCanonical)
        #expect(merged.applied(to: contents) == current)
        return merged
    }

    @Test func disjointEditsKeepTheirOffsetsInTheOriginalContents() {
        let merged = merge(
            letters,
            [
                { ArrayChange(removingAt: 3, from: $0) },  // a b c e
                { ArrayChange(inserting: "x", at: 0, into: $0) },  // x a b c e
                { ArrayChange(setting: "Y", at: 4, in: $0) },  // x a b c Y
            ])
        #expect(Array(merged.modifications) == [.insert("x", at: 0), .replaceSlice(["d", "e"], at: 3, with: ["Y"])])
    }

    @Test func anInsertionRemovedAgainCancelsOut() {
        let merged = merge(
            letters,
            [
                { ArrayChange(inserting: "x", at: 2, into: $0) },
                { ArrayChange(removingAt: 2, from: $0) },
            ])
        #expect(merged.isEmpty)
        #expect(merged.countAfter == 5)
    }

    @Test func anInsertionReplacedIsAnInsertionOfTheLastElement() {
        let merged = merge(
            letters,
            [
                { ArrayChange(inserting: "x", at: 2, into: $0) },
                { ArrayChange(setting: "y", at: 2, in: $0) },
            ])
        #expect(Array(merged.modifications) == [.insert("y", at: 2)])
    }

    @Test func aReplacementRemovedIsARemovalOfTheOriginalElement() {
        let merged = merge(
            letters,
            [
                { ArrayChange(setting: "x", at: 1, in: $0) },
                { ArrayChange(removingAt: 1, from: $0) },
            ])
        #expect(Array(merged.modifications) == [.remove("b", at: 1)])
    }

    @Test func aReplacementPutBackIsStillAReplacement() {
        let merged = merge(
            letters,
            [
                { ArrayChange(setting: "x", at: 1, in: $0) },
                { ArrayChange(setting: "b", at: 1, in: $0) },
            ])
        #expect(Array(merged.modifications) == [.replace("b", with: "b", at: 1)])
        #expect(!merged.isEmpty)
    }

    @Test func aRemovalThenAnInsertionAtTheSamePlaceIsAReplacement() {
        let merged = merge(
            letters,
            [
                { ArrayChange(removingAt: 2, from: $0) },
                { ArrayChange(inserting: "x", at: 2, into: $0) },
            ])
        #expect(Array(merged.modifications) == [.replace("c", with: "x", at: 2)])
    }

    @Test func aRangeEditAcrossEarlierEditsBecomesOneSliceOfTheOriginalElements() {
        let merged = merge(
            letters,
            [
                { ArrayChange(inserting: "x", at: 1, into: $0) },  // a x b c d e
                { ArrayChange(removingAt: 4, from: $0) },  // a x b c e
                { ArrayChange(replacingSubrange: 0..<4, with: ["P", "Q"], in: $0) },  // P Q e
            ])
        #expect(Array(merged.modifications) == [.replaceSlice(["a", "b", "c", "d"], at: 0, with: ["P", "Q"])])
    }

    @Test func anEditInsideAnEarlierInsertionChangesOnlyTheInsertedElements() {
        let merged = merge(
            letters,
            [
                { ArrayChange(insertingContentsOf: ["x", "y", "z"], at: 2, into: $0) },  // a b x y z c d e
                { ArrayChange(replacingSubrange: 3..<4, with: ["Y1", "Y2"], in: $0) },  // a b x Y1 Y2 z c d e
            ])
        #expect(Array(merged.modifications) == [.replaceSlice([], at: 2, with: ["x", "Y1", "Y2", "z"])])
    }

    @Test func editsThatTouchAreJoined() {
        let merged = merge(
            letters,
            [
                { ArrayChange(setting: "B", at: 1, in: $0) },
                { ArrayChange(setting: "C", at: 2, in: $0) },
                { ArrayChange(inserting: "x", at: 1, into: $0) },  // a x B C d e
            ])
        #expect(Array(merged.modifications) == [.replaceSlice(["b", "c"], at: 1, with: ["x", "B", "C"])])
    }

    @Test func appendsAreOneInsertionAtTheEnd() {
        let merged = merge(
            ["a"],
            [
                { ArrayChange(appending: "b", to: $0) },
                { ArrayChange(appending: "c", to: $0) },
                { ArrayChange(appendingContentsOf: ["d", "e"], to: $0) },
            ])
        #expect(Array(merged.modifications) == [.replaceSlice([], at: 1, with: ["b", "c", "d", "e"])])
    }

    @Test func aMoveThereAndBackIsAReplacementOfTheElementByItself() {
        let merged = merge(
            letters,
            [
                { ArrayChange(movingFrom: 0, to: 2, in: $0) },
                { ArrayChange(movingFrom: 2, to: 0, in: $0) },
            ])
        #expect(Array(merged.modifications) == [.replace("a", with: "a", at: 0)])
    }

    @Test func removingEverythingAfterEditsRemovesTheOriginalElements() {
        let merged = merge(
            letters,
            [
                { ArrayChange(inserting: "x", at: 5, into: $0) },
                { ArrayChange(setting: "A", at: 0, in: $0) },
                { ArrayChange(removingAllFrom: $0) },
            ])
        #expect(Array(merged.modifications) == [.replaceSlice(letters, at: 0, with: [])])
    }

    @Test func anEditBetweenEarlierEditsMergesOnlyWhatItTouches() {
        let merged = merge(
            ["a", "b", "c", "d", "e", "f", "g", "h", "i"],
            [
                { ArrayChange(setting: "A", at: 0, in: $0) },
                { ArrayChange(setting: "E", at: 4, in: $0) },
                { ArrayChange(setting: "I", at: 8, in: $0) },  // A b c d E f g h I
                { ArrayChange(inserting: "x", at: 2, into: $0) },  // A b x c d E f g h I: between two
                { ArrayChange(removingAt: 5, from: $0) },  // A b x c d f g h I: removes the middle one
                { ArrayChange(replacingSubrange: 5..<7, with: ["G"], in: $0) },  // A b x c d G h I: touches it
            ])
        #expect(
            Array(merged.modifications) == [
                .replace("a", with: "A", at: 0), .insert("x", at: 2),
                .replaceSlice(["e", "f", "g"], at: 4, with: ["G"]), .replace("i", with: "I", at: 8),
            ])
    }

    @Test func mergingAnEmptyChangeChangesNothing() {
        let change = ArrayChange(removingAt: 1, from: letters)
        #expect(change.merged(with: ArrayChange(countBefore: 4)) == change)
        #expect(ArrayChange(countBefore: 5).merged(with: change) == change)
    }

    @Test func mergingIsAssociative() {
        let first = ArrayChange(insertingContentsOf: ["x", "y"], at: 1, into: letters)  // a x y b c d e
        let second = ArrayChange(replacingSubrange: 2..<5, with: ["Z"], in: first.applied(to: letters))  // a x Z d e
        let third = ArrayChange(inserting: "w", at: 3, into: ["a", "x", "Z", "d", "e"])  // a x Z w d e
        #expect(first.merged(with: second).merged(with: third) == first.merged(with: second.merged(with: third)))
    }

    @Test func mergingAChangeForAnotherCountStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let first = ArrayChange(removingAt: 0, from: ["a", "b"])
            _ = first.merged(with: ArrayChange(removingAt: 0, from: ["a", "b"]))
        }
    }
}
