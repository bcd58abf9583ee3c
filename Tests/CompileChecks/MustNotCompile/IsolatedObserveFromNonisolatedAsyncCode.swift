// expected-error: 'nil' is not compatible with expected argument type 'any Actor'
//
// Rejected: a nonisolated async function runs on no actor (its `#isolation` is `nil`), so there
// is no actor for the handler to be isolated to; it would run on the delivering thread while this
// function goes on changing `seen`.
// Write it right: observe from main-actor or actor code, or use `observe`, whose handler is
// `@Sendable`.
import Messaging

func watch(_ numbers: Messenger<Int>) async {
    var seen = 0
    await observeIsolated(numbers) { number in seen += number }
    seen += 1
    print(seen)
}
