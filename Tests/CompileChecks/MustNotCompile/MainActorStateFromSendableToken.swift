// expected-error: main actor-isolated property 'title' can not be mutated from a Sendable closure
//
// Rejected: `subscribe`'s handler is `@Sendable` and runs on the thread that delivers, wherever
// it is written; the view model's main-actor state is out of reach there. (Overload resolution
// ignores a closure's isolation, so `subscribe` cannot take an isolated handler here and a
// `@Sendable` one elsewhere.)
// Write it right: `subscribeIsolated`, whose handler runs on the caller's actor (see
// MustCompile/MainActorViewModelWithBag.swift).
import Messaging

@MainActor
final class TitleViewModel {
    private(set) var title = ""
    private let bag = ObservationBag()

    init(name: Var<String>) {
        bag += name.subscribe { [weak self] update in self?.title = update.new }
    }
}
