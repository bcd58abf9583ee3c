// This file imports both Messaging and Apple's Observation framework (which SwiftUI re-exports).
// `Observable` here is Observation's protocol and macro; Messaging's observable protocol is
// `ObservableSource`, so nothing needs qualifying. Were another module ever to declare an
// `Observer`, `ObservableSource` or `Messenger` too, spell Messaging's with the module name, as
// the `Watcher` and `Thermostat` types below do: `Messaging.Observer`, `Messaging.ObservableSource`.

import Messaging
import Observation
import Testing

@Suite("Coexistence with the Observation framework")
struct ObservationCoexistenceTests {
    /// An Observation model, for SwiftUI.
    @Observable
    final class Settings {
        var theme = "light"
    }

    /// A Messaging observable next to it.
    final class ThemeFeed: ObservableSource {
        let messenger = Messenger<String>()
    }

    /// A Messaging observer, with the protocol spelled with its module, as a collision would need.
    final class Watcher: Messaging.Observer {
        let receiver = Receiver()
    }

    /// One type in both worlds: observable with Observation for views, and a Messaging source.
    @Observable
    final class Thermostat: Messaging.ObservableSource {
        @ObservationIgnored let messenger = Messenger<Int>()
        private(set) var celsius = 20

        func set(_ celsius: Int) {
            self.celsius = celsius
            send(celsius)
        }
    }

    @Test("an @Observable class and an ObservableSource class work side by side in one file")
    func sideBySide() {
        let settings = Settings()
        let feed = ThemeFeed()
        let watcher = Watcher()
        let observationChanges = Locked(0)
        let messages = EventLog()
        withObservationTracking {
            _ = settings.theme
        } onChange: {
            observationChanges.withLock { $0 += 1 }
        }
        watcher.observe(feed) { messages.append($0) }

        settings.theme = "dark"
        feed.send("dark")

        #expect(observationChanges.value == 1)
        #expect(messages.entries == ["dark"])
        #expect((settings as AnyObject) is any Observable)
        #expect(!((settings as AnyObject) is any ObservableSource))
        #expect((feed as AnyObject) is any ObservableSource)
        #expect(!((feed as AnyObject) is any Observable))
        withExtendedLifetime(watcher) {}
    }

    @Test("one class can be both @Observable and an ObservableSource")
    func bothAtOnce() {
        let thermostat = Thermostat()
        let watcher = Watcher()
        let observationChanges = Locked(0)
        let messages = Locked([Int]())
        withObservationTracking {
            _ = thermostat.celsius
        } onChange: {
            observationChanges.withLock { $0 += 1 }
        }
        watcher.observe(thermostat) { message in messages.withLock { $0.append(message) } }

        thermostat.set(22)

        #expect(observationChanges.value == 1)
        #expect(messages.value == [22])
        #expect(thermostat.celsius == 22)
        withExtendedLifetime(watcher) {}
    }
}
