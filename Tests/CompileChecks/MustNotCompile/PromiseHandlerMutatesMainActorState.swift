// expected-error: main actor-isolated property 'title' can not be mutated from a Sendable closure
//
// Rejected: a `whenFulfilled` handler runs on the thread that fulfils the promise, not on the main
// actor, so it must not touch the view model's main-actor state: that would be a race.
// Write it right: `title = await name.value` in an async main-actor method, or observe the
// promise from a `MainActorObserver`.
import Messaging

@MainActor
final class ProfileViewModel {
    private(set) var title = ""

    func load(_ name: Promise<String>) {
        name.whenFulfilled { name in self.title = name }
    }
}
