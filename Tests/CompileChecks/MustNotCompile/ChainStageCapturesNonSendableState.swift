// expected-error: mutation of captured var 'total' in concurrently-executing code
//
// Rejected: the transforms of a plain observer's chain run on the delivering thread, like its
// handler, so they must be `@Sendable`; this one counts into a local variable from any thread.
// Write it right: count in a `Var` with `modify`, or make the observer a `MainActorObserver`.
import Messaging

func countLongWords(_ words: Messenger<String>, _ observer: FreeObserver) {
    var total = 0
    observer.observe(words).filter { word in
        total += 1
        return word.count > 5
    }.receive { _ in }
    print(total)
}
