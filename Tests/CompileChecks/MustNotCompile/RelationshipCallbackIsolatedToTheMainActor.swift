// expected-error: conformance of 'Dog' to protocol 'GeneralSubscriber' crosses into main actor-isolated code
//
// Rejected: the RVS callback `unsubscribedFrom(_:)` runs at once on whichever thread ends the
// relationship, so a main-actor class cannot implement it as a main-actor method that touches its
// state. Write it right: implement `relationshipEnded(with:)`, which runs on the main actor in
// order with the handlers (see MustCompile/RelationshipCallbacksOnTheMainActor.swift).
import Messaging

@MainActor
final class Dog: MainActorObserver {
    let receiver = Receiver()
    var events = 0

    func unsubscribedFrom(_ observable: any GeneralObservable) { events += 1 }
}
