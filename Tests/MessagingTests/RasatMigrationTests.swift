// The Rasat examples of the migration article (MigratingToMessaging.md, "From Rasat"), compiled as
// the article shows them and checked against what its text says they do.

import Messaging
import Testing

@Suite("Rasat's code, ported as the migration article shows")
struct RasatMigrationTests {
    enum UserEvent: Equatable {
        case loggedIn(id: String)
        case loggedOut(id: String)
    }

    enum Theme: Equatable {
        case light, dark
    }

    /// The article's first example, in the method of an object that handles the events.
    final class Session {
        private(set) var events: [UserEvent] = []

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
            events.append(event)
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
        var events: [UserEvent] = []
        var token: FreeObserver? = userChannel.readOnly.subscribe { events.append($0) }
        userChannel.send(.loggedIn(id: "a"))
        #expect(token?.isObserving(userChannel.readOnly) == true)

        token = nil
        userChannel.send(.loggedOut(id: "a"))

        #expect(token == nil)
        #expect(events == [.loggedIn(id: "a")])
    }

    @Test("+=, store(in:) and removeAll(): Rasat's +=, disposed(by:) and dispose()")
    func bagAddStoreAndRemoveAll() {
        let userChannel = Messenger<UserEvent>()
        let theme = Var(Theme.light)
        var entries: [String] = []
        func log(_ event: UserEvent) { entries.append("event:\(event)") }
        func apply(_ theme: Theme) { entries.append("theme:\(theme)") }

        let observations = ObservationBag()
        observations += userChannel.readOnly.subscribe { event in log(event) }
        theme.subscribe { update in apply(update.new) }.store(in: observations)

        userChannel.send(.loggedIn(id: "a"))
        theme.value = .dark
        observations.removeAll()
        userChannel.send(.loggedOut(id: "a"))
        theme.value = .light

        #expect(entries == ["event:loggedIn(id: \"a\")", "theme:dark"])
        #expect(observations.count == 0)
        #expect(userChannel.observationCount == 0 && theme.messenger.observationCount == 0)
    }

    @Test("unlike a disposed DisposeBag, a bag emptied by removeAll() keeps what is added afterwards")
    func bagStaysInUseAfterRemoveAll() {
        let userChannel = Messenger<UserEvent>()
        var events: [UserEvent] = []
        do {
            let observations = ObservationBag()
            observations.removeAll()

            observations += userChannel.readOnly.subscribe { events.append($0) }
            withExtendedLifetime(observations) {
                userChannel.send(.loggedIn(id: "kept"))
            }
        }
        userChannel.send(.loggedOut(id: "kept"))

        #expect(events == [.loggedIn(id: "kept")])
    }

    @Test("a token observes more than one observable, and stopObserving() ends all of its observations")
    func tokenObservesMoreAndStopsAll() {
        let userChannel = Messenger<UserEvent>()
        let other = Messenger<UserEvent>()
        var log: [String] = []
        let token = userChannel.readOnly.subscribe { log.append("channel:\($0)") }
        token.observe(other) { log.append("other:\($0)") }

        userChannel.send(.loggedIn(id: "a"))
        other.send(.loggedIn(id: "b"))
        token.stopObserving()
        userChannel.send(.loggedOut(id: "a"))
        other.send(.loggedOut(id: "b"))

        #expect(log == ["channel:loggedIn(id: \"a\")", "other:loggedIn(id: \"b\")"])
    }

    @Test("subscriptions(): the read-only view counts the active observations, the messenger lists the observers")
    func countingAndListingObservations() {
        let userChannel = Messenger<UserEvent>()
        let observable = userChannel.readOnly
        #expect(observable.observationCount == 0)

        var first: FreeObserver? = observable.subscribe { _ in }
        let second = observable.subscribe { _ in }
        #expect(observable.observationCount == 2)
        #expect(userChannel.observers.map(\.uuid) == [first?.uuid, second.uuid].compactMap { $0 })

        first = nil
        #expect(observable.observationCount == 1)
        #expect(userChannel.observers.map(\.uuid) == [second.uuid])
        #expect(second.isObserving(observable))

        second.stopObserving()
        #expect(observable.observationCount == 0)
        #expect(!second.isObserving(observable))
        #expect(first == nil)
    }

    @Test("a Var sends only changes; send() sends the current value again")
    func variableSendsChangesAndSendRepeats() {
        var updates: [Update<Theme>] = []
        let theme = Var(Theme.light)
        let token = theme.subscribe { updates.append($0) }

        theme.value = .light  // sends nothing: the value did not change
        theme.send()  // sends Update(.light, .light)
        theme.value = .dark  // sends Update(.light, .dark)

        #expect(updates == [Update(.light, .light), Update(.light, .dark)])
        withExtendedLifetime(token) {}
    }

    @Test("a Messenger with the value beside it sends every assignment, equal values included")
    func messengerSendsEveryAssignment() {
        let store = ThemeStore(theme: .light)
        var themes: [Theme] = []
        let token = store.themes.subscribe { themes.append($0) }

        store.theme = .light
        store.theme = .light
        store.theme = .dark

        #expect(themes == [.light, .light, .dark])
        withExtendedLifetime(token) {}
    }

    @Test("nothing is replayed: subscribing sends nothing, the current value is read from the variable")
    func nothingIsReplayed() {
        let theme = Var(Theme.dark)
        var applied: [Theme] = []
        let token = theme.subscribe { applied.append($0.new) }
        #expect(applied.isEmpty)

        applied.append(theme.value)
        #expect(applied == [.dark])
        withExtendedLifetime(token) {}
    }
}
