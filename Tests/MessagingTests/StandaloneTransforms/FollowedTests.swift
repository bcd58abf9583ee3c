import Messaging
import Testing

/// An object with an observable property, compared by identity.
private final class Project: Equatable, Sendable {
    let name: Var<String>

    init(_ name: String) {
        self.name = Var(name)
    }

    static func == (lhs: Project, rhs: Project) -> Bool { lhs === rhs }
}

/// An object whose observable property holds another object.
private final class Document: Equatable, Sendable {
    let currentProject: Var<Project>

    init(_ project: Project) {
        currentProject = Var(project)
    }

    static func == (lhs: Document, rhs: Document) -> Bool { lhs === rhs }
}

@Suite("Followed: following a relationship")
struct FollowedTests {
    @Test func forwardsTheCurrentInnersUpdates() {
        let project = Project("Draft")
        let current = Var(project)
        let name = current.follow(\.name)
        let log = EventLog()
        let token = name.subscribe { (update: Update<String>) in log.append("\(update.old)->\(update.new)") }
        project.name.value = "Plan"
        project.name.value = "Plan"
        project.name.value = "Launch"
        #expect(log.entries == ["Draft->Plan", "Plan->Launch"])
        withExtendedLifetime(token) {}
    }

    @Test func aSwitchStopsTheOldInnerAndReportsTheNewValue() {
        let first = Project("Draft")
        let second = Project("Plan")
        let current = Var(first)
        let name = current.follow(\.name)
        let log = EventLog()
        let token = name.subscribe { (update: Update<String>) in log.append("\(update.old)->\(update.new)") }
        current.value = second
        #expect(first.name.messenger.observationCount == 0)
        #expect(second.name.messenger.observationCount == 1)
        first.name.value = "Old draft"  // no longer followed
        second.name.value = "Plan B"
        #expect(log.entries == ["Draft->Plan", "Plan->Plan B"])
        withExtendedLifetime(token) {}
    }

    @Test func aSwitchToAnEqualValueReportsNothing() {
        let first = Project("Same")
        let second = Project("Same")
        let current = Var(first)
        let name = current.follow { $0.name }
        let log = EventLog()
        let token = name.subscribe { (update: Update<String>) in log.append("\(update.old)->\(update.new)") }
        current.value = second
        second.name.value = "Changed"
        #expect(log.entries == ["Same->Changed"])
        withExtendedLifetime(token) {}
    }

    @Test func theOldSideOfAReportIsTheLastValueSent() {
        let first = Project("A")
        let second = Project("B")
        let current = Var(first)
        let name = current.follow(\.name)
        let log = EventLog()
        let token = name.subscribe { (update: Update<String>) in log.append("\(update.old)->\(update.new)") }
        first.name.value = "A2"
        current.value = second
        current.value = first
        #expect(log.entries == ["A->A2", "A2->B", "B->A2"])
        withExtendedLifetime(token) {}
    }

    @Test func anOptionalRelationshipReportsNilForNoInner() {
        let project = Project("Draft")
        let selected = Var<Project?>(nil)
        let name = selected.follow(\.name)
        let log = EventLog()
        let token = name.subscribe { (update: Update<String?>) in
            log.append("\(update.old ?? "nil")->\(update.new ?? "nil")")
        }
        #expect(name.latestMessage == Update(nil, nil))
        selected.value = project
        #expect(name.latestMessage == Update("Draft", "Draft"))
        project.name.value = "Plan"
        selected.value = nil
        project.name.value = "Ignored"
        selected.value = project
        #expect(log.entries == ["nil->Draft", "Draft->Plan", "Plan->nil", "nil->Ignored"])
        withExtendedLifetime(token) {}
    }

    @Test func aSelectorThatReturnsNilMeansNoInner() {
        let project = Project("Draft")
        let useProject = Var(false)
        let name = useProject.follow { use in use ? project.name : nil }
        let log = EventLog()
        let token = name.subscribe { (update: Update<String?>) in
            log.append("\(update.old ?? "nil")->\(update.new ?? "nil")")
        }
        useProject.value = true
        useProject.value = false
        #expect(log.entries == ["nil->Draft", "Draft->nil"])
        withExtendedLifetime(token) {}
    }

    @Test func writingWritesTheCurrentInnerVariable() {
        let first = Project("A")
        let second = Project("B")
        let current = Var(first)
        let name = current.follow(\.name)
        #expect(name.set("A2"))
        #expect(first.name.value == "A2")
        current.value = second
        #expect(name.set("B2"))
        #expect(second.name.value == "B2")
        #expect(first.name.value == "A2")
        #expect(name.latestMessage.new == "B2")
    }

    @Test func writingWithNoInnerWritesNothingAndReturnsFalse() {
        let project = Project("A")
        let selected = Var<Project?>(nil)
        let name = selected.follow(\.name)
        #expect(!name.set("ignored"))
        #expect(name.latestMessage.new == nil)
        selected.value = project
        #expect(name.set("A2"))
        #expect(project.name.value == "A2")
        #expect(name.latestMessage.new == "A2")
    }

    @Test func aWriteIsReportedWithTheWritersAuthor() {
        let project = Project("A")
        let name = Var(project).follow(\.name)
        let author = Probe()
        let authors = Locked<[Bool]>([])
        let observer = FreeObserver()
        observer.observe(name) { (_: Update<String>, from: AnyObject) in
            authors.withLock { $0.append(from === author) }
        }
        name.set("A2", as: author)
        name.set("A3")
        #expect(authors.value == [true, false])
        observer.stopObserving()
    }

    @Test func aChainOfTwoFollowsFollowsBothRelationships() {
        let draft = Project("Draft")
        let plan = Project("Plan")
        let launch = Project("Launch")
        let first = Document(draft)
        let second = Document(launch)
        let document = Var(first)
        let name = document.follow(\.currentProject).follow(\.name)
        let log = EventLog()
        let token = name.subscribe { (update: Update<String>) in log.append("\(update.old)->\(update.new)") }
        #expect(name.latestMessage == Update("Draft", "Draft"))
        draft.name.value = "Draft 2"
        first.currentProject.value = plan
        draft.name.value = "ignored"
        plan.name.value = "Plan 2"
        document.value = second
        plan.name.value = "ignored too"
        launch.name.value = "Launch 2"
        name.set("Launch 3")
        #expect(launch.name.value == "Launch 3")
        #expect(
            log.entries == [
                "Draft->Draft 2", "Draft 2->Plan", "Plan->Plan 2", "Plan 2->Launch", "Launch->Launch 2",
                "Launch 2->Launch 3",
            ])
        #expect(draft.name.messenger.observationCount == 0)
        #expect(plan.name.messenger.observationCount == 0)
        #expect(first.currentProject.messenger.observationCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test func replayStartsWithTheCurrentInnersValue() {
        let project = Project("Draft")
        let name = Var(project).follow(\.name)
        let log = EventLog()
        let token = name.subscribe(replayingLatest: true) { update in log.append("\(update.old)->\(update.new)") }
        project.name.value = "Plan"
        #expect(log.entries == ["Draft->Draft", "Draft->Plan"])
        withExtendedLifetime(token) {}
    }

    @Test func theLatestMessageIsReadThroughTheOriginWhileUnobserved() {
        let first = Project("A")
        let current = Var(first)
        let name = current.follow(\.name)
        #expect(name.latestMessage == Update("A", "A"))
        current.value = Project("B")
        #expect(name.latestMessage == Update("B", "B"))
        #expect(current.messenger.observationCount == 0)
    }

    @Test func switchToLatestFollowsAnOriginWhoseMessagesAreObservables() {
        let first = Var("a")
        let second = Var("b")
        let names = Messenger<Var<String>>()
        let latest = names.cache().unwrap(first).switchToLatest()
        let log = EventLog()
        let token = latest.subscribe { (update: Update<String>) in log.append("\(update.old)->\(update.new)") }
        first.value = "a2"
        names.send(second)
        first.value = "ignored"
        second.value = "b2"
        #expect(log.entries == ["a->a2", "a2->b", "b->b2"])
        withExtendedLifetime(token) {}
    }

    @Test func switchToLatestFollowsInnersWhoseMessagesAreNotUpdates() {
        let lobby = Messenger<String>()
        let kitchen = Messenger<String>()
        let rooms = Messenger<Messenger<String>>()
        let lines = rooms.cache().unwrap(lobby).switchToLatest()
        let log = EventLog()
        let token = lines.subscribe { (line: String) in log.append(line) }
        lobby.send("hello")
        rooms.send(kitchen)
        lobby.send("not heard")
        kitchen.send("dinner")
        rooms.send(lobby)
        kitchen.send("not heard either")
        lobby.send("back")
        #expect(log.entries == ["hello", "dinner", "back"])
        withExtendedLifetime(token) {}
    }

    @Test func switchToLatestSendsALatestMessageOfACacheOnASwitch() {
        let first = ObservableArray([1])
        let second = ObservableArray([7, 8])
        let arrays = Messenger<ObservableArray<Int>>()
        let changes = arrays.cache().unwrap(first).switchToLatest()
        let log = EventLog()
        let token = changes.subscribe { (change: ArrayChange<Int>) in
            log.append("\(change.countBefore)->\(change.countAfter)")
        }
        first.append(2)
        // The new array's latest message: its contents, inserted into nothing.
        arrays.send(second)
        first.append(3)
        second.append(9)
        #expect(log.entries == ["1->2", "0->2", "2->3"])
        withExtendedLifetime(token) {}
    }

    @Test func anInnerThatIsNotACacheIsFollowedWithoutAReport() {
        let first = Messenger<Update<Int>>()
        let second = Messenger<Update<Int>>()
        let useSecond = Var(false)
        let follower = useSecond.follow { $0 ? second : first }
        let log = EventLog()
        let token = follower.subscribe { (update: Update<Int>) in log.append("\(update.old)->\(update.new)") }
        first.send(Update(0, 1))
        useSecond.value = true
        first.send(Update(1, 2))
        second.send(Update(5, 6))
        #expect(log.entries == ["0->1", "5->6"])
        withExtendedLifetime(token) {}
    }
}

@Suite("Followed: observing and lifetime")
struct FollowedLifetimeTests {
    @Test func itObservesTheOriginAndTheInnerOnlyWhileObserved() {
        let project = Project("A")
        let current = Var(project)
        let name = current.follow(\.name)
        #expect(current.messenger.observationCount == 0)
        #expect(project.name.messenger.observationCount == 0)
        let first = name.subscribe { _ in }
        let second = name.subscribe { _ in }
        #expect(current.messenger.observationCount == 1)
        #expect(project.name.messenger.observationCount == 1)
        first.stopObserving()
        #expect(project.name.messenger.observationCount == 1)
        second.stopObserving()
        #expect(current.messenger.observationCount == 0)
        #expect(project.name.messenger.observationCount == 0)
    }

    @Test func observingAgainFollowsTheInnerCurrentThen() {
        let first = Project("A")
        let second = Project("B")
        let current = Var(first)
        let name = current.follow(\.name)
        let token = name.subscribe { _ in }
        token.stopObserving()
        current.value = second
        let log = EventLog()
        let again = name.subscribe { (update: Update<String>) in log.append("\(update.old)->\(update.new)") }
        #expect(first.name.messenger.observationCount == 0)
        second.name.value = "B2"
        #expect(log.entries == ["B->B2"])
        withExtendedLifetime(again) {}
    }

    @Test func anUnobservedFollowerIsFreedWithItsOriginAndInner() {
        weak var weakFollower: Followed<Var<Project>, Var<String>, Update<String>>?
        weak var weakOrigin: Var<Project>?
        weak var weakInner: Var<String>?
        do {
            let project = Project("A")
            let origin = Var(project)
            let follower = origin.follow(\.name)
            let token = follower.subscribe { _ in }
            project.name.value = "B"
            token.stopObserving()
            weakFollower = follower
            weakOrigin = origin
            weakInner = project.name
        }
        #expect(weakFollower == nil)
        #expect(weakOrigin == nil)
        #expect(weakInner == nil)
    }

    @Test func anObservedFollowerLivesAsLongAsTheObservation() {
        let observer = FreeObserver()
        let log = EventLog()
        weak var weakFollower: Followed<Var<Project>, Var<String>, Update<String>>?
        weak var weakInner: Var<String>?
        do {
            let project = Project("A")
            let follower = Var(project).follow(\.name)
            weakFollower = follower
            weakInner = project.name
            observer.observe(follower) { update in log.append(update.new) }
        }
        #expect(weakFollower != nil)
        weakInner?.value = "B"
        #expect(log.entries == ["B"])
        observer.stopObserving()
        #expect(weakFollower == nil)
        #expect(weakInner == nil)
    }

    @Test func anOriginThatEndsItsObservationsEndsTheFollowers() {
        let project = Project("A")
        let origin = Var(project)
        let follower = origin.follow(\.name)
        let token = follower.subscribe { _ in }
        #expect(token.isObserving)
        origin.stopBeingObserved()
        #expect(!token.isObserving)
        #expect(follower.messenger.observationCount == 0)
        #expect(project.name.messenger.observationCount == 0)
    }

    @Test func aDeadInnerEndsNothing() {
        var inner: Var<String>? = Var("a")
        let weakInner = inner!.weak()
        let other = Var("b")
        let useOther = Var(false)
        let follower = useOther.follow { useOther -> Weak<Var<String>> in useOther ? other.weak() : weakInner }
        let log = EventLog()
        let token = follower.subscribe { (update: Update<String>) in log.append("\(update.old)->\(update.new)") }
        inner = nil
        #expect(token.isObserving)
        useOther.value = true
        other.value = "c"
        #expect(log.entries.last == "b->c")
        withExtendedLifetime(token) {}
    }
}
