// expected-error: main actor-isolated property 'title' can not be mutated from a Sendable closure
//
// Rejected: the view model is on the main actor but conforms to the plain `Observer`, whose
// handlers run on the delivering thread; its main-actor state cannot be touched from there.
// Write it right: conform to `MainActorObserver`; its handlers run on the main actor.
import Messaging

@MainActor
final class ViewModel: Observer {
    let receiver = Receiver()
    var title = ""

    func bind(_ name: Var<String>) {
        observe(name) { update in self.title = update.new }
    }
}
