// expected-error: type 'Counter' does not conform to the 'Sendable' protocol
//
// Rejected: a hop hands each message to another actor while the sender may still use it; a
// message that is not `Sendable` would be shared between the two.
// Write it right: hop with `Sendable` messages (map to a value type before the hop).
import Messaging

final class Counter {
    var value = 0
}

func start(_ observer: FreeObserver, _ counters: Messenger<Counter>) {
    observer.observe(counters).onMainActor().receive { counter in
        counter.value += 1
    }
}
