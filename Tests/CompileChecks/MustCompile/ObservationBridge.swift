// A SwiftUI-shaped screen without SwiftUI: a `@MainActor` view model whose `Var`s drive a `body`
// that is evaluated inside `withObservationTracking` and evaluated again after each change, as
// SwiftUI does; and a property of an `@Observable` model followed as messages.
import Messaging
import Observation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
final class CounterViewModel {
    let title = Var("Counter")
    let count = Var(0)

    func increment() {
        count.modify { $0 += 1 }
    }
}

/// What SwiftUI does for a view: read the state in `body` while tracking, redraw after a change.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
final class CounterScreen {
    let viewModel: CounterViewModel
    private(set) var frames: [String] = []

    init(viewModel: CounterViewModel) {
        self.viewModel = viewModel
        render()
    }

    /// The view's body: it reads the variables, and nothing else is needed for them to be tracked.
    func body() -> String {
        "\(viewModel.title.value): \(viewModel.count.value)"
    }

    func render() {
        let frame = withObservationTracking {
            body()
        } onChange: { [weak self] in
            // Called once, by whichever thread changes a variable: redraw on the main actor.
            Task { @MainActor in self?.render() }
        }
        frames.append(frame)
    }
}

/// An Observation model, as a SwiftUI app has them.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
@MainActor
final class Settings {
    var theme = "light"
}

/// A Messaging observer that follows one property of the model.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class ThemeLog: MainActorObserver {
    let receiver = Receiver()
    let themes: PropertyUpdates<Update<String>>
    private(set) var lines: [String] = []

    init(settings: Settings) {
        themes = settings.updates(of: \.theme)
        observe(themes) { update in
            self.lines.append("\(update.old) -> \(update.new)")
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
func showCounter() {
    let viewModel = CounterViewModel()
    let screen = CounterScreen(viewModel: viewModel)
    viewModel.increment()
    viewModel.title.value = "Taps"
    let settings = Settings()
    let log = ThemeLog(settings: settings)
    settings.theme = "dark"
    withExtendedLifetime((screen, log)) {}
}
