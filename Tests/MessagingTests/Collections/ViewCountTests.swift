import Testing

@testable import Messaging

/// The `observableCount` of every view that sends array changes: an update when the view's count
/// changes, nothing when it stays.
@Suite("Views: observableCount follows each view's count")
struct ViewCountTests {
    /// A project with an observable list of issue numbers.
    final class Project: Sendable {
        let issues: ObservableArray<Int>
        init(_ issues: [Int]) { self.issues = ObservableArray(issues) }
    }

    @Test func aConcatenationCountsTheElementsOfBothArrays() {
        let first = ObservableArray([1, 2])
        let second = ObservableArray([3])
        let all = first.concatenated(with: second)
        let count = UpdateRecorder(all.observableCount)
        second.append(4)
        first[0] = 10  // a replacement keeps the count
        first.removeAll()
        #expect(count.take() == ["3->4", "4->2"])
        #expect(all.count == 2)
    }

    @Test func aFlatteningCountsTheInnerElements() {
        let alpha = Project([1, 2])
        let beta = Project([3])
        let projects = ObservableArray([alpha, beta])
        let all = projects.flatMap(\.issues)
        let count = UpdateRecorder(all.observableCount)
        beta.issues.append(4)
        projects.remove(at: 0)
        alpha.issues.append(5)  // no longer in the view
        projects.append(Project([]))  // no inner elements: the count stays
        #expect(count.take() == ["3->4", "4->2"])
        #expect(all.count == 2)
    }

    @Test func followedPropertiesCountTheArraysElementsNotTheirChanges() {
        let issues = ObservableArray([TrackedIssue("a", priority: 1), TrackedIssue("b", priority: 2)])
        let priorities = issues.followEach(\.priority)
        let count = UpdateRecorder(priorities.observableCount)
        issues[0].priority.value = 5  // a replacement in the view
        issues.append(TrackedIssue("c"))
        issues.remove(at: 1)
        issues.remove(at: 0)
        #expect(count.take() == ["2->3", "3->2", "2->1"])
        #expect(priorities.count == 1)
    }

    @Test func aFilterByAPropertyCountsTheElementsWhosePropertyIsTrue() {
        let a = TrackedIssue("a", isOpen: true)
        let b = TrackedIssue("b", isOpen: false)
        let issues = ObservableArray([a, b])
        let open = issues.filteredElements(by: \.isOpen)
        let count = UpdateRecorder(open.observableCount)
        b.isOpen.value = true
        a.isOpen.value = false
        issues.append(TrackedIssue("c", isOpen: false))  // not included: the count stays
        issues.append(TrackedIssue("d", isOpen: true))
        #expect(count.take() == ["1->2", "2->1", "1->2"])
        #expect(open.count == 2)
    }

    @Test func sortedViewsCountUpToTheirLimit() {
        let scores = ObservableArray([30, 10])
        let sorted = scores.sortedView()
        let topTwo = scores.sortedView(by: >).prefix(2)
        let all = UpdateRecorder(sorted.observableCount)
        let top = UpdateRecorder(topTwo.observableCount)
        scores.append(20)
        scores.append(40)
        scores[0] = 35  // the count stays
        scores.removeAll()
        #expect(all.take() == ["2->3", "3->4", "4->0"])
        #expect(top.take() == ["2->0"])

        let tags = ObservableSet(["b", "a"])
        let alphabetical = tags.sortedView()
        let members = UpdateRecorder(alphabetical.observableCount)
        tags.insert("c")
        tags.insert("a")  // already a member
        tags.remove("b")
        #expect(members.take() == ["2->3", "3->2"])
    }
}
