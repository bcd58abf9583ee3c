import Foundation
import Testing

@testable import Messaging

/// A filter of an observable set whose predicate takes a `Var`'s value: checked on examples,
/// after every step of random edits and parameters against filtering the set again, and from
/// eight threads.
@Suite("ParameterFilteredSetView: a set filter whose predicate depends on a Var")
struct ParameterFilteredSetViewTests {
    @Test func aNewParameterSendsOneChangeOfTheMembersThatLeaveAndJoin() {
        let numbers = ObservableSet([1, 5, 2, 8, 3, 9])
        let minimum = Var(4)
        let large = SetViewFollower(numbers.filteredElements(matching: minimum) { $0 >= $1 })
        #expect(large.copy.value == [5, 8, 9] && large.view.value == [5, 8, 9])
        minimum.value = 3  // 3 joins
        minimum.value = 6  // 5 and 3 leave; 8 and 9 stay
        minimum.value = 6  // an equal value: nothing
        minimum.value = 100  // everything leaves
        #expect(
            large.take() == [
                SetChange(inserted: [3]),
                SetChange(removed: [5, 3]),
                SetChange(removed: [8, 9]),
            ])
        #expect(large.copy.value.isEmpty && large.view.isEmpty && large.view.count == 0)
        minimum.value = 0
        #expect(large.take() == [SetChange(inserted: [1, 2, 3, 5, 8, 9])])
        #expect(large.view.count == 6)
    }

    @Test func theSetsEditsAreFilteredWithTheCurrentParameter() {
        let numbers = ObservableSet([1, 5])
        let minimum = Var(4)
        let large = SetViewFollower(numbers.filteredElements(matching: minimum) { $0 >= $1 })
        numbers.insert(7)
        numbers.insert(2)  // excluded: nothing
        numbers.insert(7)  // already a member: nothing
        numbers.remove(1)  // excluded: nothing
        minimum.value = 2  // 2 joins
        numbers.remove(5)
        numbers.withTransaction {
            numbers.insert(9)
            numbers.remove(7)
            numbers.insert(0)  // excluded
        }
        #expect(
            large.take() == [
                SetChange(inserted: [7]),
                SetChange(inserted: [2]),
                SetChange(removed: [5]),
                SetChange(removed: [7], inserted: [9]),
            ])
        #expect(large.copy.value == [2, 9] && large.view.value == [2, 9] && large.view.count == 2)
    }

    @Test func aReplacedMemberIsReplacedInTheViewOrLeavesIt() {
        let members = ObservableSet([Tagged(id: 1, tag: "a"), Tagged(id: 2, tag: "a")])
        let wanted = Var("b")
        let view = SetViewFollower(members.filteredElements(matching: wanted) { $0.tag == $1 || $0.id == 1 })
        #expect(view.copy.value.map(\.description).sorted() == ["1a"])
        members.update(with: Tagged(id: 1, tag: "b"))  // still included: replaced in the view
        members.update(with: Tagged(id: 2, tag: "b"))  // joins
        members.update(with: Tagged(id: 2, tag: "c"))  // leaves
        let described = view.take().map {
            "\($0.removed.map(\.description).sorted())->\($0.inserted.map(\.description).sorted())"
        }
        #expect(described == ["[\"1a\"]->[\"1b\"]", "[]->[\"2b\"]", "[\"2b\"]->[]"])
        #expect(view.copy.value.map(\.description) == ["1b"])
        wanted.value = "c"  // 2c joins, 1b stays
        #expect(view.copy.value.map(\.description).sorted() == ["1b", "2c"])
    }

    @Test func observesOnlyWhileObservedAndFiltersTheSourcesOtherwise() {
        let numbers = ObservableSet([1, 5])
        let minimum = Var(4)
        weak var weakView: ParameterFilteredSetView<Int, Int>?
        do {
            let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
            weakView = large
            #expect(large.value == [5] && large.count == 1 && large.contains(5) && !large.contains(1))
            minimum.value = 0
            #expect(large.value == [1, 5] && large.count == 2 && large.contains(1))
            #expect(numbers.messenger.observationCount == 0 && minimum.messenger.observationCount == 0)
            let token = large.subscribe { _ in }
            #expect(numbers.messenger.observationCount == 1 && minimum.messenger.observationCount == 1)
            #expect(large.value == [1, 5] && large.count == 2)
            token.stopObserving()
            #expect(numbers.messenger.observationCount == 0 && minimum.messenger.observationCount == 0)
            #expect(large._state.currentCount == nil)
            // Observed again, it starts from the sources' values of then.
            minimum.value = 3
            let follower = SetViewFollower(large)
            #expect(follower.copy.value == [5])
            minimum.value = 6
            #expect(follower.take() == [SetChange(removed: [5])])
        }
        #expect(weakView == nil)
    }

    @Test func theViewAndItsSourcesAreReleasedOnceNothingHoldsThem() {
        weak var weakView: ParameterFilteredSetView<Int, Int>?
        weak var weakSet: ObservableSet<Int>?
        weak var weakParameter: Var<Int>?
        do {
            let numbers = ObservableSet([1, 5])
            weakSet = numbers
            let minimum = Var(4)
            weakParameter = minimum
            let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
            weakView = large
            let follower = SetViewFollower(large)
            let counts = UpdateRecorder(large.observableCount)
            minimum.value = 0
            #expect(follower.take() == [SetChange(inserted: [1])])
            #expect(counts.take() == ["1->2"])
        }
        #expect(weakView == nil)
        #expect(weakSet == nil)
        #expect(weakParameter == nil)
    }

    @Test func theCountIsObservableWhetherItsObservationStartsFirstOrLater() {
        let numbers = ObservableSet([1, 5, 8])
        let minimum = Var(4)
        let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
        // The first observation of the view: it starts before the view knows its count.
        let first = UpdateRecorder(large.observableCount)
        numbers.insert(9)
        minimum.value = 6  // 5 leaves
        numbers.insert(2)  // excluded: nothing
        numbers.update(with: 8)  // a replacement: the count stays
        let second = UpdateRecorder(large.observableCount)
        minimum.value = 0
        #expect(first.take() == ["2->3", "3->2", "2->5"])
        #expect(second.take() == ["2->5"])
        #expect(large.count == 5)
    }

    @Test func membershipIsObservable() {
        let numbers = ObservableSet([1, 5, 8])
        let minimum = Var(4)
        let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
        let membership = UpdateRecorder(large.observableContains(5))
        minimum.value = 3  // 5 stays
        minimum.value = 6  // 5 leaves
        numbers.remove(5)  // not in the view: nothing
        numbers.insert(5)  // excluded: nothing
        minimum.value = 5  // 5 joins
        #expect(membership.take() == ["true->false", "false->true"])
    }

    @Test func aHandlerThatChangesTheParameterIsFollowedNotNested() {
        let numbers = ObservableSet([1, 2, 3, 4])
        let minimum = Var(0)
        let large = numbers.filteredElements(matching: minimum) { $0 >= $1 }
        let copy = Locked<Set<Int>>(large.value)
        let depth = Locked(0)
        let nested = Locked(false)
        let token = large.subscribe { change in
            let entered = depth.withLock { depth in
                depth += 1
                return depth
            }
            if entered > 1 { nested.withLock { $0 = true } }
            copy.withLock { change.apply(to: &$0) }
            if change.inserted.contains(5) { minimum.value = 3 }
            depth.withLock { $0 -= 1 }
        }
        numbers.insert(5)  // the handler raises the minimum
        #expect(!nested.value)
        #expect(copy.value == [3, 4, 5])
        #expect(large.value == [3, 4, 5] && large.count == 3)
        withExtendedLifetime(token) {}
    }

    static var steps: Int {
        modelSteps(standard: 10_000)
    }

    /// Random edits of the set and random values of the parameter, checked after every step: the
    /// received changes turn the previous contents into the current ones, which equal the set
    /// filtered again, and the observed count follows.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyChangeTurnsThePreviousContentsIntoTheCurrentOnes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let numbers = ObservableSet<Int>()
        let minimum = Var(5)
        let large = SetViewFollower(numbers.filteredElements(matching: minimum) { $0 % 10 >= $1 })
        let lastCount = Locked<Int?>(nil)
        let countToken = large.view.observableCount.subscribe { update in lastCount.withLock { $0 = update.new } }
        var countedSoFar = 0
        for step in 0..<Self.steps {
            let current = numbers.value
            switch random.roll(0..<10) {
            case 0..<3:
                numbers.insert(random.roll(0..<30))
            case 3..<5 where !current.isEmpty:
                numbers.remove(current.randomElement(using: &random)!)
            case 5:
                numbers.formUnion((0..<random.roll(0..<4)).map { _ in random.roll(0..<30) })
            case 6:
                numbers.subtract((0..<random.roll(0..<4)).map { _ in random.roll(0..<30) })
            case 7:
                numbers.withTransaction {
                    numbers.insert(random.roll(0..<30))
                    minimum.value = random.roll(0..<11)
                    numbers.remove(random.roll(0..<30))
                }
            default:
                minimum.value = random.roll(0..<11)
            }
            let received = large.take()
            if received.contains(where: \.isEmpty) {
                Issue.record("seed \(seed), step \(step): an empty change")
                return
            }
            let expected = numbers.value.filter { $0 % 10 >= minimum.value }
            if let count = lastCount.value { countedSoFar = count }
            if large.copy.value != expected || large.view.value != expected || large.view.count != expected.count
                || countedSoFar != expected.count
            {
                Issue.record(
                    "seed \(seed), step \(step): received \(large.copy.value), view \(large.view.value), count \(large.view.count), observed count \(String(describing: lastCount.value)), expected \(expected)"
                )
                return
            }
        }
        withExtendedLifetime(countToken) {}
    }

    @Test func eightThreadsEditingAndChangingTheParameterLeaveTheReceivedCopyEqualToTheFilter() {
        let numbers = ObservableSet(Set(0..<16))
        let minimum = Var(8)
        let large = SetViewFollower(numbers.filteredElements(matching: minimum) { $0 % 16 >= $1 })
        let observedCount = Locked(large.view.count)
        let countToken = large.view.observableCount.subscribe { update in
            observedCount.withLock { $0 = update.new }
        }
        #expect(
            runOnThreads(8) { thread in
                for step in 0..<2_000 {
                    switch thread % 4 {
                    case 0:
                        numbers.insert(thread * 10_000 + step)
                    case 1:
                        numbers.remove((thread - 1) * 10_000 + step)
                    case 2:
                        numbers.formSymmetricDifference([step % 32])
                    default:
                        minimum.value = (step * 7 + thread) % 17
                    }
                }
            })
        #expect(waitUntilDelivered(numbers.messenger, minimum.messenger, large.view.messenger))
        // The sources' deliveries are over, but the view's runner may still apply the last
        // messages they queued, and the copy can equal the filter for a moment in between (a
        // parameter that goes away and back): wait until the runner is done and the count's
        // deliveries too.
        let state = large.view._state
        #expect(waitUntil { state._core.withLock { !state._drain.isRunning } })
        #expect(waitUntilDelivered(large.view.messenger))
        let expected = numbers.value.filter { $0 % 16 >= minimum.value }
        #expect(large.copy.value == expected)
        #expect(waitUntil { observedCount.value == expected.count })
        #expect(large.view.count == expected.count)
        withExtendedLifetime(countToken) {}
    }
}
