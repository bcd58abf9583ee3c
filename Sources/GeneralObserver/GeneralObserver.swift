// The GeneralObserver protocols: a reliable observer/observable relationship graph.
//
// This file compiles on its own. Copy it into a project and conform your types; it needs nothing
// but the standard library, the C library (for one mutex) and `UUID`.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

// MARK: - Protocols

#if compiler(>=6.2)
/// What both roles inherit so that no conformance to them can be isolated to a global actor.
///
/// The relationships are shared by every thread: an observable lists its observers, and calls
/// back, on whichever thread changes or reads them. A conformance isolated to an actor
/// (`@MainActor final class Panel: @MainActor GeneralSubscriber`) could only be used on that
/// actor; elsewhere the casts the default implementations rely on would fail, and the observer
/// would vanish from ``GeneralObservable/observers`` and survive ``GeneralObservable/unsubscribeAll()``.
/// Inheriting `SendableMetatype` makes the compiler reject such conformances instead (SE-0470).
/// Before Swift 6.2 there are no isolated conformances, and this is `Any`.
public typealias _GeneralObserverSendableMetatype = SendableMetatype
#else
/// What both roles inherit; `Any` before Swift 6.2, which has no isolated conformances to reject.
public typealias _GeneralObserverSendableMetatype = Any
#endif

/// A type that observers can subscribe to.
///
/// Conform a class in two lines: store a ``SubscriptionLedger`` and the protocol's default
/// implementations do the rest.
///
/// ```swift
/// final class Thermometer: GeneralObservable {
///     let subscriptionLedger = SubscriptionLedger()
/// }
/// ```
///
/// An observable holds its observers in subscription order. It keeps a *copy* of a value-type
/// observer and only a *weak* reference to a class-type observer, so subscribing never keeps an
/// object alive: when the last reference to an observer goes away, the observer is freed and the
/// observable forgets it.
///
/// The default implementations are thread-safe: every operation takes the ledger's lock for a few
/// instructions and runs the callbacks after releasing it (its own, and any that other threads
/// queued meanwhile for this observable; see ``observer(_:didSubscribe:)``). The objects are not
/// made thread-safe: a callback runs on a thread that changes the relationship, and ``observers``
/// hands the observers to the thread that asks. An observer that is not `Sendable` is therefore
/// safe only while every change and listing that reaches it happens on its own thread, as in
/// single-threaded code; once several threads change or list relationships, make every conformer
/// they reach `Sendable`. See the article "Memory and Threads".
///
/// A conformance cannot be isolated to a global actor: the protocol inherits `SendableMetatype`,
/// so `@MainActor final class Panel: @MainActor GeneralObservable` does not compile, because
/// other threads could not use it. An actor-isolated class may still conform, with nonisolated
/// implementations of the requirements it provides. See the article "Memory and Threads".
public protocol GeneralObservable: AnyObject, _GeneralObserverSendableMetatype {
    /// The stable identity of this observable.
    ///
    /// The default implementation returns the ledger's ``SubscriptionLedger/uuid``. If you provide
    /// your own, it must never change while the observable has subscribers.
    var uuid: UUID { get }

    /// The storage that the default implementations keep the relationships in.
    ///
    /// Declare it as a constant: `let subscriptionLedger = SubscriptionLedger()`. A type that is
    /// both observable and a ``GeneralTrackingSubscriber`` uses one ledger for both roles.
    var subscriptionLedger: SubscriptionLedger { get }

    /// The live observers, in the order they subscribed.
    ///
    /// - Complexity: O(*n*), where *n* is the number of observers.
    var observers: [any GeneralSubscriber] { get }

    /// Subscribes an observer.
    ///
    /// If the observer is a ``GeneralTrackingSubscriber``, its ``GeneralTrackingSubscriber/subscriptions``
    /// are updated in the same atomic step. After the change, outside any lock, this observable's
    /// ``observer(_:didSubscribe:)`` and then the observer's ``GeneralSubscriber/subscribedTo(_:)``
    /// are called, once each: the observable hears of it first, as in RVS_GeneralObserver. If this
    /// observable's callbacks are running (this call is made from one of them, or on another
    /// thread), they are called after those, possibly after this call returns; see
    /// ``observer(_:didSubscribe:)``.
    ///
    /// An object that is both observable and observer may subscribe to itself; it is then treated
    /// like any other pair (and, since class observers are held weakly, it does not leak).
    ///
    /// - Parameter observer: The observer to subscribe.
    /// - Returns: `observer`, so calls can be chained, or `nil` if it was already subscribed (then
    ///   nothing changes and no callback fires).
    /// - Complexity: O(1) on average.
    @discardableResult
    func subscribe<Subscriber: GeneralSubscriber>(_ observer: Subscriber) -> Subscriber?

    /// Unsubscribes an observer.
    ///
    /// Both ends of the relationship are updated in one atomic step; then, outside any lock, this
    /// observable's ``observer(_:didSubscribe:)`` (with `false`) and then the observer's
    /// ``GeneralSubscriber/unsubscribedFrom(_:)`` are called, once each. It is safe to call from
    /// inside any callback. If this observable's callbacks are running (this call is made from one
    /// of them, or on another thread), they are called after those, possibly after this call
    /// returns; see ``observer(_:didSubscribe:)``.
    ///
    /// - Parameter observer: The observer to unsubscribe.
    /// - Returns: `observer`, or `nil` if it was not subscribed (then nothing changes and no
    ///   callback fires).
    /// - Complexity: O(1) on average.
    @discardableResult
    func unsubscribe<Subscriber: GeneralSubscriber>(_ observer: Subscriber) -> Subscriber?

    /// Unsubscribes every observer that is subscribed when the call starts, in subscription order.
    ///
    /// Each unsubscription goes through ``unsubscribe(_:)``, so every callback fires as usual. An
    /// observer that subscribes while this call runs stays subscribed. On a type that is also a
    /// ``GeneralTrackingSubscriber``, this clears the observers only; call `unsubscribeAll()` on the
    /// type itself to clear both sides.
    ///
    /// - Returns: The observers it unsubscribed, in subscription order. An observer that a callback
    ///   unsubscribed first is not among them.
    /// - Complexity: O(*n*), where *n* is the number of observers.
    @discardableResult
    func unsubscribeAll() -> [any GeneralSubscriber]

    /// Tells whether an observer is subscribed to this observable.
    ///
    /// It takes an existential, as RVS_GeneralObserver's does, so that an element of ``observers``
    /// can be passed anywhere, including inside `#expect` of Swift Testing (a macro argument is not
    /// opened the way a generic call opens an existential). A concrete observer converts implicitly.
    ///
    /// - Parameter observer: The observer to look for (matched by ``GeneralSubscriber/uuid``).
    /// - Returns: `true` if it is subscribed.
    /// - Complexity: O(1) on average.
    func amISubscribed(_ observer: any GeneralSubscriber) -> Bool

    /// Called after an observer subscribed (`didSubscribe == true`) or unsubscribed (`false`).
    ///
    /// Optional: the default does nothing. It is called exactly once per change, after the change,
    /// never while a lock is held, and before the observer's ``GeneralSubscriber/subscribedTo(_:)``
    /// or ``GeneralSubscriber/unsubscribedFrom(_:)``.
    ///
    /// The callbacks of one observable never nest and come in the order of its changes, as the
    /// messages of one messenger do: usually on the thread that made the change, but a change made
    /// while a thread is running this observable's callbacks (from inside one of them, or from
    /// another thread) has its callbacks run after them, on that thread. So a callback may run on
    /// a thread other than the one that made its change, inside whatever that thread holds (a
    /// serial queue, a lock, an actor): don't block in a callback on something another thread
    /// that changes this observable may hold, and don't wait in one for another change of this
    /// observable to be announced, which is queued behind it. Callbacks of different observables
    /// are not ordered with each other: a change of another observable made inside a callback is
    /// announced at once, nested.
    ///
    /// - Parameters:
    ///   - observer: The observer that subscribed or unsubscribed.
    ///   - didSubscribe: `true` for a subscription, `false` for an unsubscription.
    func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool)
}

/// A type that can subscribe to a ``GeneralObservable``: a struct or a class.
///
/// ```swift
/// struct Logger: GeneralSubscriber {
///     let uuid = UUID()
/// }
/// ```
///
/// A value-type observer is copied into the observables it subscribes to; a class-type observer
/// is held weakly. Use ``GeneralTrackingSubscriber`` for a class that also needs to know what it
/// is subscribed to.
///
/// A conformance cannot be isolated to a global actor: the protocol inherits `SendableMetatype`,
/// so `@MainActor final class Panel: @MainActor GeneralSubscriber` does not compile. An observable
/// lists and unsubscribes its observers on any thread, where an isolated conformance could not be
/// used. An actor-isolated class may still conform, with nonisolated implementations of the
/// requirements it provides. See the article "Memory and Threads".
public protocol GeneralSubscriber: _GeneralObserverSendableMetatype {
    /// The stable identity of this observer; observables recognise it by this value.
    var uuid: UUID { get }

    /// Called after this observer was subscribed to `observable`.
    ///
    /// Optional: the default does nothing. Called once per subscription, after it took effect and
    /// after the observable's ``GeneralObservable/observer(_:didSubscribe:)``, never while a lock
    /// is held.
    ///
    /// - Parameter observable: The observable it is now subscribed to.
    func subscribedTo(_ observable: any GeneralObservable)

    /// Called after this observer was unsubscribed from `observable`.
    ///
    /// Optional: the default does nothing. Called once per unsubscription, after it took effect and
    /// after the observable's ``GeneralObservable/observer(_:didSubscribe:)``, never while a lock
    /// is held. It is not called when either side is deallocated.
    ///
    /// - Parameter observable: The observable it is no longer subscribed to.
    func unsubscribedFrom(_ observable: any GeneralObservable)

    /// Tells whether this observer is subscribed to `observable`.
    ///
    /// - Parameter observable: The observable to ask.
    /// - Returns: `true` if it is subscribed.
    /// - Complexity: O(1) on average.
    func amISubscribed(_ observable: any GeneralObservable) -> Bool
}

/// A class-only observer that also keeps track of what it is subscribed to.
///
/// ```swift
/// final class Dashboard: GeneralTrackingSubscriber {
///     let subscriptionLedger = SubscriptionLedger()
/// }
/// ```
///
/// It holds its observables weakly: an observable that nobody else references is freed, and the
/// dashboard forgets it. Subscriptions are made through the observable's
/// ``GeneralObservable/subscribe(_:)``; unsubscribing through either side updates both sides.
public protocol GeneralTrackingSubscriber: AnyObject, GeneralSubscriber {
    /// The storage that the default implementations keep the relationships in.
    ///
    /// Declare it as a constant: `let subscriptionLedger = SubscriptionLedger()`.
    var subscriptionLedger: SubscriptionLedger { get }

    /// The live observables this observer is subscribed to, in the order it subscribed.
    ///
    /// - Complexity: O(*n*), where *n* is the number of subscriptions.
    var subscriptions: [any GeneralObservable] { get }

    /// Unsubscribes from every observable it is subscribed to when the call starts.
    ///
    /// Each unsubscription goes through the observable's ``GeneralObservable/unsubscribe(_:)``,
    /// so every callback fires as usual. On a type that is also a ``GeneralObservable``, this
    /// leaves the subscriptions only; call `unsubscribeAll()` on the type itself to clear both
    /// sides.
    ///
    /// - Returns: The observables it unsubscribed from, in subscription order. An observable that
    ///   a callback unsubscribed it from first is not among them.
    /// - Complexity: O(*n*), where *n* is the number of subscriptions.
    @discardableResult
    func unsubscribeAll() -> [any GeneralObservable]
}

// MARK: - Default implementations

extension GeneralObservable {
    /// The ledger's identity.
    public var uuid: UUID { subscriptionLedger.uuid }

    /// The live observers, in the order they subscribed.
    ///
    /// - Complexity: O(*n*), where *n* is the number of observers.
    public var observers: [any GeneralSubscriber] { subscriptionLedger._liveObservers() }

    /// Subscribes an observer; see ``GeneralObservable/subscribe(_:)``.
    ///
    /// - Parameter observer: The observer to subscribe.
    /// - Returns: `observer`, or `nil` if it was already subscribed.
    /// - Complexity: O(1) on average.
    @discardableResult
    public func subscribe<Subscriber: GeneralSubscriber>(_ observer: Subscriber) -> Subscriber? {
        SubscriptionLedger.subscribe(observer, to: self) ? observer : nil
    }

    /// Unsubscribes an observer; see ``GeneralObservable/unsubscribe(_:)``.
    ///
    /// - Parameter observer: The observer to unsubscribe.
    /// - Returns: `observer`, or `nil` if it was not subscribed.
    /// - Complexity: O(1) on average.
    @discardableResult
    public func unsubscribe<Subscriber: GeneralSubscriber>(_ observer: Subscriber) -> Subscriber? {
        SubscriptionLedger.unsubscribe(observer, from: self) ? observer : nil
    }

    /// Unsubscribes every current observer; see ``GeneralObservable/unsubscribeAll()``.
    ///
    /// - Returns: The observers it unsubscribed, in subscription order.
    /// - Complexity: O(*n*), where *n* is the number of observers.
    @discardableResult
    public func unsubscribeAll() -> [any GeneralSubscriber] {
        subscriptionLedger._liveObservers().compactMap { unsubscribe($0) }
    }

    /// Tells whether an observer is subscribed; see ``GeneralObservable/amISubscribed(_:)``.
    ///
    /// - Parameter observer: The observer to look for.
    /// - Returns: `true` if it is subscribed.
    /// - Complexity: O(1) on average.
    public func amISubscribed(_ observer: any GeneralSubscriber) -> Bool {
        // Both ledgers always agree. A tracking observer's own table is small (its subscriptions),
        // so asking it touches less memory than a lookup in a table of every observer.
        if let tracker = observer as? any GeneralTrackingSubscriber {
            return tracker.subscriptionLedger._hasSubscription(uuid)
        }
        return subscriptionLedger._hasObserver(observer.uuid)
    }

    /// Does nothing; implement it to be told about subscriptions.
    ///
    /// - Parameters:
    ///   - observer: The observer that subscribed or unsubscribed.
    ///   - didSubscribe: `true` for a subscription, `false` for an unsubscription.
    public func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {}
}

extension GeneralSubscriber {
    /// Does nothing; implement it to be told about subscriptions.
    ///
    /// - Parameter observable: The observable it is now subscribed to.
    public func subscribedTo(_ observable: any GeneralObservable) {}

    /// Does nothing; implement it to be told about unsubscriptions.
    ///
    /// - Parameter observable: The observable it is no longer subscribed to.
    public func unsubscribedFrom(_ observable: any GeneralObservable) {}

    /// Asks `observable` whether this observer is subscribed to it.
    ///
    /// - Parameter observable: The observable to ask.
    /// - Returns: `true` if it is subscribed.
    /// - Complexity: O(1) on average.
    public func amISubscribed(_ observable: any GeneralObservable) -> Bool {
        observable.amISubscribed(self)
    }
}

extension GeneralTrackingSubscriber {
    /// The ledger's identity.
    public var uuid: UUID { subscriptionLedger.uuid }

    /// The live observables it is subscribed to, in subscription order.
    ///
    /// - Complexity: O(*n*), where *n* is the number of subscriptions.
    public var subscriptions: [any GeneralObservable] { subscriptionLedger._liveSubscriptions() }

    /// Unsubscribes from every current subscription; see ``GeneralTrackingSubscriber/unsubscribeAll()``.
    ///
    /// - Returns: The observables it unsubscribed from, in subscription order.
    /// - Complexity: O(*n*), where *n* is the number of subscriptions.
    @discardableResult
    public func unsubscribeAll() -> [any GeneralObservable] {
        subscriptionLedger._liveSubscriptions().filter { $0.unsubscribe(self) != nil }
    }

    /// Looks `observable` up in its own subscriptions.
    ///
    /// - Parameter observable: The observable to look for (matched by ``GeneralObservable/uuid``).
    /// - Returns: `true` if it is subscribed.
    /// - Complexity: O(1) on average.
    public func amISubscribed(_ observable: any GeneralObservable) -> Bool {
        subscriptionLedger._hasSubscription(observable.uuid)
    }
}

extension GeneralTrackingSubscriber where Self: GeneralObservable {
    /// The ledger's identity, shared by both roles.
    public var uuid: UUID { subscriptionLedger.uuid }

    /// Looks `observable` up in its own subscriptions: "am I subscribed to it?".
    ///
    /// Called on a type in both roles with another such type, `amISubscribed(_:)` asks this
    /// question, the observer's. Ask the observable's question, "is it subscribed to me?", through
    /// the observable role: `(hub as any GeneralObservable).amISubscribed(other)`.
    ///
    /// - Parameter observable: The observable to look for (matched by ``GeneralObservable/uuid``).
    /// - Returns: `true` if it is subscribed.
    /// - Complexity: O(1) on average.
    public func amISubscribed(_ observable: any GeneralObservable) -> Bool {
        subscriptionLedger._hasSubscription(observable.uuid)
    }

    /// Unsubscribes all observers and then leaves all subscriptions.
    ///
    /// Called on a type that is both observable and tracking observer, `unsubscribeAll()` means
    /// this method, which clears both sides. Each protocol's own requirement clears its side only,
    /// as in RVS_GeneralObserver: ``GeneralObservable/unsubscribeAll()`` the observers and
    /// ``GeneralTrackingSubscriber/unsubscribeAll()`` the subscriptions. Call through a protocol, or
    /// name the result type (`let left: [any GeneralObservable] = hub.unsubscribeAll()`), to clear
    /// one side.
    ///
    /// - Returns: The observers it unsubscribed and the observables it unsubscribed from, each in
    ///   subscription order.
    /// - Complexity: O(*n* + *m*) for *n* observers and *m* subscriptions.
    @discardableResult
    public func unsubscribeAll() -> (observers: [any GeneralSubscriber], subscriptions: [any GeneralObservable]) {
        let observers: [any GeneralSubscriber] = unsubscribeAll()
        let subscriptions: [any GeneralObservable] = unsubscribeAll()
        return (observers, subscriptions)
    }
}

// MARK: - Storage

/// The storage behind the default implementations: one per observable or tracking observer.
///
/// A ledger keeps both sides of the graph that its owner takes part in:
/// - as an observable: its observers, in subscription order, a value-type observer as a copy and a
///   class-type observer as a weak reference;
/// - as a tracking observer: the observables it is subscribed to, as weak references.
///
/// Nothing in a ledger keeps its counterpart's owner alive. When an owner is deallocated, its
/// ledger removes it from the ledgers of every counterpart that is still alive (no callback fires:
/// there is nobody left to pass). Dead class observers that are not tracking observers cannot
/// announce their death; they are swept lazily, whenever the observers are listed and whenever
/// the table has doubled since the last sweep, so the cost stays amortized O(1).
///
/// Every access takes the ledger's own mutex; a change that involves two ledgers takes both, in
/// address order, so it is atomic and deadlock-free. No user code ever runs under these locks.
public final class SubscriptionLedger: @unchecked Sendable {  // all mutable state is guarded by `_mutex`
    /// The identity that conforming types use as their ``GeneralObservable/uuid`` by default.
    public let uuid: UUID

    private let _mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var _observers = _OrderedTable<_ObserverSlot>()
    private var _subscriptions = _OrderedTable<_SubscriptionSlot>()
    private var _observerSweepThreshold = 16
    /// How many entries are plain class observers, the only ones that can die without telling.
    private var _observersToSweep = 0
    // The two below are only touched under `_mutex`, which makes their run-time exclusivity
    // checks redundant.
    /// Whether a thread is running this observable's callbacks (see ``_Turn``).
    @exclusivity(unchecked) private var _isAnnouncing = false
    /// Callbacks of changes made while a thread was running this observable's callbacks, in the
    /// order of the changes.
    @exclusivity(unchecked) private var _announcements: [_Announcement] = []

    /// Creates an empty ledger.
    ///
    /// - Parameter uuid: The identity of the ledger's owner; a new random (version 4) one by default.
    public init(uuid: UUID = SubscriptionLedger._makeRandomUUID()) {
        self.uuid = uuid
        _mutex = .allocate(capacity: 1)
        _mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(_mutex, nil)
    }

    /// A random version 4 UUID, from the system's secure random generator.
    ///
    /// `UUID()` opens the system's random device on every call on some platforms; this costs two
    /// reads of the generator instead, which matters because every observer and observable has one.
    public static func _makeRandomUUID() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &words) { bytes in
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }

    deinit {
        // The owner is gone: counterparts forget it. Taken out first so that no two locks are held.
        let observers = _observers.removeAll()
        let subscriptions = _subscriptions.removeAll()
        for slot in observers {
            if let tracker = slot.trackerLedger {
                tracker._locked { _ = tracker._subscriptions.remove(slot.keyInOther) }
            }
        }
        for slot in subscriptions {
            if let ledger = slot.ledger {
                ledger._locked { _ = ledger._observers.remove(slot.keyInOther) }
            }
        }
        pthread_mutex_destroy(_mutex)
        _mutex.deallocate()
    }

    @inline(__always)
    private func _locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(_mutex)
        defer { pthread_mutex_unlock(_mutex) }
        return try body()
    }

    /// Runs `body` holding the locks of both ledgers, taken in address order.
    private static func _locked<Result>(
        _ first: SubscriptionLedger,
        _ second: SubscriptionLedger?,
        _ body: () throws -> Result
    ) rethrows -> Result {
        guard let second, second !== first else { return try first._locked(body) }
        let (low, high) =
            UInt(bitPattern: ObjectIdentifier(first)) < UInt(bitPattern: ObjectIdentifier(second))
            ? (first, second) : (second, first)
        pthread_mutex_lock(low._mutex)
        pthread_mutex_lock(high._mutex)
        defer {
            pthread_mutex_unlock(high._mutex)
            pthread_mutex_unlock(low._mutex)
        }
        return try body()
    }

    /// Records the subscription in both ledgers and, with `announces`, decides under the same lock
    /// who runs its callbacks (see ``_Turn``).
    private static func _link<Subscriber: GeneralSubscriber>(
        observable: any GeneralObservable,
        observableKey: UUID,
        ledger: SubscriptionLedger,
        observer: Subscriber,
        observerKey: UUID,
        trackerLedger: SubscriptionLedger?,
        announces: Bool
    ) -> _Turn {
        let slot: _ObserverSlot
        if Subscriber.self is AnyObject.Type {
            slot = _ObserverSlot(
                value: nil,
                object: observer as AnyObject,
                trackerLedger: trackerLedger,
                keyInOther: observableKey,
                needsSweeping: trackerLedger == nil
            )
        } else {
            slot = _ObserverSlot(
                value: observer,
                object: nil,
                trackerLedger: nil,
                keyInOther: observableKey,
                needsSweeping: false
            )
        }
        // The sweep hands back the live objects it looked at; they are released after unlocking.
        let (turn, looked) = _locked(ledger, trackerLedger) { () -> (_Turn, [AnyObject]) in
            guard ledger._observers.insert(observerKey, slot) else { return (.unchanged, []) }
            if slot.needsSweeping { ledger._observersToSweep += 1 }
            if let trackerLedger {
                trackerLedger._subscriptions.insert(
                    observableKey,
                    _SubscriptionSlot(observable: observable, ledger: ledger, keyInOther: observerKey)
                )
            }
            let turn =
                announces
                ? ledger._takeTurn { _Announcement(observable: observable, observer: observer, didSubscribe: true) }
                : .silent
            return (turn, ledger._sweepDeadObserversIfDue())
        }
        withExtendedLifetime(looked) {}
        return turn
    }

    /// Erases the subscription from both ledgers and, with `announces`, decides under the same
    /// lock who runs its callbacks (see ``_Turn``).
    private static func _unlink<Subscriber: GeneralSubscriber>(
        observable: any GeneralObservable,
        observableKey: UUID,
        ledger: SubscriptionLedger,
        observer: Subscriber,
        observerKey: UUID,
        trackerLedger: SubscriptionLedger?,
        announces: Bool
    ) -> _Turn {
        // The removed observer (a copy, for a value-type observer) is released after unlocking,
        // with the result.
        let result = _locked(ledger, trackerLedger) { () -> (turn: _Turn, removed: _ObserverSlot?) in
            guard let removed = ledger._observers.remove(observerKey) else { return (.unchanged, nil) }
            if removed.needsSweeping { ledger._observersToSweep -= 1 }
            _ = trackerLedger?._subscriptions.remove(observableKey)
            let turn =
                announces
                ? ledger._takeTurn { _Announcement(observable: observable, observer: observer, didSubscribe: false) }
                : .silent
            return (turn, removed)
        }
        return result.turn
    }

    /// Under the lock: runs the callbacks of a change now if no thread is running this
    /// observable's callbacks (the caller then runs them, and those queued meanwhile), or queues
    /// them behind the running ones.
    private func _takeTurn(_ announcement: () -> _Announcement) -> _Turn {
        if _isAnnouncing {
            _announcements.append(announcement())
            return .queued
        }
        _isAnnouncing = true
        return .announceNow
    }

    /// After unlocking: runs `callbacks` if this thread's turn came (then those queued meanwhile).
    ///
    /// - Returns: Whether the change was made.
    private func _finish(_ turn: _Turn, _ callbacks: () -> Void) -> Bool {
        switch turn {
        case .unchanged: return false
        case .queued, .silent: return true
        case .announceNow:
            callbacks()
            _announceQueued()
            return true
        }
    }

    /// Runs the callbacks queued while the caller ran its own, until none are left; then no
    /// thread is running this observable's callbacks. Call only after ``_takeTurn(_:)`` answered
    /// ``_Turn/announceNow`` and those callbacks ran.
    private func _announceQueued() {
        while true {
            // Taken out under the lock, run and released after unlocking.
            let batch = _locked { () -> [_Announcement] in
                var taken: [_Announcement] = []
                swap(&taken, &_announcements)
                if taken.isEmpty { _isAnnouncing = false }
                return taken
            }
            if batch.isEmpty { return }
            for announcement in batch { announcement.run() }
        }
    }

    /// Records that `observer` is subscribed to `observable` on both ledgers, then calls
    /// `observable`'s ``GeneralObservable/observer(_:didSubscribe:)`` and the observer's
    /// ``GeneralSubscriber/subscribedTo(_:)``, outside every lock.
    ///
    /// This is what ``GeneralObservable/subscribe(_:)`` does by default. Use it when you implement
    /// `subscribe(_:)` yourself and want the default bookkeeping and callbacks.
    ///
    /// The callbacks of one observable never nest and come in the order of the changes: if this
    /// thread is already running that observable's callbacks (the call is made from one of them),
    /// or another thread is, these are queued and run after them, on the thread running them,
    /// possibly after this call has returned. This call, in turn, runs the callbacks that other
    /// threads queue for that observable while it runs its own. See
    /// ``GeneralObservable/observer(_:didSubscribe:)`` for what a callback must therefore not
    /// wait for.
    ///
    /// - Parameters:
    ///   - observer: The observer; a ``GeneralTrackingSubscriber`` has its own ledger updated too.
    ///   - observable: The observable, whose ``GeneralObservable/subscriptionLedger`` is updated.
    /// - Returns: `true` if the subscription is new; `false` if it already existed, and then
    ///   nothing is called.
    /// - Complexity: O(1) on average, besides the callbacks.
    public static func subscribe<Subscriber: GeneralSubscriber>(
        _ observer: Subscriber,
        to observable: some GeneralObservable
    ) -> Bool {
        let ledger = observable.subscriptionLedger
        let turn = _link(
            observable: observable,
            observableKey: observable.uuid,
            ledger: ledger,
            observer: observer,
            observerKey: observer.uuid,
            trackerLedger: (observer as? any GeneralTrackingSubscriber)?.subscriptionLedger,
            announces: true
        )
        return ledger._finish(turn) {
            observable.observer(observer, didSubscribe: true)
            observer.subscribedTo(observable)
        }
    }

    /// Erases the record that `observer` is subscribed to `observable` on both ledgers, then calls
    /// `observable`'s ``GeneralObservable/observer(_:didSubscribe:)`` and the observer's
    /// ``GeneralSubscriber/unsubscribedFrom(_:)``, outside every lock.
    ///
    /// This is what ``GeneralObservable/unsubscribe(_:)`` does by default; the callbacks are
    /// ordered as for ``subscribe(_:to:)``.
    ///
    /// - Parameters:
    ///   - observer: The observer; a ``GeneralTrackingSubscriber`` has its own ledger updated too.
    ///   - observable: The observable, whose ``GeneralObservable/subscriptionLedger`` is updated.
    /// - Returns: `true` if there was a subscription to erase; `false` otherwise, and then nothing
    ///   is called.
    /// - Complexity: O(1) on average, besides the callbacks.
    public static func unsubscribe<Subscriber: GeneralSubscriber>(
        _ observer: Subscriber,
        from observable: some GeneralObservable
    ) -> Bool {
        let ledger = observable.subscriptionLedger
        let turn = _unlink(
            observable: observable,
            observableKey: observable.uuid,
            ledger: ledger,
            observer: observer,
            observerKey: observer.uuid,
            trackerLedger: (observer as? any GeneralTrackingSubscriber)?.subscriptionLedger,
            announces: true
        )
        return ledger._finish(turn) {
            observable.observer(observer, didSubscribe: false)
            observer.unsubscribedFrom(observable)
        }
    }

    /// Records that `observer` is subscribed to `observable`, on both ledgers, without calling back.
    ///
    /// This is the step that ``GeneralObservable/subscribe(_:)`` performs before its callbacks. Use
    /// it when you implement `subscribe(_:)` yourself and want the default bookkeeping; then call
    /// the callbacks yourself, outside any lock of yours. ``subscribe(_:to:)`` does both, and
    /// orders the callbacks of concurrent and nested changes.
    ///
    /// - Parameters:
    ///   - observer: The observer; a ``GeneralTrackingSubscriber`` has its own ledger updated too.
    ///   - observable: The observable, whose ``GeneralObservable/subscriptionLedger`` is updated.
    /// - Returns: `true` if the subscription is new, `false` if it already existed.
    /// - Complexity: O(1) on average.
    public static func recordSubscription<Subscriber: GeneralSubscriber>(
        of observer: Subscriber,
        to observable: some GeneralObservable
    ) -> Bool {
        _link(
            observable: observable,
            observableKey: observable.uuid,
            ledger: observable.subscriptionLedger,
            observer: observer,
            observerKey: observer.uuid,
            trackerLedger: (observer as? any GeneralTrackingSubscriber)?.subscriptionLedger,
            announces: false
        ) != .unchanged
    }

    /// Erases the record that `observer` is subscribed to `observable`, on both ledgers, without
    /// calling back.
    ///
    /// This is the step that ``GeneralObservable/unsubscribe(_:)`` performs before its callbacks.
    ///
    /// - Parameters:
    ///   - observer: The observer; a ``GeneralTrackingSubscriber`` has its own ledger updated too.
    ///   - observable: The observable, whose ``GeneralObservable/subscriptionLedger`` is updated.
    /// - Returns: `true` if there was a subscription to erase.
    /// - Complexity: O(1) on average.
    public static func eraseSubscription<Subscriber: GeneralSubscriber>(
        of observer: Subscriber,
        from observable: some GeneralObservable
    ) -> Bool {
        _unlink(
            observable: observable,
            observableKey: observable.uuid,
            ledger: observable.subscriptionLedger,
            observer: observer,
            observerKey: observer.uuid,
            trackerLedger: (observer as? any GeneralTrackingSubscriber)?.subscriptionLedger,
            announces: false
        ) != .unchanged
    }

    /// The observers recorded here that are still alive, in the order they subscribed.
    ///
    /// Use it when a conforming type keeps some relationships of its own beside the ledger and
    /// lists both.
    ///
    /// - Complexity: O(*n*) for *n* entries.
    public var liveObservers: [any GeneralSubscriber] { _liveObservers() }

    /// The observables recorded here (by a tracking observer's ledger) that are still alive, in the
    /// order they were subscribed to.
    ///
    /// - Complexity: O(*n*) for *n* entries.
    public var liveSubscriptions: [any GeneralObservable] { _liveSubscriptions() }

    /// Whether an observer with this identity is recorded here.
    ///
    /// - Parameter uuid: The observer's ``GeneralSubscriber/uuid``.
    /// - Complexity: O(1) on average.
    public func containsObserver(_ uuid: UUID) -> Bool { _hasObserver(uuid) }

    /// Whether an observable with this identity is recorded here (in a tracking observer's ledger).
    ///
    /// - Parameter uuid: The observable's ``GeneralObservable/uuid``.
    /// - Complexity: O(1) on average.
    public func containsSubscription(_ uuid: UUID) -> Bool { _hasSubscription(uuid) }

    func _hasObserver(_ key: UUID) -> Bool {
        _locked { _observers.contains(key) }
    }

    func _hasSubscription(_ key: UUID) -> Bool {
        _locked { _subscriptions.contains(key) }
    }

    func _liveObservers() -> [any GeneralSubscriber] {
        // The sweep hands back the live objects it looked at; they are released after unlocking.
        let (live, looked) = _locked { () -> ([any GeneralSubscriber], [AnyObject]) in
            let looked = _sweepDeadObservers()
            return (_observers.values.compactMap(\.subscriber), looked)
        }
        withExtendedLifetime(looked) {}
        return live
    }

    func _liveSubscriptions() -> [any GeneralObservable] {
        _locked { _subscriptions.values.compactMap(\.observable) }
    }

    /// The number of entries, dead or alive, in each table; for tests of the bookkeeping.
    var _entryCounts: (observers: Int, subscriptions: Int) {
        _locked { (_observers.count, _subscriptions.count) }
    }

    /// Sweeps if the table has doubled since the last sweep; see ``_sweepDeadObservers()``.
    private func _sweepDeadObserversIfDue() -> [AnyObject] {
        guard _observers.count >= _observerSweepThreshold else { return [] }
        let looked = _sweepDeadObservers()
        _observerSweepThreshold = Swift.max(16, _observers.count * 2)
        return looked
    }

    /// Removes the class observers that have been freed, and returns the live ones it looked at.
    ///
    /// Looking at a weak reference makes a strong one. If another thread drops the object's last
    /// reference meanwhile, releasing that strong reference here would free the object with this
    /// ledger's lock held, and a tracking observer's ledger takes this lock when it is freed: a
    /// deadlock. So the caller keeps the returned references until it has unlocked.
    private func _sweepDeadObservers() -> [AnyObject] {
        // Tracking observers are removed eagerly when they die; only plain class observers can be
        // dead entries, so there is nothing to sweep without them.
        guard _observersToSweep > 0 else { return [] }
        var looked: [AnyObject] = []
        _observers.removeAll { slot in
            guard slot.needsSweeping else { return false }
            guard let object = slot.object else {
                _observersToSweep -= 1
                return true
            }
            looked.append(object)
            return false
        }
        return looked
    }
}

/// What a change of one relationship leaves for after unlocking, decided under the observable's
/// ledger lock.
private enum _Turn {
    /// Nothing changed: the subscription existed already, or did not exist.
    case unchanged
    /// Changed, with no callbacks to run (`recordSubscription`, `eraseSubscription`).
    case silent
    /// Changed; another thread, or an outer call on this one, runs the callbacks after those
    /// before them.
    case queued
    /// Changed; this call runs the callbacks, then those queued meanwhile.
    case announceNow
}

/// The callbacks of one change, queued behind the ones being run: the observable's, then the
/// observer's, as RVS_GeneralObserver promises.
private struct _Announcement {
    let observable: any GeneralObservable
    let observer: any GeneralSubscriber
    let didSubscribe: Bool

    func run() {
        observable.observer(observer, didSubscribe: didSubscribe)
        if didSubscribe {
            observer.subscribedTo(observable)
        } else {
            observer.unsubscribedFrom(observable)
        }
    }
}

/// One observer, as its observable's ledger holds it.
private struct _ObserverSlot {
    var value: (any GeneralSubscriber)?
    weak var object: AnyObject?
    weak var trackerLedger: SubscriptionLedger?
    /// The observable's key in the tracker's table.
    var keyInOther: UUID
    /// A class observer without a ledger of its own: when it dies, nobody removes its entry.
    var needsSweeping: Bool

    var subscriber: (any GeneralSubscriber)? { value ?? (object as? any GeneralSubscriber) }
}

/// One observable, as a tracking observer's ledger holds it.
private struct _SubscriptionSlot {
    weak var observable: (any GeneralObservable)?
    weak var ledger: SubscriptionLedger?
    /// The observer's key in the observable's table.
    var keyInOther: UUID
}

/// Insertion-ordered storage with O(1) average insert, remove and lookup by key.
///
/// Entries live in one array; removal leaves a hole that a compaction closes once holes outnumber
/// entries, so every operation stays amortized O(1) and iteration keeps insertion order. Edits
/// move elements rather than copy them, because copying a `weak` reference is a comparatively slow
/// runtime call; only `values` copies them, for a caller that lists them. Most tables are tiny
/// (an observer is subscribed to one or two observables), so the
/// index from key to position is only built past `_indexThreshold` entries; below it, a lookup
/// compares a handful of keys, which is faster than hashing and saves an allocation.
private struct _OrderedTable<Element> {
    private var _entries: [(key: UUID?, element: Element?)] = []
    private var _positions: [UUID: Int]?
    private(set) var count = 0

    private static var _indexThreshold: Int { 8 }

    var values: [Element] { _entries.compactMap(\.element) }

    private func _position(of key: UUID) -> Int? {
        if let positions = _positions { return positions[key] }
        return _entries.firstIndex { $0.key == key }
    }

    func contains(_ key: UUID) -> Bool { _position(of: key) != nil }

    @discardableResult
    mutating func insert(_ key: UUID, _ element: Element) -> Bool {
        guard _position(of: key) == nil else { return false }
        _entries.append((key, element))
        count += 1
        if _positions != nil {
            _positions![key] = _entries.count - 1
        } else if _entries.count > Self._indexThreshold {
            _buildIndex()
        }
        return true
    }

    /// Removes the entry for `key` and hands its element back, so that the caller can release it
    /// after unlocking.
    mutating func remove(_ key: UUID) -> Element? {
        guard let position = _position(of: key) else { return nil }
        _positions?[key] = nil
        _entries[position].key = nil
        let element = _entries[position].element.take()
        count -= 1
        if _entries.count > 32, count * 2 < _entries.count { _compact() }
        return element
    }

    mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        var removedAny = false
        for position in _entries.indices {
            guard let key = _entries[position].key, let element = _entries[position].element,
                shouldRemove(element)
            else { continue }
            _positions?[key] = nil
            _entries[position] = (nil, nil)
            count -= 1
            removedAny = true
        }
        if removedAny { _compact() }
    }

    mutating func removeAll() -> [Element] {
        let elements = values
        _entries = []
        _positions = nil
        count = 0
        return elements
    }

    private mutating func _buildIndex() {
        var positions: [UUID: Int] = [:]
        positions.reserveCapacity(_entries.count)
        for (position, entry) in _entries.enumerated() {
            if let key = entry.key { positions[key] = position }
        }
        _positions = positions
    }

    private mutating func _compact() {
        var write = 0
        for read in _entries.indices {
            guard let key = _entries[read].key else { continue }
            if read != write {
                _entries.swapAt(write, read)
                _positions?[key] = write
            }
            write += 1
        }
        _entries.removeLast(_entries.count - write)
    }
}
