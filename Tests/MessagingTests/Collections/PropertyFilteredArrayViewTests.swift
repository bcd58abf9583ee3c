import Foundation
import Testing

@testable import Messaging

@Suite("PropertyFilteredArrayView: the elements whose observable property is true")
struct PropertyFilteredArrayViewTests {
    @Test func aFlippedPropertyMovesTheElementInOrOutAtItsPositionInTheView() {
        let a = TrackedIssue("a", isOpen: true)
        let b = TrackedIssue("b", isOpen: false)
        let c = TrackedIssue("c", isOpen: true)
        let issues = ObservableArray([a, b, c])
        let open = issues.filteredElements(by: \.isOpen)
        let recorder = ChangeRecorder(open)
        b.isOpen.value = true
        a.isOpen.value = false
        c.isOpen.value = false
        a.isOpen.value = true
        #expect(
            recorder.take().map { $0.map(\.title) } == [
                change(2, .insert("b", at: 1)),
                change(3, .remove("a", at: 0)),
                change(2, .remove("c", at: 1)),
                change(1, .insert("a", at: 0)),
            ])
        #expect(open.value.map(\.title) == ["a", "b"])
        #expect(open.count == 2)
    }

    @Test func theArraysEditsAreFilteredAsTheyAreByAPredicate() {
        let issues = ObservableArray([TrackedIssue("a", isOpen: true), TrackedIssue("b", isOpen: false)])
        let open = issues.filteredElements(by: { $0.isOpen })
        let recorder = ChangeRecorder(open)
        issues.append(TrackedIssue("c", isOpen: true))
        issues.append(TrackedIssue("d", isOpen: false))  // nothing
        issues[0] = TrackedIssue("e", isOpen: false)  // a removal
        issues[1] = TrackedIssue("f", isOpen: true)  // an insertion
        issues[1] = TrackedIssue("g", isOpen: true)  // a replacement
        issues.remove(at: 3)  // nothing
        issues.move(from: 2, to: 0)
        #expect(
            recorder.take().map { $0.map(\.title) } == [
                change(1, .insert("c", at: 1)),
                change(2, .remove("a", at: 0)),
                change(1, .insert("f", at: 0)),
                change(2, .replace("f", with: "g", at: 0)),
                change(2, .insert("c", at: 0), .remove("c", at: 1)),
            ])
        #expect(open.value.map(\.title) == ["c", "g"])
    }

    @Test func anUpdateThatKeepsTheValueSendsNothing() {
        let issue = TrackedIssue("a", isOpen: true)
        let issues = ObservableArray([issue])
        let open = issues.filteredElements(by: \.isOpen)
        let recorder = ChangeRecorder(open)
        issue.isOpen.messenger.send(Update(false, true))
        issue.isOpen.value = true
        #expect(recorder.take().isEmpty)
    }

    @Test func aRemovedElementsFlipsSendNothingAndItIsReleased() {
        let issues = ObservableArray([TrackedIssue("a", isOpen: true), TrackedIssue("b", isOpen: true)])
        let open = issues.filteredElements(by: \.isOpen)
        let recorder = ChangeRecorder(open)
        weak var weakIssue: TrackedIssue?
        do {
            let removed = issues.remove(at: 0)
            weakIssue = removed
            #expect(removed.isOpen.messenger.observationCount == 0)
            removed.isOpen.value = false
            removed.isOpen.value = true
            #expect(recorder.take().map { $0.map(\.title) } == [change(2, .remove("a", at: 0))])
        }
        #expect(weakIssue == nil)
        #expect(open.value.map(\.title) == ["b"])
        withExtendedLifetime(recorder) {}
    }

    @Test func aTransactionOfTheArrayIsOneChange() {
        let issues = ObservableArray([TrackedIssue("a", isOpen: true), TrackedIssue("b", isOpen: false)])
        let open = issues.filteredElements(by: \.isOpen)
        let recorder = ChangeRecorder(open)
        issues.withTransaction {
            issues.append(TrackedIssue("c", isOpen: true))
            issues.remove(at: 0)
        }
        let received = recorder.take().map { $0.map(\.title) }
        #expect(received.count == 1)
        #expect(received.first?.applied(to: ["a"]) == ["c"])
    }

    @Test func observesOnlyWhileObservedAndReadsThePropertiesOtherwise() {
        let issue = TrackedIssue("a", isOpen: false)
        let issues = ObservableArray([issue, TrackedIssue("b", isOpen: true)])
        weak var weakView: PropertyFilteredArrayView<TrackedIssue, Var<Bool>>?
        do {
            let open = issues.filteredElements(by: \.isOpen)
            weakView = open
            #expect(open.value.map(\.title) == ["b"] && open.count == 1)
            issue.isOpen.value = true
            #expect(open.value.map(\.title) == ["a", "b"] && open.count == 2)
            #expect(issues.messenger.observationCount == 0 && issue.isOpen.messenger.observationCount == 0)
            let token = open.subscribe { _ in }
            #expect(issues.messenger.observationCount == 1 && issue.isOpen.messenger.observationCount == 1)
            #expect(open.value.map(\.title) == ["a", "b"] && open.count == 2)
            token.stopObserving()
            #expect(issues.messenger.observationCount == 0 && issue.isOpen.messenger.observationCount == 0)
        }
        #expect(weakView == nil)
    }

    @Test func theViewAndItsElementsAreReleasedOnceNothingHoldsThem() {
        weak var weakIssue: TrackedIssue?
        weak var weakView: PropertyFilteredArrayView<TrackedIssue, Var<Bool>>?
        weak var weakArray: ObservableArray<TrackedIssue>?
        do {
            let issue = TrackedIssue("a")
            weakIssue = issue
            let issues = ObservableArray([issue])
            weakArray = issues
            let open = issues.filteredElements(by: \.isOpen)
            weakView = open
            let recorder = ChangeRecorder(open)
            issue.isOpen.value = false
            #expect(recorder.take().map { $0.map(\.title) } == [change(1, .remove("a", at: 0))])
        }
        #expect(weakView == nil)
        #expect(weakArray == nil)
        #expect(weakIssue == nil)
    }

    @Test func aReplayStartsWithTheIncludedElements() {
        let issues = ObservableArray([TrackedIssue("a", isOpen: true), TrackedIssue("b", isOpen: false)])
        let open = issues.filteredElements(by: \.isOpen)
        let received = Locked<[ArrayChange<String>]>([])
        let token = open.subscribe(replayingLatest: true) { change in
            received.withLock { $0.append(change.map(\.title)) }
        }
        #expect(received.value == [change(0, .insert("a", at: 0))])
        withExtendedLifetime(token) {}
    }

    static var steps: Int {
        modelSteps(standard: 10_000)
    }

    /// Random edits of the array and random flips of the elements' properties, checked after every
    /// step: the received changes turn the previous contents into the current ones, which equal
    /// the recomputation.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyChangeTurnsThePreviousContentsIntoTheCurrentOnes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let issues = ObservableArray<TrackedIssue>()
        let open = issues.filteredElements(by: \.isOpen)
        let recorder = ChangeRecorder(open)
        var copy: [ObjectIdentifier] = []
        var retired: [TrackedIssue] = []
        var made = 0
        func issue() -> TrackedIssue {
            made += 1
            return TrackedIssue("\(made)", isOpen: random.roll(0..<2) == 0)
        }
        for step in 0..<Self.steps {
            let current = issues.value
            switch random.roll(0..<10) {
            case 0 where current.count < 16:
                issues.insert(issue(), at: random.roll(0...current.count))
            case 1 where !current.isEmpty:
                retired.append(issues.remove(at: random.roll(0..<current.count)))
                if retired.count > 4 { retired.removeFirst() }
            case 2 where !current.isEmpty:
                issues[random.roll(0..<current.count)] = issue()
            case 3 where current.count > 1:
                issues.move(from: random.roll(0..<current.count), to: random.roll(0..<current.count))
            case 4 where current.count > 1:
                let added = issue()
                issues.withTransaction {
                    issues.append(added)
                    issues.remove(at: 0)
                    issues[0].isOpen.value.toggle()
                }
            case 5 where !retired.isEmpty:
                // A flip of an element that left the view reaches nobody.
                retired[random.roll(0..<retired.count)].isOpen.value.toggle()
            default:
                guard !current.isEmpty else { continue }
                current[random.roll(0..<current.count)].isOpen.value.toggle()
            }
            for received in recorder.take() {
                #expect(received.countBefore == copy.count)
                received.map(ObjectIdentifier.init).apply(to: &copy)
            }
            let expected = issues.value.filter(\.isOpen.value).map(ObjectIdentifier.init)
            if copy != expected || open.value.map(ObjectIdentifier.init) != expected || open.count != expected.count {
                Issue.record(
                    "seed \(seed), step \(step): received \(copy.count), view \(open.count), expected \(expected.count)"
                )
                return
            }
        }
    }

    @Test func eightThreadsEditingAndFlippingLeaveTheReceivedCopyEqualToTheContents() {
        let issues = ObservableArray((0..<8).map { TrackedIssue("\($0)", isOpen: $0 % 2 == 0) })
        let open = issues.filteredElements(by: \.isOpen)
        let copy = Locked<[ObjectIdentifier]>(open.value.map(ObjectIdentifier.init))
        let mismatches = Locked(0)
        let token = open.subscribe { change in
            copy.withLock { copy in
                if change.countBefore != copy.count { mismatches.withLock { $0 += 1 } }
                change.map(ObjectIdentifier.init).apply(to: &copy)
            }
        }
        let own = issues.value
        #expect(
            runOnThreads(8) { thread in
                for step in 0..<2_000 {
                    switch step % 5 {
                    case 0 where thread < 2:
                        issues.append(TrackedIssue("", isOpen: step % 3 == 0))
                    case 1 where thread == 0:
                        // Only this thread removes, so the count it reads cannot shrink before it
                        // removes.
                        issues.withTransaction {
                            if issues.count > 8 { issues.remove(at: issues.count - 1) }
                        }
                    case 2:
                        let current = issues.value
                        current[step % current.count].isOpen.value = step % 4 < 2
                    default:
                        own[thread].isOpen.value = step % 2 == 0
                    }
                }
            })
        #expect(waitUntilDelivered(issues.messenger, open.messenger))
        let expected = { issues.value.filter(\.isOpen.value).map(ObjectIdentifier.init) }
        // The elements' own messengers may still deliver flips that a later flip already undid,
        // so the copy can equal the filter for a moment while the view moves on: wait until the
        // copy, the view and the filter agree at once.
        #expect(
            waitUntil {
                let received = copy.value
                return received == expected() && received == open.value.map(ObjectIdentifier.init)
            })
        #expect(mismatches.value == 0)
        withExtendedLifetime(token) {}
    }
}
