// The Swift 6 examples of the migration article (MigratingToMessaging.md, "What Swift 6 asks
// for"), compiled as the article shows them and checked against what its text says they do.

import Messaging
import Testing

@Suite("SwiftObserver's code, ported to Swift 6 as the migration article shows")
struct SwiftObserverMigrationTests {
    enum Color: Sendable {
        case blue, grey
    }

    final class Sky: ObservableSource, Sendable {
        static let shared = Sky()
        let messenger = Messenger<Color>()
    }

    @MainActor
    final class Weather: ObservableSource {
        static let shared = Weather()
        let messenger = Messenger<Color>()
    }

    // Messaging: the messenger is a property; Model decides its own concurrency story.
    final class Model: ObservableSource {
        let messenger = Messenger<String>()

        var state = "initial state" {
            didSet { if state != oldValue { send(state) } }
        }
    }

    @Test("a Sendable observable with a static shared instance can be observed and sent through")
    func sendableSharedObservable() {
        let colors = Locked([Color]())  // Swift 6: the handler is `@Sendable`
        let token = Sky.shared.subscribe { color in colors.withLock { $0.append(color) } }
        Sky.shared.send(.grey)
        token.stopObserving()
        Sky.shared.send(.blue)

        #expect(colors.value == [.grey])
    }

    @Test("a main-actor observable with a static shared instance runs main-actor handlers at once")
    @MainActor
    func mainActorSharedObservable() {
        var colors: [Color] = []
        // Swift 6: a main-actor handler needs a `MainActorObserver`; `subscribe` takes `@Sendable` ones.
        let token = MainActorToken()
        token.observe(Weather.shared) { colors.append($0) }
        Weather.shared.send(.blue)
        token.stopObserving()

        #expect(colors == [.blue])
    }

    @Test("a model that keeps its messenger as a property sends each change of its state")
    func modelWithMessengerProperty() {
        let model = Model()
        let states = EventLog()  // Swift 6: the handler is `@Sendable`
        let token = model.subscribe { states.append($0) }

        model.state = "loading"
        model.state = "loading"
        model.state = "done"

        #expect(states.entries == ["loading", "done"])
        withExtendedLifetime(token) {}
    }
}
