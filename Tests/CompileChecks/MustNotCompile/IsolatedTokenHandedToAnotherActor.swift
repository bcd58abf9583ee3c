// expected-error: sending value of non-Sendable type '(Int) -> ()' risks causing data races
//
// Rejected: the handler is written in the main-actor view model and uses its state, but
// `isolation: ledger` would run it on `ledger`, at the same time as the main actor.
// Write it right: leave `isolation` out (the handler then runs on the main actor), or register
// the handler in the ledger and change only the ledger's state there.
import Messaging

actor Ledger {
    var tokens: [ObservationToken] = []
}

@MainActor final class PaymentsViewModel {
    var count = 0

    func connect(_ payments: Messenger<Int>, _ ledger: Ledger) async -> ObservationToken {
        await payments.subscribeIsolated(isolation: ledger) { _ in
            self.count += 1
        }
    }
}
