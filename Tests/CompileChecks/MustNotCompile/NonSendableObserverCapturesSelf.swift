// expected-error: capture of 'self' with non-Sendable type 'Dog' in a '@Sendable' closure
//
// Rejected: `Dog` is neither `Sendable` nor bound to an actor, yet its handler would change its
// state from the delivering thread, at the same time as code on other threads.
// Write it right: make the observer a `MainActorObserver` (its handlers run on the main actor) or
// an `ActorObserver`, or make it `Sendable` (immutable, or guarding its state with a lock).
import Messaging

final class Dog: Observer {
    let receiver = Receiver()
    var barks = 0

    func watch(_ sky: Messenger<String>) {
        observe(sky) { _ in self.barks += 1 }
    }
}
