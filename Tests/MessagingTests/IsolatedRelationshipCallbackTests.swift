import Foundation
import Testing

@testable import Messaging

/// The relationship callbacks of observers on actors: `relationshipBegan(with:)` and
/// `relationshipEnded(with:)` run on the observer's actor, in order with its handlers, whichever
/// thread begins or ends the relationship.
@Suite("Relationship callbacks on the observer's actor, in order with its handlers")
struct IsolatedRelationshipCallbackTests {
    /// A main-actor observer that logs its relationships and its messages in one list.
    @MainActor final class Badge: MainActorObserver {
        let receiver = Receiver()
        private(set) var log: [String] = []
        private(set) var observables: [ObjectIdentifier] = []
        /// Main-actor state that the relationship callbacks change.
        var events = 0

        func relationshipBegan(with observable: ObjectIdentifier) {
            MainActor.preconditionIsolated()
            observables.append(observable)
            log.append("began")
        }

        func relationshipEnded(with observable: ObjectIdentifier) {
            MainActor.preconditionIsolated()
            observables.append(observable)
            log.append("ended")
            events += 1
        }

        func watch(_ messenger: Messenger<Int>) {
            observe(messenger) { value in self.log.append("\(value)") }
        }
    }

    /// An actor that logs its relationships and its messages in one list.
    actor Tracker: ActorObserver {
        let receiver = Receiver()
        private(set) var log: [String] = []

        func relationshipBegan(with observable: ObjectIdentifier) {
            preconditionIsolated()
            log.append("began")
        }

        func relationshipEnded(with observable: ObjectIdentifier) {
            preconditionIsolated()
            log.append("ended")
        }

        func watch(_ messenger: Messenger<Int>) {
            observeWeakly(messenger) { tracker, value in tracker.log.append("\(value)") }
        }

        func stopWatching(_ messenger: Messenger<Int>) {
            stopObserving(messenger)
        }
    }

    /// Whether `log` is a run of relationships: "began", messages, "ended", again and again, the
    /// last one possibly still open.
    static func isWellFormed(_ log: [String]) -> Bool {
        var open = false
        for entry in log {
            switch entry {
            case "began":
                if open { return false }
                open = true
            case "ended":
                if !open { return false }
                open = false
            default:
                if !open { return false }
            }
        }
        return true
    }

    /// A thread that sends numbers on `messenger` while `running` holds: at most 100,000, pausing
    /// after every 50 so that a busy machine is not flooded.
    static func sender(on messenger: Messenger<Int>, while running: Locked<Bool>) -> Thread {
        Thread {
            var value = 0
            while running.value, value < 100_000 {
                value += 1
                messenger.send(value)
                if value.isMultiple(of: 50) { usleep(20) }
            }
        }
    }

    /// Yields the main actor until `condition` holds, for at most a few seconds.
    @MainActor
    static func settle(_ condition: @MainActor () -> Bool) async -> Bool {
        for _ in 0..<5_000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }

    @Test("only observers on actors have isolated callbacks")
    func onlyObserversOnActorsHaveThem() {
        #expect(Badge._hasIsolatedRelationshipCallbacks)
        #expect(Tracker._hasIsolatedRelationshipCallbacks)
        #expect(!FreeObserver._hasIsolatedRelationshipCallbacks)
        #expect(!RelationshipRaceTests.RecordingDog._hasIsolatedRelationshipCallbacks)
    }

    @Test("a main-actor observer hears the beginning before the first message, the end after the last")
    @MainActor
    func mainActorBeginningAndEnd() async {
        let messenger = Messenger<Int>()
        let badge = Badge()
        badge.watch(messenger)
        // At once when no call waits for the main actor; behind other tests' calls otherwise.
        #expect(badge.log == ["began"] || badge.log.isEmpty)
        messenger.send(1)  // on the main actor: runs what waits (the beginning, if it waits), then the handler
        #expect(badge.log == ["began", "1"])
        badge.stopObserving(messenger)
        messenger.send(2)
        #expect(await Self.settle { badge.log.count == 3 })
        #expect(badge.log == ["began", "1", "ended"])
        #expect(badge.observables == [ObjectIdentifier(messenger), ObjectIdentifier(messenger)])
    }

    @Test("an end decided on another thread runs on the main actor: the race of a counter is gone")
    @MainActor
    func endFromAnotherThread() async {
        let sky = Messenger<Int>()
        let badge = Badge()
        badge.watch(sky)
        let task = Task.detached { sky.stopBeingObserved() }
        for _ in 0..<100_000 { badge.events += 1 }
        await task.value
        #expect(await Self.settle { badge.events == 100_001 })
        #expect(badge.log == ["began", "ended"])
    }

    @Test("subscribe(_:) without messages begins and unsubscribe(_:) ends a relationship on the main actor")
    @MainActor
    func subscribeWithoutMessages() async {
        let sky = Messenger<Int>()
        let badge = Badge()
        #expect(sky.subscribe(badge) === badge)
        #expect(sky.unsubscribe(badge) === badge)
        #expect(await Self.settle { badge.log.count == 2 })
        #expect(badge.log == ["began", "ended"])
    }

    @Test("a background sender never puts a message outside its relationship, on the main actor")
    @MainActor
    func messagesStayInsideTheirRelationships() async {
        let messenger = Messenger<Int>()
        let badge = Badge()
        let running = Locked(true)
        let sender = Self.sender(on: messenger, while: running)
        sender.start()
        for cycle in 0..<1_000 {
            badge.watch(messenger)
            if cycle % 3 == 0 {
                await Task.yield()
            }
            if cycle % 2 == 0 {
                badge.stopObserving(messenger)
            } else {
                await Task.detached { messenger.stopBeingObserved() }.value
            }
        }
        running.withLock { $0 = false }
        #expect(await Self.settle { badge.log.filter { $0 == "ended" }.count == 1_000 })
        #expect(badge.log.filter { $0 == "began" }.count == 1_000)
        #expect(Self.isWellFormed(badge.log))
    }

    @Test("an actor that observes hears the beginning before observe returns, and is freed after its last reference")
    func actorBeginningIsImmediate() async {
        weak var released: Tracker?
        let messenger = Messenger<Int>()
        do {
            let tracker = Tracker()
            released = tracker
            await tracker.watch(messenger)
            #expect(await tracker.log == ["began"])  // nothing waited for this actor: at once
        }
        // Beginning at once scheduled no task that would hold the actor.
        #expect(released == nil)
        #expect(messenger.observationCount == 0)
    }

    @Test("an actor hears its relationships on the actor, in order with its messages")
    func actorBeginningAndEnd() async {
        let messenger = Messenger<Int>()
        let tracker = Tracker()
        let running = Locked(true)
        let sender = Self.sender(on: messenger, while: running)
        sender.start()
        for cycle in 0..<500 {
            await tracker.watch(messenger)
            if cycle % 2 == 0 {
                await tracker.stopWatching(messenger)
            } else {
                await Task.detached { messenger.stopBeingObserved() }.value
            }
        }
        running.withLock { $0 = false }
        var log: [String] = []
        for _ in 0..<5_000 {
            log = await tracker.log
            if log.filter({ $0 == "ended" }).count == 500 { break }
            try? await Task.sleep(for: .milliseconds(1))
        }
        #expect(log.filter { $0 == "began" }.count == 500)
        #expect(log.filter { $0 == "ended" }.count == 500)
        #expect(Self.isWellFormed(log))
    }

    @Test("an observer that dies before its callbacks run is not called, and nothing leaks")
    @MainActor
    func anObserverThatDiesIsNotCalled() async {
        weak var weakBadge: Badge?
        let messenger = Messenger<Int>()
        do {
            let badge = Badge()
            weakBadge = badge
            badge.watch(messenger)
            badge.stopObserving(messenger)
        }
        // The queued callbacks hold the observer weakly.
        #expect(weakBadge == nil)
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(10))
        #expect(messenger.observationCount == 0)
    }
}
