// expected-error: main actor-isolated property 'count' can not be mutated
//
// Rejected: after `on(ledger)` a main-actor observer's chain runs on `ledger`, not on the main
// actor; the view model's state is out of reach there.
// Write it right: change main-actor state in the stages before the hop, or hop back with
// `onMainActor()`.
import Messaging

actor Ledger {
    var total = 0
}

@MainActor final class PaymentsViewModel: MainActorObserver {
    let receiver = Receiver()
    var count = 0

    func connect(_ payments: Messenger<Int>, _ ledger: Ledger) {
        observe(payments).on(ledger).receive { ledger, amount in
            ledger.total += amount
            self.count += 1
        }
    }
}
