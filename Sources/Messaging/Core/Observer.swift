import GeneralObserver

/// An object that observes: it has a ``Receiver`` that keeps its observations alive.
///
/// ```swift
/// class Dog: Observer {
///     let receiver = Receiver()
/// }
///
/// dog.observe(sky) { color in
///     // marvel at the sky changing its color
/// }
/// ```
///
/// An observer is also a ``GeneralTrackingSubscriber``: ``GeneralTrackingSubscriber/subscriptions``,
/// ``GeneralSubscriber/amISubscribed(_:)``, ``GeneralTrackingSubscriber/unsubscribeAll()`` and the
/// ``GeneralSubscriber/subscribedTo(_:)`` / ``GeneralSubscriber/unsubscribedFrom(_:)`` callbacks
/// work on it: the first observation of an observable subscribes, the end of the last one
/// unsubscribes.
///
/// ## Memory
/// An observation lives as long as both its observer and the observable's messenger: when either
/// dies, the observation ends and the other side forgets it. A messenger keeps its handlers alive, so a
/// handler that captures its observer strongly keeps the observer alive as long as the observable
/// lives, and forever if the observer owns the observable. Capture `[weak self]` (or `unowned`) in
/// handlers; see <doc:MemoryManagement>.
public protocol Observer: GeneralTrackingSubscriber {
    /// The receiver that holds this observer's observations.
    ///
    /// Return the same receiver every time, typically a `let` property.
    var receiver: Receiver { get }
}

extension Observer {
    /// The receiver's ledger: an observer's relationships are kept by its receiver.
    public var subscriptionLedger: SubscriptionLedger { receiver._ledger }

    /// Starts observing `observable`: `receive` gets every message it sends from now on.
    ///
    /// Starting to observe sends nothing. Observing the same observable several times makes
    /// several independent observations.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - isolation: The caller's actor, filled in automatically. The handler runs on that actor:
    ///     synchronously when the message is sent from code isolated to it (for the main actor,
    ///     also when sent from the main thread), otherwise in order on the actor soon after. A
    ///     property setter such as ``Var/value`` cannot tell its caller's actor; use
    ///     ``Var/set(_:as:isolation:)`` to run same-actor handlers at once. A handler registered
    ///     outside any actor runs on the thread that delivers, so it must only touch state that is
    ///     safe to use from that thread.
    ///   - receive: The handler.
    /// - Complexity: O(1) amortized.
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        isolation: isolated (any Actor)? = #isolation,
        _ receive: @escaping (Source.Message) -> Void
    ) {
        _observe(observable, isolation: isolation, receive: receive, receiveWithAuthor: nil)
    }

    /// Starts observing `observable`; `receive` gets every message and its author.
    ///
    /// ```swift
    /// observe(sharedText) { update, author in
    ///     guard author !== self else { return }
    ///     // someone else edited the text
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - isolation: The caller's actor, filled in automatically; see ``observe(_:isolation:_:)-(_,_,(Source.Message)->Void)``.
    ///   - receive: The handler, called with the message and its author.
    /// - Complexity: O(1) amortized.
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        isolation: isolated (any Actor)? = #isolation,
        _ receive: @escaping (Source.Message, AnyObject) -> Void
    ) {
        _observe(observable, isolation: isolation, receive: nil, receiveWithAuthor: receive)
    }

    /// Whether this observer has an active observation of `observable`.
    ///
    /// - Parameter observable: The observable to ask about.
    /// - Returns: `true` while at least one observation of it is active.
    /// - Complexity: O(*k*) for its *k* observations of `observable`.
    public func isObserving(_ observable: some ObservableSource) -> Bool {
        receiver._isObserving(ObjectIdentifier(observable.messenger))
    }

    /// Ends every observation of `observable` by this observer.
    ///
    /// - Parameter observable: The observable to receive nothing more from.
    /// - Complexity: O(*k*) for the *k* observations that end.
    public func stopObserving(_ observable: some ObservableSource) {
        _stopObserving(observable)
    }

    /// Ends every observation this observer has.
    ///
    /// - Complexity: O(*n*) for *n* observations.
    public func stopObserving() {
        _stopObservingAll()
    }

    /// Ends every observation this observer has; the same as ``stopObserving()``.
    ///
    /// On an object that is also an ``ObservableSource``, this ends its own observations only;
    /// `unsubscribeAll()` called on the object itself ends both sides.
    ///
    /// - Returns: The observables it stopped observing, in the order it began. For a source that
    ///   died while its messenger lives on, that is the messenger.
    /// - Complexity: O(*n*) for *n* observations.
    @discardableResult
    public func unsubscribeAll() -> [any GeneralObservable] {
        _stopObservingAll()
    }

    /// Ends every observation and returns the observables it ended observations of.
    @discardableResult
    func _stopObservingAll() -> [any GeneralObservable] {
        // Not `unsubscribeAll()`: on an object that is also observable, that means both sides.
        var left = subscriptions.filter { $0.unsubscribe(self) != nil }
        // A source that died while its messenger lives on is no longer among the subscriptions,
        // but its observations are: end them through the messenger, which shares its ledger.
        for messenger in receiver._messengersOfDeadSources() where messenger.unsubscribe(self) != nil {
            left.append(messenger)
        }
        return left
    }

    /// Ends every observation of `observable`, erases the relationship and runs the callbacks.
    @discardableResult
    func _stopObserving(_ observable: some ObservableSource) -> Bool {
        let (endedAny, erased) = receiver._stopObserving(
            observable,
            key: ObjectIdentifier(observable.messenger),
            by: self
        )
        if erased {
            observable.observer(self, didSubscribe: false)
            unsubscribedFrom(observable)
        }
        return endedAny
    }

    func _observe<Source: ObservableSource>(
        _ observable: Source,
        isolation: (any Actor)?,
        receive: ((Source.Message) -> Void)?,
        receiveWithAuthor: ((Source.Message, AnyObject) -> Void)?
    ) {
        let observation = _Observation(
            receiver: receiver,
            messenger: observable.messenger,
            isolation: isolation,
            receive: receive,
            receiveWithAuthor: receiveWithAuthor
        )
        if receiver._add(observation, of: observable, by: self) {
            observable.observer(self, didSubscribe: true)
            subscribedTo(observable)
        }
    }
}
