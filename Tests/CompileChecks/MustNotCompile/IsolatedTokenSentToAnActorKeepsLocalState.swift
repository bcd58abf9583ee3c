// expected-error: sending value of non-Sendable type '(Int) -> ()' risks causing data races
//
// Rejected: code outside the actor hands `tally` a handler that captures a local variable the
// caller goes on using. The handler will run on the actor, the caller elsewhere: a race.
// Write it right: let the actor register its own handler, or give the handler `Sendable` state.
import Messaging

actor Tally {}

func countOutside(_ tally: Tally, _ ticks: Messenger<Int>) async -> ObservationToken {
    var total = 0
    let token = await ticks.subscribeIsolated(isolation: tally) { _ in total += 1 }
    total += 1
    print(total)
    return token
}
