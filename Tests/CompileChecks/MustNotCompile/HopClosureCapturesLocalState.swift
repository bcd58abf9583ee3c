// expected-error: sending 'seen' risks causing data races
//
// Rejected: after `onMainActor()` the chain's closures run on the main actor, while the function
// that built the chain goes on elsewhere; a local variable they both change would be a data race.
// Write it right: keep the state on the main actor (a main-actor view model, say) and let the
// closure change it there.
import Messaging

func start(_ observer: FreeObserver, _ numbers: Messenger<Int>) {
    var seen = 0
    observer.observe(numbers).onMainActor().receive { number in
        seen += number
    }
    print(seen)
}
