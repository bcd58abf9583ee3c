import Foundation
import Testing

@testable import Messaging

/// The counts of sets, dictionaries and views are caches: their `value` is the collection's
/// current count, and an expression can use them as sources.
@Suite("ObservableCount: counts that are caches, usable in expressions")
struct ObservableCountTests {
    /// Whether `count`'s value and latest message are `expected`.
    func reads(_ count: ObservableCount<some Sendable>, _ expected: Int) -> Bool {
        count.value == expected && count.latestMessage == Update(expected, expected)
    }

    @Test func everyCountReadsItsCollectionsCurrentCountObservedOrNot() {
        let tags = ObservableSet(["a", "bb", "ccc"])
        let scores = ObservableDictionary(["ann": 1, "bob": 2])
        let short = tags.filteredElements { $0.count < 3 }
        let longest = Var(2)
        let upTo = tags.filteredElements(matching: longest) { tag, longest in tag.count <= longest }
        let issues = ObservableArray([TrackedIssue("a", isOpen: true), TrackedIssue("b", isOpen: false)])
        let open = issues.filteredElements(by: \.isOpen)
        let first = MemberIssue("x", isOpen: true)
        let members = ObservableSet([first, MemberIssue("y", isOpen: false)])
        let openMembers = members.filteredElements(by: \.isOpen)
        let topTwo = ObservableArray([5, 1, 3]).sortedView(by: >).prefix(2)

        // Unobserved: each reads the collection.
        #expect(reads(tags.observableCount, 3))
        #expect(reads(scores.observableCount, 2))
        #expect(reads(short.observableCount, 2))
        #expect(reads(upTo.observableCount, 2))
        #expect(reads(open.observableCount, 1))
        #expect(reads(openMembers.observableCount, 1))
        #expect(reads(topTwo.observableCount, 2))

        // Observed: the same counts, and they follow the edits.
        let counts = (
            tags.observableCount, scores.observableCount, short.observableCount, upTo.observableCount,
            open.observableCount, openMembers.observableCount
        )
        let recorders = [
            UpdateRecorder(counts.0), UpdateRecorder(counts.1), UpdateRecorder(counts.2),
            UpdateRecorder(counts.3), UpdateRecorder(counts.4), UpdateRecorder(counts.5),
        ]
        tags.insert("d")
        scores["cem"] = 3
        longest.value = 3
        issues.append(TrackedIssue("c", isOpen: true))
        first.isOpen.value = false
        #expect(reads(counts.0, 4))
        #expect(reads(counts.1, 3))
        #expect(reads(counts.2, 3))
        #expect(reads(counts.3, 4))
        #expect(reads(counts.4, 2))
        #expect(reads(counts.5, 0))
        #expect(recorders.map { $0.take() } == [["3->4"], ["2->3"], ["2->3"], ["2->3", "3->4"], ["1->2"], ["1->0"]])
    }

    @Test func aSetsCountIsASourceOfAnExpression() {
        let items = ObservableSet(["a", "b", "c", "d"])
        let selection = ObservableSet(["a"])
        let percentSelected = ObservableExpression(selection.observableCount).multiplied(by: 100)
            .divided(by: ObservableExpression(items.observableCount), ifZero: 0)
        #expect(percentSelected.value == 25)
        let recorder = ExpressionRecorder(percentSelected)
        selection.insert("b")
        selection.insert("b")  // already a member: nothing
        items.remove("d")
        items.removeAll()
        #expect(recorder.take() == [Update(25, 50), Update(50, 66), Update(66, 0)])
        #expect(percentSelected.value == 0)
    }

    @Test func aDictionarysCountIsASourceOfAnExpression() {
        let scores = ObservableDictionary(["ann": 1])
        let seats = Var(4)
        let free = ObservableExpression(seats).subtracting(ObservableExpression(scores.observableCount))
        let recorder = ExpressionRecorder(free, replayingLatest: true)
        scores["bob"] = 2
        scores["bob"] = 5  // an update of a value keeps the count
        seats.value = 10
        #expect(recorder.take() == [Update(3, 3), Update(3, 2), Update(2, 8)])
    }

    @Test func gluekitsPercentageOfOpenIssuesFromAFilterByPropertyAndTheArraysCount() {
        let a = TrackedIssue("a", isOpen: true)
        let b = TrackedIssue("b", isOpen: false)
        let issues = ObservableArray([a, b])
        let openCount = ObservableExpression(issues.filteredElements(by: \.isOpen).observableCount)
        let issueCount = ObservableExpression(issues.observableCount)
        let percentage = openCount.multiplied(by: 100).divided(by: issueCount, ifZero: 0)
        #expect(percentage.value == 50)
        let recorder = ExpressionRecorder(percentage)
        b.isOpen.value = true  // one source changes: one update
        a.isOpen.value = false
        #expect(recorder.take() == [Update(50, 100), Update(100, 50)])
        issues.removeAll()
        issues.append(TrackedIssue("c", isOpen: false))
        #expect(recorder.take().last?.new == 0)
        issues.append(TrackedIssue("d", isOpen: true))
        #expect(percentage.value == 50)
        // Stopping observing the expression stops observing the view and the array.
        recorder.token.stopObserving()
        #expect(issues.messenger.observationCount == 0)
        #expect(a.isOpen.messenger.observationCount == 0)
    }

    @Test func anExpressionStartsFromTheCountWhenItsObservationStarts() {
        let tags = ObservableSet<String>()
        let count = ObservableExpression(tags.observableCount)
        tags.insert("a")  // unobserved: nothing to send, and the next read sees it
        #expect(count.value == 1)
        let recorder = ExpressionRecorder(count, replayingLatest: true)
        tags.formUnion(["b", "c"])
        #expect(recorder.take() == [Update(1, 1), Update(1, 3)])
        recorder.token.stopObserving()
        tags.remove("a")
        let again = ExpressionRecorder(count, replayingLatest: true)
        tags.insert("d")
        #expect(again.take() == [Update(2, 2), Update(2, 3)])
    }

    @Test func aSetsCountEditedFromEightThreadsGivesAnUnbrokenChainOfCounts() {
        let numbers = ObservableSet<Int>()
        let count = ObservableExpression(numbers.observableCount)
        let recorder = ExpressionRecorder(count)
        let finished = Self.insertAndRemoveFromEightThreads(numbers)
        #expect(finished)
        #expect(waitUntilDelivered(numbers.messenger, count.messenger))
        let updates = recorder.take()
        #expect(updates.first?.old == 0)
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.new == $1.old })
        #expect(updates.allSatisfy { abs($0.new - $0.old) == 1 })
        #expect(updates.last?.new == 8 * 100)
        #expect(count.value == numbers.count)
    }

    @Test func anExpressionOfACountReleasesTheCountAndTheSet() {
        weak var weakSet: ObservableSet<String>?
        weak var weakCount: ObservableCount<ObservableSet<String>>?
        weak var weakExpression: ObservableExpression<Int>?
        do {
            let tags = ObservableSet(["a"])
            let count = tags.observableCount
            let expression = ObservableExpression(count).multiplied(by: 2)
            weakSet = tags
            weakCount = count
            weakExpression = expression
            var recorder: ExpressionRecorder<Int>? = ExpressionRecorder(expression)
            tags.insert("b")
            #expect(recorder?.take() == [Update(2, 4)])
            recorder = nil
            #expect(tags.messenger.observationCount == 0)
        }
        #expect(weakExpression == nil)
        #expect(weakCount == nil)
        #expect(weakSet == nil)
    }

    @Test func countsOfOneSetAreObservedTogetherAndNeverDisagree() {
        let numbers = ObservableSet(Set(0..<10))
        let all = ObservableExpression(numbers.observableCount)
        let even = ObservableExpression(numbers.filteredElements { $0 % 2 == 0 }.observableCount)
        let odd = ObservableExpression(numbers.filteredElements { $0 % 2 != 0 }.observableCount)
        let zero = all.subtracting(even).subtracting(odd)
        let zeros = ExpressionRecorder(zero)
        let share = even.multiplied(by: 100).divided(by: all, ifZero: -1)
        let shares = ExpressionRecorder(share)
        #expect(numbers.messenger.observationCount == 2)  // once per expression
        numbers.insert(10)  // 6 of 11 even
        numbers.formUnion([12, 14])  // 8 of 13
        numbers.withTransaction {
            numbers.remove(0)
            numbers.insert(21)
        }  // 7 of 13
        numbers.subtract(Set(0..<100))  // none
        #expect(zeros.take().isEmpty)
        #expect(zero.value == 0)
        // Every result is a state that existed: a new even count never meets an old total.
        #expect(shares.take() == [Update(50, 54), Update(54, 61), Update(61, 53), Update(53, -1)])
    }

    @Test func aDictionarysCountsAreObservedTogether() {
        let scores = ObservableDictionary(["ann": 1])
        let count = ObservableExpression(scores.observableCount)
        let zero = count.subtracting(ObservableExpression(scores.observableCount))  // two counts, one dictionary
        let zeros = ExpressionRecorder(zero)
        #expect(scores.messenger.observationCount == 1)
        scores["bob"] = 2
        scores["ann"] = nil
        #expect(zeros.take().isEmpty)
    }

    @Test func aFilteredArrayViewsCountIsFoldedWithTheArraysFolds() {
        let numbers = ObservableArray(Array(0..<10))
        let all = ObservableExpression(numbers.observableCount)
        let even = ObservableExpression(numbers.filteredElements { $0 % 2 == 0 }.observableCount)
        let odd = ObservableExpression(numbers.observableCount { $0 % 2 != 0 })
        let zero = all.subtracting(even).subtracting(odd)
        let zeros = ExpressionRecorder(zero)
        #expect(numbers.messenger.observationCount == 1)
        numbers.append(10)
        numbers.replaceSubrange(0..<4, with: [1, 3])
        numbers.removeAll()
        #expect(zeros.take().isEmpty)
        #expect(all.value == 0 && even.value == 0)
    }

    @Test func countsOfOneSetEditedFromEightThreadsNeverDisagree() {
        let numbers = ObservableSet<Int>()
        let all = ObservableExpression(numbers.observableCount)
        let even = ObservableExpression(numbers.filteredElements { $0 % 2 == 0 }.observableCount)
        let odd = ObservableExpression(numbers.filteredElements { $0 % 2 != 0 }.observableCount)
        let zero = all.subtracting(even).subtracting(odd)
        let zeros = ExpressionRecorder(zero)
        let counts = ExpressionRecorder(all)
        let finished = Self.insertAndRemoveFromEightThreads(numbers)
        #expect(finished)
        #expect(waitUntilDelivered(numbers.messenger, zero.messenger, all.messenger))
        #expect(zeros.take().isEmpty)
        #expect(counts.take().last?.new == 8 * 100)
        #expect(zero.value == 0 && all.value == numbers.count)
    }

    @Test func anExpressionOfCountsOfOneSetReleasesThemAndTheSet() {
        weak var weakSet: ObservableSet<Int>?
        weak var weakExpression: ObservableExpression<Int>?
        do {
            let numbers = ObservableSet([1, 2])
            let difference = ObservableExpression(numbers.observableCount)
                .subtracting(ObservableExpression(numbers.filteredElements { $0 > 1 }.observableCount))
            weakSet = numbers
            weakExpression = difference
            var recorder: ExpressionRecorder<Int>? = ExpressionRecorder(difference)
            numbers.insert(0)
            #expect(recorder?.take() == [Update(1, 2)])
            recorder = nil
            #expect(numbers.messenger.observationCount == 0)
        }
        #expect(weakExpression == nil)
        #expect(weakSet == nil)
    }

    @Test(arguments: ObservableExpressionModelTests.seeds)
    func randomEditsOfASetNeverMakeItsCountsDisagree(seed: UInt64) {
        let numbers = ObservableSet<Int>()
        let all = ObservableExpression(numbers.observableCount)
        let small = ObservableExpression(numbers.filteredElements { abs($0) < 10 }.observableCount)
        let even = ObservableExpression(numbers.filteredElements { $0 % 2 == 0 }.observableCount)
        let formulas: [(ObservableExpression<Int>, @Sendable (Set<Int>) -> Int)] = [
            (
                small.multiplied(by: 100).divided(by: all, ifZero: -1),
                { $0.isEmpty ? -1 : $0.count { abs($0) < 10 } * 100 / $0.count }
            ),
            (
                all.subtracting(even).multiplied(by: 7).adding(small),
                { 7 * $0.count { $0 % 2 != 0 } + $0.count { abs($0) < 10 } }
            ),
        ]
        checkFormulasThroughRandomEdits(
            formulas, contents: { numbers.value }, seed: seed, steps: ObservableExpressionModelTests.steps,
            whileSubscribed: { #expect(numbers.messenger.observationCount == 2) },  // once per expression
            transaction: { numbers.withTransaction($0) }, edit: { Self.edit(numbers, &$0) })
    }

    static func edit(_ numbers: ObservableSet<Int>, _ random: inout SeededGenerator) {
        if numbers.count > 40 {
            // Keeps the contents small, so that recomputing each formula stays cheap.
            numbers.subtract(Set(numbers.value.prefix(random.roll(1..<10))))
            return
        }
        switch random.roll(0..<5) {
        case 0, 1: numbers.insert(random.roll(-30..<30))
        case 2: numbers.remove(random.roll(-30..<30))
        case 3: numbers.formUnion((0..<random.roll(0..<4)).map { _ in random.roll(-30..<30) })
        default: numbers.formSymmetricDifference(Set((0..<random.roll(0..<4)).map { _ in random.roll(-30..<30) }))
        }
    }

    /// Eight threads each insert 200 members and remove 100 of them, interleaved; 800 remain.
    static func insertAndRemoveFromEightThreads(_ numbers: ObservableSet<Int>) -> Bool {
        runOnThreads(8) { thread in
            for step in 0..<300 {
                if step % 3 == 2 {
                    numbers.remove(thread * 1000 + step - 1)
                } else {
                    numbers.insert(thread * 1000 + step)
                }
            }
        }
    }
}
