// expected-error: stored property 'events' of 'Sendable'-conforming class 'Dog' is mutable
//
// Rejected: a relationship callback runs on whichever thread ends the relationship (here the
// detached task's `stopBeingObserved()`), while the main actor changes the same counter. An
// `Observer` is `Sendable`, so unguarded state in one does not compile.
// Write it right: a `MainActorObserver` keeps its state on the main actor (see
// MustCompile/RelationshipCallbacksOnTheMainActor.swift), or the state sits behind a lock.
import Messaging

final class Dog: Observer {
    let receiver = Receiver()
    var events = 0
    func unsubscribedFrom(_ observable: any GeneralObservable) { events += 1 }
}

@MainActor func relationshipCallbackRace() async {
    let sky = Messenger<Int>()
    let dog = Dog()
    dog.observe(sky) { _ in }
    let task = Task.detached { sky.stopBeingObserved() }
    for _ in 0..<100_000 { dog.events += 1 }
    await task.value
}
