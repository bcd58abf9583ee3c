// The fixed versions of MustNotCompile/RelationshipCallbackOnAnotherThread.swift and
// MustNotCompile/ObserversHandedToAnotherThread.swift: the dog's state lives on the main actor, so
// another thread can end its relationships and list it among the observers, and only main-actor
// code touches the counter.
import Messaging

@MainActor
final class Dog: MainActorObserver {
    let receiver = Receiver()
    var events = 0

    // Runs on the main actor, in order with the handlers, whichever thread ends the relationship.
    func relationshipEnded(with observable: ObjectIdentifier) {
        events += 1
    }
}

/// The RVS callbacks run at once on the thread that ends the relationship: a main-actor class
/// implements them `nonisolated`, and hops to touch its state.
@MainActor
final class Cat: MainActorObserver {
    let receiver = Receiver()
    var events = 0

    nonisolated func unsubscribedFrom(_ observable: any GeneralObservable) {
        Task { @MainActor in self.events += 1 }
    }
}

/// An actor's relationship callbacks run on the actor.
actor Kennel: ActorObserver {
    let receiver = Receiver()
    var observed: Set<ObjectIdentifier> = []

    func relationshipBegan(with observable: ObjectIdentifier) { observed.insert(observable) }
    func relationshipEnded(with observable: ObjectIdentifier) { observed.remove(observable) }

    func watch(_ sky: Messenger<Int>) {
        observe(sky) { _ in }
    }
}

/// A plain observer is `Sendable`: immutable, or guarding its state with a lock.
final class Counter: Observer {
    let receiver = Receiver()
    let name: String

    init(name: String) {
        self.name = name
    }
}

@MainActor func relationshipCallbackFromAnotherThread() async {
    let sky = Messenger<Int>()
    let dog = Dog()
    dog.observe(sky) { _ in dog.events += 1 }
    let cat = Cat()
    cat.observe(sky) { _ in cat.events += 1 }
    let kennel = Kennel()
    await kennel.watch(sky)
    let task = Task.detached { sky.stopBeingObserved() }
    for _ in 0..<100_000 { dog.events += 1 }
    await task.value
    _ = await kennel.observed.isEmpty
}

@MainActor func observersFromAnotherThread(sky: Messenger<Int>, dog: Dog, counter: Counter) async {
    counter.observe(sky) { _ in }
    let task = Task.detached {
        // Every observer is `Sendable`: a main-actor dog is only touched on the main actor.
        for case let d as Dog in sky.observers {
            await MainActor.run { d.events += 1 }
        }
        return sky.observers.compactMap { ($0 as? Counter)?.name }
    }
    dog.events += 1
    _ = await task.value
}
