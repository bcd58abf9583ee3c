// expected-error: actor-isolated property 'total' can not be mutated
//
// Rejected: after `on(tally)` the chain's closures are isolated to `tally` only; another actor's
// state is out of reach without `await`.
// Write it right: hop to the actor whose state the closure changes, or send it a message.
import Messaging

actor Tally {
    var total = 0
}

func start(_ observer: FreeObserver, _ numbers: Messenger<Int>, _ tally: Tally, _ other: Tally) {
    observer.observe(numbers).on(tally).receive { tally, number in
        tally.total += number
        other.total += number
    }
}
