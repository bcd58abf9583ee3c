import Foundation
import Testing

@testable import Messaging

/// Every change a concatenation sends, in order, kept while the recorder lives.
final class ConcatenationRecorder<Element: Sendable>: Sendable {
    let token: ObservationToken
    let received = Locked<[ArrayChange<Element>]>([])

    init(_ view: ConcatenatedArray<Element>, replayingLatest: Bool = false) {
        let received = received
        token = view.subscribe(replayingLatest: replayingLatest) { change in
            received.withLock { $0.append(change) }
        }
    }

    /// The changes received so far, leaving the list empty.
    func take() -> [ArrayChange<Element>] {
        received.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }
}

/// Concatenations of two observable arrays: exact changes against the concatenated contents,
/// whichever array changes, on whichever thread.
@Suite("ConcatenatedArray: one array followed by another")
struct ConcatenatedArrayTests {
    @Test func aChangeOfTheSecondArrayIsMovedBehindTheFirst() {
        let first = ObservableArray([1, 2])
        let second = ObservableArray([10])
        let view = first.concatenated(with: second)
        let recorder = ConcatenationRecorder(view)
        second.append(11)
        #expect(recorder.take() == [change(3, .insert(11, at: 3))])
        second[0] = 12
        #expect(recorder.take() == [change(4, .replace(10, with: 12, at: 2))])
        second.remove(at: 1)
        #expect(recorder.take() == [change(4, .remove(11, at: 3))])
        #expect(view.value == [1, 2, 12])
        #expect(view.count == 3)
    }

    @Test func aChangeOfTheFirstArrayCountsTheSecondAfterIt() {
        let first = ObservableArray([1, 2])
        let second = ObservableArray([10, 11])
        let view = first.concatenated(with: second)
        let recorder = ConcatenationRecorder(view)
        first.insert(0, at: 0)
        #expect(recorder.take() == [change(4, .insert(0, at: 0))])
        first.append(3)
        #expect(recorder.take() == [change(5, .insert(3, at: 3))])
        first.removeAll()
        #expect(recorder.take() == [change(6, .replaceSlice([0, 1, 2, 3], at: 0, with: []))])
        second.insert(9, at: 0)
        #expect(recorder.take() == [change(2, .insert(9, at: 0))])
        #expect(view.value == [9, 10, 11])
    }

    @Test func aTransactionOfOneArrayGivesOneChange() {
        let first = ObservableArray([1])
        let second = ObservableArray([5, 6])
        let view = first.concatenated(with: second)
        let recorder = ConcatenationRecorder(view)
        second.withTransaction {
            second.append(7)
            second.remove(at: 0)
        }
        let received = recorder.take()
        #expect(received.count == 1)
        var copy = [1, 5, 6]
        for change in received { change.apply(to: &copy) }
        #expect(copy == [1, 6, 7])
    }

    @Test func replayingStartsFromTheWholeConcatenation() {
        let first = ObservableArray(["a"])
        let second = ObservableArray(["b", "c"])
        let view = first.concatenated(with: second)
        let recorder = ConcatenationRecorder(view, replayingLatest: true)
        second.append("d")
        #expect(
            recorder.take() == [
                change(0, .replaceSlice([], at: 0, with: ["a", "b", "c"])), change(3, .insert("d", at: 3)),
            ])
    }

    @Test func anArrayConcatenatedWithItselfSendsAChangeForEachCopy() {
        let array = ObservableArray([1, 2])
        let view = array.concatenated(with: array)
        let recorder = ConcatenationRecorder(view)
        array.append(3)
        var copy = [1, 2, 1, 2]
        let received = recorder.take()
        #expect(received.count == 2)
        for change in received {
            #expect(change.countBefore == copy.count)
            change.apply(to: &copy)
        }
        #expect(copy == [1, 2, 3, 1, 2, 3])
        #expect(view.value == copy)
    }

    @Test func itObservesItsArraysOnlyWhileItIsObservedAndStartsAgainFromTheirCounts() {
        let first = ObservableArray([1])
        let second = ObservableArray([2])
        let view = first.concatenated(with: second)
        #expect(first.messenger.observationCount == 0)
        var recorder: ConcatenationRecorder<Int>? = ConcatenationRecorder(view)
        #expect(first.messenger.observationCount == 1 && second.messenger.observationCount == 1)
        recorder = nil
        #expect(first.messenger.observationCount == 0 && second.messenger.observationCount == 0)
        // Edits while nothing observes the concatenation.
        first.append(3)
        second.removeAll()
        #expect(view.value == [1, 3])
        recorder = ConcatenationRecorder(view)
        second.append(4)
        #expect(recorder?.take() == [change(2, .insert(4, at: 2))])
        withExtendedLifetime(recorder) {}
    }

    @Test func twoArraysEditedFromEightThreadsGiveAnUnbrokenChainEndingAtTheContents() {
        let first = ObservableArray<Int>()
        let second = ObservableArray<Int>()
        let view = first.concatenated(with: second)
        let recorder = ConcatenationRecorder(view)
        let finished = runOnThreads(8) { thread in
            let array = thread % 2 == 0 ? first : second
            for step in 0..<300 {
                switch step % 4 {
                case 0: array.append(thread * 1000 + step)
                case 1: array.insert(step, at: 0)
                case 2: array.modify { if !$0.isEmpty { $0.removeLast() } }
                default: array.modify { if !$0.isEmpty { $0[$0.count / 2] = -step } }
                }
            }
        }
        #expect(finished)
        // The concatenation's outbox may still hold changes when the messengers are idle: apply
        // what arrives until the copy catches up with the arrays.
        var copy: [Int] = []
        var fits = true
        let caughtUp = waitUntil(timeout: 120) {
            for change in recorder.take() {
                if change.countBefore == copy.count {
                    change.apply(to: &copy)
                } else {
                    fits = false
                }
            }
            return !fits || copy == first.value + second.value
        }
        #expect(fits && caughtUp)
        #expect(view.value == copy)
    }

    @Test func aConcatenationAndItsArraysAreReleasedWhenTheirLastReferencesGo() {
        weak var weakFirst: ObservableArray<Int>?
        weak var weakSecond: ObservableArray<Int>?
        weak var weakView: ConcatenatedArray<Int>?
        do {
            let first = ObservableArray([1])
            let second = ObservableArray([2])
            let view = first.concatenated(with: second)
            weakFirst = first
            weakSecond = second
            weakView = view
            var recorder: ConcatenationRecorder<Int>? = ConcatenationRecorder(view)
            second.append(3)
            #expect(recorder?.take() == [change(2, .insert(3, at: 2))])
            #expect(second.messenger.observationCount == 1)
            recorder = nil
            // The last observer stopped: the concatenation stops observing its arrays.
            #expect(first.messenger.observationCount == 0 && second.messenger.observationCount == 0)
        }
        #expect(weakView == nil)
        #expect(weakFirst == nil)
        #expect(weakSecond == nil)
    }

    @Test func anObservedConcatenationStaysAliveWhileObserved() {
        weak var weakView: ConcatenatedArray<Int>?
        let first = ObservableArray([1])
        let second = ObservableArray([2])
        var recorder: ConcatenationRecorder<Int>?
        do {
            let view = first.concatenated(with: second)
            weakView = view
            recorder = ConcatenationRecorder(view)
        }
        #expect(weakView != nil)
        first.append(5)
        #expect(recorder?.take() == [change(2, .insert(5, at: 1))])
        recorder = nil
        #expect(weakView == nil)
    }
}

/// Random edits of two arrays and of their concatenation's observations, checked after every step
/// against the concatenation recomputed from the arrays.
///
/// Set `MESSAGING_MODEL_STEPS` for longer runs and `MESSAGING_MODEL_SEEDS` (such as `1,2,3`) for
/// other seeds; a failing seed replays.
@Suite("Model: random edits of two concatenated arrays checked against their recomputation")
struct ConcatenatedArrayModelTests {
    static var steps: Int { ObservableArrayModelTests.steps }
    static var seeds: [UInt64] { CollectionChangeModelTests.seeds }

    @Test(arguments: seeds)
    func everyChangeTurnsTheReportedConcatenationIntoTheRecomputedOne(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let first = ObservableArray<Int>()
        let second = ObservableArray<Int>()
        let view = first.concatenated(with: second)
        var recorder: ConcatenationRecorder<Int>? = ConcatenationRecorder(view)
        var models: [[Int]] = [[], []]
        var copy: [Int] = []

        func element() -> Int { random.roll(0..<10) }
        func edit(_ side: Int) {
            let array = side == 0 ? first : second
            let count = models[side].count
            switch random.roll(0..<8) {
            case 0:
                let index = random.roll(0...count)
                let new = element()
                array.insert(new, at: index)
                models[side].insert(new, at: index)
            case 1 where count > 0:
                let index = random.roll(0..<count)
                #expect(array.remove(at: index) == models[side].remove(at: index))
            case 2 where count > 0:
                let index = random.roll(0..<count)
                let new = element()
                array[index] = new
                models[side][index] = new
            case 3:
                let lower = random.roll(0...count)
                let range = lower..<random.roll(lower...min(count, lower + 3))
                let new = (0..<random.roll(0...3)).map { _ in element() }
                array.replaceSubrange(range, with: new)
                models[side].replaceSubrange(range, with: new)
            case 4 where random.roll(0..<30) == 0:
                array.removeAll()
                models[side].removeAll()
            case 5:
                let edits = random.roll(0...3)
                array.withTransaction {
                    for _ in 0..<edits {
                        let new = element()
                        let index = random.roll(0...models[side].count)
                        array.insert(new, at: index)
                        models[side].insert(new, at: index)
                    }
                }
            default:
                let new = element()
                array.append(new)
                models[side].append(new)
            }
        }

        for step in 0..<Self.steps {
            if random.roll(0..<500) == 0 {
                // Stop observing, and start again from the contents, replayed.
                recorder = nil
                edit(random.roll(0..<2))
                recorder = ConcatenationRecorder(view, replayingLatest: true)
                copy = []
            } else {
                edit(random.roll(0..<2))
            }
            let expected = models[0] + models[1]
            for change in recorder?.take() ?? [] {
                #expect(!change.isEmpty)
                #expect(change.countBefore == copy.count, "seed \(seed), step \(step)")
                if change.countBefore != copy.count { return }
                change.apply(to: &copy)
            }
            #expect(copy == expected, "seed \(seed), step \(step)")
            #expect(view.value == expected && view.count == expected.count, "seed \(seed), step \(step)")
            if copy != expected { return }
        }
    }
}
