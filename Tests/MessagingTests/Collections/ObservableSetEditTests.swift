import Testing

@testable import Messaging

/// Each edit of an observable set sends one change that describes it against the contents right
/// before it, and an edit that changes nothing sends nothing.
@Suite("ObservableSet: edits and their changes")
struct ObservableSetEditTests {
    @Test func insertSendsTheInsertionAndReturnsWhatSetReturns() {
        let set = ObservableSet<Int>([1])
        let recorder = SetChangeRecorder(set)
        let first = set.insert(2)
        let second = set.insert(2)
        #expect(first == (true, 2))
        #expect(second == (false, 2))
        #expect(recorder.take() == [SetChange(inserted: [2])])
        #expect(set.value == [1, 2])
    }

    @Test func insertOfAnEqualMemberKeepsTheOneThereAndReturnsIt() {
        let set = ObservableSet([Tagged(id: 1, tag: "a")])
        let recorder = SetChangeRecorder(set)
        let result = set.insert(Tagged(id: 1, tag: "b"))
        #expect(!result.inserted)
        #expect(result.memberAfterInsert.tag == "a")
        #expect(recorder.take().isEmpty)
        #expect(set.value.first?.tag == "a")
    }

    @Test func updateOfAnEqualMemberIsAReplacement() {
        let set = ObservableSet([Tagged(id: 1, tag: "a")])
        let recorder = SetChangeRecorder(set)
        let replaced = set.update(with: Tagged(id: 1, tag: "b"))
        #expect(replaced?.tag == "a")
        let received = recorder.take()
        #expect(received == [SetChange(removed: [Tagged(id: 1, tag: "a")], inserted: [Tagged(id: 1, tag: "b")])])
        #expect(received.first?.removed.first?.tag == "a")
        #expect(received.first?.inserted.first?.tag == "b")
        #expect(set.value.first?.tag == "b")
    }

    @Test func updateOfANewMemberIsAnInsertion() {
        let set = ObservableSet<Int>([1])
        let recorder = SetChangeRecorder(set)
        #expect(set.update(with: 2) == nil)
        #expect(recorder.take() == [SetChange(inserted: [2])])
        #expect(set.value == [1, 2])
    }

    @Test func removeSendsTheRemovalOfTheMemberTheSetHeld() {
        let set = ObservableSet([Tagged(id: 1, tag: "a"), Tagged(id: 2, tag: "a")])
        let recorder = SetChangeRecorder(set)
        let removed = set.remove(Tagged(id: 1, tag: "z"))
        #expect(removed?.tag == "a")
        #expect(set.remove(Tagged(id: 7, tag: "a")) == nil)
        let received = recorder.take()
        #expect(received == [SetChange(removed: [Tagged(id: 1, tag: "")])])
        #expect(received.first?.removed.first?.tag == "a")
        #expect(set.value.map(\.id) == [2])
    }

    @Test func removeAllRemovesEveryMemberInOneChange() {
        let set = ObservableSet<Int>([1, 2, 3])
        let recorder = SetChangeRecorder(set)
        set.removeAll()
        #expect(recorder.take() == [SetChange(removed: [1, 2, 3])])
        #expect(set.value.isEmpty)
        #expect(set.isEmpty)
    }

    @Test func sequenceEditsSendOnlyTheMembersThatComeOrGo() {
        let set = ObservableSet<Int>([1, 2, 3])
        let recorder = SetChangeRecorder(set)
        set.formUnion([3, 4, 4, 5])
        #expect(set.value == [1, 2, 3, 4, 5])
        set.subtract([1, 9])
        #expect(set.value == [2, 3, 4, 5])
        set.formIntersection([2, 3, 4, 8])
        #expect(set.value == [2, 3, 4])
        set.formSymmetricDifference([4, 6, 6])
        #expect(set.value == [2, 3, 6])
        #expect(
            recorder.take() == [
                SetChange(inserted: [4, 5]),
                SetChange(removed: [1]),
                SetChange(removed: [5]),
                SetChange(removed: [4], inserted: [6]),
            ])
    }

    @Test func settingTheValueSendsOnlyWhatDiffers() {
        let set = ObservableSet<Int>([1, 2, 3])
        let recorder = SetChangeRecorder(set)
        set.value = [2, 3, 4]
        #expect(recorder.take() == [SetChange(removed: [1], inserted: [4])])
        #expect(set.value == [2, 3, 4])
    }

    @Test func modifySendsOnlyTheDifferenceAndReturnsTheBodysResult() {
        let set = ObservableSet<Int>([1, 2, 3, 4])
        let recorder = SetChangeRecorder(set)
        let result = set.modify { contents in
            contents = contents.filter { $0 % 2 == 1 }
            contents.insert(7)
            return contents.count
        }
        #expect(result == 3)
        #expect(recorder.take() == [SetChange(removed: [2, 4], inserted: [7])])
        #expect(set.value == [1, 3, 7])
    }

    @Test func modifyThatThrowsLeavesTheContentsAndSendsNothing() {
        struct Failure: Error {}
        let set = ObservableSet<Int>([1, 2])
        let recorder = SetChangeRecorder(set)
        #expect(throws: Failure.self) {
            try set.modify { contents throws(Failure) in
                contents.insert(3)
                throw Failure()
            }
        }
        #expect(set.value == [1, 2])
        #expect(recorder.take().isEmpty)
    }

    @Test func editsThatChangeNothingNotifyNobody() {
        let set = ObservableSet<Int>([1, 2, 3])
        let recorder = SetChangeRecorder(set)
        set.insert(1)
        set.remove(9)
        set.formUnion([1, 2])
        set.formUnion([])
        set.subtract([7, 8])
        set.formIntersection([1, 2, 3, 4])
        set.formSymmetricDifference([])
        set.value = [3, 2, 1]
        set.modify { $0.insert(2) }
        let empty = ObservableSet<Int>()
        let emptyRecorder = SetChangeRecorder(empty)
        empty.removeAll()
        empty.value = []
        empty.formIntersection([1])
        #expect(recorder.take().isEmpty)
        #expect(emptyRecorder.take().isEmpty)
        #expect(set.value == [1, 2, 3])
    }

    @Test func everyChangeAppliedToTheOldContentsGivesTheNewContents() {
        let set = ObservableSet<Int>([5, 6, 7])
        let recorder = SetChangeRecorder(set)
        var copy = set.value
        set.insert(1)
        set.update(with: 5)
        set.remove(6)
        set.formSymmetricDifference([1, 2])
        set.modify { $0.remove(7) }
        for received in recorder.take() { received.apply(to: &copy) }
        #expect(copy == set.value)
        #expect(copy == [2, 5])
    }

    @Test func readsShowTheCurrentContentsAndTheValueIsACopy() {
        let set = ObservableSet<Int>([1])
        let before = set.value
        set.insert(2)
        #expect(before == [1])
        #expect(set.count == 2)
        #expect(!set.isEmpty)
        #expect(set.contains(2))
        #expect(!set.contains(3))
    }
}
