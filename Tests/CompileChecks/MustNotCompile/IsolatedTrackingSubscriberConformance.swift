// expected-error: cannot form main actor-isolated conformance of 'Desk' to SendableMetatype-inheriting protocol 'GeneralTrackingSubscriber'
//
// compile-with: Sources/GeneralObserver/GeneralObserver.swift (the copyable file, no import)
//
// Rejected because an observable recognises a tracking observer with a dynamic cast, to update
// its ledger in the same step, and does so on whichever thread subscribes or unsubscribes it. Off
// the main actor a main-actor-isolated conformance is invisible to that cast, so the desk's own
// `subscriptions` would go stale. GeneralTrackingSubscriber inherits SendableMetatype through
// GeneralSubscriber, so the compiler refuses the isolated conformance instead.

@MainActor
final class Desk: @MainActor GeneralTrackingSubscriber {
    let subscriptionLedger = SubscriptionLedger()
}
