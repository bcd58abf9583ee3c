// expected-error: call to actor-isolated instance method 'subscribeIsolated(isolation:_:)' in a synchronous nonisolated context
//
// Rejected: `subscribeIsolated` runs its handler on the caller's actor, and this caller has none.
// Two handlers that add to one local variable would run on whichever threads deliver `a` and `b`,
// at the same time, and lose updates.
// Write it right: call it from main-actor or actor code, or use `subscribe`, whose handler is
// `@Sendable` (then keep the count in a `Var` or behind a lock).
import Messaging

func countMessages(of a: Messenger<Int>, and b: Messenger<Int>) -> [ObservationToken] {
    var total = 0
    let first = a.subscribeIsolated { _ in total += 1 }
    let second = b.subscribeIsolated { _ in total += 1 }
    _ = total
    return [first, second]
}
