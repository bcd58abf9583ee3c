// expected-error: capture of 'names' with non-Sendable type 'NameList' in a '@Sendable' closure
//
// Rejected: a token's handler runs on the delivering thread; `NameList` is not safe to share.
// Write it right: observe from a `MainActorObserver` or `ActorObserver` that owns the list, or
// make the list `Sendable`.
import Messaging

final class NameList {
    var names: [String] = []
}

func collect(_ users: Messenger<String>) -> ObservationToken {
    let names = NameList()
    return users.subscribe { name in names.names.append(name) }
}
