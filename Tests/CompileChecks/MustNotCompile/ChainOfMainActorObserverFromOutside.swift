// expected-error: main actor-isolated instance method 'observe' cannot be called from outside of the actor
//
// Rejected: a main-actor observer's chain runs on the main actor and takes closures that are not
// `@Sendable`, so it may only be started there; from a background function its closures could
// share that function's state with the main actor.
// Write it right: start the chain in main-actor code (a method of the view model, say).
import Messaging

@MainActor final class Screen: MainActorObserver {
    let receiver = Receiver()
}

func start(_ screen: Screen, _ numbers: Messenger<Int>) async {
    var seen = 0
    screen.observe(numbers).map { number in
        seen += 1
        return number
    }.receive { _ in }
    print(seen)
}
