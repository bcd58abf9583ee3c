// The Rasat examples of the migration article (MigratingToMessaging.md, "From Rasat"), compiled as
// the article shows them and checked against what its text says they do.

import Messaging
import Testing

@Suite("Rasat's code, ported as the migration article shows")
struct RasatMigrationTests {
    enum UserEvent: Equatable {
        case loggedIn(id: String)
        case loggedOut(id: String)
    }

    @Test("subscriptions(): the read-only view counts the active observations, the messenger lists the observers")
    func countingAndListingObservations() {
        let userChannel = Messenger<UserEvent>()
        let observable = userChannel.readOnly
        #expect(observable.observationCount == 0)

        var first: FreeObserver? = observable.subscribe { _ in }
        let second = observable.subscribe { _ in }
        #expect(observable.observationCount == 2)
        #expect(userChannel.observers.map(\.uuid) == [first?.uuid, second.uuid].compactMap { $0 })

        first = nil
        #expect(observable.observationCount == 1)
        #expect(userChannel.observers.map(\.uuid) == [second.uuid])
        #expect(second.isObserving(observable))

        second.stopObserving()
        #expect(observable.observationCount == 0)
        #expect(!second.isObserving(observable))
        #expect(first == nil)
    }
}
