import Foundation
import Testing

@testable import Messaging

/// An issue that is a member of a set: equal only to itself, with an observable open flag and a
/// flag mapped from an observable priority (a property that is not a `Var`).
final class MemberIssue: Hashable, Sendable, CustomStringConvertible {
    let title: String
    let isOpen: Var<Bool>
    let priority: Var<Int>
    let isUrgent: MappedVar<Int, Bool>

    init(_ title: String, isOpen: Bool = true, priority: Int = 0) {
        self.title = title
        self.isOpen = Var(isOpen)
        self.priority = Var(priority)
        isUrgent = self.priority.map({ $0 > 2 }, inverse: { $0 ? 3 : 0 })
    }

    static func == (lhs: MemberIssue, rhs: MemberIssue) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    var description: String { title }
}

/// A filter of an observable set by an observable property of each member: checked on examples,
/// after every step of random edits and flips against filtering the set again, and from eight
/// threads.
@Suite("PropertyFilteredSetView: the members whose observable property is true")
struct PropertyFilteredSetViewTests {
    static func titles(_ changes: [SetChange<MemberIssue>]) -> [String] {
        changes.map { change in
            let removed = change.removed.map(\.title).sorted()
            let inserted = change.inserted.map(\.title).sorted()
            return "-\(removed.joined(separator: ",")) +\(inserted.joined(separator: ","))"
        }
    }

    @Test func aFlippedPropertyMovesTheMemberInOrOut() {
        let a = MemberIssue("a", isOpen: true)
        let b = MemberIssue("b", isOpen: false)
        let issues = ObservableSet([a, b])
        let open = SetViewFollower(issues.filteredElements(by: \.isOpen))
        #expect(open.copy.value == [a] && open.view.value == [a] && open.view.count == 1)
        b.isOpen.value = true
        a.isOpen.value = false
        a.isOpen.value = true
        #expect(Self.titles(open.take()) == ["- +b", "-a +", "- +a"])
        #expect(open.copy.value == [a, b] && open.view.value == [a, b] && open.view.count == 2)
    }

    @Test func theSetsEditsAreFilteredByEachMembersProperty() {
        let a = MemberIssue("a", isOpen: true)
        let issues = ObservableSet([a, MemberIssue("b", isOpen: false)])
        let open = SetViewFollower(issues.filteredElements(by: { $0.isOpen }))
        let c = MemberIssue("c", isOpen: true)
        issues.insert(c)
        issues.insert(MemberIssue("d", isOpen: false))  // excluded: nothing
        issues.insert(c)  // already a member: nothing
        issues.remove(a)
        issues.withTransaction {
            issues.insert(MemberIssue("e", isOpen: true))
            issues.insert(MemberIssue("f", isOpen: true))
            issues.remove(c)
        }
        #expect(Self.titles(open.take()) == ["- +c", "-a +", "-c +e,f"])
        #expect(open.view.value.map(\.title).sorted() == ["e", "f"] && open.view.count == 2)
        #expect(open.copy.value == open.view.value)
    }

    @Test func aMemberReplacedByAnEqualOneFollowsTheNewOnesProperty() {
        let numbers = ObservableSet([Tagged(id: 1, tag: "a")])
        let flags = Locked<[String: Var<Bool>]>(["a": Var(true), "b": Var(false), "c": Var(true)])
        let view = SetViewFollower(numbers.filteredElements(by: { member in flags.value[member.tag]! }))
        numbers.update(with: Tagged(id: 1, tag: "b"))  // leaves: b's flag is false
        numbers.update(with: Tagged(id: 1, tag: "c"))  // joins
        numbers.update(with: Tagged(id: 1, tag: "a"))  // replaced in the view
        flags.value["c"]!.value = false  // no longer a member's flag: nothing
        flags.value["a"]!.value = false
        #expect(
            view.take().map { "-\($0.removed.map(\.tag).sorted()) +\($0.inserted.map(\.tag).sorted())" } == [
                "-[\"a\"] +[]", "-[] +[\"c\"]", "-[\"c\"] +[\"a\"]", "-[\"a\"] +[]",
            ])
        #expect(view.copy.value.isEmpty && view.view.isEmpty)
    }

    @Test func anUpdateThatKeepsTheValueSendsNothing() {
        let issue = MemberIssue("a", isOpen: true)
        let open = SetViewFollower(ObservableSet([issue]).filteredElements(by: \.isOpen))
        issue.isOpen.messenger.send(Update(false, true))
        issue.isOpen.value = true
        #expect(open.take().isEmpty)
    }

    @Test func aPropertyThatIsNotAVarIsFollowedToo() {
        let low = MemberIssue("low", priority: 1)
        let high = MemberIssue("high", priority: 5)
        let issues = ObservableSet([low, high])
        let urgent = SetViewFollower(issues.filteredElements(by: \.isUrgent))
        #expect(urgent.copy.value == [high])
        low.priority.value = 3
        high.priority.value = 4  // still urgent: nothing
        high.isUrgent.value = false  // written through the mapping
        #expect(Self.titles(urgent.take()) == ["- +low", "-high +"])
        #expect(urgent.view.value == [low] && urgent.view.count == 1)
    }

    @Test func aRemovedMembersFlipsSendNothingAndItIsReleased() {
        let b = MemberIssue("b")
        let issues = ObservableSet([b])
        let open = SetViewFollower(issues.filteredElements(by: \.isOpen))
        weak var weakIssue: MemberIssue?
        do {
            let a = MemberIssue("a")
            weakIssue = a
            issues.insert(a)
            #expect(a.isOpen.messenger.observationCount == 1)
            issues.remove(a)
            #expect(a.isOpen.messenger.observationCount == 0)
            a.isOpen.value = false
            a.isOpen.value = true
            // The received changes hold the issue too.
            #expect(Self.titles(open.take()) == ["- +a", "-a +"])
        }
        #expect(weakIssue == nil)
        #expect(open.view.value == [b])
    }

    @Test func observesOnlyWhileObservedAndReadsThePropertiesOtherwise() {
        let issue = MemberIssue("a", isOpen: false)
        let issues = ObservableSet([issue, MemberIssue("b")])
        weak var weakView: PropertyFilteredSetView<MemberIssue, Var<Bool>>?
        do {
            let open = issues.filteredElements(by: \.isOpen)
            weakView = open
            #expect(open.value.map(\.title) == ["b"] && open.count == 1 && !open.contains(issue))
            issue.isOpen.value = true
            #expect(open.count == 2 && open.contains(issue))
            #expect(issues.messenger.observationCount == 0 && issue.isOpen.messenger.observationCount == 0)
            let token = open.subscribe { _ in }
            #expect(issues.messenger.observationCount == 1 && issue.isOpen.messenger.observationCount == 1)
            #expect(open.count == 2 && open._state.currentCount == 2)
            token.stopObserving()
            #expect(issues.messenger.observationCount == 0 && issue.isOpen.messenger.observationCount == 0)
            #expect(open._state.currentCount == nil)
            // Observed again, it starts from the sources' values of then.
            issue.isOpen.value = false
            let follower = SetViewFollower(open)
            #expect(follower.copy.value.map(\.title) == ["b"])
            issue.isOpen.value = true
            #expect(Self.titles(follower.take()) == ["- +a"])
        }
        #expect(weakView == nil)
    }

    @Test func theViewItsSetAndItsMembersAreReleasedOnceNothingHoldsThem() {
        weak var weakView: PropertyFilteredSetView<MemberIssue, Var<Bool>>?
        weak var weakSet: ObservableSet<MemberIssue>?
        weak var weakIssue: MemberIssue?
        do {
            let issue = MemberIssue("a")
            weakIssue = issue
            let issues = ObservableSet([issue])
            weakSet = issues
            let open = issues.filteredElements(by: \.isOpen)
            weakView = open
            let follower = SetViewFollower(open)
            let counts = UpdateRecorder(open.observableCount)
            issue.isOpen.value = false
            #expect(Self.titles(follower.take()) == ["-a +"])
            #expect(counts.take() == ["1->0"])
        }
        #expect(weakView == nil)
        #expect(weakSet == nil)
        #expect(weakIssue == nil)
    }

    @Test func theCountAndMembershipAreObservable() {
        let a = MemberIssue("a")
        let b = MemberIssue("b", isOpen: false)
        let issues = ObservableSet([a, b])
        let open = issues.filteredElements(by: \.isOpen)
        // The first observation of the view: it starts before the view knows its count.
        let first = UpdateRecorder(open.observableCount)
        let membership = UpdateRecorder(open.observableContains(b))
        b.isOpen.value = true
        issues.insert(MemberIssue("c", isOpen: false))  // excluded: nothing
        let second = UpdateRecorder(open.observableCount)
        a.isOpen.value = false
        issues.remove(b)
        #expect(first.take() == ["1->2", "2->1", "1->0"])
        #expect(second.take() == ["2->1", "1->0"])
        #expect(membership.take() == ["false->true", "true->false"])
        #expect(open.count == 0)
    }

    @Test func aHandlerThatFlipsAPropertyIsFollowedNotNested() {
        let a = MemberIssue("a", isOpen: false)
        let b = MemberIssue("b", isOpen: false)
        let issues = ObservableSet([a, b])
        let open = issues.filteredElements(by: \.isOpen)
        let copy = Locked<Set<MemberIssue>>([])
        let depth = Locked(0)
        let nested = Locked(false)
        let token = open.subscribe { change in
            let entered = depth.withLock { depth in
                depth += 1
                return depth
            }
            if entered > 1 { nested.withLock { $0 = true } }
            copy.withLock { change.apply(to: &$0) }
            if change.inserted.contains(a) { b.isOpen.value = true }
            depth.withLock { $0 -= 1 }
        }
        a.isOpen.value = true  // the handler opens b
        #expect(!nested.value)
        #expect(copy.value == [a, b])
        #expect(open.value == [a, b] && open.count == 2)
        withExtendedLifetime(token) {}
    }

    static var steps: Int {
        modelSteps(standard: 10_000)
    }

    /// Random edits of the set and random flips of its members' properties (and of members that
    /// left it), checked after every step: the received changes turn the previous contents into
    /// the current ones, which equal the set filtered again, and the observed count follows.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyChangeTurnsThePreviousContentsIntoTheCurrentOnes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pool = (0..<24).map { MemberIssue("\($0)", isOpen: $0 % 2 == 0) }
        let issues = ObservableSet<MemberIssue>()
        let open = SetViewFollower(issues.filteredElements(by: \.isOpen))
        let lastCount = Locked<Int?>(nil)
        let countToken = open.view.observableCount.subscribe { update in lastCount.withLock { $0 = update.new } }
        var countedSoFar = 0
        func some() -> MemberIssue { pool[random.roll(0..<pool.count)] }
        for step in 0..<Self.steps {
            switch random.roll(0..<10) {
            case 0..<2:
                issues.insert(some())
            case 2..<4:
                issues.remove(some())
            case 4:
                issues.formUnion((0..<random.roll(0..<4)).map { _ in some() })
            case 5:
                issues.subtract((0..<random.roll(0..<4)).map { _ in some() })
            case 6:
                let (inserted, flipped, removed) = (some(), some(), some())
                issues.withTransaction {
                    issues.insert(inserted)
                    flipped.isOpen.value.toggle()
                    issues.remove(removed)
                }
            default:
                // A member's flip, or that of an issue outside the set, which reaches nobody.
                some().isOpen.value.toggle()
            }
            let received = open.take()
            if received.contains(where: \.isEmpty) {
                Issue.record("seed \(seed), step \(step): an empty change")
                return
            }
            let expected = issues.value.filter(\.isOpen.value)
            if let count = lastCount.value { countedSoFar = count }
            if open.copy.value != expected || open.view.value != expected || open.view.count != expected.count
                || countedSoFar != expected.count
            {
                Issue.record(
                    "seed \(seed), step \(step): received \(open.copy.value), view \(open.view.value), count \(open.view.count), observed count \(String(describing: lastCount.value)), expected \(expected)"
                )
                return
            }
        }
        // Every issue outside the set is observed by nothing.
        for issue in pool where !issues.contains(issue) {
            #expect(issue.isOpen.messenger.observationCount == 0)
        }
        withExtendedLifetime(countToken) {}
    }

    @Test func eightThreadsEditingAndFlippingLeaveTheReceivedCopyEqualToTheFilter() {
        let pool = (0..<64).map { MemberIssue("\($0)", isOpen: $0 % 3 == 0) }
        let issues = ObservableSet(Set(pool[0..<32]))
        let open = SetViewFollower(issues.filteredElements(by: \.isOpen))
        let observedCount = Locked(open.view.count)
        let countToken = open.view.observableCount.subscribe { update in
            observedCount.withLock { $0 = update.new }
        }
        #expect(
            runOnThreads(8) { thread in
                for step in 0..<2_000 {
                    let issue = pool[(step * 7 + thread * 13) % pool.count]
                    switch (thread + step) % 4 {
                    case 0:
                        issues.insert(issue)
                    case 1:
                        issues.remove(issue)
                    default:
                        issue.isOpen.value = (step + thread) % 3 != 0
                    }
                }
            })
        #expect(waitUntilDelivered(issues.messenger, open.view.messenger))
        // The properties' deliveries and the view's runner may still be at work: wait until the
        // runner is idle, then until the copy, the view, the count and the sources agree at once.
        let state = open.view._state
        let expected = { issues.value.filter(\.isOpen.value) }
        #expect(
            waitUntil {
                let idle = state._core.withLock { !state._drain.isRunning }
                let copy = open.copy.value
                return idle && copy == expected() && copy == open.view.value
                    && observedCount.value == copy.count && open.view.count == copy.count
            })
        for issue in pool where !issues.contains(issue) {
            #expect(issue.isOpen.messenger.observationCount == 0)
        }
        withExtendedLifetime(countToken) {}
    }
}
