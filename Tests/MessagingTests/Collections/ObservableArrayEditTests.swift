import Testing

@testable import Messaging

/// Rule 1 and 2 of observable collections: each edit sends one change that maps one-to-one to the
/// edit, and an edit that changes nothing sends nothing.
@Suite("ObservableArray: edits and their changes")
struct ObservableArrayEditTests {
    @Test func appendIsAnInsertionAtTheOldEnd() {
        let array = ObservableArray([1, 2])
        let recorder = ArrayChangeRecorder(array)
        array.append(3)
        #expect(recorder.take() == [change(2, .insert(3, at: 2))])
        #expect(array.value == [1, 2, 3])
    }

    @Test func insertIsAnInsertionAtThatIndex() {
        let array = ObservableArray([1, 2])
        let recorder = ArrayChangeRecorder(array)
        array.insert(9, at: 1)
        #expect(recorder.take() == [change(2, .insert(9, at: 1))])
        #expect(array.value == [1, 9, 2])
    }

    @Test func removalReportsTheRemovedElementAtItsOldIndex() {
        let array = ObservableArray([1, 2, 3])
        let recorder = ArrayChangeRecorder(array)
        let removed = array.remove(at: 1)
        #expect(removed == 2)
        #expect(recorder.take() == [change(3, .remove(2, at: 1))])
        #expect(array.value == [1, 3])
    }

    @Test func settingAnElementIsAReplacement() {
        let array = ObservableArray([1, 2, 3])
        let recorder = ArrayChangeRecorder(array)
        array[2] = 7
        #expect(recorder.take() == [change(3, .replace(3, with: 7, at: 2))])
        #expect(array[2] == 7)
    }

    @Test func aRangeEditIsOneSliceReplacement() {
        let array = ObservableArray([1, 2, 3, 4])
        let recorder = ArrayChangeRecorder(array)
        array.replaceSubrange(1..<3, with: [7, 8, 9])
        array.removeSubrange(0..<2)
        array.append(contentsOf: [5, 6])
        array.insert(contentsOf: [0, 0], at: 0)
        #expect(
            recorder.take() == [
                change(4, .replaceSlice([2, 3], at: 1, with: [7, 8, 9])),
                change(5, .replaceSlice([1, 7], at: 0, with: [])),
                change(3, .replaceSlice([], at: 3, with: [5, 6])),
                change(5, .replaceSlice([], at: 0, with: [0, 0])),
            ])
        #expect(array.value == [0, 0, 8, 9, 4, 5, 6])
    }

    @Test func removeAllRemovesEveryElementInOneChange() {
        let array = ObservableArray([1, 2, 3])
        let recorder = ArrayChangeRecorder(array)
        array.removeAll()
        #expect(recorder.take() == [change(3, .replaceSlice([1, 2, 3], at: 0, with: []))])
        #expect(array.value.isEmpty)
    }

    @Test func moveIsARemovalAndAnInsertionInOneChange() {
        let array = ObservableArray([1, 2, 3, 4])
        let recorder = ArrayChangeRecorder(array)
        array.move(from: 0, to: 2)
        #expect(recorder.take() == [change(4, .remove(1, at: 0), .insert(1, at: 3))])
        #expect(array.value == [2, 3, 1, 4])
        array.move(from: 3, to: 0)
        #expect(recorder.take() == [change(4, .insert(4, at: 0), .remove(4, at: 3))])
        #expect(array.value == [4, 2, 3, 1])
    }

    @Test func settingTheValueReplacesTheWholeContents() {
        let array = ObservableArray([1, 2])
        let recorder = ArrayChangeRecorder(array)
        array.value = [3]
        #expect(recorder.take() == [change(2, .replaceSlice([1, 2], at: 0, with: [3]))])
    }

    @Test func modifyOfEquatableElementsSendsOnlyTheDifference() {
        let array = ObservableArray([1, 2, 3, 4])
        let recorder = ArrayChangeRecorder(array)
        let result = array.modify { contents in
            contents.removeAll { $0 % 2 == 0 }
            return contents.count
        }
        #expect(result == 2)
        #expect(recorder.take() == [change(4, .remove(2, at: 1), .remove(4, at: 3))])
        #expect(array.value == [1, 3])
    }

    @Test func modifyOfOtherElementsSendsOneWholeReplacement() {
        struct Item: Sendable { let id: Int }
        let array = ObservableArray([Item(id: 1), Item(id: 2)])
        let received = Locked<[[Int]]>([])
        let token = array.subscribe { change in
            received.withLock {
                $0.append(change.modifications.flatMap { $0.oldElements.map(\.id) + [-1] + $0.newElements.map(\.id) })
            }
        }
        array.modify { $0.reverse() }
        #expect(received.value == [[1, 2, -1, 2, 1]])
        #expect(array.value.map(\.id) == [2, 1])
        withExtendedLifetime(token) {}
    }

    @Test func modifyThatThrowsLeavesTheContentsAndSendsNothing() {
        struct Failure: Error {}
        let array = ObservableArray([1, 2])
        let recorder = ArrayChangeRecorder(array)
        #expect(throws: Failure.self) {
            try array.modify { contents throws(Failure) in
                contents.append(3)
                throw Failure()
            }
        }
        #expect(array.value == [1, 2])
        #expect(recorder.take().isEmpty)
    }

    @Test func editsThatChangeNothingNotifyNobody() {
        let array = ObservableArray([1, 2, 3])
        let recorder = ArrayChangeRecorder(array)
        array.append(contentsOf: [])
        array.insert(contentsOf: [], at: 1)
        array.removeSubrange(1..<1)
        array.replaceSubrange(2..<2, with: [])
        array.move(from: 2, to: 2)
        array.modify { $0.sort() }
        let empty = ObservableArray<Int>()
        let emptyRecorder = ArrayChangeRecorder(empty)
        empty.removeAll()
        empty.value = []
        #expect(recorder.take().isEmpty)
        #expect(emptyRecorder.take().isEmpty)
        #expect(array.value == [1, 2, 3])
    }

    @Test func everyChangeAppliedToTheOldContentsGivesTheNewContents() {
        let array = ObservableArray([5, 6, 7])
        let recorder = ArrayChangeRecorder(array)
        var copy = array.value
        array.insert(1, at: 0)
        array.move(from: 1, to: 3)
        array[0] = 2
        array.replaceSubrange(0..<2, with: [8])
        for received in recorder.take() { received.apply(to: &copy) }
        #expect(copy == array.value)
        #expect(copy == [8, 7, 5])
    }

    @Test func valueIsACopy() {
        let array = ObservableArray([1])
        let before = array.value
        array.append(2)
        #expect(before == [1])
        #expect(array.count == 2)
        #expect(!array.isEmpty)
    }

    @Test func anOutOfRangeIndexStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            ObservableArray([1]).remove(at: 1)
        }
        await #expect(processExitsWith: .failure) {
            ObservableArray([1]).insert(0, at: 2)
        }
        await #expect(processExitsWith: .failure) {
            ObservableArray([1])[-1] = 0
        }
    }
}
