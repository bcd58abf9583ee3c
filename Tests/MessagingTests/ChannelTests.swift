import Messaging
import Testing

@Suite("Channels: read-only messengers, subscription tokens and observation bags")
struct ChannelTests {
    enum Theme: Sendable {
        case light, dark
    }

    /// Rasat's example: a component that broadcasts and hands out only the observing side.
    // Swift 6: `Sendable`, so that the screen below, which holds one, can be.
    final class ThemeManager: Sendable {
        var themes: ReadOnlyMessenger<Theme> { channel.readOnly }
        private let channel = Messenger<Theme>()

        func updateTheme(_ theme: Theme) {
            channel.send(theme)
        }
    }

    /// Rasat's example: a screen that listens for as long as it lives.
    // Swift 6: `Sendable`, because its handler captures `self` and handlers are `@Sendable`.
    final class FeedViewController: Sendable {
        let themeManager: ThemeManager
        let log: EventLog
        private let observations = ObservationBag()

        init(themeManager: ThemeManager, log: EventLog) {
            self.themeManager = themeManager
            self.log = log
        }

        func viewDidLoad() {
            observations += themeManager.themes.subscribe { [weak self] theme in
                self?.updateTheme(theme)
            }
        }

        func updateTheme(_ theme: Theme) {
            log.append("feed:\(theme)")
        }
    }

    // MARK: Read-only messengers

    @Test("a read-only messenger can be observed but offers no way to send")
    func readOnlyMessengerCannotSend() {
        let messenger = Messenger<Int>()
        let readOnly = messenger.readOnly
        // Sending is `ObservableSource.send`; the read-only view is not an observable source.
        #expect(!(readOnly as Any is any ObservableSource))
        #expect(messenger as Any is any ObservableSource)
    }

    @Test("an observer observes the messenger behind a read-only view, and stops through it")
    func observingThroughTheReadOnlyView() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(messenger.readOnly) { log.append("a:\($0)") }
        b.observe(messenger) { log.append("b:\($0)") }

        #expect(a.isObserving(messenger.readOnly))
        #expect(a.isObserving(messenger))
        #expect(messenger.amISubscribed(a))
        messenger.send("1")

        a.stopObserving(messenger.readOnly)
        messenger.send("2")

        #expect(log.entries == ["a:1", "b:1", "b:2"])
        #expect(!a.isObserving(messenger.readOnly))
        withExtendedLifetime((a, b)) {}
    }

    @Test("observed and observedOnce on a read-only view deliver the messenger's messages")
    func freeObservationsThroughTheReadOnlyView() {
        withSharedState {
            let messenger = Messenger<String>()
            let log = EventLog()
            messenger.readOnly.observed { log.append("observed:\($0)") }
            weak let weakOnce = messenger.readOnly.observedOnce { log.append("once:\($0)") }

            messenger.send("1")
            messenger.send("2")

            #expect(log.entries == ["observed:1", "once:1", "observed:2"])
            #expect(weakOnce == nil)
            #expect(FreeObserver.shared.isObserving(messenger))
            FreeObserver.shared.stopObserving(messenger)
        }
    }

    @Test("a read-only view keeps its messenger alive")
    func readOnlyViewRetainsItsMessenger() {
        weak var weakMessenger: Messenger<Int>?
        let readOnly: ReadOnlyMessenger<Int>
        do {
            let messenger = Messenger<Int>()
            weakMessenger = messenger
            readOnly = messenger.readOnly
        }
        #expect(weakMessenger != nil)

        let log = EventLog()
        let token = readOnly.subscribe { log.append("token:\($0)") }
        weakMessenger?.send(1)
        #expect(log.entries == ["token:1"])
        withExtendedLifetime(token) {}
    }

    // MARK: Tokens

    @Test("a subscription token receives messages while it lives; releasing it ends the observation")
    func releasingTheTokenEndsTheObservation() {
        let messenger = Messenger<String>()
        let log = EventLog()
        weak var weakProbe: Probe?
        weak var weakToken: ObservationToken?
        var token: ObservationToken?
        do {
            let probe = Probe()
            weakProbe = probe
            token = messenger.subscribe { message in withExtendedLifetime(probe) { log.append("token:\(message)") } }
            weakToken = token
        }
        #expect(log.entries.isEmpty)
        messenger.send("1")

        token = nil
        messenger.send("2")

        #expect(log.entries == ["token:1"])
        #expect(weakToken == nil)
        #expect(weakProbe == nil, "the handler closure was released")
        #expect(messenger.observationCount == 0)
        #expect(messenger.observers.isEmpty)
    }

    @Test("stopObserving() on a subscription token ends the observation")
    func stoppingTheTokenEndsTheObservation() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let token = messenger.readOnly.subscribe { log.append("token:\($0)") }
        messenger.send("1")
        #expect(token.isObserving)

        token.stopObserving()
        messenger.send("2")

        #expect(log.entries == ["token:1"])
        #expect(!token.isObserving)
        #expect(messenger.observationCount == 0)
    }

    @Test("every token owns its own observation; tokens count as observations, not as observers")
    func tokensAreDistinctObservations() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let first = messenger.subscribe { log.append("first:\($0)") }
        let second = messenger.subscribe { log.append("second:\($0)") }

        #expect(first !== second)
        #expect(messenger.observationCount == 2)
        #expect(messenger.observers.isEmpty)
        first.stopObserving()
        messenger.send("1")
        #expect(log.entries == ["second:1"])
        #expect(!first.isObserving && second.isObserving)
    }

    // MARK: Bags

    @Test("removeAll() on a bag ends every observation of every token in it, and empties it")
    func bagRemoveAllEndsEverything() {
        let first = Messenger<String>()
        let second = Messenger<String>()
        let log = EventLog()
        let bag = ObservationBag()
        bag += first.subscribe { log.append("first:\($0)") }
        // Kept outside the bag too: removeAll() must end its observation, not just release it.
        let kept = second.readOnly.subscribe { log.append("second:\($0)") }
        bag += kept
        first.subscribe { log.append("stored:\($0)") }.store(in: bag)
        #expect(bag.count == 3)
        first.send("1")
        second.send("2")

        bag.removeAll()
        first.send("3")
        second.send("4")

        #expect(log.entries == ["first:1", "stored:1", "second:2"])
        #expect(!kept.isObserving)
        #expect(bag.count == 0)
        #expect(first.observationCount == 0)
        #expect(second.observationCount == 0)
    }

    @Test("removeAll() on a bag ends a kept token's observation of a source that died while its messenger lives on")
    func bagRemoveAllAfterTheSourceDied() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let bag = ObservationBag()
        let token: ObservationToken
        do {
            let relay = Relay(messenger)
            token = relay.subscribe { log.append("token:\($0)") }
            bag += token
        }

        bag.removeAll()
        messenger.send("1")

        #expect(log.entries.isEmpty)
        #expect(!token.isObserving)
        #expect(messenger.observationCount == 0)
    }

    @Test("a bag can be used again after removeAll()")
    func bagIsReusable() {
        let messenger = Messenger<String>()
        let log = EventLog()
        let bag = ObservationBag()
        bag += messenger.subscribe { log.append("old:\($0)") }
        bag.removeAll()
        bag += messenger.subscribe { log.append("new:\($0)") }

        messenger.send("1")

        #expect(log.entries == ["new:1"])
        #expect(bag.count == 1)
    }

    @Test("releasing a bag ends its observations and releases their handlers")
    func releasingTheBagEndsEverything() {
        let messenger = Messenger<String>()
        let log = EventLog()
        weak var weakProbe: Probe?
        weak var weakBag: ObservationBag?
        do {
            let bag = ObservationBag()
            let probe = Probe()
            weakBag = bag
            weakProbe = probe
            bag += messenger.subscribe { message in withExtendedLifetime(probe) { log.append("bag:\(message)") } }
            messenger.send("1")
        }

        messenger.send("2")

        #expect(weakBag == nil)
        #expect(weakProbe == nil)
        #expect(log.entries == ["bag:1"])
        #expect(messenger.observationCount == 0)
    }

    @Test("Rasat's example: the feed listens to theme changes until it is released")
    func themeManagerExample() {
        let themeManager = ThemeManager()
        let log = EventLog()
        weak var weakFeed: FeedViewController?
        do {
            let feed = FeedViewController(themeManager: themeManager, log: log)
            weakFeed = feed
            feed.viewDidLoad()
            themeManager.updateTheme(.dark)
            themeManager.updateTheme(.light)
        }

        themeManager.updateTheme(.dark)

        #expect(weakFeed == nil)
        #expect(log.entries == ["feed:dark", "feed:light"])
    }
}
