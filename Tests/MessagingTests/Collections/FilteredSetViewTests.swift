import Foundation
import Testing

@testable import Messaging

/// Filtered views of an observable set: the set's changes with the excluded members left out, a
/// count and a membership of the included members, a sorted view of them; checked on examples,
/// after every step of random edits against filtering the set again, and from eight threads.
@Suite("FilteredSetView: the members of an ObservableSet that satisfy a predicate")
struct FilteredSetViewTests {
    @Test func includedMembersArriveAndLeaveAndExcludedOnesSendNothing() {
        let set = ObservableSet([1, 2, 3, 4])
        let evens = SetViewFollower(set.filteredElements { $0.isMultiple(of: 2) })
        #expect(evens.copy.value == [2, 4] && evens.view.value == [2, 4])
        set.insert(5)
        set.remove(1)
        set.insert(2)  // already a member
        #expect(evens.take().isEmpty)
        set.insert(6)
        #expect(evens.take() == [SetChange(inserted: [6])])
        set.remove(4)
        #expect(evens.take() == [SetChange(removed: [4])])
        set.formUnion([7, 8, 10])
        #expect(evens.take() == [SetChange(inserted: [8, 10])])
        set.subtract([2, 3, 10])
        #expect(evens.take() == [SetChange(removed: [2, 10])])
        #expect(evens.copy.value == [6, 8] && evens.view.value == [6, 8])
        set.removeAll()
        #expect(evens.take() == [SetChange(removed: [6, 8])])
        #expect(evens.view.value.isEmpty && evens.view.isEmpty && evens.view.count == 0)
    }

    @Test func aTransactionSendsOneChangeOfTheIncludedMembers() {
        let set = ObservableSet([1, 2])
        let evens = SetViewFollower(set.filteredElements { $0.isMultiple(of: 2) })
        set.withTransaction {
            set.insert(4)
            set.insert(5)
            set.remove(2)
            set.insert(6)
            set.remove(6)
        }
        #expect(evens.take() == [SetChange(removed: [2], inserted: [4])])
        set.withTransaction {
            set.insert(7)
            set.remove(1)
        }
        #expect(evens.take().isEmpty)
    }

    @Test func aMemberReplacedByAnEqualOneIsReplacedInTheView() {
        let set = ObservableSet([Tagged(id: 2, tag: "a"), Tagged(id: 3, tag: "a")])
        let view = set.filteredElements { $0.id.isMultiple(of: 2) }
        let received = Locked<[SetChange<Tagged>]>([])
        let token = view.subscribe { change in received.withLock { $0.append(change) } }
        _ = set.update(with: Tagged(id: 2, tag: "b"))
        _ = set.update(with: Tagged(id: 3, tag: "b"))
        #expect(received.value.count == 1)
        #expect(received.value.first?.inserted.first?.tag == "b")
        #expect(received.value.first?.removed.first?.tag == "a")
        #expect(view.value.first?.tag == "b")
        withExtendedLifetime(token) {}
    }

    @Test func countAndContainsFollowOnlyTheIncludedMembers() {
        let set = ObservableSet([1, 2, 3])
        let evens = set.filteredElements { $0.isMultiple(of: 2) }
        let count = UpdateRecorder(evens.observableCount)
        let containsFour = UpdateRecorder(evens.observableContains(4))
        let containsFive = UpdateRecorder(evens.observableContains(5))
        set.insert(5)  // excluded: neither the count nor any membership changes
        set.insert(4)
        set.formUnion([6, 8, 9])
        set.remove(2)
        set.withTransaction {
            set.insert(10)
            set.remove(10)
        }
        set.remove(4)
        #expect(count.take() == ["1->2", "2->4", "4->3", "3->2"])
        #expect(containsFour.take() == ["false->true", "true->false"])
        #expect(containsFive.take().isEmpty)
        #expect(evens.count == 2 && evens.contains(6) && !evens.contains(5) && !evens.contains(4))
    }

    @Test func aSortedViewOfTheIncludedMembersKeepsThemSorted() {
        let set = ObservableSet([5, 2, 8, 3])
        let evens = set.filteredElements { $0.isMultiple(of: 2) }
        let sorted = evens.sortedView()
        let topTwo = evens.sortedView(by: >).prefix(2)
        #expect(sorted.value == [2, 8] && topTwo.value == [8, 2] && sorted.count == 2)
        let received = Locked<[ArrayChange<Int>]>([])
        let copy = Locked<[Int]>(sorted.value)
        let token = sorted.subscribe { change in
            copy.withLock { change.apply(to: &$0) }
            received.withLock { $0.append(change) }
        }
        let topToken = topTwo.subscribe { _ in }
        set.insert(7)
        #expect(received.value.isEmpty)
        set.insert(4)
        #expect(received.value == [change(2, .insert(4, at: 1))])
        set.formUnion([10, 11, 0])
        set.remove(8)
        #expect(copy.value == [0, 2, 4, 10] && sorted.value == [0, 2, 4, 10] && sorted.count == 4)
        #expect(topTwo.value == [10, 4] && topTwo.count == 2)
        withExtendedLifetime((token, topToken)) {}
    }

    @Test func theViewObservesTheSetOnlyWhileObservedAndLetsBothGo() {
        weak var weakSet: ObservableSet<Int>?
        weak var weakView: FilteredSetView<Int>?
        var token: ObservationToken?
        do {
            let set = ObservableSet([1, 2])
            let view = set.filteredElements { $0 > 1 }
            weakSet = set
            weakView = view
            #expect(set.messenger._core.observationCount == 0)
            token = view.subscribe { _ in }
            #expect(set.messenger._core.observationCount == 1)
        }
        // The observation keeps the view, and the view the set.
        #expect(weakView != nil && weakSet != nil)
        token = nil
        #expect(weakView == nil)
        #expect(weakSet == nil)
        _ = token
    }

    @Test(arguments: CollectionChangeModelTests.seeds)
    func randomEditsLeaveTheViewsEqualToFilteringTheSet(seed: UInt64) {
        var random = SeededGenerator(seed: seed &+ 3_000)
        let set = ObservableSet<Int>()
        let isIncluded: @Sendable (Int) -> Bool = { $0 % 3 != 0 }
        var follower = SetViewFollower(set.filteredElements(where: isIncluded))
        let counts = Locked<[Int]>([])
        var sortedCopy = Locked<[Int]>([])
        let sorted = follower.view.sortedView()
        var tokens = [
            follower.view.observableCount.subscribe { update in counts.withLock { $0.append(update.new) } },
            sorted.subscribe { [sortedCopy] change in sortedCopy.withLock { change.apply(to: &$0) } },
        ]
        for step in 0..<Swift.max(1, ObservableArrayModelTests.steps / 4) {
            switch random.roll(0..<6) {
            case 0, 1: set.insert(random.roll(0..<60))
            case 2: set.remove(random.roll(0..<60))
            case 3: set.formUnion((0..<random.roll(0...4)).map { _ in random.roll(0..<60) })
            case 4: set.subtract((0..<random.roll(0...6)).map { _ in random.roll(0..<60) })
            default:
                set.withTransaction {
                    set.insert(random.roll(0..<60))
                    set.remove(random.roll(0..<60))
                }
            }
            if random.roll(0..<1_000) == 0 {
                // Start every observation again, from the current contents.
                let view = follower.view
                tokens = []
                follower = SetViewFollower(view)
                sortedCopy = Locked<[Int]>(sorted.value)
                tokens = [
                    view.observableCount.subscribe { update in counts.withLock { $0.append(update.new) } },
                    sorted.subscribe { [sortedCopy] change in sortedCopy.withLock { change.apply(to: &$0) } },
                ]
            }
            let expected = set.value.filter(isIncluded)
            #expect(follower.copy.value == expected, "seed \(seed), step \(step)")
            #expect(sortedCopy.value == expected.sorted(), "seed \(seed), step \(step)")
            let lastCount = counts.withLock { $0.last }
            #expect(lastCount == nil || lastCount == expected.count, "seed \(seed), step \(step)")
            if follower.copy.value != expected { return }
        }
        withExtendedLifetime(tokens) {}
    }

    @Test func editsFromEightThreadsLeaveTheReceivedCopyEqualToTheIncludedMembers() {
        let set = ObservableSet<Int>()
        let view = set.filteredElements { $0.isMultiple(of: 2) }
        let copy = Locked<Set<Int>>([])
        let counts = Locked<[Int]>([])
        let token = view.subscribe { change in copy.withLock { change.apply(to: &$0) } }
        let countToken = view.observableCount.subscribe { update in counts.withLock { $0.append(update.new) } }
        let finished = runOnThreads(8) { thread in
            let base = thread * 1000
            for step in 0..<300 {
                switch step % 4 {
                case 0: set.insert(base + step)
                case 1: set.formUnion([base + step, base + step + 1])
                case 2: set.remove(base + step - 2)
                default:
                    set.withTransaction {
                        set.insert(base + step)
                        set.remove(base + step - 1)
                    }
                }
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(set.messenger, view.messenger))
        let expected = set.value.filter { $0.isMultiple(of: 2) }
        #expect(copy.value == expected)
        #expect(waitUntil { counts.withLock { $0.last } == expected.count })
        withExtendedLifetime((token, countToken)) {}
    }
}
