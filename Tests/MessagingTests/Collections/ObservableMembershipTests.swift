import Foundation
import Messaging
import SharedTestSupport
import Testing

/// `observableContains(_:)` of a set and of its views: a cache of whether the member is there,
/// sending only real changes of that membership.
@Suite("ObservableMembership: whether a set or a set view has a member, as a cache")
struct ObservableMembershipTests {
    @Test func itsValueIsTheCurrentMembershipObservedOrNot() {
        let tags = ObservableSet(["a", "b"])
        let hasA = tags.observableContains("a")
        let hasC = tags.observableContains("c")
        #expect(hasA.value && !hasC.value)
        #expect(hasA.member == "a" && hasA.collection === tags)
        tags.insert("c")  // unobserved: nothing to send, and the next read sees it
        #expect(hasC.value && hasC.latestMessage == Update(true, true))
        let recorder = UpdateRecorder(hasC)
        tags.remove("c")
        #expect(!hasC.value)
        #expect(recorder.take() == ["true->false"])
    }

    @Test func anObservationCanStartFromTheCurrentMembership() {
        let tags = ObservableSet(["a"])
        let hasA = tags.observableContains("a")
        let received = Locked<[Update<Bool>]>([])
        let token = hasA.subscribe(replayingLatest: true) { update in received.withLock { $0.append(update) } }
        tags.remove("a")
        #expect(received.withLock { $0 } == [Update(true, true), Update(true, false)])
        withExtendedLifetime(token) {}
    }

    @Test func onlyRealChangesOfTheMembershipAreSent() {
        let tags = ObservableSet(["a", "b"])
        let hasA = tags.observableContains("a")
        let recorder = UpdateRecorder(hasA)
        tags.insert("a")  // already there
        tags.update(with: "a")  // replaced by an equal member: removed and inserted at once
        tags.remove("z")
        tags.insert("c")
        tags.withTransaction {
            tags.remove("a")
            tags.insert("a")
        }
        #expect(recorder.take().isEmpty)
        tags.subtract(["a", "b"])
        tags.formUnion(["a"])
        #expect(recorder.take() == ["true->false", "false->true"])
    }

    @Test func eachSetViewHasAMembershipOfItsOwn() {
        let numbers = ObservableSet([1, 2, 3, 4])
        let evens = numbers.filteredElements { $0 % 2 == 0 }
        let threshold = Var(3)
        let large = numbers.filteredElements(matching: threshold) { number, threshold in number >= threshold }
        let issue = MemberIssue("x", isOpen: false)
        let issues = ObservableSet([issue])
        let open = issues.filteredElements(by: \.isOpen)

        let evenFour = evens.observableContains(4)
        let evenFive = evens.observableContains(5)
        let largeTwo = large.observableContains(2)
        let openIssue = open.observableContains(issue)
        #expect(evenFour.value && !evenFive.value && !largeTwo.value && !openIssue.value)
        let recorders = [
            UpdateRecorder(evenFour), UpdateRecorder(evenFive), UpdateRecorder(largeTwo), UpdateRecorder(openIssue),
        ]
        numbers.remove(4)
        numbers.insert(5)  // excluded by the predicate: never sent
        threshold.value = 2
        issue.isOpen.value = true
        #expect(recorders.map { $0.take() } == [["true->false"], [], ["false->true"], ["false->true"]])
        #expect(!evenFour.value && !evenFive.value && largeTwo.value && openIssue.value)
    }

    @Test func aMembershipIsObservedWithTheCountsOfItsSet() {
        let selection = ObservableSet<String>()
        let isPinned = ObservableExpression(selection.observableContains("pinned"))
        let count = ObservableExpression(selection.observableCount)
        let badge = isPinned.combined(with: count) { pinned, count in pinned ? count - 1 : count }
        let recorder = ExpressionRecorder(badge)
        #expect(selection.messenger.observationCount == 1)
        selection.insert("a")
        selection.insert("pinned")  // both change: the badge stays at 1
        selection.update(with: "pinned")
        selection.remove("a")
        selection.withTransaction {
            selection.remove("pinned")
            selection.insert("b")
        }
        #expect(recorder.take() == [Update(0, 1), Update(1, 0), Update(0, 1)])
        #expect(badge.value == 1)
    }

    @Test func aFilteredViewsMembershipJoinsTheSetsCounts() {
        let numbers = ObservableSet([1, 2, 3])
        let evens = numbers.filteredElements { $0 % 2 == 0 }
        let hasFour = ObservableExpression(evens.observableContains(4))
        let hasFive = ObservableExpression(evens.observableContains(5))  // excluded: always false
        let evenCount = ObservableExpression(evens.observableCount)
        let withoutFour = evenCount.combined(with: hasFour) { count, four in four ? count - 1 : count }
            .combined(with: hasFive) { count, five in five ? -100 : count }
        let recorder = ExpressionRecorder(withoutFour)
        #expect(numbers.messenger.observationCount == 1)
        numbers.insert(4)
        numbers.insert(5)
        numbers.remove(4)
        #expect(recorder.take().isEmpty)
        numbers.insert(6)
        #expect(recorder.take() == [Update(1, 2)])
        #expect(withoutFour.value == 2)
    }

    @Test(arguments: ObservableExpressionModelTests.seeds)
    func randomEditsKeepMembershipsAndCountsTogether(seed: UInt64) {
        let numbers = ObservableSet<Int>()
        let all = ObservableExpression(numbers.observableCount)
        let small = ObservableExpression(numbers.filteredElements { $0 < 10 }.observableCount)
        let hasThree = ObservableExpression(numbers.observableContains(3))
        let smallHasFour = ObservableExpression(numbers.filteredElements { $0 < 10 }.observableContains(4))
        let formulas: [(ObservableExpression<Int>, @Sendable (Set<Int>) -> Int)] = [
            (
                all.combined(with: hasThree) { $1 ? $0 * 10 + 1 : $0 * 10 },
                { $0.count * 10 + ($0.contains(3) ? 1 : 0) }
            ),
            (
                small.combined(with: smallHasFour) { $1 ? $0 - 1 : $0 }.combined(with: hasThree) { $1 ? -$0 : $0 },
                { set in
                    let count = set.count { $0 < 10 } - (set.contains(4) ? 1 : 0)
                    return set.contains(3) ? -count : count
                }
            ),
        ]
        checkFormulasThroughRandomEdits(
            formulas, contents: { numbers.value }, seed: seed, steps: modelSteps(standard: 10_000),
            whileSubscribed: { #expect(numbers.messenger.observationCount == 2) },  // once per expression
            transaction: { numbers.withTransaction($0) },
            edit: { random in
                let value = random.roll(0..<20)
                switch random.roll(0..<4) {
                case 0: numbers.remove(value)
                case 1: numbers.update(with: value)
                case 2 where numbers.count > 12: numbers.subtract(Set(numbers.value.prefix(4)))
                default: numbers.insert(value)
                }
            })
    }

    @Test func aMembershipReleasesItselfAndTheSet() {
        weak var weakSet: ObservableSet<Int>?
        weak var weakMembership: ObservableMembership<ObservableSet<Int>, Int>?
        do {
            let numbers = ObservableSet([1])
            let hasOne = numbers.observableContains(1)
            weakSet = numbers
            weakMembership = hasOne
            var recorder: UpdateRecorder? = UpdateRecorder(hasOne)
            numbers.remove(1)
            #expect(recorder?.take() == ["true->false"])
            recorder = nil
            #expect(numbers.messenger.observationCount == 0)
        }
        #expect(weakMembership == nil)
        #expect(weakSet == nil)
    }

    @Test func insertionsAndRemovalsFromEightThreadsGiveAnUnbrokenChain() {
        let numbers = ObservableSet<Int>()
        let hasZero = numbers.observableContains(0)
        let received = Locked<[Update<Bool>]>([])
        let token = hasZero.subscribe { update in received.withLock { $0.append(update) } }
        let finished = runOnThreads(8) { _ in
            for step in 0..<200 {
                if step % 2 == 0 { numbers.insert(0) } else { numbers.remove(0) }
            }
        }
        #expect(finished)
        numbers.insert(0)
        #expect(waitUntilDelivered(numbers.messenger, hasZero.messenger))
        let updates = received.withLock { $0 }
        // Each update starts where the one before it ended, and the last is the set's membership.
        #expect(updates.allSatisfy { $0.old != $0.new })
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.new == $1.old })
        #expect(updates.last?.new == true && hasZero.value)
        withExtendedLifetime(token) {}
    }
}
