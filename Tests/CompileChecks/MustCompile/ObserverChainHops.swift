// Hops from a main-actor or actor observer's chain: a view model that filters with its own state
// on the main actor and hands the rest to an actor, and an actor observer that keeps a running
// total on itself and shows it on the main actor.
import Messaging

actor Ledger {
    private(set) var total = 0

    func add(_ amount: Int) {
        total += amount
    }
}

@MainActor final class PaymentsViewModel: MainActorObserver {
    let receiver = Receiver()
    var threshold = 10
    private(set) var shown = ""

    func connect(_ payments: Messenger<Int>, _ ledger: Ledger) {
        observe(payments).filter { amount in amount >= self.threshold }.on(ledger).receive { ledger, amount in
            ledger.add(amount)
        }
    }

    func show(_ text: String) {
        shown = text
    }
}

actor RunningTotal: ActorObserver {
    let receiver = Receiver()
    private var total = 0

    func connect(_ payments: Messenger<Int>, _ viewModel: PaymentsViewModel) {
        observe(payments).map { amount in
            self.total += amount
            return self.total
        }.onMainActor().receive { total in
            viewModel.show("\(total)")
        }
    }
}
