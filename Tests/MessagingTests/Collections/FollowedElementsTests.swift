import Foundation
import Testing

@testable import Messaging

/// An element with an observable property: an issue that is open or closed.
final class TrackedIssue: Sendable {
    let title: String
    let isOpen: Var<Bool>
    let priority: Var<Int>

    init(_ title: String, isOpen: Bool = true, priority: Int = 0) {
        self.title = title
        self.isOpen = Var(isOpen)
        self.priority = Var(priority)
    }
}

/// Every change a view of observable properties sends, in order.
final class ChangeRecorder<Value: Sendable>: Sendable {
    let token: ObservationToken
    let received = Locked<[ArrayChange<Value>]>([])

    init<Source: ObservableSource>(_ view: Source) where Source.Message == ArrayChange<Value> {
        let received = received
        token = view.subscribe { change in received.withLock { $0.append(change) } }
    }

    func take() -> [ArrayChange<Value>] {
        received.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }
}

@Suite("FollowedElements: an observable property of each element of an array")
struct FollowedElementsTests {
    @Test func theArraysEditsAreTheSameEditsOfTheValues() {
        let issues = ObservableArray([TrackedIssue("a", priority: 1), TrackedIssue("b", priority: 2)])
        let priorities = issues.followEach(\.priority)
        let recorder = ChangeRecorder(priorities)
        issues.insert(TrackedIssue("c", priority: 3), at: 1)
        issues.remove(at: 0)
        issues[1] = TrackedIssue("d", priority: 4)
        issues.move(from: 0, to: 1)
        #expect(
            recorder.take() == [
                change(2, .insert(3, at: 1)),
                change(3, .remove(1, at: 0)),
                change(2, .replace(2, with: 4, at: 1)),
                change(2, .remove(3, at: 0), .insert(3, at: 2)),
            ])
        #expect(priorities.value == [4, 3])
    }

    @Test func aPropertyUpdateIsAReplacementAtTheElementsCurrentIndex() {
        let first = TrackedIssue("a", priority: 1)
        let second = TrackedIssue("b", priority: 2)
        let issues = ObservableArray([first, second])
        let priorities = issues.followEach { $0.priority }
        let recorder = ChangeRecorder(priorities)
        second.priority.value = 20
        issues.insert(TrackedIssue("c"), at: 0)
        second.priority.value = 200
        first.priority.value = 10
        #expect(
            recorder.take() == [
                change(2, .replace(2, with: 20, at: 1)),
                change(2, .insert(0, at: 0)),
                change(3, .replace(20, with: 200, at: 2)),
                change(3, .replace(1, with: 10, at: 1)),
            ])
        #expect(priorities.value == [0, 10, 200])
    }

    @Test func anUpdateToTheValueTheViewHoldsSendsNothing() {
        let issue = TrackedIssue("a", isOpen: true)
        let issues = ObservableArray([issue])
        let flags = issues.followEach(\.isOpen)
        let recorder = ChangeRecorder(flags)
        // A messenger's own send of an update whose new value the view already holds.
        issue.isOpen.messenger.send(Update(false, true))
        issue.isOpen.value = true
        #expect(recorder.take().isEmpty)
        issue.isOpen.value = false
        #expect(recorder.take() == [change(1, .replace(true, with: false, at: 0))])
    }

    @Test func aRemovedElementsUpdatesSendNothingAndItIsReleased() {
        let issues = ObservableArray([TrackedIssue("a"), TrackedIssue("b")])
        let flags = issues.followEach(\.isOpen)
        let recorder = ChangeRecorder(flags)
        weak var weakIssue: TrackedIssue?
        do {
            let removed = issues.remove(at: 0)
            weakIssue = removed
            #expect(removed.isOpen.messenger.observationCount == 0)
            removed.isOpen.value = false
            #expect(recorder.take() == [change(2, .remove(true, at: 0))])
        }
        #expect(weakIssue == nil)
        #expect(flags.value == [true])
        withExtendedLifetime(recorder) {}
    }

    @Test func aTransactionOfTheArrayIsOneChange() {
        let issues = ObservableArray([TrackedIssue("a", priority: 1), TrackedIssue("b", priority: 2)])
        let priorities = issues.followEach(\.priority)
        let recorder = ChangeRecorder(priorities)
        issues.withTransaction {
            issues.append(TrackedIssue("c", priority: 3))
            issues.remove(at: 0)
        }
        let received = recorder.take()
        #expect(received.count == 1)
        #expect(received.first?.applied(to: [1, 2]) == [2, 3])
    }

    @Test func observesOnlyWhileObservedAndReadsTheCurrentValuesOtherwise() {
        let issue = TrackedIssue("a", priority: 1)
        let issues = ObservableArray([issue])
        weak var weakView: FollowedElements<TrackedIssue, Var<Int>, Int>?
        do {
            let priorities = issues.followEach(\.priority)
            weakView = priorities
            #expect(priorities.value == [1] && priorities.count == 1)
            issue.priority.value = 2
            #expect(priorities.value == [2])
            #expect(issues.messenger.observationCount == 0 && issue.priority.messenger.observationCount == 0)
            let token = priorities.subscribe { _ in }
            #expect(issues.messenger.observationCount == 1 && issue.priority.messenger.observationCount == 1)
            #expect(priorities.value == [2] && priorities.count == 1)
            token.stopObserving()
            #expect(issues.messenger.observationCount == 0 && issue.priority.messenger.observationCount == 0)
        }
        #expect(weakView == nil)
    }

    @Test func theViewAndItsElementsAreReleasedOnceNothingHoldsThem() {
        weak var weakIssue: TrackedIssue?
        weak var weakView: FollowedElements<TrackedIssue, Var<Bool>, Bool>?
        weak var weakArray: ObservableArray<TrackedIssue>?
        do {
            let issue = TrackedIssue("a")
            weakIssue = issue
            let issues = ObservableArray([issue])
            weakArray = issues
            let flags = issues.followEach(\.isOpen)
            weakView = flags
            let recorder = ChangeRecorder(flags)
            issue.isOpen.value = false
            #expect(recorder.take() == [change(1, .replace(true, with: false, at: 0))])
        }
        #expect(weakView == nil)
        #expect(weakArray == nil)
        #expect(weakIssue == nil)
    }

    @Test func aReplayStartsWithTheValues() {
        let issues = ObservableArray([TrackedIssue("a", priority: 1), TrackedIssue("b", priority: 2)])
        let priorities = issues.followEach(\.priority)
        let received = Locked<[ArrayChange<Int>]>([])
        let token = priorities.subscribe(replayingLatest: true) { change in received.withLock { $0.append(change) } }
        #expect(received.value == [change(0, .replaceSlice([], at: 0, with: [1, 2]))])
        withExtendedLifetime(token) {}
    }

    static var steps: Int {
        modelSteps(standard: 10_000)
    }

    /// Random edits of the array and random updates of the elements' properties, checked after
    /// every step: the received changes turn the previous contents into the current ones, which
    /// equal the recomputation.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyChangeTurnsThePreviousValuesIntoTheCurrentOnes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let issues = ObservableArray<TrackedIssue>()
        let priorities = issues.followEach(\.priority)
        let recorder = ChangeRecorder(priorities)
        var copy: [Int] = []
        var retired: [TrackedIssue] = []
        for step in 0..<Self.steps {
            let current = issues.value
            switch random.roll(0..<10) {
            case 0 where current.count < 16:
                issues.insert(TrackedIssue("", priority: random.roll(0..<4)), at: random.roll(0...current.count))
            case 1 where !current.isEmpty:
                retired.append(issues.remove(at: random.roll(0..<current.count)))
                if retired.count > 4 { retired.removeFirst() }
            case 2 where !current.isEmpty:
                issues[random.roll(0..<current.count)] = TrackedIssue("", priority: random.roll(0..<4))
            case 3 where current.count > 1:
                issues.move(from: random.roll(0..<current.count), to: random.roll(0..<current.count))
            case 4 where current.count > 1:
                issues.withTransaction {
                    issues.append(TrackedIssue("", priority: random.roll(0..<4)))
                    issues.remove(at: 0)
                    issues[0].priority.value = random.roll(0..<4)
                }
            case 5 where !retired.isEmpty:
                // An update of an element that left the view reaches nobody.
                retired[random.roll(0..<retired.count)].priority.value = random.roll(0..<4)
            default:
                guard !current.isEmpty else { continue }
                current[random.roll(0..<current.count)].priority.value = random.roll(0..<4)
            }
            for received in recorder.take() {
                #expect(received.countBefore == copy.count)
                received.apply(to: &copy)
            }
            let expected = issues.value.map(\.priority.value)
            if copy != expected || priorities.value != expected || priorities.count != expected.count {
                Issue.record(
                    "seed \(seed), step \(step): received \(copy), view \(priorities.value), expected \(expected)")
                return
            }
        }
    }

    @Test func eightThreadsEditingAndUpdatingLeaveTheReceivedCopyEqualToTheValues() {
        let issues = ObservableArray((0..<8).map { TrackedIssue("\($0)", priority: $0) })
        let priorities = issues.followEach(\.priority)
        let copy = Locked<[Int]>(priorities.value)
        let mismatches = Locked(0)
        let token = priorities.subscribe { change in
            copy.withLock { copy in
                if change.countBefore != copy.count { mismatches.withLock { $0 += 1 } }
                change.apply(to: &copy)
            }
        }
        let own = issues.value
        #expect(
            runOnThreads(8) { thread in
                for step in 0..<2_000 {
                    switch step % 5 {
                    case 0 where thread < 2:
                        issues.append(TrackedIssue("", priority: step))
                    case 1 where thread == 0:
                        // Only this thread removes, so the count it reads cannot shrink before it
                        // removes.
                        issues.withTransaction {
                            if issues.count > 8 { issues.remove(at: issues.count - 1) }
                        }
                    case 2:
                        let current = issues.value
                        current[step % current.count].priority.value = thread * 10_000 + step
                    default:
                        own[thread].priority.value = thread * 10_000 + step
                    }
                }
            })
        #expect(waitUntilDelivered(issues.messenger, priorities.messenger))
        // The elements' own messengers may still deliver updates that a later one already
        // replaced, so the copy can equal the properties for a moment while the view moves on:
        // wait until the copy, the view and the properties agree at once.
        #expect(
            waitUntil {
                let received = copy.value
                return received == issues.value.map(\.priority.value) && received == priorities.value
            })
        #expect(mismatches.value == 0)
        withExtendedLifetime(token) {}
    }
}
