// expected-error: stored property 'events' of 'Sendable'-conforming class 'Dog' is mutable
//
// Rejected: `observers` may be read on any thread, and it hands out the observers themselves; the
// detached task would change the main actor's dog. An `Observer` is `Sendable`, so one with
// unguarded state does not compile.
// Write it right: see MustCompile/RelationshipCallbacksOnTheMainActor.swift.
import Messaging

final class Dog: Observer {
    let receiver = Receiver()
    var events = 0
}

@MainActor func observersRace(sky: Messenger<Int>, dog: Dog) async {
    let task = Task.detached {
        for case let d as Dog in sky.observers { d.events += 1 }
    }
    dog.events += 1
    await task.value
}
