import Foundation
import Testing

@testable import Messaging

@Suite("ParameterFilteredArrayView: a filter whose predicate depends on a Var")
struct ParameterFilteredArrayViewTests {
    @Test func aNewParameterSendsOneChangeOfTheElementsThatLeaveAndJoin() {
        let numbers = ObservableArray([1, 5, 2, 8, 3, 9])
        let minimum = Var(4)
        let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
        let recorder = ChangeRecorder(large)
        #expect(large.value == [5, 8, 9])
        minimum.value = 3  // 3 joins at the end
        minimum.value = 6  // 5 and 3 leave; 8 and 9 stay
        minimum.value = 2  // 5, 2 and 3 join, each at its position
        minimum.value = 10  // everything leaves, in one modification
        minimum.value = 10  // an equal value: nothing
        #expect(
            recorder.take() == [
                change(3, .insert(3, at: 2)),
                change(4, .remove(5, at: 0), .remove(3, at: 2)),
                change(2, .replaceSlice([], at: 0, with: [5, 2]), .insert(3, at: 1)),
                change(5, .replaceSlice([5, 2, 8, 3, 9], at: 0, with: [])),
            ])
        #expect(large.value.isEmpty && large.count == 0 && large.isEmpty)
    }

    @Test func theArraysEditsAreFilteredWithTheCurrentParameter() {
        let numbers = ObservableArray([1, 5])
        let minimum = Var(4)
        let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
        let recorder = ChangeRecorder(large)
        numbers.append(7)
        numbers.append(2)  // nothing
        minimum.value = 2  // 2 joins at the end
        numbers[0] = 3  // an insertion
        numbers.remove(at: 1)  // a removal of 5
        numbers.withTransaction {
            numbers.append(9)
            numbers.remove(at: 0)
        }
        #expect(
            recorder.take() == [
                change(1, .insert(7, at: 1)),
                change(2, .insert(2, at: 2)),
                change(3, .insert(3, at: 0)),
                change(4, .remove(5, at: 1)),
                change(3, .remove(3, at: 0), .insert(9, at: 3)),
            ])
        #expect(large.value == [7, 2, 9] && large.count == 3)
    }

    @Test func observesOnlyWhileObservedAndFiltersTheSourcesOtherwise() {
        let numbers = ObservableArray([1, 5])
        let minimum = Var(4)
        weak var weakView: ParameterFilteredArrayView<Int, Int>?
        do {
            let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
            weakView = large
            #expect(large.value == [5] && large.count == 1)
            minimum.value = 0
            #expect(large.value == [1, 5] && large.count == 2)
            #expect(numbers.messenger.observationCount == 0 && minimum.messenger.observationCount == 0)
            let token = large.subscribe { _ in }
            #expect(numbers.messenger.observationCount == 1 && minimum.messenger.observationCount == 1)
            #expect(large.value == [1, 5] && large.count == 2)
            token.stopObserving()
            #expect(numbers.messenger.observationCount == 0 && minimum.messenger.observationCount == 0)
            // Observed again, it starts from the sources' values of then.
            minimum.value = 3
            let recorder = ChangeRecorder(large)
            minimum.value = 6
            #expect(recorder.take() == [change(1, .remove(5, at: 0))])
        }
        #expect(weakView == nil)
    }

    @Test func theViewAndItsSourcesAreReleasedOnceNothingHoldsThem() {
        weak var weakView: ParameterFilteredArrayView<Int, Int>?
        weak var weakArray: ObservableArray<Int>?
        weak var weakParameter: Var<Int>?
        do {
            let numbers = ObservableArray([1, 5])
            weakArray = numbers
            let minimum = Var(4)
            weakParameter = minimum
            let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
            weakView = large
            let recorder = ChangeRecorder(large)
            minimum.value = 0
            #expect(recorder.take() == [change(1, .insert(1, at: 0))])
        }
        #expect(weakView == nil)
        #expect(weakArray == nil)
        #expect(weakParameter == nil)
    }

    @Test func aReplayStartsWithTheIncludedElementsAndCountFollows() {
        let numbers = ObservableArray([1, 5, 8])
        let minimum = Var(4)
        let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
        let received = Locked<[ArrayChange<Int>]>([])
        let token = large.subscribe(replayingLatest: true) { change in
            received.withLock { $0.append(change) }
        }
        #expect(received.value == [change(0, .replaceSlice([], at: 0, with: [5, 8]))])
        let counts = Locked<[Update<Int>]>([])
        let countToken = large.observableCount.subscribe { update in counts.withLock { $0.append(update) } }
        minimum.value = 6
        numbers.append(7)
        numbers[0] = 2  // excluded by excluded: nothing
        #expect(counts.value == [Update(2, 1), Update(1, 2)])
        withExtendedLifetime((token, countToken)) {}
    }

    @Test func aHandlerThatChangesTheParameterIsFollowedNotNested() {
        let numbers = ObservableArray([1, 2, 3, 4])
        let minimum = Var(0)
        let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
        let copy = Locked<[Int]>(large.value)
        let depth = Locked(0)
        let nested = Locked(false)
        let token = large.subscribe { change in
            let entered = depth.withLock { depth in
                depth += 1
                return depth
            }
            if entered > 1 { nested.withLock { $0 = true } }
            copy.withLock { change.apply(to: &$0) }
            if change.countAfter == 5 { minimum.value = 3 }
            depth.withLock { $0 -= 1 }
        }
        numbers.append(5)  // the handler raises the minimum
        #expect(!nested.value)
        #expect(copy.value == [3, 4, 5])
        #expect(large.value == [3, 4, 5])
        withExtendedLifetime(token) {}
    }

    static var steps: Int {
        modelSteps(standard: 10_000)
    }

    /// Random edits of the array and random values of the parameter, checked after every step:
    /// the received changes turn the previous contents into the current ones, which equal the
    /// array filtered again.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyChangeTurnsThePreviousContentsIntoTheCurrentOnes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let numbers = ObservableArray<Int>()
        let minimum = Var(5)
        let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
        let recorder = ChangeRecorder(large)
        var copy: [Int] = []
        for step in 0..<Self.steps {
            let current = numbers.value
            switch random.roll(0..<10) {
            case 0..<2 where current.count < 24:
                numbers.insert(random.roll(0..<10), at: random.roll(0...current.count))
            case 2 where !current.isEmpty:
                numbers.remove(at: random.roll(0..<current.count))
            case 3 where !current.isEmpty:
                numbers[random.roll(0..<current.count)] = random.roll(0..<10)
            case 4 where current.count > 1:
                numbers.move(from: random.roll(0..<current.count), to: random.roll(0..<current.count))
            case 5 where current.count > 2:
                let start = random.roll(0..<current.count)
                let end = random.roll(start...current.count)
                numbers.replaceSubrange(start..<end, with: (0..<random.roll(0..<4)).map { _ in random.roll(0..<10) })
            case 6 where current.count > 1:
                numbers.withTransaction {
                    numbers.append(random.roll(0..<10))
                    numbers.remove(at: 0)
                    minimum.value = random.roll(0..<11)
                }
            default:
                minimum.value = random.roll(0..<11)
            }
            for received in recorder.take() {
                #expect(received.countBefore == copy.count)
                received.apply(to: &copy)
            }
            let expected = numbers.value.filter { $0 >= minimum.value }
            if copy != expected || large.value != expected || large.count != expected.count {
                Issue.record(
                    "seed \(seed), step \(step): received \(copy), view \(large.value), expected \(expected)"
                )
                return
            }
        }
    }

    @Test func eightThreadsEditingAndChangingTheParameterLeaveTheReceivedCopyEqualToTheFilter() {
        let numbers = ObservableArray(Array(0..<16))
        let minimum = Var(8)
        let large = numbers.filteredElements(matching: minimum) { $0 % 16 >= $1 }
        let copy = Locked<[Int]>(large.value)
        let mismatches = Locked(0)
        let token = large.subscribe { change in
            copy.withLock { copy in
                if change.countBefore != copy.count { mismatches.withLock { $0 += 1 } }
                change.apply(to: &copy)
            }
        }
        #expect(
            runOnThreads(8) { thread in
                for step in 0..<2_000 {
                    switch thread % 4 {
                    case 0:
                        numbers.append(thread * 10_000 + step)
                    case 1:
                        // The count is checked inside the atomic edit: it never drops below 16.
                        numbers.modify { array in
                            if array.count > 16 { array.remove(at: thread == 1 ? 0 : array.count - 1) }
                        }
                    case 2:
                        numbers.modify { array in
                            array[step % 16] = step
                        }
                    default:
                        minimum.value = (step * 7 + thread) % 17
                    }
                }
            })
        #expect(waitUntilDelivered(numbers.messenger, minimum.messenger, large.messenger))
        // The sources' deliveries are over, but the view's runner may still apply the last
        // messages they queued, and the copy can equal the filter for a moment in between (a
        // parameter that goes away and back): wait until the runner is done.
        let state = large._state
        #expect(waitUntil { state._lock.withLock { !state._drain.isRunning } })
        #expect(waitUntilDelivered(large.messenger))
        let expected = { numbers.value.filter { $0 % 16 >= minimum.value } }
        #expect(copy.value == expected())
        #expect(mismatches.value == 0)
        #expect(copy.value == large.value)
        withExtendedLifetime(token) {}
    }
}
