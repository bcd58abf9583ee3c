import Foundation
import Testing

@testable import Messaging

/// An outer element that leads to an inner array: a project and its issues.
private final class Box: Sendable {
    let items: ObservableArray<Int>
    init(_ items: [Int]) { self.items = ObservableArray(items) }
}

/// Every change a flattened view sends, in order.
private final class FlatRecorder: Sendable {
    let token: ObservationToken
    let received = Locked<[ArrayChange<Int>]>([])

    init(_ view: FlattenedArray<Box, Int>) {
        let received = received
        token = view.subscribe { change in received.withLock { $0.append(change) } }
    }

    func take() -> [ArrayChange<Int>] {
        received.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }
}

@Suite("FlattenedArray: the inner arrays of an array's elements as one array")
struct FlattenedArrayTests {
    @Test func anInnerEditIsShiftedByTheInnerElementsBeforeIt() {
        let first = Box([1, 2])
        let second = Box([3])
        let outer = ObservableArray([first, second])
        let all = outer.flatMap(\.items)
        let recorder = FlatRecorder(all)
        second.items.append(4)
        first.items.remove(at: 0)
        second.items[0] = 30
        #expect(
            recorder.take() == [
                change(3, .insert(4, at: 3)),
                change(4, .remove(1, at: 0)),
                change(3, .replace(3, with: 30, at: 1)),
            ])
        #expect(all.value == [2, 30, 4])
    }

    @Test func anOuterEditInsertsOrRemovesAllItsInnerElementsAtOnce() {
        let first = Box([1, 2])
        let second = Box([3])
        let outer = ObservableArray([first, second])
        let all = outer.flatMap(\.items)
        let recorder = FlatRecorder(all)
        let third = Box([7, 8])
        outer.insert(third, at: 1)
        outer.remove(at: 0)
        outer[0] = Box([9])
        #expect(
            recorder.take() == [
                change(3, .replaceSlice([], at: 2, with: [7, 8])),
                change(5, .replaceSlice([1, 2], at: 0, with: [])),
                change(3, .replaceSlice([7, 8], at: 0, with: [9])),
            ])
        #expect(all.value == [9, 3])
        // The removed inner arrays are no longer observed; their edits reach nobody.
        #expect(first.items.messenger.observationCount == 0)
        #expect(third.items.messenger.observationCount == 0)
        third.items.append(1)
        #expect(recorder.take().isEmpty)
    }

    @Test func anOuterEditThatTouchesNoInnerElementSendsNothing() {
        let outer = ObservableArray([Box([1])])
        let all = outer.flatMap(\.items)
        let recorder = FlatRecorder(all)
        let empty = Box([])
        outer.append(empty)
        outer.remove(at: 1)
        #expect(recorder.take().isEmpty)
        outer.append(empty)
        empty.items.append(5)
        #expect(recorder.take() == [change(1, .insert(5, at: 1))])
    }

    @Test func aTransactionOfTheOuterArrayIsOneChange() {
        let outer = ObservableArray([Box([1]), Box([2])])
        let all = outer.flatMap(\.items)
        let recorder = FlatRecorder(all)
        outer.withTransaction {
            outer.append(Box([3]))
            outer.remove(at: 0)
        }
        let received = recorder.take()
        #expect(received.count == 1)
        #expect(received.first?.applied(to: [1, 2]) == [2, 3])
    }

    @Test func observesItsArraysOnlyWhileObservedAndThenLetsGo() {
        let box = Box([1])
        let outer = ObservableArray([box])
        weak var weakView: FlattenedArray<Box, Int>?
        do {
            let all = outer.flatMap(\.items)
            weakView = all
            #expect(all.value == [1])  // read without observing
            #expect(outer.messenger.observationCount == 0 && box.items.messenger.observationCount == 0)
            let token = all.subscribe { _ in }
            #expect(outer.messenger.observationCount == 1 && box.items.messenger.observationCount == 1)
            token.stopObserving()
            #expect(outer.messenger.observationCount == 0 && box.items.messenger.observationCount == 0)
        }
        #expect(weakView == nil)
    }

    @Test func aReplayStartsWithTheContents() {
        let outer = ObservableArray([Box([1, 2]), Box([3])])
        let all = outer.flatMap(\.items)
        let received = Locked<[ArrayChange<Int>]>([])
        let token = all.subscribe(replayingLatest: true) { change in received.withLock { $0.append(change) } }
        #expect(received.value == [change(0, .replaceSlice([], at: 0, with: [1, 2, 3]))])
        withExtendedLifetime(token) {}
    }

    static var steps: Int {
        modelSteps(standard: 100_000)
    }

    /// Random edits of the outer array and of the inner arrays, checked after every step: the
    /// received changes turn the previous contents into the current ones, which equal the
    /// recomputation.
    @Test(arguments: CollectionChangeModelTests.seeds)
    func everyChangeTurnsThePreviousContentsIntoTheCurrentOnes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let outer = ObservableArray<Box>()
        let all = outer.flatMap(\.items)
        let recorder = FlatRecorder(all)
        var copy: [Int] = []
        var retired: [Box] = []
        for step in 0..<Self.steps {
            let boxes = outer.value
            switch random.roll(0..<10) {
            case 0 where boxes.count < 12:
                let items = (0..<random.roll(0..<4)).map { _ in random.roll(0..<100) }
                outer.insert(Box(items), at: random.roll(0...boxes.count))
            case 1 where !boxes.isEmpty:
                retired.append(outer.remove(at: random.roll(0..<boxes.count)))
            case 2 where !boxes.isEmpty:
                outer[random.roll(0..<boxes.count)] = Box([random.roll(0..<100)])
            case 3 where boxes.count > 1:
                outer.withTransaction {
                    outer.append(Box([random.roll(0..<100)]))
                    outer.remove(at: 0)
                }
            case 4 where !retired.isEmpty:
                // An edit of an inner array that left the view reaches nobody.
                retired[random.roll(0..<retired.count)].items.append(-1)
                if retired.count > 4 { retired.removeFirst() }
            default:
                guard !boxes.isEmpty else { continue }
                let items = boxes[random.roll(0..<boxes.count)].items
                let count = items.count
                switch random.roll(0..<4) {
                case 0: items.insert(random.roll(0..<100), at: random.roll(0...count))
                case 1 where count > 0: items.remove(at: random.roll(0..<count))
                case 2 where count > 0: items[random.roll(0..<count)] = random.roll(0..<100)
                default: items.append(random.roll(0..<100))
                }
            }
            for received in recorder.take() {
                #expect(received.countBefore == copy.count)
                received.apply(to: &copy)
            }
            let expected = outer.value.flatMap { $0.items.value }
            if copy != expected || all.value != expected {
                Issue.record("seed \(seed), step \(step): received \(copy), view \(all.value), expected \(expected)")
                return
            }
        }
    }

    @Test func eightThreadsEditingTheArraysLeaveTheReceivedCopyEqualToTheContents() {
        let boxes = (0..<8).map { Box([$0]) }
        let outer = ObservableArray(boxes)
        let all = outer.flatMap(\.items)
        let copy = Locked<[Int]>(all.value)
        let mismatches = Locked(0)
        let token = all.subscribe { change in
            copy.withLock { copy in
                if change.countBefore != copy.count { mismatches.withLock { $0 += 1 } }
                change.apply(to: &copy)
            }
        }
        // A generous limit: under a full parallel test run on a small machine, the threads share
        // the cores with every other suite.
        #expect(
            runOnThreads(8) { thread in
                let own = boxes[thread].items
                for step in 0..<2_000 {
                    switch step % 5 {
                    case 0 where thread == 0:
                        // One thread also changes the outer array.
                        outer.append(Box([step]))
                    case 1 where thread == 0 && outer.count > 8:
                        outer.remove(at: outer.count - 1)
                    case 2 where own.count > 1:
                        own.remove(at: 0)
                    default:
                        own.append(thread * 10_000 + step)
                    }
                }
            })
        #expect(waitUntilDelivered(outer.messenger, all.messenger))
        // The inner arrays' own messengers may still deliver edits, so the copy can equal the
        // arrays for a moment while the view moves on: wait until the copy, the view and the
        // arrays agree at once.
        #expect(
            waitUntil {
                let received = copy.value
                return received == outer.value.flatMap { $0.items.value } && received == all.value
            })
        #expect(mismatches.value == 0)
        withExtendedLifetime(token) {}
    }
}
