import GeneralObserver

/// An object that observers can observe: it has a ``Messenger`` that sends its messages.
///
/// ```swift
/// class Sky: ObservableSource {
///     let messenger = Messenger<Color>()  // Message == Color
/// }
/// ```
///
/// This is SwiftObserver's `Observable`. It has another name here because `Observable` is also the
/// protocol (and macro) of Apple's Observation framework, which SwiftUI re-exports; see
/// <doc:MigratingToMessaging>.
///
/// An observable source is also a ``GeneralObservable``: ``GeneralObservable/amISubscribed(_:)``,
/// ``GeneralObservable/observers``, ``GeneralObservable/unsubscribeAll()`` and the
/// ``GeneralObservable/observer(_:didSubscribe:)`` callback work on it, with the observers that
/// observe it. Its identity and relationships are those of its messenger: don't implement
/// ``GeneralObservable/subscriptionLedger`` in a conforming type (as a plain `GeneralObservable`
/// does), or ``GeneralObservable/subscribe(_:)`` stops with a precondition failure that says so.
///
/// Its relationship callbacks are ordered per pair, not per observable as a plain
/// `GeneralObservable`'s are: those of an ``Observer`` in the order of that observer's changes
/// (its receiver decides them), those of other subscribers in the order of this observable's
/// changes (its ledger does). So its ``GeneralObservable/observer(_:didSubscribe:)`` may run for
/// two observers at once, on two threads, and must be thread-safe.
public protocol ObservableSource<Message>: GeneralObservable {
    /// The type of the messages it sends.
    associatedtype Message

    /// The messenger through which it sends messages and observers receive them.
    ///
    /// Return the same messenger every time, typically a `let` property.
    var messenger: Messenger<Message> { get }
}

extension ObservableSource {
    /// The messenger's ledger: an observable source shares the relationships of its messenger.
    ///
    /// The ledger is made on first use. It records only the relationships with subscribers that
    /// are not an ``Observer``: those with observers, by observing or by `subscribe(_:)`, are read
    /// from the observations themselves, and a record of one made here by hand
    /// (`SubscriptionLedger.recordSubscription`) is not read.
    public var subscriptionLedger: SubscriptionLedger { messenger.subscriptionLedger }

    /// The observers that observe this observable or were subscribed to it by `subscribe(_:)`, in
    /// the order the relationships began, then the subscribers that are not observers; each once,
    /// only those alive. Tokens are not observers and are not listed.
    ///
    /// The objects themselves go to the thread that reads this. Every ``Observer`` is `Sendable`;
    /// a subscriber that is not one (subscribed by ``subscribe(_:)``) should be too wherever
    /// several threads use this observable, which the compiler cannot check through the
    /// ``GeneralObservable`` requirement; see ``subscribe(_:)``.
    ///
    /// - Complexity: O(*n*) for *n* observations and subscriptions.
    public var observers: [any GeneralSubscriber] {
        let observers: [any GeneralSubscriber] = messenger._core.observers()
        guard let ledger = messenger._core.existingLedger else { return observers }
        // An observer recorded there by hand is not one of its relationships.
        return observers + ledger.liveObservers.filter { !($0 is any Observer) }
    }

    /// Whether `observer` observes this observable, or was subscribed to it by `subscribe(_:)`.
    ///
    /// - Parameter observer: The observer to ask about.
    /// - Returns: `true` while an observation by it is active or the subscription is recorded.
    /// - Complexity: O(*k*) for the *k* observations by `observer` of this observable.
    public func amISubscribed(_ observer: any GeneralSubscriber) -> Bool {
        if let messagingObserver = observer as? any Observer {
            return messagingObserver.receiver._isObserving(ObjectIdentifier(messenger))
        }
        guard let ledger = messenger._core.existingLedger else { return false }
        if let tracker = observer as? any GeneralTrackingSubscriber {
            return tracker.subscriptionLedger.containsSubscription(ledger.uuid)
        }
        return ledger.containsObserver(observer.uuid)
    }

    /// Ends every observation of this observable by an observer, and every subscription made by
    /// `subscribe(_:)`; tokens go on (``stopBeingObserved()`` ends them too).
    ///
    /// - Returns: The observers unsubscribed.
    /// - Complexity: O(*n*) for *n* observations and subscriptions.
    @discardableResult
    public func unsubscribeAll() -> [any GeneralSubscriber] {
        observers.compactMap { unsubscribe($0) }
    }

    /// Sends a message to every observer, with this observable as its author.
    ///
    /// Anybody may call it, observers included. See ``Messenger`` for the delivery rules.
    ///
    /// Sending from the observable's own `deinit` (SwiftObserver's `deinit { send(.willDie) }`)
    /// always works. A message delivered at once has the dying observable as its author, so a
    /// handler must not keep that author. A message that has to wait while its author runs its
    /// `deinit` (queued behind a delivery on this or another thread, posted to an actor observer,
    /// held by a debounce or a combination) cannot keep the author, which would outlive its
    /// `deinit`: the messenger stands in as its author (inside a transform, an anonymous object of
    /// the library's). If the messenger itself is being deinitialized, such a message is dropped:
    /// the messenger's observations end with it.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - isolation: The caller's actor, filled in automatically. Handlers isolated to the same
    ///     actor run synchronously, before `send` returns, unless an earlier message for them is
    ///     still waiting to run on that actor or another thread is delivering on this messenger
    ///     (then the message is queued, in order).
    /// - Complexity: O(*n*) for *n* observations.
    @inlinable
    public func send(_ message: Message, isolation: isolated (any Actor)? = #isolation) {
        let messenger = messenger
        messenger._core.send(message, author: self, checksChange: false, isolation: isolation, standIn: messenger)
    }

    /// Sends a message to every observer, naming its author.
    ///
    /// Observers can receive the author and, for instance, ignore their own changes. An author
    /// that is being deinitialized follows the rule of ``send(_:isolation:)``: a message that has
    /// to wait keeps the messenger as its author instead.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - author: The object to present as the message's author.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*n*) for *n* observations.
    @inlinable
    public func send(_ message: Message, from author: AnyObject, isolation: isolated (any Actor)? = #isolation) {
        let messenger = messenger
        messenger._core.send(message, author: author, checksChange: false, isolation: isolation, standIn: messenger)
    }

    /// Ends every observation of this observable by `observer`.
    ///
    /// - Parameter observer: The observer that should receive nothing more from it.
    /// - Complexity: O(*k*) for the *k* observations that end.
    public func stopBeingObserved(by observer: some Observer) {
        observer.stopObserving(self)
    }

    /// Ends every observation of this observable, by every observer and every token.
    ///
    /// - Complexity: O(*n*) for *n* observations.
    public func stopBeingObserved() {
        _stopBeingObservedByAll()
    }

    /// Ends every observation of this observable and returns the observers whose observations ended.
    @discardableResult
    func _stopBeingObservedByAll() -> [any GeneralSubscriber] {
        // Not `unsubscribeAll()`: on an object that also observes, that means both sides.
        let ended = observers.compactMap { unsubscribe($0) }
        for observation in messenger._core.tokenObservations() where observation._end() {
            observation._observableDidEnd()
            // A standalone transform's observation of this observable: the transform ends its own
            // observations in turn, as when its origin dies, rather than going silent.
            observation._deathListener?._messengerDied(of: observation)
        }
        return ended
    }

    /// Subscribes an observer without messages: a relationship in the GeneralObserver graph only.
    ///
    /// An ``Observer`` that already observes this observable is subscribed already: the call
    /// returns `nil` and nothing changes. Otherwise the relationship is recorded, then, outside any
    /// lock, this observable's ``GeneralObservable/observer(_:didSubscribe:)`` and the observer's
    /// ``GeneralSubscriber/subscribedTo(_:)`` are called.
    ///
    /// A subscriber that is not an ``Observer`` (a plain ``GeneralSubscriber``, as in
    /// RVS_GeneralObserver) is recorded in the messenger's ledger. ``observers`` hands it to the
    /// thread that reads the list, and its callbacks run on the thread that changes the
    /// relationship. The requirement this implements takes any subscriber, so the compiler does not
    /// ask it to be `Sendable`: where several threads use this observable, subscribe only
    /// `Sendable` subscribers (a struct of `Sendable` values, an immutable class, or a class that
    /// guards its state with a lock), or make the subscriber an ``Observer``, which is `Sendable`
    /// by requirement. A subscriber that is not `Sendable` is safe while every change and every
    /// listing that reaches it happens on its own thread or actor, as in single-threaded code.
    ///
    /// For an ``Observer``, the record is an observation that receives nothing, kept with its
    /// observations, so observing, subscribing and stopping one pair on several threads at once
    /// begin or end one relationship, announced once. It is not an observation to the questions
    /// about observing: ``Observer/isObserving(_:)`` and ``Messenger/observationCount`` do not
    /// count it, and it does not start a standalone transform observing its origin. Nor is it in
    /// any ``SubscriptionLedger``: the ledgers record the subscribers that are not observers.
    ///
    /// The callbacks of one observer's relationships never nest and come in the order of the
    /// changes: if that observer's callbacks are running (this call is made from one of them, or
    /// on another thread), its own run after them, possibly after this call returns. The same
    /// holds for the callbacks of this observable's subscribers that are not observers.
    ///
    /// - Parameter observer: The observer to subscribe.
    /// - Returns: `observer`; or `nil` if it was subscribed already, or if the observable is gone
    ///   (a ``Weak`` whose origin died, whose messenger is a new one at every read).
    /// - Complexity: O(1) on average.
    /// - Precondition: The type does not implement `subscriptionLedger` itself: `observers` and
    ///   `amISubscribed(_:)` read the messenger's ledger, and would miss what a ledger of its own
    ///   records.
    @discardableResult
    public func subscribe<Subscriber: GeneralSubscriber>(_ observer: Subscriber) -> Subscriber? {
        let ownMessenger = messenger
        if let messagingObserver = observer as? any Observer {
            // Read twice: a `Weak` whose origin died makes a new messenger at every read, and
            // there is nothing to subscribe to.
            guard messenger === ownMessenger else { return nil }
            // Decided in the observer's receiver, where observing decides too.
            return messagingObserver._subscribeWithoutMessages(to: self, messenger: ownMessenger) ? observer : nil
        }
        if subscriptionLedger !== ownMessenger.subscriptionLedger {
            // Either the messenger changes from one read to the next (a dead `Weak` again, at any
            // point of this call), or the type keeps a ledger of its own.
            guard messenger === ownMessenger else { return nil }
            preconditionFailure(
                "\(Self.self) implements subscriptionLedger: an ObservableSource's relationships are its messenger's, so remove that property"
            )
        }
        return SubscriptionLedger.subscribe(observer, to: self) ? observer : nil
    }

    /// Unsubscribes an observer: for an ``Observer``, ends all its observations of this observable,
    /// and its subscription by ``subscribe(_:)``.
    ///
    /// After the change, outside any lock, the observable's
    /// ``GeneralObservable/observer(_:didSubscribe:)`` and then the observer's
    /// ``GeneralSubscriber/unsubscribedFrom(_:)`` are called once each. For an ``Observer``, "the
    /// observable" is the object the relationship began with, while it lives: this one, or
    /// another face of it (its messenger, a ``Weak`` of it) if the observer observed that.
    ///
    /// - Parameter observer: The observer to unsubscribe.
    /// - Returns: `observer`, or `nil` if it was neither subscribed nor observing.
    /// - Complexity: O(*k*) for the *k* observations that end.
    @discardableResult
    public func unsubscribe<Subscriber: GeneralSubscriber>(_ observer: Subscriber) -> Subscriber? {
        if let messagingObserver = observer as? any Observer {
            return messagingObserver._stopObserving(self) ? observer : nil
        }
        guard messenger._core.existingLedger != nil, SubscriptionLedger.unsubscribe(observer, from: self)
        else { return nil }
        return observer
    }
}

extension ObservableSource where Self: Observer {
    /// The messenger's ledger, for both roles: an object that observes and is observable keeps
    /// one set of relationships and one identity.
    public var subscriptionLedger: SubscriptionLedger { messenger.subscriptionLedger }

    /// Whether this object observes `observable`, or was subscribed to it by `subscribe(_:)`.
    ///
    /// - Parameter observable: The observable to ask about.
    /// - Returns: `true` while an observation is active or the subscription is recorded.
    /// - Complexity: O(*k*) for *k* observations of `observable`.
    public func amISubscribed(_ observable: any GeneralObservable) -> Bool {
        _amISubscribed(observable)
    }

    /// Ends every observation of this object by others, then every observation it has of others.
    ///
    /// Called on the object itself, `unsubscribeAll()` means this method. Through
    /// ``GeneralObservable`` it ends the observations by others only, and through ``Observer`` or
    /// ``GeneralTrackingSubscriber`` its own observations only.
    ///
    /// - Returns: The observers whose observations ended and the observables it stopped observing,
    ///   each in the order the observations began.
    /// - Complexity: O(*n* + *m*) for *n* observers and *m* observations.
    @discardableResult
    public func unsubscribeAll() -> (observers: [any GeneralSubscriber], subscriptions: [any GeneralObservable]) {
        (_stopBeingObservedByAll(), _stopObservingAll())
    }
}
