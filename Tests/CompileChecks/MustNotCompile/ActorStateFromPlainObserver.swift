// expected-error: actor-isolated property 'count' can not be mutated from a Sendable closure
//
// Rejected: an actor that conforms to the plain `Observer` gets handlers that run on the
// delivering thread, outside the actor.
// Write it right: conform to `ActorObserver`; its handlers run on the actor.
import Messaging

actor Counter: Observer {
    let receiver = Receiver()
    var count = 0

    func start(_ ticks: Messenger<Int>) {
        observe(ticks) { _ in self.count += 1 }
    }
}
