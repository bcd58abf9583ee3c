import Foundation
import Testing

@testable import GeneralObserver

final class Obs: GeneralObservable { let subscriptionLedger = SubscriptionLedger() }
final class Trk: GeneralTrackingSubscriber { let subscriptionLedger = SubscriptionLedger() }
struct Val: GeneralSubscriber { let uuid = UUID() }

@Test func smoke() {
    let o = Obs()
    let t = Trk()
    #expect(o.subscribe(t) != nil)
    #expect(o.subscribe(t) == nil)
    #expect(t.amISubscribed(o))
    #expect(o.amISubscribed(t))
    let v = Val()
    #expect(o.subscribe(v) != nil)
    #expect(o.observers.count == 2)
    weak var wt = t
    _ = wt
}
