// expected-error: main actor-isolated property 'count' can not be referenced from a Sendable closure
//
// Rejected: the stages before `onMainActor()` run on the thread that delivers, not on the main
// actor, so they may not touch main-actor state.
// Write it right: move the stage after the hop.
import Messaging

@MainActor final class Screen {
    var count = 0
}

func start(_ observer: FreeObserver, _ numbers: Messenger<Int>, _ screen: Screen) {
    observer.observe(numbers).map { $0 + screen.count }.onMainActor().receive { number in
        screen.count = number
    }
}
