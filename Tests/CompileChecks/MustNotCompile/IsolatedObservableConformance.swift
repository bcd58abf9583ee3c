// expected-error: cannot form main actor-isolated conformance of 'Door' to SendableMetatype-inheriting protocol 'GeneralObservable'
//
// compile-with: Sources/GeneralObserver/GeneralObserver.swift (the copyable file, no import)
//
// Rejected because a tracking observer lists and leaves the observables it is subscribed to on
// whichever thread asks, through `any GeneralObservable`. A conformance isolated to the main
// actor cannot be used off it, so the door would drop out of `subscriptions` there and its
// callbacks would run off the main actor. GeneralObservable inherits SendableMetatype, so the
// compiler refuses the isolated conformance instead.

@MainActor
final class Door: @MainActor GeneralObservable {
    let subscriptionLedger = SubscriptionLedger()
}
