// The Rasat examples of the migration article (MigratingToMessaging.md, "From Rasat"), compiled as
// the article shows them and checked against what its text says they do.
//
// Swift 6: handlers are `@Sendable`, so the tests record into a thread-safe `EventLog` or `Locked`
// value rather than into a captured `var`.

import Messaging
import Testing

@Suite("Rasat's code, ported as the migration article shows")
struct RasatMigrationTests {
    enum UserEvent: Equatable, Sendable {
        case loggedIn(id: String)
        case loggedOut(id: String)
    }

    enum Theme: Equatable, Sendable {
        case light, dark
    }

    /// The article's first example, in the method of an object that handles the events.
    // Swift 6: `Sendable`, with its events in a `Locked`, because the handler captures `self`.
    final class Session: Sendable {
        var events: [UserEvent] { _events.value }
        private let _events = Locked([UserEvent]())

        func run() {
            let userChannel = Messenger<UserEvent>()
            let token = userChannel.readOnly.subscribe { [weak self] event in
                self?.handleUserEvent(event)
            }
            userChannel.send(.loggedIn(id: "gokselkk"))
            token.stopObserving()  // or let go of `token`

            userChannel.send(.loggedOut(id: "gokselkk"))
        }

        func handleUserEvent(_ event: UserEvent) {
            _events.withLock { $0.append(event) }
        }
    }

    /// The article's store that sends every assignment, as a Rasat `Subject` does.
    final class ThemeStore {
        let themes = Messenger<Theme>()

        var theme: Theme {
            didSet { themes.send(theme) }
        }

        init(theme: Theme) {
            self.theme = theme
        }
    }

    @Test("subscribe, send, stopObserving: the handler receives what was sent until the token stops")
    func channelSubscribeAndDispose() {
        let session = Session()
        session.run()
        #expect(session.events == [.loggedIn(id: "gokselkk")])
    }

    @Test("a token kept in an optional property is Rasat's subscription: setting it to nil ends it")
    func tokenInAnOptionalProperty() {
        let userChannel = Messenger<UserEvent>()
        let events = Locked([UserEvent]())
        var token: ObservationToken? = userChannel.readOnly.subscribe { event in events.withLock { $0.append(event) } }
        userChannel.send(.loggedIn(id: "a"))
        #expect(token?.isObserving == true)

        token = nil
        userChannel.send(.loggedOut(id: "a"))

        #expect(token == nil)
        #expect(events.value == [.loggedIn(id: "a")])
    }

    @Test("+=, store(in:) and removeAll(): Rasat's +=, disposed(by:) and dispose()")
    func bagAddStoreAndRemoveAll() {
        let userChannel = Messenger<UserEvent>()
        let theme = Var(Theme.light)
        let entries = EventLog()
        @Sendable func log(_ event: UserEvent) { entries.append("event:\(event)") }
        @Sendable func apply(_ theme: Theme) { entries.append("theme:\(theme)") }

        let observations = ObservationBag()
        observations += userChannel.readOnly.subscribe { event in log(event) }
        theme.subscribe { update in apply(update.new) }.store(in: observations)

        userChannel.send(.loggedIn(id: "a"))
        theme.value = .dark
        observations.removeAll()
        userChannel.send(.loggedOut(id: "a"))
        theme.value = .light

        #expect(entries.entries == ["event:loggedIn(id: \"a\")", "theme:dark"])
        #expect(observations.count == 0)
        #expect(userChannel.observationCount == 0 && theme.messenger.observationCount == 0)
    }

    @Test("unlike a disposed DisposeBag, a bag emptied by removeAll() keeps what is added afterwards")
    func bagStaysInUseAfterRemoveAll() {
        let userChannel = Messenger<UserEvent>()
        let events = Locked([UserEvent]())
        do {
            let observations = ObservationBag()
            observations.removeAll()

            observations += userChannel.readOnly.subscribe { event in events.withLock { $0.append(event) } }
            withExtendedLifetime(observations) {
                userChannel.send(.loggedIn(id: "kept"))
            }
        }
        userChannel.send(.loggedOut(id: "kept"))

        #expect(events.value == [.loggedIn(id: "kept")])
    }

    @Test("a free observer observes more than one observable, and stopObserving() ends all of its observations")
    func freeObserverObservesMoreAndStopsAll() {
        let userChannel = Messenger<UserEvent>()
        let other = Messenger<UserEvent>()
        let log = EventLog()
        let token = FreeObserver()
        token.observe(userChannel.readOnly) { log.append("channel:\($0)") }
        token.observe(other) { log.append("other:\($0)") }

        userChannel.send(.loggedIn(id: "a"))
        other.send(.loggedIn(id: "b"))
        token.stopObserving()
        userChannel.send(.loggedOut(id: "a"))
        other.send(.loggedOut(id: "b"))

        #expect(log.entries == ["channel:loggedIn(id: \"a\")", "other:loggedIn(id: \"b\")"])
    }

    @Test("subscriptions(): the read-only view counts the active observations; tokens are not listed as observers")
    func countingAndListingObservations() {
        let userChannel = Messenger<UserEvent>()
        let observable = userChannel.readOnly
        #expect(observable.observationCount == 0)

        var first: ObservationToken? = observable.subscribe { _ in }
        let second = observable.subscribe { _ in }
        let listed = FreeObserver()
        listed.observe(observable) { _ in }
        #expect(observable.observationCount == 3)
        #expect(userChannel.observers.map(\.uuid) == [listed.uuid])

        first = nil
        #expect(observable.observationCount == 2)
        #expect(second.isObserving)

        second.stopObserving()
        #expect(observable.observationCount == 1)
        #expect(!second.isObserving)
        #expect(first == nil)
    }

    @Test("a Var sends only changes; send() sends the current value again")
    func variableSendsChangesAndSendRepeats() {
        let updates = Locked([Update<Theme>]())
        let theme = Var(Theme.light)
        let token = theme.subscribe { update in updates.withLock { $0.append(update) } }

        theme.value = .light  // sends nothing: the value did not change
        theme.send()  // sends Update(.light, .light)
        theme.value = .dark  // sends Update(.light, .dark)

        #expect(updates.value == [Update(.light, .light), Update(.light, .dark)])
        withExtendedLifetime(token) {}
    }

    @Test("a Messenger with the value beside it sends every assignment, equal values included")
    func messengerSendsEveryAssignment() {
        let store = ThemeStore(theme: .light)
        let themes = Locked([Theme]())
        let token = store.themes.subscribe { theme in themes.withLock { $0.append(theme) } }

        store.theme = .light
        store.theme = .light
        store.theme = .dark

        #expect(themes.value == [.light, .light, .dark])
        withExtendedLifetime(token) {}
    }

    @Test("nothing is replayed: subscribing sends nothing, the current value is read from the variable")
    func nothingIsReplayed() {
        let theme = Var(Theme.dark)
        let applied = Locked([Theme]())
        let token = theme.subscribe { update in applied.withLock { $0.append(update.new) } }
        #expect(applied.value.isEmpty)

        applied.withLock { $0.append(theme.value) }
        #expect(applied.value == [.dark])
        withExtendedLifetime(token) {}
    }
}
