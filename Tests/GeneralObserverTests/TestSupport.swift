// Conforming types and helpers shared by the GeneralObserver tests.
//
// Every type here is `Sendable` so the threading tests can share them between threads: the classes
// are final with only `let` properties, and the one mutable store, `EventLog`, is guarded by a lock.

import Foundation
import GeneralObserver
@_exported import SharedTestSupport

// MARK: - Callback log

/// One callback, as the test types record it.
enum Event: Hashable, Sendable, CustomStringConvertible {
    /// `observer.subscribedTo(observable)` ran.
    case subscribedTo(observer: String, observable: String)
    /// `observer.unsubscribedFrom(observable)` ran.
    case unsubscribedFrom(observer: String, observable: String)
    /// `observable.observer(observer, didSubscribe: true)` ran.
    case didSubscribe(observable: String, observer: String)
    /// `observable.observer(observer, didSubscribe: false)` ran.
    case didUnsubscribe(observable: String, observer: String)

    var description: String {
        switch self {
        case .subscribedTo(let observer, let observable): "\(observer).subscribedTo(\(observable))"
        case .unsubscribedFrom(let observer, let observable): "\(observer).unsubscribedFrom(\(observable))"
        case .didSubscribe(let observable, let observer): "\(observable).observer(\(observer), didSubscribe: true)"
        case .didUnsubscribe(let observable, let observer): "\(observable).observer(\(observer), didSubscribe: false)"
        }
    }

    /// The two callbacks of one subscription, in the order they fire.
    static func subscription(_ observer: String, to observable: String) -> [Event] {
        [
            .didSubscribe(observable: observable, observer: observer),
            .subscribedTo(observer: observer, observable: observable),
        ]
    }

    /// The two callbacks of one unsubscription, in the order they fire.
    static func unsubscription(_ observer: String, from observable: String) -> [Event] {
        [
            .didUnsubscribe(observable: observable, observer: observer),
            .unsubscribedFrom(observer: observer, observable: observable),
        ]
    }
}

/// A thread-safe record of callbacks, in the order they were made.
final class EventLog: @unchecked Sendable {  // `_storage` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _storage: [Event] = []

    /// Records one callback.
    func append(_ event: Event) {
        _lock.locked { _storage.append(event) }
    }

    /// Everything recorded so far, in the order it was recorded.
    var events: [Event] {
        _lock.locked { _storage }
    }

    /// Returns everything recorded so far and starts a new, empty record.
    func take() -> [Event] {
        _lock.locked {
            defer { _storage = [] }
            return _storage
        }
    }
}

extension NSLock {
    /// Runs `body` while holding the lock. (Foundation's `withLock` needs macOS 14 on Apple platforms.)
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

// MARK: - Names

/// A test type with a readable name, so that listings and logs compare as strings.
protocol Named {
    var name: String { get }
}

/// The name of an observer, or `"?"` if it is not one of the test types.
func displayName(of observer: any GeneralSubscriber) -> String {
    (observer as? any Named)?.name ?? "?"
}

/// The name of an observable, or `"?"` if it is not one of the test types.
func displayName(of observable: any GeneralObservable) -> String {
    (observable as? any Named)?.name ?? "?"
}

/// The names of `observers`, in order.
func names(_ observers: [any GeneralSubscriber]) -> [String] {
    observers.map { displayName(of: $0) }
}

/// The names of `observables`, in order.
func names(_ observables: [any GeneralObservable]) -> [String] {
    observables.map { displayName(of: $0) }
}

// MARK: - Conforming types

/// An observable that logs `observer(_:didSubscribe:)`.
final class TestObservable: GeneralObservable, Named, Sendable {
    let name: String
    let log: EventLog
    let subscriptionLedger = SubscriptionLedger()

    init(_ name: String, log: EventLog = EventLog()) {
        self.name = name
        self.log = log
    }

    func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {
        let observerName = displayName(of: observer)
        log.append(
            didSubscribe
                ? .didSubscribe(observable: name, observer: observerName)
                : .didUnsubscribe(observable: name, observer: observerName)
        )
    }
}

/// A class observer that tracks its subscriptions and logs its callbacks.
final class TestTracker: GeneralTrackingSubscriber, Named, Sendable {
    let name: String
    let log: EventLog
    let subscriptionLedger = SubscriptionLedger()

    init(_ name: String, log: EventLog = EventLog()) {
        self.name = name
        self.log = log
    }

    func subscribedTo(_ observable: any GeneralObservable) {
        log.append(.subscribedTo(observer: name, observable: displayName(of: observable)))
    }

    func unsubscribedFrom(_ observable: any GeneralObservable) {
        log.append(.unsubscribedFrom(observer: name, observable: displayName(of: observable)))
    }
}

/// A class that is both an observable and a tracking observer, and logs all three callbacks.
final class TestHub: GeneralObservable, GeneralTrackingSubscriber, Named, Sendable {
    let name: String
    let log: EventLog
    let subscriptionLedger = SubscriptionLedger()

    init(_ name: String, log: EventLog = EventLog()) {
        self.name = name
        self.log = log
    }

    func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {
        let observerName = displayName(of: observer)
        log.append(
            didSubscribe
                ? .didSubscribe(observable: name, observer: observerName)
                : .didUnsubscribe(observable: name, observer: observerName)
        )
    }

    func subscribedTo(_ observable: any GeneralObservable) {
        log.append(.subscribedTo(observer: name, observable: displayName(of: observable)))
    }

    func unsubscribedFrom(_ observable: any GeneralObservable) {
        log.append(.unsubscribedFrom(observer: name, observable: displayName(of: observable)))
    }
}

/// A value-type observer; observables keep copies of it.
struct ValueObserver: GeneralSubscriber, Named, Sendable {
    let uuid: UUID
    let name: String
    let log: EventLog

    init(_ name: String, uuid: UUID = UUID(), log: EventLog = EventLog()) {
        self.uuid = uuid
        self.name = name
        self.log = log
    }

    func subscribedTo(_ observable: any GeneralObservable) {
        log.append(.subscribedTo(observer: name, observable: displayName(of: observable)))
    }

    func unsubscribedFrom(_ observable: any GeneralObservable) {
        log.append(.unsubscribedFrom(observer: name, observable: displayName(of: observable)))
    }
}

/// A class observer that does not track its subscriptions; observables hold it weakly.
final class ObjectObserver: GeneralSubscriber, Named, Sendable {
    let uuid = UUID()
    let name: String
    let log: EventLog

    init(_ name: String, log: EventLog = EventLog()) {
        self.name = name
        self.log = log
    }

    func subscribedTo(_ observable: any GeneralObservable) {
        log.append(.subscribedTo(observer: name, observable: displayName(of: observable)))
    }

    func unsubscribedFrom(_ observable: any GeneralObservable) {
        log.append(.unsubscribedFrom(observer: name, observable: displayName(of: observable)))
    }
}
