// expected-error: sending value of non-Sendable type
//
// Rejected: code outside the actor hands the actor a handler that captures a local variable the
// caller goes on using. The handler will run on the actor, the caller elsewhere: a race.
// Write it right: let the handler change only the actor's state (`observeWeakly`), or give it
// `Sendable` state.
import Messaging

actor Counter: ActorObserver {
    let receiver = Receiver()
}

func countOutside(_ counter: Counter, _ ticks: Messenger<Int>) async {
    var total = 0
    await counter.observe(ticks) { _ in total += 1 }
    total += 1
    print(total)
}
