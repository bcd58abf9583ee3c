import Testing

@testable import Messaging

/// Folds of an observable array: updated per change from the contents they start with, silent
/// when the result stays, observing the array only while observed.
@Suite("ArrayFold: incremental sums, counts and folds of an ObservableArray")
struct ArrayFoldTests {
    /// Records a fold's updates while it lives.
    final class UpdateRecorder: Sendable {
        let token: ObservationToken
        let received = Locked<[Update<Int>]>([])

        init(_ fold: ArrayFold<Int, Int>, replayingLatest: Bool = false) {
            let received = received
            token = fold.subscribe(replayingLatest: replayingLatest) { update in
                received.withLock { $0.append(update) }
            }
        }

        func take() -> [Update<Int>] {
            received.withLock { updates in
                defer { updates = [] }
                return updates
            }
        }
    }

    @Test func aSumStartsFromTheContentsItFindsAndFollowsEachEdit() {
        let array = ObservableArray([1, 2, 3])
        let sum = array.observableSum
        let recorder = UpdateRecorder(sum)
        #expect(recorder.take().isEmpty)
        #expect(sum.value == 6)

        array.append(4)
        #expect(recorder.take() == [Update(6, 10)])
        array.insert(10, at: 0)
        #expect(recorder.take() == [Update(10, 20)])
        #expect(array.remove(at: 1) == 1)
        #expect(recorder.take() == [Update(20, 19)])
        array[0] = 5
        #expect(recorder.take() == [Update(19, 14)])
        array.replaceSubrange(0..<2, with: [1, 1, 1])
        #expect(recorder.take() == [Update(14, 10)])
        array.removeAll()
        #expect(recorder.take() == [Update(10, 0)])
        #expect(sum.value == 0)
    }

    @Test func anEditThatKeepsTheResultSendsNothing() {
        let array = ObservableArray([1, 2, 3])
        let sum = array.observableSum
        let recorder = UpdateRecorder(sum)
        array.move(from: 0, to: 2)
        array[1] = array[1]
        array.replaceSubrange(0..<2, with: [1, 1, 1, 1, 1])
        #expect(array.value == [1, 1, 1, 1, 1, 1])
        #expect(recorder.take().isEmpty)
        #expect(sum.value == 6)
    }

    @Test func aTransactionGivesOneUpdateFromTheResultBeforeItToTheResultAfterIt() {
        let array = ObservableArray([1])
        let sum = array.observableSum
        let recorder = UpdateRecorder(sum)
        array.withTransaction {
            array.append(2)
            array.append(3)
            array.withTransaction { array.remove(at: 0) }
        }
        #expect(recorder.take() == [Update(1, 5)])
    }

    @Test func aCountWhereCountsOnlyWhatItIncludesAndReportsOnlyItsChanges() {
        let array = ObservableArray([1, 2, 3, 4])
        let evens = array.observableCount { $0 % 2 == 0 }
        let recorder = UpdateRecorder(evens)
        #expect(evens.value == 2)
        array.append(5)
        array.append(6)
        array[0] = 8
        array.remove(at: 1)
        #expect(recorder.take() == [Update(2, 3), Update(3, 4), Update(4, 3)])
    }

    @Test func aCustomFoldUsesItsInverseForRemovals() {
        let words = ObservableArray(["a", "bb"])
        let letters = words.fold(0, adding: { $0 + $1.count }, removing: { $0 - $1.count })
        let received = Locked<[Update<Int>]>([])
        let token = letters.subscribe { update in received.withLock { $0.append(update) } }
        words.append("ccc")
        words.remove(at: 0)
        #expect(received.value == [Update(3, 6), Update(6, 5)])
        withExtendedLifetime(token) {}
    }

    @Test func aFoldObservesItsArrayOnlyWhileItIsObservedAndStartsAgainFromTheContents() {
        let array = ObservableArray([1, 2])
        let sum = array.observableSum
        #expect(array.messenger.observationCount == 0)
        #expect(sum.value == 3)  // folded from the contents

        var recorder: UpdateRecorder? = UpdateRecorder(sum)
        #expect(array.messenger.observationCount == 1)
        array.append(3)
        #expect(recorder?.take() == [Update(3, 6)])
        recorder = nil
        #expect(array.messenger.observationCount == 0)

        // Edits while nothing observes the fold: its value still tells the truth.
        array.append(10)
        array.remove(at: 0)
        #expect(sum.value == 15)

        recorder = UpdateRecorder(sum)
        array.append(5)
        #expect(recorder?.take() == [Update(15, 20)])
        #expect(sum.value == 20)
        withExtendedLifetime(recorder) {}
    }

    @Test func replayingAFoldStartsWithItsCurrentResult() {
        let array = ObservableArray([4, 5])
        let sum = array.observableSum
        let recorder = UpdateRecorder(sum, replayingLatest: true)
        array.append(1)
        #expect(recorder.take() == [Update(9, 9), Update(9, 10)])
    }

    @Test func aFoldEditedFromEightThreadsReportsAnUnbrokenChainEndingAtTheSum() {
        let array = ObservableArray<Int>()
        let sum = array.observableSum
        let recorder = UpdateRecorder(sum)
        let finished = runOnThreads(8) { thread in
            for step in 0..<300 {
                switch step % 3 {
                case 0: array.append(thread + 1)
                case 1: array.insert(step, at: 0)
                default: array.modify { if !$0.isEmpty { $0.removeLast() } }
                }
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(array.messenger, sum.messenger))
        let updates = recorder.take()
        var last = 0
        for update in updates {
            #expect(update.old == last)
            last = update.new
        }
        #expect(last == array.value.reduce(0, +))
        #expect(sum.value == last)
    }

    @Test func aFoldAndItsArrayAreReleasedWhenTheirLastReferencesGo() {
        weak var weakArray: ObservableArray<Int>?
        weak var weakFold: ArrayFold<Int, Int>?
        do {
            let array = ObservableArray([1, 2, 3])
            let sum = array.observableSum
            let recorder = UpdateRecorder(sum)
            array.append(4)
            #expect(recorder.take() == [Update(6, 10)])
            weakArray = array
            weakFold = sum
        }
        #expect(weakArray == nil)
        #expect(weakFold == nil)
    }
}
