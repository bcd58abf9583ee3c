// expected-error: actor-isolated property 'total' can not be mutated
//
// Rejected: a handler registered in `Tally` runs on `Tally`; another actor's state is out of
// reach there without `await`.
// Write it right: register the handler in the actor whose state it changes, or send that actor a
// message.
import Messaging

actor Tally {
    var total = 0
    var tokens: [ObservationToken] = []

    func start(_ numbers: Messenger<Int>, other: Tally) {
        tokens.append(
            numbers.subscribeIsolated { number in
                self.total += number
                other.total += number
            })
    }
}
