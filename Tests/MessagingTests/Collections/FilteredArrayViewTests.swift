import Foundation
import Testing

@testable import Messaging

/// Every change a filtered view sends, in order, kept while the recorder lives.
final class FilteredChangeRecorder<Element: Sendable>: Sendable {
    let token: ObservationToken
    let received = Locked<[ArrayChange<Element>]>([])

    init(_ view: FilteredArrayView<Element>, replayingLatest: Bool = false) {
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

/// A filtered view of an observable array: each change of the array becomes the change of the
/// view's own contents, at positions among the included elements.
@Suite("FilteredArrayView: the elements of an ObservableArray that satisfy a predicate")
struct FilteredArrayViewTests {
    static func isEven(_ value: Int) -> Bool { value % 2 == 0 }

    @Test func insertionsAndRemovalsOfIncludedElementsLandAtTheirPositionAmongThem() {
        let array = ObservableArray([1, 2, 3, 4])
        let evens = array.filteredElements(where: Self.isEven)
        let recorder = FilteredChangeRecorder(evens)
        #expect(evens.value == [2, 4])
        #expect(evens.count == 2)

        array.insert(6, at: 2)  // [1, 2, 6, 3, 4]
        #expect(recorder.take() == [change(2, .insert(6, at: 1))])
        array.insert(5, at: 0)  // excluded: nothing
        #expect(recorder.take().isEmpty)
        array.append(8)  // [5, 1, 2, 6, 3, 4, 8]
        #expect(recorder.take() == [change(3, .insert(8, at: 3))])
        #expect(array.remove(at: 3) == 6)  // [5, 1, 2, 3, 4, 8]
        #expect(recorder.take() == [change(4, .remove(6, at: 1))])
        #expect(array.remove(at: 0) == 5)
        #expect(recorder.take().isEmpty)
        #expect(evens.value == [2, 4, 8])
        #expect(evens.count == 3)
    }

    @Test func aReplacementIsAReplacementARemovalAnInsertionOrNothing() {
        let array = ObservableArray([1, 2, 3, 4])
        let evens = array.filteredElements(where: Self.isEven)
        let recorder = FilteredChangeRecorder(evens)
        array[3] = 10  // included by included
        #expect(recorder.take() == [change(2, .replace(4, with: 10, at: 1))])
        array[1] = 5  // included by excluded: [1, 5, 3, 10]
        #expect(recorder.take() == [change(2, .remove(2, at: 0))])
        array[2] = 12  // excluded by included: [1, 5, 12, 10]
        #expect(recorder.take() == [change(1, .insert(12, at: 0))])
        array[0] = 7  // excluded by excluded
        #expect(recorder.take().isEmpty)
        #expect(evens.value == [12, 10])
    }

    @Test func aSliceReplacementIsOneChangeOfTheIncludedElements() {
        let array = ObservableArray([2, 1, 4, 3, 6, 8])
        let evens = array.filteredElements(where: Self.isEven)
        let recorder = FilteredChangeRecorder(evens)
        array.replaceSubrange(1..<4, with: [5, 10, 12, 7])  // [2, 5, 10, 12, 7, 6, 8]
        #expect(recorder.take() == [change(4, .replaceSlice([4], at: 1, with: [10, 12]))])
        array.replaceSubrange(0..<2, with: [9])  // [9, 10, 12, 7, 6, 8]
        #expect(recorder.take() == [change(5, .remove(2, at: 0))])
        array.replaceSubrange(3..<4, with: [1, 3])  // excluded by excluded
        #expect(recorder.take().isEmpty)
        array.removeAll()
        #expect(recorder.take() == [change(4, .replaceSlice([10, 12, 6, 8], at: 0, with: []))])
        #expect(evens.value.isEmpty)
        #expect(evens.isEmpty)
    }

    @Test func aChangeOfSeveralModificationsKeepsViewOffsetsOfTheContentsBeforeIt() {
        let array = ObservableArray([2, 1, 4, 3, 6, 5, 8])
        let evens = array.filteredElements(where: Self.isEven)
        let recorder = FilteredChangeRecorder(evens)
        // Two removals separated by excluded elements: adjacent in the view, joined there.
        array.modify { $0.removeAll { $0 == 4 || $0 == 6 } }
        let received = recorder.take()
        #expect(received == [change(4, .replaceSlice([4, 6], at: 1, with: []))])
        var copy = [2, 4, 6, 8]
        for change in received { change.apply(to: &copy) }
        #expect(copy == [2, 8])
        array.withTransaction {
            array.append(10)
            array.insert(0, at: 0)
            array.append(11)
        }
        let merged = recorder.take()
        #expect(merged.count == 1)
        for change in merged { change.apply(to: &copy) }
        #expect(copy == [0, 2, 8, 10])
        #expect(copy == evens.value)
    }

    @Test func aTransactionThatTouchesNoIncludedElementSendsNothing() {
        let array = ObservableArray([1, 2])
        let evens = array.filteredElements(where: Self.isEven)
        let recorder = FilteredChangeRecorder(evens)
        array.withTransaction {
            array.append(3)
            array.insert(5, at: 0)
            array[0] = 7
        }
        #expect(recorder.take().isEmpty)
        #expect(evens.count == 1)
    }

    @Test func theLatestMessageIsTheWholeViewAsOneInsertion() {
        let array = ObservableArray([1, 2, 3, 4])
        let evens = array.filteredElements(where: Self.isEven)
        #expect(evens.latestMessage == change(0, .replaceSlice([], at: 0, with: [2, 4])))
        let recorder = FilteredChangeRecorder(evens, replayingLatest: true)
        #expect(recorder.take() == [change(0, .replaceSlice([], at: 0, with: [2, 4]))])
        array.append(6)
        #expect(recorder.take() == [change(2, .insert(6, at: 2))])
    }

    @Test func anUnobservedViewFiltersTheCurrentContentsAndStartsAgainWhenObservedAgain() {
        let array = ObservableArray([1, 2, 3, 4])
        let evens = array.filteredElements(where: Self.isEven)
        array.append(6)
        #expect(evens.value == [2, 4, 6])
        #expect(evens.count == 3)
        var recorder: FilteredChangeRecorder<Int>? = FilteredChangeRecorder(evens)
        array.remove(at: 1)
        #expect(recorder?.take() == [change(3, .remove(2, at: 0))])
        recorder = nil
        array.append(8)
        array.insert(0, at: 0)
        #expect(evens.count == 4)
        recorder = FilteredChangeRecorder(evens)
        #expect(evens.count == 4)
        array.append(10)
        #expect(recorder?.take() == [change(4, .insert(10, at: 4))])
        #expect(evens.value == [0, 4, 6, 8, 10])
    }

    @Test func aViewIsNotTheChangeFilterOfTheArrayAndBothCanBeUsed() {
        let array = ObservableArray([1, 2])
        let bigChanges = array.filter { $0.modifications.count > 1 }
        let evens = array.filteredElements { $0 % 2 == 0 }
        #expect(type(of: bigChanges) != type(of: evens))
        #expect(evens.value == [2])
    }

    @Test func theObservableCountSendsEachChangeOfTheNumberOfIncludedElements() {
        let array = ObservableArray([1, 2, 3])
        let evens = array.filteredElements(where: Self.isEven)
        let updates = Locked<[Update<Int>]>([])
        let token = evens.observableCount.subscribe { update in updates.withLock { $0.append(update) } }
        array.append(4)
        array.append(5)
        array[1] = 6  // a replacement in the view: the count stays
        array.removeAll()
        #expect(updates.value == [Update(1, 2), Update(2, 0)])
        withExtendedLifetime(token) {}
    }

    @Test func aViewOfAViewAddsItsOwnPredicate() {
        let array = ObservableArray(Array(0..<20))
        let evens = array.filteredElements(where: Self.isEven)
        let copy = Locked<[Int]>([])
        let token = evens.subscribe(replayingLatest: true) { change in copy.withLock { change.apply(to: &$0) } }
        array.modify { $0.removeAll { $0 % 3 == 0 } }
        array.insert(contentsOf: [100, 101, 102], at: 5)
        #expect(copy.value == array.value.filter(Self.isEven))
        withExtendedLifetime(token) {}
    }
}

/// Random edits and transactions of an observable array, with a filtered view observed: after
/// every step, the copy kept in step by applying the view's changes, its count and its value
/// equal the array's contents filtered again from scratch.
///
/// Set `MESSAGING_MODEL_STEPS` for shorter or longer runs and `MESSAGING_MODEL_SEEDS` for other
/// seeds; a failing seed replays.
@Suite("Model: random edits of an ObservableArray checked against a filtered view")
struct FilteredArrayViewModelTests {
    static var steps: Int {
        modelSteps(standard: 100_000)
    }

    @Test(arguments: CollectionChangeModelTests.seeds)
    func everyChangeOfTheViewTurnsItsPreviousContentsIntoTheFilteredArray(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let array = ObservableArray<Int>()
        let isIncluded: @Sendable (Int) -> Bool = { $0 % 3 != 0 }
        let view = array.filteredElements(where: isIncluded)
        var recorder: FilteredChangeRecorder<Int>? = FilteredChangeRecorder(view)
        var model: [Int] = []
        var copy: [Int] = []

        func element() -> Int { random.roll(0..<9) }
        func edit() {
            let count = model.count
            switch random.roll(0..<10) {
            case 0:
                let new = element()
                array.append(new)
                model.append(new)
            case 1:
                let index = random.roll(0...count)
                let new = element()
                array.insert(new, at: index)
                model.insert(new, at: index)
            case 2 where count > 0:
                let index = random.roll(0..<count)
                #expect(array.remove(at: index) == model.remove(at: index))
            case 3 where count > 0:
                let index = random.roll(0..<count)
                let new = element()
                array[index] = new
                model[index] = new
            case 4:
                let lower = random.roll(0...count)
                let range = lower..<random.roll(lower...min(count, lower + 4))
                let new = (0..<random.roll(0...4)).map { _ in element() }
                array.replaceSubrange(range, with: new)
                model.replaceSubrange(range, with: new)
            case 5 where count > 0:
                let source = random.roll(0..<count)
                let destination = random.roll(0..<count)
                array.move(from: source, to: destination)
                model.insert(model.remove(at: source), at: destination)
            case 6:
                let new = (0..<random.roll(0...3)).map { _ in element() }
                let index = random.roll(0...count)
                array.insert(contentsOf: new, at: index)
                model.insert(contentsOf: new, at: index)
            case 7 where random.roll(0..<40) == 0:
                array.removeAll()
                model.removeAll()
            case 8 where count > 100:
                let drop = random.roll(0..<9)
                array.modify { $0.removeAll { $0 == drop } }
                model.removeAll { $0 == drop }
            default:
                let new = element()
                array.append(new)
                model.append(new)
            }
        }

        var step = 0
        while step < Self.steps {
            if random.roll(0..<500) == 0 {
                // The view stops observing the array and starts again from its contents.
                recorder = nil
                edit()
                recorder = FilteredChangeRecorder(view, replayingLatest: true)
                copy = []
            }
            if random.roll(0..<8) == 0 {
                let edits = random.roll(0...6)
                array.withTransaction {
                    for _ in 0..<edits {
                        edit()
                        if random.roll(0..<4) == 0 { array.withTransaction { edit() } }
                    }
                }
                step += max(edits, 1)
            } else {
                edit()
                step += 1
            }
            let received = recorder?.take() ?? []
            #expect(received.count <= 2, "seed \(seed), step \(step): one edit or transaction, one change")
            for change in received {
                #expect(!change.isEmpty)
                #expect(change.countBefore == copy.count, "seed \(seed), step \(step)")
                guard change.countBefore == copy.count else { return }
                change.apply(to: &copy)
            }
            let expected = model.filter(isIncluded)
            #expect(copy == expected, "seed \(seed), step \(step)")
            #expect(view.count == expected.count, "seed \(seed), step \(step)")
            if step % 64 == 0 { #expect(view.value == expected, "seed \(seed), step \(step)") }
            if copy != expected { return }
        }
    }
}

/// Edits of the array from eight threads while the view is observed: the view's changes,
/// applied in the order received, give the array's final contents filtered from scratch.
@Suite("FilteredArrayView: threads")
struct FilteredArrayViewThreadingTests {
    @Test func editsFromEightThreadsKeepTheViewEqualToTheFilteredArray() {
        let array = ObservableArray<Int>(Array(0..<100))
        let isIncluded: @Sendable (Int) -> Bool = { $0 % 2 == 0 }
        let view = array.filteredElements(where: isIncluded)
        let copy = Locked<[Int]>([])
        let broken = Locked(false)
        let token = view.subscribe(replayingLatest: true) { change in
            copy.withLock { copy in
                guard change.countBefore == copy.count else {
                    broken.withLock { $0 = true }
                    return
                }
                change.apply(to: &copy)
            }
        }
        let finished = runOnThreads(8) { thread in
            var random = SeededGenerator(seed: UInt64(thread + 1))
            for step in 0..<300 {
                let value = Int(random.next() % 1000)
                switch step % 6 {
                case 0: array.append(value)
                case 1: array.modify { $0.insert(value, at: $0.count / 2) }
                case 2: array.modify { if !$0.isEmpty { $0.remove(at: Int(random.next() % UInt64($0.count))) } }
                case 3: array.modify { if !$0.isEmpty { $0[Int(random.next() % UInt64($0.count))] = value } }
                case 4:
                    array.withTransaction {
                        array.append(value)
                        array.insert(value + 1, at: 0)
                    }
                default:
                    array.modify { $0.replaceSubrange(0..<min(3, $0.count), with: [value, value + 1]) }
                }
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(array.messenger, view.messenger))
        let expected = array.value.filter(isIncluded)
        #expect(waitUntil { copy.value == expected })
        #expect(!broken.value)
        #expect(view.count == expected.count)
        #expect(view.value == expected)
        withExtendedLifetime(token) {}
    }

    /// The view's observation of the array starts and ends again and again while other threads
    /// edit it: each start filters the contents it finds and follows from there, so a final
    /// observation finds the view equal to the filtered array. (A replay read while another
    /// thread delivers may show a state just before or after a change in flight; see
    /// ``ObservableCache/subscribe(replayingLatest:_:)``.)
    @Test func theViewStartsAgainCorrectlyWhileOtherThreadsEditTheArray() {
        let array = ObservableArray<Int>(Array(0..<50))
        let isIncluded: @Sendable (Int) -> Bool = { $0 % 3 == 0 }
        let view = array.filteredElements(where: isIncluded)
        let finished = runOnThreads(8) { thread in
            for step in 0..<200 {
                if thread < 4 {
                    array.modify { $0.insert(step, at: $0.count / 3) }
                    array.modify { if $0.count > 60 { $0.removeFirst() } }
                } else {
                    let token = view.subscribe { _ in }
                    _ = view.count
                    token.stopObserving()
                }
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(array.messenger, view.messenger))
        let copy = Locked<[Int]>([])
        let token = view.subscribe(replayingLatest: true) { change in copy.withLock { change.apply(to: &$0) } }
        array.append(3)
        array.insert(6, at: 0)
        #expect(copy.value == array.value.filter(isIncluded))
        #expect(view.count == array.value.filter(isIncluded).count)
        withExtendedLifetime(token) {}
    }
}

/// A filtered view observes its array only while observed, holds it while it is, and is released
/// with its last reference.
@Suite("FilteredArrayView: lifetime")
struct FilteredArrayViewLifetimeTests {
    @Test func theViewStopsObservingTheArrayWhenItsLastObservationEnds() {
        let array = ObservableArray([1, 2, 3])
        let view = array.filteredElements { $0 > 1 }
        #expect(array.messenger._core.observationCount == 0)
        let first = view.subscribe { _ in }
        let second = view.subscribe { _ in }
        #expect(array.messenger._core.observationCount == 1)
        first.stopObserving()
        #expect(array.messenger._core.observationCount == 1)
        second.stopObserving()
        #expect(array.messenger._core.observationCount == 0)
        #expect(view._state.currentCount == nil)
    }

    @Test func anObservedViewKeepsItselfAndTheArrayAliveUntilItsObservationEnds() {
        weak var weakArray: ObservableArray<Probe>?
        weak var weakView: FilteredArrayView<Probe>?
        weak var weakProbe: Probe?
        var token: ObservationToken?
        do {
            let array = ObservableArray<Probe>()
            let probe = Probe()
            let view = array.filteredElements { _ in true }
            weakArray = array
            weakView = view
            weakProbe = probe
            token = view.subscribe { _ in }
            array.append(probe)
            array.remove(at: 0)
        }
        #expect(weakView != nil)
        #expect(weakArray != nil)
        token?.stopObserving()
        token = nil
        #expect(weakView == nil)
        #expect(weakArray == nil)
        #expect(weakProbe == nil)
    }

    @Test func anUnobservedViewIsReleasedWithItsLastReferenceAndDoesNotHoldTheArrayAfter() {
        weak var weakArray: ObservableArray<Int>?
        weak var weakView: FilteredArrayView<Int>?
        do {
            let array = ObservableArray([1, 2])
            let view = array.filteredElements { $0 > 1 }
            weakArray = array
            weakView = view
            #expect(view.count == 1)
        }
        #expect(weakView == nil)
        #expect(weakArray == nil)
    }
}
