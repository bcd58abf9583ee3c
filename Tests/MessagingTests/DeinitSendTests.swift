import Dispatch
import Foundation
import Testing

@testable import Messaging

/// An observable that announces its end from its `deinit`, as SwiftObserver's models do, through a
/// messenger that others may keep after it died.
private final class Announcer: ObservableSource, Sendable {
    let messenger: Messenger<String>

    init(_ messenger: Messenger<String>) {
        self.messenger = messenger
    }

    deinit { send("willDie") }
}

/// A messenger subclass that sends through itself from its own `deinit`.
private final class SelfAnnouncingMessenger: Messenger<String>, @unchecked Sendable {  // no state of its own
    deinit { send("willDie") }
}

/// A message that must wait while its author runs its `deinit` (queued behind a running delivery,
/// or posted to an actor) cannot keep the author: Swift stops the program when a `deinit` ends with
/// references left. The messenger stands in as the author; if the messenger is dying too, the
/// message is dropped. Before this rule, each test here stopped the whole test process.
@Suite("Sending from a deinit")
struct DeinitSendTests {
    @Test(
        "same thread: a handler drops the author's last reference; its deinit's message is queued with the messenger as author"
    )
    func queuedOnTheDeliveringThread() {
        let messenger = Messenger<String>()
        let owner = Locked<Announcer?>(Announcer(messenger))
        let log = EventLog()
        let spy = Spy("spy")
        spy.observe(messenger) { message, author in
            let byMessenger = author === messenger
            log.append("\(message) by messenger: \(byMessenger)")
            if message == "drop" { owner.withLock { $0 = nil } }
        }
        messenger.send("drop", from: Probe())
        #expect(owner.value == nil)
        #expect(log.entries == ["drop by messenger: false", "willDie by messenger: true"])
        withExtendedLifetime(spy) {}
    }

    @Test("another thread delivering: the deinit's message waits behind that delivery, with the messenger as author")
    func queuedBehindAnotherThread() {
        let messenger = Messenger<String>()
        var owner: Announcer? = Announcer(messenger)
        weak let weakOwner = owner
        let log = EventLog()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let spy = Spy("spy")
        spy.observe(messenger) { message, author in
            log.append("\(message) by messenger: \(author === messenger)")
            if message == "hold" {
                entered.signal()
                release.wait()
            }
        }
        let delivering = DispatchGroup()
        DispatchQueue.global().async(group: delivering) { messenger.send("hold") }
        entered.wait()
        // The owner dies here, on this thread, while the other thread delivers: its message is queued.
        owner = nil
        #expect(weakOwner == nil)
        release.signal()
        #expect(delivering.wait(timeout: .now() + 120) == .success)
        #expect(log.entries == ["hold by messenger: true", "willDie by messenger: true"])
        withExtendedLifetime(spy) {}
    }

    @Test("an actor observer: the call posted to the actor keeps the messenger as author, not the dying owner")
    @MainActor
    func postedToAnActor() async {
        let messenger = Messenger<String>()
        let observer = MainActorAuthorLog()
        observer.observe(messenger) { [observer] message, author in
            observer.entries.append("\(message) by messenger: \(author === messenger)")
        }
        // Made and dropped on another thread, which sends nothing else: no earlier call posted to
        // the main actor holds the owner, so it dies there, and the main-actor handler, which
        // cannot run there, has its call posted.
        let diedThere = await Task.detached {
            var owner: Announcer? = Announcer(messenger)
            weak let weakOwner = owner
            owner = nil
            return weakOwner == nil
        }.value
        #expect(diedThere)
        #expect(await eventually { observer.entries.count == 1 })
        #expect(observer.entries == ["willDie by messenger: true"])
    }

    @Test("a messenger that sends from its own deinit during its delivery: the message is dropped, nothing stops")
    func dyingMessengerDropsItsOwnMessage() {
        let held = Locked<SelfAnnouncingMessenger?>(SelfAnnouncingMessenger())
        weak let weakMessenger = held.value
        let log = EventLog()
        // Sent through the core, which the token keeps: no caller holds the messenger meanwhile,
        // so it dies inside the handler, during its own delivery.
        let core = held.value?._core
        let token = held.value?.subscribe { message in
            log.append(message)
            if message == "drop" { held.withLock { $0 = nil } }
        }
        core?.send("drop", author: Probe(), checksChange: false, isolation: nil)
        #expect(weakMessenger == nil)
        // The messenger's observations ended with it: its own last message had nobody to reach.
        #expect(log.entries == ["drop"])
        withExtendedLifetime(token) {}
    }

    @Test("a debounce keeps its latest message past the author's deinit, with an anonymous author")
    func debounceOutlivesTheAuthor() async {
        let clock = ManualClock()
        let messenger = Messenger<String>()
        let spy = Spy("spy")
        let log = EventLog()
        spy.observe(messenger.debounce(for: .seconds(1), clock: clock)) { message, author in
            log.append("\(message) by messenger: \(author === messenger)")
        }
        var owner: Announcer? = Announcer(messenger)
        weak let weakOwner = owner
        owner = nil
        #expect(weakOwner == nil)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await eventually { log.entries.count == 1 })
        // The debounce has no messenger of the author's at hand: an object of its own stands in.
        #expect(log.entries == ["willDie by messenger: false"])
        withExtendedLifetime(spy) {}
    }

    @Test("an author that lives is kept as it is, queued or posted")
    func livingAuthorIsKept() {
        let messenger = Messenger<String>()
        let author = Probe()
        let log = EventLog()
        let spy = Spy("spy")
        spy.observe(messenger) { message, sender in
            log.append("\(message) by author: \(sender === author)")
            if message == "first" { messenger.send("second", from: author) }
        }
        messenger.send("first", from: author)
        #expect(log.entries == ["first by author: true", "second by author: true"])
        withExtendedLifetime(spy) {}
    }
}

/// A main-actor observer that keeps a log.
@MainActor
private final class MainActorAuthorLog: MainActorObserver {
    let receiver = Receiver()
    var entries: [String] = []
}
