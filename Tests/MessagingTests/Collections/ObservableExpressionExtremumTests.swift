import Foundation
import Testing

@testable import Messaging

/// The extremes of an array are observed with its folds: an expression over them never shows a
/// state of the array that never existed.
@Suite("ObservableExpression: extremes observed with the folds of their array")
struct ObservableExpressionExtremumTests {
    @Test func theCountAndTheLeastElementAlwaysAgreeOnEmptiness() {
        let numbers = ObservableArray<Int>([])
        let count = ObservableExpression(numbers.observableCount)
        let least = ObservableExpression(numbers.observableMin)
        let agree = count.combined(with: least) { ($0 == 0) == ($1 == nil) }
        #expect(agree.value)
        let updates = ExpressionRecorder(agree)
        #expect(numbers.messenger.observationCount == 1)  // one group: the count and the extreme
        let leasts = ExpressionRecorder(least)
        numbers.append(5)
        numbers.append(3)
        numbers.withTransaction {
            numbers.removeAll()
            numbers.append(9)
        }
        numbers.removeAll()
        #expect(updates.take().isEmpty)  // never a count of 1 with no least element
        #expect(leasts.take() == [Update(nil, 5), Update(5, 3), Update(3, 9), Update(9, nil)])
    }

    @Test func theRangeIsAlwaysTheRangeOfTheContentsWhenItIsSent() {
        let numbers = ObservableArray([4, 8])
        let greatest = ObservableExpression(numbers.observableMax)
        let least = ObservableExpression(numbers.observableMin)
        let range = greatest.combined(with: least) { max, min in max.flatMap { max in min.map { max - $0 } } }
        let mismatches = Locked(0)
        let token = range.subscribe { update in
            let contents = numbers.value
            let expected = contents.max().flatMap { max in contents.min().map { max - $0 } }
            if update.new != expected { mismatches.withLock { $0 += 1 } }
        }
        numbers.append(1)  // 7
        numbers.insert(20, at: 0)  // 19
        numbers.remove(at: 0)  // 7
        numbers[0] = 0  // 8
        numbers.replaceSubrange(0..<3, with: [5, 5])  // 0
        #expect(mismatches.withLock { $0 } == 0)
        #expect(range.value == 0)
        withExtendedLifetime(token) {}
    }

    @Test func theExtremeOfAFilteredViewJoinsTheFoldsOfItsArray() {
        let numbers = ObservableArray([1, 2, 3])
        let even = numbers.filteredElements { $0 % 2 == 0 }
        let evenCount = ObservableExpression(even.observableCount)
        let greatestEven = ObservableExpression(even.observableMax)
        let agree = evenCount.combined(with: greatestEven) { ($0 == 0) == ($1 == nil) }
        let updates = ExpressionRecorder(agree)
        #expect(numbers.messenger.observationCount == 1)
        numbers.remove(at: 1)  // no even element left
        numbers.append(4)
        numbers.append(7)  // excluded: nothing changes
        #expect(updates.take().isEmpty)
        #expect(evenCount.value == 1 && greatestEven.value == 4)
    }

    @Test func anUnobservedExpressionReadsTheExtremesAndTheFoldsFromOneSnapshot() {
        let numbers = ObservableArray([3, 1, 2])
        let sum = ObservableExpression(numbers.observableSum)
        let greatest = ObservableExpression(numbers.observableMax)
        let formula = sum.combined(with: greatest) { $0 - ($1 ?? 0) }
        #expect(formula.value == 3)
        numbers.append(10)
        #expect(formula.value == 6)
    }

    @Test func theCountAndTheExtremesEditedFromEightThreadsAlwaysAgree() {
        let numbers = ObservableArray<Int>([])
        let count = ObservableExpression(numbers.observableCount)
        let least = ObservableExpression(numbers.observableMin)
        let greatest = ObservableExpression(numbers.observableMax)
        let agree = count.combined(with: least) { ($0 == 0) == ($1 == nil) }
            .combined(with: greatest.combined(with: least) { max, min in (max ?? 0) >= (min ?? 0) }) { $0 && $1 }
        let updates = ExpressionRecorder(agree)
        let finished = runOnThreads(8) { thread in
            for step in 0..<200 {
                if step % 2 == 1 {
                    numbers.modify { if !$0.isEmpty { $0.removeLast() } }
                } else {
                    numbers.append(thread * 1000 + step)
                }
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(numbers.messenger, agree.messenger))
        #expect(updates.take().isEmpty)
        #expect(agree.value)
        #expect(least.value == numbers.value.min() && greatest.value == numbers.value.max())
    }

    @Test func anExpressionOfAnExtremeReleasesItAndTheArray() {
        weak var weakArray: ObservableArray<Int>?
        weak var weakExpression: ObservableExpression<Bool>?
        do {
            let numbers = ObservableArray([1])
            let agree = ObservableExpression(numbers.observableCount)
                .combined(with: ObservableExpression(numbers.observableMin)) { ($0 == 0) == ($1 == nil) }
            weakArray = numbers
            weakExpression = agree
            var recorder: ExpressionRecorder<Bool>? = ExpressionRecorder(agree)
            numbers.removeAll()
            #expect(recorder?.take() == [])
            recorder = nil
            #expect(numbers.messenger.observationCount == 0)
        }
        #expect(weakExpression == nil)
        #expect(weakArray == nil)
    }
}
