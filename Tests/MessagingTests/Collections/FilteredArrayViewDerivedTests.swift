import Foundation
import Testing

@testable import Messaging

/// Sorted views, extremes and folds of a filtered view: each follows the array, keeping only the
/// elements the filter includes.
@Suite("Views and folds of a filtered view: sorted, first elements, min and max, sums")
struct FilteredArrayViewDerivedTests {
    typealias Follower = SortedArrayViewModelTests.Follower

    @Test func aSortedViewOfAFilteredViewHoldsTheIncludedElementsInOrder() {
        let numbers = ObservableArray([5, 2, 8, 3, 6])
        let evens = numbers.filteredElements { $0.isMultiple(of: 2) }
        let sorted = evens.sortedView()
        #expect(sorted.value == [2, 6, 8])
        #expect(sorted.count == 3)
        let follower = Follower(sorted)
        let changes = Locked<[ArrayChange<Int>]>([])
        let token = sorted.subscribe { change in changes.withLock { $0.append(change) } }
        numbers.append(4)  // included: an insertion at 1
        numbers.append(7)  // excluded: nothing
        numbers.remove(at: 2)  // 8 leaves: a removal at 3
        numbers[0] = 0  // 5 (excluded) becomes 0 (included): an insertion at 0
        #expect(
            changes.value.map { Array($0.modifications) } == [
                [.insert(4, at: 1)], [.remove(8, at: 3)], [.insert(0, at: 0)],
            ])
        #expect(sorted.value == [0, 2, 4, 6])
        #expect(follower.copy.value == [0, 2, 4, 6])
        withExtendedLifetime(token) {}
    }

    @Test func theFirstElementsOfAFilteredSortedViewAreGlueKitsSelectFirstN() {
        struct Issue: Equatable, Sendable {
            let created: Int
            let isOpen: Bool
        }
        let issues = ObservableArray((1...8).map { Issue(created: $0, isOpen: $0 % 3 != 0) })
        let newestOpen = issues.filteredElements(where: \.isOpen).sortedView { $0.created > $1.created }.prefix(3)
        #expect(newestOpen.value.map(\.created) == [8, 7, 5])
        let follower = Follower(newestOpen)
        issues.append(Issue(created: 9, isOpen: false))  // excluded: nothing
        issues.append(Issue(created: 10, isOpen: true))  // in first, pushing 5 out
        #expect(follower.copy.value.map(\.created) == [10, 8, 7])
        issues.remove(at: issues.value.firstIndex { $0.created == 8 }!)
        #expect(follower.copy.value.map(\.created) == [10, 7, 5])
        #expect(newestOpen.value == follower.copy.value)
    }

    @Test func extremesAndSumsOfAFilteredViewCountOnlyTheIncludedElements() {
        let numbers = ObservableArray([5, 2, 8, 3])
        let evens = numbers.filteredElements { $0.isMultiple(of: 2) }
        let (least, greatest, sum) = (evens.observableMin, evens.observableMax, evens.observableSum)
        let count = evens.fold(0, adding: { count, _ in count + 1 }, removing: { count, _ in count - 1 })
        #expect(least.value == 2 && greatest.value == 8 && sum.value == 10 && count.value == 2)
        let updates = Locked<[String]>([])
        let tokens = [
            least.subscribe { update in updates.withLock { $0.append("min \(update.old ?? -1) \(update.new ?? -1)") } },
            greatest.subscribe { update in updates.withLock { $0.append("max \(update.old ?? -1) \(update.new ?? -1)") }
            },
            sum.subscribe { update in updates.withLock { $0.append("sum \(update.old) \(update.new)") } },
        ]
        numbers.append(1)  // excluded: nothing anywhere
        numbers.append(0)  // a new minimum and sum unchanged
        numbers.append(12)  // a new maximum and sum
        #expect(updates.value == ["min 2 0", "max 8 12", "sum 10 22"])
        numbers.modify { $0.removeAll { $0.isMultiple(of: 2) } }
        #expect(least.value == nil && greatest.value == nil && sum.value == 0)
        withExtendedLifetime(tokens) {}
    }

    @Test func unobservedViewsReadTheArraysCurrentContents() {
        let numbers = ObservableArray([4, 1, 6])
        let evens = numbers.filteredElements { $0.isMultiple(of: 2) }
        let sorted = evens.sortedView(by: >)
        let firstOne = sorted.prefix(1)
        numbers.append(10)
        numbers.append(11)
        #expect(sorted.value == [10, 6, 4] && sorted.count == 3)
        #expect(firstOne.value == [10] && firstOne.count == 1)
        #expect(evens.observableMin.value == 4 && evens.observableSum.value == 20)
    }

    @Test(arguments: SortedArrayViewModelTests.seeds)
    func everyDerivedViewEqualsFilteringTheArrayAgainAfterEveryStep(seed: UInt64) {
        var random = SeededGenerator(seed: seed &+ 7_000)
        let array = ObservableArray<Int>()
        let isIncluded: @Sendable (Int) -> Bool = { $0 % 3 != 0 }
        let filtered = array.filteredElements(where: isIncluded)
        let sorted = filtered.sortedView()
        let followers = [Follower(sorted), Follower(filtered.sortedView(by: >).prefix(3))]
        let (least, greatest, sum) = (filtered.observableMin, filtered.observableMax, filtered.observableSum)
        let lastSum = Locked(0)
        let tokens = [
            least.subscribe { _ in }, greatest.subscribe { _ in },
            sum.subscribe { update in
                lastSum.withLock { last in
                    #expect(update.old == last)
                    last = update.new
                }
            },
        ]
        for step in 0..<Swift.max(1, SortedArrayViewModelTests.steps / 10) {
            SortedArrayViewModelTests.edit(array, &random) { $0.roll(0..<30) }
            let expected = array.value.filter(isIncluded).sorted()
            guard
                followers[0].copy.value == expected, sorted.value == expected,
                followers[1].copy.value == Array(expected.reversed().prefix(3)),
                least.value == expected.first, greatest.value == expected.last,
                sum.value == expected.reduce(0, +), lastSum.value == sum.value
            else {
                Issue.record("seed \(seed), step \(step): \(array.value)")
                return
            }
        }
        withExtendedLifetime(tokens) {}
    }

    @Test func eightThreadsEditingLeaveTheSortedFilteredCopyEqualToFilteringAgain() {
        let array = ObservableArray<Int>()
        let isIncluded: @Sendable (Int) -> Bool = { $0.isMultiple(of: 2) }
        let filtered = array.filteredElements(where: isIncluded)
        let follower = Follower(filtered.sortedView())
        let sum = filtered.observableSum
        let token = sum.subscribe { _ in }
        #expect(
            runOnThreads(8) { thread in
                for step in 0..<1_000 {
                    if step % 3 == 2 {
                        array.modify { contents in
                            if let index = contents.firstIndex(where: { $0 % 8 == thread }) {
                                contents.remove(at: index)
                            }
                        }
                    } else {
                        array.append(thread * 10_000 + step)
                    }
                }
            })
        #expect(waitUntilDelivered(array.messenger, follower.view.messenger, sum.messenger))
        let expected = array.value.filter(isIncluded).sorted()
        #expect(follower.copy.value == expected)
        #expect(sum.value == expected.reduce(0, +))
        withExtendedLifetime(token) {}
    }
}
