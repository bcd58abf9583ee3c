import Foundation
import Messaging
import SharedTestSupport
import Testing

/// An issue of the bug tracker, equal only to itself, with a number to order and fold by.
final class FiledIssue: Sendable, Equatable {
    let number: Int
    let isOpen: Var<Bool>

    init(_ number: Int, isOpen: Bool) {
        self.number = number
        self.isOpen = Var(isOpen)
    }

    static func == (lhs: FiledIssue, rhs: FiledIssue) -> Bool { lhs === rhs }
}

/// The count of a view that follows each element's observable property, observed together with
/// the folds and extremes of its array: GlueKit's share of open issues never shows a state that
/// never existed.
@Suite("ObservableExpression: a property filter's count with its array's folds")
struct ObservableExpressionViewCountTests {
    @Test func filingAnOpenIssueChangesTheShareOnce() {
        let a = TrackedIssue("a", isOpen: true)
        let b = TrackedIssue("b", isOpen: false)
        let issues = ObservableArray([a, b])
        let openCount = ObservableExpression(issues.filteredElements(by: \.isOpen).observableCount)
        let issueCount = ObservableExpression(issues.observableCount)
        let percentage = openCount.multiplied(by: 100).divided(by: issueCount, ifZero: 0)
        let recorder = ExpressionRecorder(percentage)
        // The view observes the array; the expression observes the view, once.
        #expect(issues.messenger.observationCount == 1)
        issues.append(TrackedIssue("c", isOpen: true))  // both counts change: one update
        #expect(recorder.take() == [Update(50, 66)])
        issues.append(TrackedIssue("d", isOpen: false))  // only the total changes
        #expect(recorder.take() == [Update(66, 50)])
        b.isOpen.value = true  // only the open count changes
        #expect(recorder.take() == [Update(50, 75)])
        issues.remove(at: 0)  // an open issue leaves: both change
        #expect(recorder.take() == [Update(75, 66)])
        issues.withTransaction {
            issues.append(TrackedIssue("e", isOpen: true))
            issues.append(TrackedIssue("f", isOpen: true))
        }
        #expect(recorder.take() == [Update(66, 80)])
        issues.removeAll()
        #expect(recorder.take() == [Update(80, 0)])
        #expect(percentage.value == 0)
        recorder.token.stopObserving()
        #expect(issues.messenger.observationCount == 0)
        #expect(a.isOpen.messenger.observationCount == 0)
    }

    @Test func theOpenAndTheTotalNeverDisagreeWhenOpenIssuesComeAndGo() {
        let issues = ObservableArray((0..<4).map { TrackedIssue("\($0)", isOpen: true) })
        let open = ObservableExpression(issues.filteredElements(by: \.isOpen).observableCount)
        let all = ObservableExpression(issues.observableCount)
        let closed = all.subtracting(open)
        let recorder = ExpressionRecorder(closed)
        // Every issue is open: the number of closed ones stays zero through every edit.
        issues.append(TrackedIssue("4", isOpen: true))
        issues.insert(TrackedIssue("5", isOpen: true), at: 0)
        issues[2] = TrackedIssue("6", isOpen: true)
        issues.replaceSubrange(1..<3, with: [TrackedIssue("7", isOpen: true)])
        issues.removeAll()
        #expect(recorder.take().isEmpty)
        let late = TrackedIssue("8", isOpen: true)
        issues.append(late)
        late.isOpen.value = false
        #expect(recorder.take() == [Update(0, 1)])
    }

    @Test func theViewsCountJoinsTheArraysFoldsAndExtremes() {
        let issues = ObservableArray((1...4).map { FiledIssue($0, isOpen: $0 % 2 == 0) })
        let open = ObservableExpression(issues.filteredElements(by: \.isOpen).observableCount)
        let numbered = ObservableExpression(issues.observableCount { $0.number > 0 })
        let highest = ObservableExpression(issues.observableMax { $0.number < $1.number })
        let all = ObservableExpression(issues.observableCount)
        // Zero as long as the three are read together: every issue is numbered and open.
        let zero = numbered.subtracting(all).adding(all.subtracting(open))
        let top = highest.combined(with: open) { ($0?.number ?? 0) * 100 + $1 }
        let zeros = ExpressionRecorder(zero)
        let tops = ExpressionRecorder(top)
        #expect(issues.messenger.observationCount == 1)  // the one view, which both follow
        #expect(zero.value == 2 && top.value == 402)
        issues[0].isOpen.value = true
        issues[2].isOpen.value = true
        #expect(zeros.take() == [Update(2, 1), Update(1, 0)])
        issues.append(FiledIssue(9, isOpen: true))
        issues.remove(at: 1)
        issues.insert(FiledIssue(12, isOpen: true), at: 0)
        #expect(zeros.take().isEmpty)
        #expect(
            tops.take() == [Update(402, 403), Update(403, 404), Update(404, 905), Update(905, 904), Update(904, 1205)])
        #expect(top.value == 1205)
    }

    @Test func anExpressionStartsWhileTheViewIsObservedOrNot() {
        let issues = ObservableArray([TrackedIssue("a", isOpen: true), TrackedIssue("b", isOpen: false)])
        let view = issues.filteredElements(by: \.isOpen)
        let share = ObservableExpression(view.observableCount).multiplied(by: 100)
            .divided(by: ObservableExpression(issues.observableCount), ifZero: 0)
        // The view is not observed: the group's start seeds it and reads it once it has read.
        let first = ExpressionRecorder(share, replayingLatest: true)
        issues.append(TrackedIssue("c", isOpen: true))
        #expect(first.take() == [Update(50, 50), Update(50, 66)])
        first.token.stopObserving()
        // Now the view is observed by someone else: the group starts from its current contents.
        let rows = view.subscribe { _ in }
        issues.append(TrackedIssue("d", isOpen: false))
        let second = ExpressionRecorder(share, replayingLatest: true)
        issues.append(TrackedIssue("e", isOpen: false))
        #expect(second.take() == [Update(50, 50), Update(50, 40)])
        second.token.stopObserving()
        #expect(issues.messenger.observationCount == 1)
        rows.stopObserving()
        #expect(issues.messenger.observationCount == 0)
    }

    @Test func theCountsOfTwoViewsOfOneArrayStayRight() {
        let issues = ObservableArray([TrackedIssue("a", isOpen: true), TrackedIssue("b", isOpen: false)])
        let open = ObservableExpression(issues.filteredElements(by: \.isOpen).observableCount)
        let again = ObservableExpression(issues.filteredElements(by: \.isOpen).observableCount)
        let all = ObservableExpression(issues.observableCount)
        // The first view leads the group with the total; the second is observed alone.
        let formula = all.multiplied(by: 100).adding(open.multiplied(by: 10)).adding(again)
        let recorder = ExpressionRecorder(formula)
        #expect(issues.messenger.observationCount == 2)
        issues.append(TrackedIssue("c", isOpen: true))
        issues[1].isOpen.value = true
        #expect(formula.value == 333)
        #expect(recorder.take().last?.new == 333)
    }

    @Test func anExpressionOfTheViewsCountReleasesEverything() {
        weak var weakIssues: ObservableArray<TrackedIssue>?
        weak var weakView: PropertyFilteredArrayView<TrackedIssue, Var<Bool>>?
        weak var weakExpression: ObservableExpression<Int>?
        do {
            let issues = ObservableArray([TrackedIssue("a", isOpen: true)])
            let view = issues.filteredElements(by: \.isOpen)
            let share = ObservableExpression(view.observableCount)
                .subtracting(ObservableExpression(issues.observableCount))
            weakIssues = issues
            weakView = view
            weakExpression = share
            var recorder: ExpressionRecorder<Int>? = ExpressionRecorder(share)
            issues.append(TrackedIssue("b", isOpen: false))
            #expect(recorder?.take() == [Update(0, -1)])
            recorder = nil
            #expect(issues.messenger.observationCount == 0)
        }
        #expect(weakExpression == nil)
        #expect(weakView == nil)
        #expect(weakIssues == nil)
    }

    @Test func openIssuesFiledAndRemovedFromEightThreadsNeverLeaveAClosedOne() {
        let issues = ObservableArray<TrackedIssue>()
        let open = ObservableExpression(issues.filteredElements(by: \.isOpen).observableCount)
        let all = ObservableExpression(issues.observableCount)
        let closed = all.subtracting(open)
        let closedUpdates = ExpressionRecorder(closed)
        let counts = ExpressionRecorder(all)
        let finished = runOnThreads(8) { thread in
            for step in 0..<150 {
                if step % 3 == 2 {
                    issues.modify { contents in _ = contents.popLast() }
                } else {
                    issues.append(TrackedIssue("\(thread).\(step)", isOpen: true))
                }
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(issues.messenger, closed.messenger, all.messenger))
        #expect(closedUpdates.take().isEmpty)
        #expect(counts.take().last?.new == 8 * 50)
        #expect(closed.value == 0 && all.value == 8 * 50)
    }

    @Test(arguments: ObservableExpressionModelTests.seeds)
    func randomEditsAndPropertyChangesKeepEveryShareTrue(seed: UInt64) {
        let issues = ObservableArray<FiledIssue>([])
        let open = ObservableExpression(issues.filteredElements(by: \.isOpen).observableCount)
        let all = ObservableExpression(issues.observableCount)
        let odd = ObservableExpression(issues.observableCount { $0.number % 2 != 0 })
        let highest = ObservableExpression(issues.observableMax { $0.number < $1.number })
        let formulas: [(ObservableExpression<Int>, @Sendable ([FiledIssue]) -> Int)] = [
            (
                open.multiplied(by: 100).divided(by: all, ifZero: -1),
                { $0.isEmpty ? -1 : $0.count { $0.isOpen.value } * 100 / $0.count }
            ),
            (
                all.subtracting(open).subtracting(odd),
                { $0.count { !$0.isOpen.value } - $0.count { $0.number % 2 != 0 } }
            ),
            (
                highest.combined(with: open) { ($0?.number ?? -1) * 1000 + $1 },
                { ($0.map(\.number).max() ?? -1) * 1000 + $0.count { $0.isOpen.value } }
            ),
        ]
        let inTransaction = Locked(false)
        let numbers = Locked(0)
        checkFormulasThroughRandomEdits(
            formulas, contents: { issues.value }, seed: seed, steps: Self.steps,
            whileSubscribed: { #expect(issues.messenger.observationCount == 1) },  // by the one view
            transaction: { edits in
                inTransaction.withLock { $0 = true }
                issues.withTransaction(edits)
                inTransaction.withLock { $0 = false }
            },
            edit: { random in
                // A property changes at once, even inside the array's transaction: only outside it
                // is its share of the contents the one the expression has seen.
                let propertiesToo = !inTransaction.withLock { $0 }
                Self.edit(
                    issues, &random,
                    number: numbers.withLock {
                        $0 += 1
                        return $0
                    }, propertiesToo: propertiesToo)
            })
    }

    static var steps: Int { modelSteps(standard: 10_000) }

    static func edit(
        _ issues: ObservableArray<FiledIssue>, _ random: inout SeededGenerator, number: Int, propertiesToo: Bool
    ) {
        let count = issues.count
        let issue = FiledIssue(number % 50, isOpen: random.roll(0..<2) == 0)
        if count > 30 {
            issues.replaceSubrange(0..<random.roll(1..<8), with: [])
            return
        }
        switch random.roll(0..<6) {
        case 0: issues.insert(issue, at: random.roll(0..<(count + 1)))
        case 1 where count > 0: issues.remove(at: random.roll(0..<count))
        case 2 where count > 0: issues[random.roll(0..<count)] = issue
        case 3 where count > 1:
            let start = random.roll(0..<count)
            issues.replaceSubrange(start..<random.roll(start..<(count + 1)), with: [issue])
        case 4 where count > 0 && propertiesToo:
            let toggled = issues.value[random.roll(0..<count)]
            toggled.isOpen.value.toggle()
        default: issues.append(issue)
        }
    }
}
