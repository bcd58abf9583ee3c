import GeneralObserver

/// An object that observes: it has a ``Receiver`` that keeps its observations alive.
///
/// ```swift
/// final class Dog: Observer {
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
/// ## Where handlers run
/// An `Observer`'s handlers are `@Sendable` and run on the thread that delivers the message. For
/// handlers that belong to an actor, conform to ``MainActorObserver`` (a view model, say) or
/// ``ActorObserver`` (an actor) instead: their handlers run on that actor and may use its state.
///
/// ## Why an observer is `Sendable`
/// An observer is reached from other threads by more than its handlers: its relationship
/// callbacks (``GeneralSubscriber/subscribedTo(_:)``, ``GeneralSubscriber/unsubscribedFrom(_:)``)
/// run on whichever thread begins or ends the relationship (another thread's
/// `stopBeingObserved()`, say), and an observable's ``GeneralObservable/observers`` hands the
/// observer to whichever thread asks. So `Observer` requires `Sendable`, and the compiler rejects
/// an observer with unguarded mutable state:
///
/// ```swift
/// final class Dog: Observer {
///     let receiver = Receiver()
///     var events = 0  // error: stored property 'events' of 'Sendable'-conforming class 'Dog' is mutable
/// }
/// ```
///
/// An observer with state is a ``MainActorObserver`` (a main-actor class, `Sendable` by its
/// isolation) or an ``ActorObserver``, or keeps its state behind a lock (then `@unchecked
/// Sendable`, with a comment naming the lock). An immutable `final class` is `Sendable` as it is.
/// An observer on an actor learns of its relationships on that actor, in order with its handlers,
/// through ``MainActorObserver/relationshipBegan(with:)`` and
/// ``MainActorObserver/relationshipEnded(with:)`` (or the ``ActorObserver`` ones).
///
/// ## Memory
/// An observation lives as long as both its observer and the observable's messenger: when either
/// dies, the observation ends and the other side forgets it. A messenger keeps its handlers alive,
/// so a handler that captures its observer strongly keeps the observer alive as long as the
/// observable lives, and forever if the observer owns the observable. Use
/// ``observeWeakly(_:_:)``, whose handler receives the observer instead of capturing it, or
/// capture `[weak self]`; see <doc:MemoryManagement>.
public protocol Observer: GeneralTrackingSubscriber, Sendable {
    /// The receiver that holds this observer's observations.
    ///
    /// Return the same receiver every time, typically a `let` property.
    var receiver: Receiver { get }

    /// Whether the type's relationship callbacks run on an actor: `true` for a
    /// ``MainActorObserver`` or an ``ActorObserver``. Not meant to be implemented: the library's
    /// defaults give the answer, which lets a relationship change skip the type casts for every
    /// other observer.
    static var _hasIsolatedRelationshipCallbacks: Bool { get }
}

extension Observer {
    /// `false`: a plain observer's relationship callbacks run on the thread that begins or ends
    /// the relationship.
    public static var _hasIsolatedRelationshipCallbacks: Bool { false }
}

extension Observer {
    /// The receiver's ledger, made on first use.
    ///
    /// It records only the relationships with observables that are not an ``ObservableSource``
    /// (plain ``GeneralObservable``s): those with observable sources, by observing or by
    /// `subscribe(_:)`, are read from the observations themselves (see ``subscriptions``), and a
    /// record of one made here by hand (`SubscriptionLedger.recordSubscription`) is not read.
    public var subscriptionLedger: SubscriptionLedger { receiver._ledgerMakingIfNeeded }

    /// The observables this observer observes or was subscribed to by `subscribe(_:)`, in the
    /// order the relationships began, then the plain ``GeneralObservable``s it is subscribed to;
    /// each once, only those alive.
    ///
    /// An observable whose messenger outlives it is listed by its messenger.
    ///
    /// - Complexity: O(*n*) for *n* observations and subscriptions.
    public var subscriptions: [any GeneralObservable] {
        let sources = receiver._observedSources()
        guard let ledger = _ledgerIfMade else { return sources }
        // An observable source recorded there by hand is not one of its relationships.
        return sources + ledger.liveSubscriptions.filter { !($0 is any ObservableSource) }
    }

    /// Whether this observer observes `observable`, or was subscribed to it by `subscribe(_:)`.
    ///
    /// An observable and its messenger are one observable here, as they share one identity.
    ///
    /// - Parameter observable: The observable to ask about.
    /// - Returns: `true` while an observation is active or the subscription is recorded.
    /// - Complexity: O(*k*) for *k* observations of `observable`.
    public func amISubscribed(_ observable: any GeneralObservable) -> Bool {
        _amISubscribed(observable)
    }

    func _amISubscribed(_ observable: any GeneralObservable) -> Bool {
        if let source = observable as? any ObservableSource {
            return receiver._isObserving(_messengerKey(of: source))
        }
        guard let ledger = _ledgerIfMade else { return false }
        return ledger.containsSubscription(observable.uuid)
    }

    /// This observer's ledger if it was made: the receiver's, or for an object that is also an
    /// ``ObservableSource``, its messenger's (see its `subscriptionLedger`). Without one, it was
    /// never subscribed to a plain ``GeneralObservable``.
    var _ledgerIfMade: SubscriptionLedger? {
        if let source = self as? any ObservableSource { return _madeLedger(of: source) }
        return receiver._existingLedger
    }

    /// Starts observing `observable`: `receive` gets every message it sends from now on.
    ///
    /// Starting to observe sends nothing. Observing the same observable several times makes
    /// several independent observations.
    ///
    /// The handler runs on the thread that delivers the message, so it must be `@Sendable`: the
    /// compiler then rejects a handler that touches state which is not safe to share between
    /// threads. An observer whose handlers should run on the main actor, or on the observer's
    /// own actor, conforms to ``MainActorObserver`` or ``ActorObserver`` instead; see
    /// <doc:DeliveryAndConcurrency>.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - receive: The handler.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        _ receive: @escaping @Sendable (Source.Message) -> Void
    ) {
        _observeSpecialized(observable, target: nil, .message(receive))
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
    ///   - receive: The handler, called with the message and its author on the thread that
    ///     delivers the message.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        _ receive: @escaping @Sendable (Source.Message, AnyObject) -> Void
    ) {
        _observeSpecialized(observable, target: nil, .messageAndAuthor(receive))
    }

    /// Whether this observer has an active observation of `observable`.
    ///
    /// A subscription by ``GeneralObservable/subscribe(_:)`` without messages is not an
    /// observation: ``GeneralSubscriber/amISubscribed(_:)`` counts it, this does not.
    ///
    /// - Parameter observable: The observable to ask about.
    /// - Returns: `true` while at least one observation of it is active.
    /// - Complexity: O(*k*) for its *k* observations of `observable`.
    public func isObserving(_ observable: some ObservableSource) -> Bool {
        receiver._isObserving(ObjectIdentifier(observable.messenger), countingSubscriptions: false)
    }

    /// Ends every observation of `observable` by this observer, and its subscription to it by
    /// ``GeneralObservable/subscribe(_:)``: the relationship ends, with its callbacks.
    ///
    /// - Parameter observable: The observable to receive nothing more from.
    /// - Complexity: O(*k*) for the *k* observations that end.
    @inlinable
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
    /// - Returns: The observables it stopped observing. For a source that died while its messenger
    ///   lives on, that is the messenger.
    /// - Complexity: O(*n*) for *n* observations.
    @discardableResult
    public func unsubscribeAll() -> [any GeneralObservable] {
        _stopObservingAll()
    }

    /// Ends every observation and returns the observables it ended observations of.
    @discardableResult
    func _stopObservingAll() -> [any GeneralObservable] {
        // Not `unsubscribeAll()`: on an object that is also observable, that means both sides.
        var ended = receiver._stopObservingAll(by: self)
        guard let ledger = _ledgerIfMade else { return ended }
        // Subscriptions to plain observables end too.
        for source in ledger.liveSubscriptions where !(source is any ObservableSource) {
            if source.unsubscribe(self) != nil { ended.append(source) }
        }
        return ended
    }

    /// Ends every observation of `observable` (a `subscribe(_:)` included), and the relationship,
    /// with its callbacks.
    ///
    /// - Returns: Whether there was anything to end.
    @usableFromInline @discardableResult
    func _stopObserving(_ observable: some ObservableSource) -> Bool {
        receiver._stopObserving(observable, key: _messengerKey(of: observable), by: self)
    }

    /// Starts an observation with `handler`, to run on `target` (or on the delivering thread), and
    /// the relationship if it is the first of this pair.
    ///
    /// Inlinable, so that the observation is made, and inserted into the messenger's table, by code
    /// specialized for the message type: unspecialized, each of those steps looks up type metadata
    /// at run time (hundreds of instructions each).
    @inlinable
    func _observeSpecialized<Source: ObservableSource>(
        _ observable: Source,
        target: _ActorQueue?,
        _ handler: _Handler<Source.Message>
    ) {
        // The getter is read once: the observation, the receiver's table and the core's table
        // must all name the same messenger.
        let messenger = observable.messenger
        let observation = _Observation._make(
            observer: self, core: messenger._core, target: target, handler: handler, isToken: false)
        _record(observation, of: observable, messenger: messenger) { messenger._core.insert(observation) }
    }

    /// Starts an observation with `handler` and, if given, the replay of a cache's latest message
    /// first; see ``_observeSpecialized(_:target:_:)``.
    func _observe<Source: ObservableSource>(
        _ observable: Source,
        target: _ActorQueue?,
        _ handler: _Handler<Source.Message>,
        replay: _Replay<Source.Message>? = nil
    ) {
        guard let replay else { return _observeSpecialized(observable, target: target, handler) }
        let messenger = observable.messenger
        let observation = _Observation.make(observer: self, messenger: messenger, target: target, handler: handler)
        _record(observation, of: observable, messenger: messenger) {
            messenger._core.insertReplaying(
                observation, latest: replay.latest, reread: replay.reread, author: replay.author,
                isolation: replay.isolation)
        }
    }

    /// Starts an observation whose handler runs on `target` with at most the calls that
    /// `buffering` allows waiting there (``_BufferedObservation``), counting drops in
    /// `dropCounter`; an unbounded one is an ordinary observation.
    func _observeBuffered<Source: ObservableSource>(
        _ observable: Source,
        target: _ActorQueue,
        buffering: MessageBuffering,
        dropCounter: MessageDropCounter?,
        _ receive: @escaping (Source.Message, AnyObject) -> Void
    ) {
        guard buffering != .unbounded else {
            return _observeSpecialized(observable, target: target, .messageAndAuthor(receive))
        }
        let messenger = observable.messenger
        let observation = _BufferedObservation(
            observer: self, target: target, core: messenger._core, buffering: buffering, dropCounter: dropCounter,
            receive)
        _record(observation, of: observable, messenger: messenger) { messenger._core.insert(observation) }
    }

    /// Records `observation` in the receiver, with the relationship if it is the first of this
    /// pair (a pair subscribed by `subscribe(_:)` is subscribed already), and inserts it with
    /// `insert`.
    @usableFromInline
    func _record<Source: ObservableSource>(
        _ observation: _Observation<Source.Message>,
        of observable: Source,
        messenger: Messenger<Source.Message>,
        insert: () -> Void
    ) {
        receiver._add(observation, of: observable, messenger: messenger, by: self, insert: insert)
    }

    /// Subscribes this observer to `source` without messages, unless it observes it or was
    /// subscribed already: a ``_SilentObservation``, decided in the receiver like an observation.
    ///
    /// - Returns: Whether the relationship began.
    func _subscribeWithoutMessages<Source: ObservableSource>(
        to source: Source,
        messenger: Messenger<Source.Message>
    ) -> Bool {
        let observation = _SilentObservation(observer: self, core: messenger._core)
        return receiver._add(observation, of: source, messenger: messenger, by: self, onlyIfNew: true) {
            messenger._core.insert(observation)
        }
    }
}

/// The ledger of `source`'s messenger if it was made.
func _madeLedger(of source: some ObservableSource) -> SubscriptionLedger? {
    source.messenger._core.existingLedger
}

/// The identity of `source`'s messenger, by which observations are grouped: an observable and
/// its messenger are one observable.
func _messengerKey(of source: some ObservableSource) -> ObjectIdentifier {
    ObjectIdentifier(source.messenger)
}

extension Observer where Self: AnyObject & Sendable {
    /// Starts observing `observable` with a handler that receives this observer, which the
    /// observation holds weakly.
    ///
    /// ```swift
    /// final class Thermometer: Observer, Sendable { ... }
    ///
    /// thermometer.observeWeakly(sensor) { thermometer, reading in
    ///     thermometer.record(reading)
    /// }
    /// ```
    ///
    /// The handler captures nothing, so it cannot keep the observer alive; once the observer is
    /// gone the handler is not called again (its observations end with it).
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - receive: The handler, called with this observer and the message on the thread that
    ///     delivers the message.
    /// - Complexity: O(1) amortized.
    public func observeWeakly<Source: ObservableSource>(
        _ observable: Source,
        _ receive: @escaping @Sendable (Self, Source.Message) -> Void
    ) {
        observe(observable) { [weak self] message in
            guard let self else { return }
            receive(self, message)
        }
    }
}
