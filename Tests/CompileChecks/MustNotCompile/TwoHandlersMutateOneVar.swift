// expected-error: mutation of captured var 'total' in concurrently-executing code
//
// Rejected: a plain observer's handler runs on whichever thread delivers the message, so it is
// `@Sendable`. Two handlers that add to one local variable could run at the same time on two
// threads (`a` and `b` are sent from different threads) and lose updates.
// Write it right: keep the count in a `Var` and change it with `modify`, or use
// a `Mutex`, or observe from a `MainActorObserver` / `ActorObserver`, whose handlers run on one actor.
import Messaging

func countMessages(of a: Messenger<Int>, and b: Messenger<Int>) -> FreeObserver {
    var total = 0
    let token = FreeObserver()
    token.observe(a) { _ in total += 1 }
    token.observe(b) { _ in total += 1 }
    _ = total
    return token
}
