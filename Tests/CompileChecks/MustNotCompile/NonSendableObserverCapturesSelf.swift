// expected-error: stored property 'barks' of 'Sendable'-conforming class 'Dog' is mutable
//
// Rejected: an `Observer` is `Sendable`, and `Dog`'s state is unguarded, yet its handler would
// change it from the delivering thread, at the same time as code on other threads.
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
