/// An observer on the main actor: its handlers run on the main actor and may use its state.
///
/// ```swift
/// @MainActor final class ProfileViewModel: MainActorObserver {
///     let receiver = Receiver()
///     private(set) var title = ""
///
///     init(model: Profile) {
///         observe(model.name) { update in
///             self.title = update.new      // main-actor state, no `await`
///         }
///     }
/// }
/// ```
///
/// Conforming makes the type main-actor isolated. Its `observe` methods take handlers that are not
/// `@Sendable`: written in main-actor code, they are main-actor isolated, and the library only ever
/// calls them on the main actor. A message sent from the main actor reaches them before `send`
/// returns; a message sent from elsewhere reaches them soon after, on the main actor. All the
/// handlers on the main actor share one queue, so they see messages in the order the messages were
/// sent, across messengers; see <doc:DeliveryAndConcurrency>.
///
/// A handler that captures `self` keeps the observer alive as long as the observable lives; use
/// ``observeWeakly(_:_:)``, whose handler receives the observer instead.
///
/// ## Relationship callbacks on the main actor
///
/// ``relationshipBegan(with:)`` and ``relationshipEnded(with:)`` run on the main actor, in order
/// with the handlers: the beginning before the first message of the relationship, the end after
/// the last one, whichever thread begins or ends it (another thread's `stopBeingObserved()`, say).
/// They may use main-actor state:
///
/// ```swift
/// @MainActor final class ConnectionBadge: MainActorObserver {
///     let receiver = Receiver()
///     private(set) var sources = 0
///
///     func relationshipBegan(with observable: ObjectIdentifier) { sources += 1 }
///     func relationshipEnded(with observable: ObjectIdentifier) { sources -= 1 }
/// }
/// ```
///
/// The ``GeneralSubscriber/subscribedTo(_:)`` and ``GeneralSubscriber/unsubscribedFrom(_:)``
/// callbacks of every observer still run too, at once, on the thread that begins or ends the
/// relationship: a main-actor class can implement them only as `nonisolated` functions, which
/// cannot touch its state.
@MainActor
public protocol MainActorObserver: Observer {
    /// Called on the main actor when this observer's relationship with an observable begins: its
    /// first observation of it (or a `subscribe(_:)` without messages).
    ///
    /// It runs before any handler call of the relationship, and after the calls of every
    /// relationship that began or ended before it. When this observer's `observe` begins the
    /// relationship and no call waits for the main actor, it runs before `observe` returns;
    /// otherwise it waits in the main actor's queue behind the calls posted before it. The default
    /// does nothing.
    ///
    /// - Parameter observable: The identity of the observable the relationship began with;
    ///   compare it with `ObjectIdentifier(someObservable)`. An identity may be reused by an
    ///   object made after that observable died.
    func relationshipBegan(with observable: ObjectIdentifier)

    /// Called on the main actor when this observer's relationship with an observable ends: its
    /// last observation of it stopped (``Observer/stopObserving(_:)-(ObservableSource)``, ``Observer/stopObserving()``,
    /// the observable's `stopBeingObserved()`, a chain that ends itself).
    ///
    /// By the time it runs, the relationship's observations have ended: no handler call of them
    /// runs after it. Like ``GeneralSubscriber/unsubscribedFrom(_:)``, it is not called when the
    /// observer dies, nor when the observable's messenger dies (the observations end with it).
    /// The default does nothing.
    ///
    /// - Parameter observable: The identity of the observable the relationship began with.
    func relationshipEnded(with observable: ObjectIdentifier)
}

extension MainActorObserver {
    /// `true`: the relationship callbacks run on the main actor.
    nonisolated public static var _hasIsolatedRelationshipCallbacks: Bool { true }

    /// Does nothing; implement it to learn on the main actor when a relationship begins.
    ///
    /// - Parameter observable: The identity of the observable the relationship began with.
    public func relationshipBegan(with observable: ObjectIdentifier) {}

    /// Does nothing; implement it to learn on the main actor when a relationship ends.
    ///
    /// - Parameter observable: The identity of the observable the relationship began with.
    public func relationshipEnded(with observable: ObjectIdentifier) {}
}

extension MainActorObserver {
    /// Starts observing `observable`; `receive` runs on the main actor.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - receive: The handler, main-actor isolated.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        _ receive: @escaping (Source.Message) -> Void
    ) {
        _observeSpecialized(observable, target: .main, .message(receive))
    }

    /// Starts observing `observable`; `receive` gets every message and its author, on the main
    /// actor.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - receive: The handler, main-actor isolated, called with the message and its author.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        _ receive: @escaping (Source.Message, AnyObject) -> Void
    ) {
        _observeSpecialized(observable, target: .main, .messageAndAuthor(receive))
    }
}

extension MainActorObserver {
    /// Starts observing `observable` with at most a given number of calls waiting for the main
    /// actor; `receive` runs on the main actor.
    ///
    /// A message sent on the main actor while no handler runs there is handled at once, as with
    /// ``observe(_:_:)-(Source,(Source.Message)->Void)``. Every other message waits in the main
    /// actor's queue, and `buffering` bounds how many of this observation's messages wait there:
    ///
    /// ```swift
    /// // A label needs only the latest value, however fast a background thread changes it.
    /// observe(download.progress, buffering: .newest(1)) { update in
    ///     self.progressText = "\(Int(update.new * 100)) %"
    /// }
    /// ```
    ///
    /// - ``MessageBuffering/unbounded``: every message waits; the same as `observe(_:_:)`.
    /// - ``MessageBuffering/newest(_:)``: a message that finds `limit` waiting pushes out the
    ///   oldest of them. The waiting calls keep their places in the queue and each delivers the
    ///   oldest message left when it runs, so the latest message runs in the place of the oldest
    ///   waiting one: possibly before messages of other observations on the main actor that were
    ///   sent earlier. `newest(1)` is what a view needs: the current state, and a queue that never
    ///   holds more than one call of this observation.
    /// - ``MessageBuffering/oldest(_:)``: a message that finds `limit` waiting is dropped. The
    ///   handler receives the messages it keeps in the order, and at the places, it would have
    ///   received them unbounded.
    ///
    /// A limit of 0 keeps nothing waiting: only messages sent on the main actor reach the handler.
    /// The handler receives its messages in the order they were sent, with the dropped ones left
    /// out.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - buffering: How many of this observation's messages may wait for the main actor, and
    ///     which ones it keeps when that many are waiting.
    ///   - dropCounter: Counts the messages dropped; `nil` to not count them.
    ///   - receive: The handler, main-actor isolated.
    /// - Complexity: O(1) amortized; O(1) per message.
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        buffering: MessageBuffering,
        counting dropCounter: MessageDropCounter? = nil,
        _ receive: @escaping (Source.Message) -> Void
    ) {
        _observeBuffered(observable, target: .main, buffering: buffering, dropCounter: dropCounter) { message, _ in
            receive(message)
        }
    }
}

extension MainActorObserver where Self: AnyObject {
    /// Starts observing `observable` with a main-actor handler that receives this observer, which
    /// the observation holds weakly.
    ///
    /// ```swift
    /// observeWeakly(model.name) { viewModel, update in
    ///     viewModel.title = update.new
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - receive: The handler, main-actor isolated, called with this observer and the message.
    /// - Complexity: O(1) amortized.
    public func observeWeakly<Source: ObservableSource>(
        _ observable: Source,
        _ receive: @escaping (Self, Source.Message) -> Void
    ) {
        observe(observable) { [weak self] message in
            guard let self else { return }
            receive(self, message)
        }
    }
}

extension MainActorObserver where Self: AnyObject {
    /// Starts observing `observable` with at most a given number of calls waiting for the main
    /// actor, with a main-actor handler that receives this observer, which the observation holds
    /// weakly.
    ///
    /// See ``observe(_:buffering:counting:_:)`` for what `buffering` keeps and in which order.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - buffering: How many of this observation's messages may wait for the main actor, and
    ///     which ones it keeps when that many are waiting.
    ///   - dropCounter: Counts the messages dropped; `nil` to not count them.
    ///   - receive: The handler, main-actor isolated, called with this observer and the message.
    /// - Complexity: O(1) amortized; O(1) per message.
    public func observeWeakly<Source: ObservableSource>(
        _ observable: Source,
        buffering: MessageBuffering,
        counting dropCounter: MessageDropCounter? = nil,
        _ receive: @escaping (Self, Source.Message) -> Void
    ) {
        observe(observable, buffering: buffering, counting: dropCounter) { [weak self] message in
            guard let self else { return }
            receive(self, message)
        }
    }
}

/// An actor that observes: its handlers run on the actor and may use its state.
///
/// ```swift
/// actor DownloadTracker: ActorObserver {
///     let receiver = Receiver()
///     private var finished = 0
///
///     func start(_ downloads: Messenger<URL>) {
///         observeWeakly(downloads) { tracker, _ in
///             tracker.finished += 1        // actor state, no `await`
///         }
///     }
/// }
/// ```
///
/// Its `observe` methods are isolated to the actor and take handlers that are not `@Sendable`:
/// written in the actor, they are isolated to it, and the library only ever calls them on it. A
/// message sent from the actor reaches them before `send` returns; a message sent from elsewhere
/// reaches them soon after, on the actor, in the order the messages were sent, across messengers.
///
/// Prefer ``observeWeakly(_:_:)-(Source,_)``: its handler receives the actor as an `isolated` parameter
/// instead of capturing `self`. A handler that captures `self` keeps the actor alive as long as
/// the observable lives, and an actor cannot capture itself weakly and still use its state in the
/// closure.
///
/// ## Relationship callbacks on the actor
///
/// ``relationshipBegan(with:)`` and ``relationshipEnded(with:)`` run on the actor, in order with
/// its handlers, whichever thread begins or ends the relationship, and may use the actor's state.
/// The ``GeneralSubscriber/subscribedTo(_:)`` and ``GeneralSubscriber/unsubscribedFrom(_:)``
/// callbacks still run at once on that thread, and an actor can implement them only as
/// `nonisolated` functions.
public protocol ActorObserver: Actor, Observer {
    /// Called on the actor when this observer's relationship with an observable begins: its first
    /// observation of it (or a `subscribe(_:)` without messages).
    ///
    /// It runs before any handler call of the relationship, and after the calls of every
    /// relationship that began or ended before it. When the actor's `observe` begins the
    /// relationship and no call waits for the actor, it runs before `observe` returns; otherwise
    /// it waits in the actor's queue behind the calls posted before it, and the task that runs
    /// that queue holds the actor until then. The default does nothing.
    ///
    /// - Parameter observable: The identity of the observable the relationship began with;
    ///   compare it with `ObjectIdentifier(someObservable)`. An identity may be reused by an
    ///   object made after that observable died.
    func relationshipBegan(with observable: ObjectIdentifier)

    /// Called on the actor when this observer's relationship with an observable ends: its last
    /// observation of it stopped.
    ///
    /// It waits in the actor's queue, and the task that runs that queue holds the actor until it
    /// has run. By the time it runs, the relationship's observations have ended: no handler call
    /// of them runs after it. Like ``GeneralSubscriber/unsubscribedFrom(_:)``, it is not called
    /// when the actor dies, nor when the observable's messenger dies (the observations end with it). The
    /// default does nothing.
    ///
    /// - Parameter observable: The identity of the observable the relationship began with.
    func relationshipEnded(with observable: ObjectIdentifier)
}

extension ActorObserver {
    /// `true`: the relationship callbacks run on the actor.
    public static var _hasIsolatedRelationshipCallbacks: Bool { true }

    /// Does nothing; implement it to learn on the actor when a relationship begins.
    ///
    /// - Parameter observable: The identity of the observable the relationship began with.
    public func relationshipBegan(with observable: ObjectIdentifier) {}

    /// Does nothing; implement it to learn on the actor when a relationship ends.
    ///
    /// - Parameter observable: The identity of the observable the relationship began with.
    public func relationshipEnded(with observable: ObjectIdentifier) {}
}

extension ActorObserver {
    /// Starts observing `observable`; `receive` runs on this actor.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - receive: The handler, isolated to this actor.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        _ receive: @escaping (Source.Message) -> Void
    ) {
        _observeSpecialized(observable, target: .of(self), .message(receive))
    }

    /// Starts observing `observable`; `receive` gets every message and its author, on this actor.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - receive: The handler, isolated to this actor, called with the message and its author.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        _ receive: @escaping (Source.Message, AnyObject) -> Void
    ) {
        _observeSpecialized(observable, target: .of(self), .messageAndAuthor(receive))
    }

    /// Starts observing `observable` with a handler that receives this actor, isolated, which the
    /// observation holds weakly.
    ///
    /// The handler captures nothing, so the observation never keeps the actor alive; and since
    /// the actor is an `isolated` parameter, the handler may use its state.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - receive: The handler, called on this actor with the actor and the message.
    /// - Complexity: O(1) amortized.
    public func observeWeakly<Source: ObservableSource>(
        _ observable: Source,
        _ receive: @escaping @Sendable (isolated Self, Source.Message) -> Void
    ) where Source.Message: Sendable {
        let handler: (Source.Message) -> Void = { [weak self] message in
            // The library calls this only on the actor's queue, on the actor (see
            // `_ActorQueue`), so the check always passes.
            self?.assumeIsolated { observer in receive(observer, message) }
        }
        _observe(observable, target: .of(self), .message(handler))
    }
}

extension ActorObserver {
    /// Starts observing `observable` with at most a given number of calls waiting for this actor;
    /// `receive` runs on this actor.
    ///
    /// A message sent on this actor while no handler runs there is handled at once, as with
    /// ``observe(_:_:)-(Source,(Source.Message)->Void)``. Every other message waits in the actor's
    /// queue, and `buffering` bounds how many of this observation's messages wait there:
    ///
    /// - ``MessageBuffering/unbounded``: every message waits; the same as `observe(_:_:)`.
    /// - ``MessageBuffering/newest(_:)``: a message that finds `limit` waiting pushes out the
    ///   oldest of them. The waiting calls keep their places in the queue and each delivers the
    ///   oldest message left when it runs, so the latest message runs in the place of the oldest
    ///   waiting one: possibly before messages of other observations on this actor that were sent
    ///   earlier.
    /// - ``MessageBuffering/oldest(_:)``: a message that finds `limit` waiting is dropped. The
    ///   handler receives the messages it keeps in the order, and at the places, it would have
    ///   received them unbounded.
    ///
    /// A limit of 0 keeps nothing waiting: only messages sent on this actor reach the handler. The
    /// handler receives its messages in the order they were sent, with the dropped ones left out.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - buffering: How many of this observation's messages may wait for this actor, and which
    ///     ones it keeps when that many are waiting.
    ///   - dropCounter: Counts the messages dropped; `nil` to not count them.
    ///   - receive: The handler, isolated to this actor.
    /// - Complexity: O(1) amortized; O(1) per message.
    public func observe<Source: ObservableSource>(
        _ observable: Source,
        buffering: MessageBuffering,
        counting dropCounter: MessageDropCounter? = nil,
        _ receive: @escaping (Source.Message) -> Void
    ) {
        _observeBuffered(observable, target: .of(self), buffering: buffering, dropCounter: dropCounter) {
            message, _ in receive(message)
        }
    }

    /// Starts observing `observable` with at most a given number of calls waiting for this actor,
    /// with a handler that receives this actor, isolated, which the observation holds weakly.
    ///
    /// See ``observe(_:buffering:counting:_:)`` for what `buffering` keeps and in which order.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - buffering: How many of this observation's messages may wait for this actor, and which
    ///     ones it keeps when that many are waiting.
    ///   - dropCounter: Counts the messages dropped; `nil` to not count them.
    ///   - receive: The handler, called on this actor with the actor and the message.
    /// - Complexity: O(1) amortized; O(1) per message.
    public func observeWeakly<Source: ObservableSource>(
        _ observable: Source,
        buffering: MessageBuffering,
        counting dropCounter: MessageDropCounter? = nil,
        _ receive: @escaping @Sendable (isolated Self, Source.Message) -> Void
    ) where Source.Message: Sendable {
        let handler: (Source.Message, AnyObject) -> Void = { [weak self] message, _ in
            // The library calls this only on the actor's queue, on the actor (see
            // `_ActorQueue`), so the check always passes.
            self?.assumeIsolated { observer in receive(observer, message) }
        }
        _observeBuffered(observable, target: .of(self), buffering: buffering, dropCounter: dropCounter, handler)
    }
}
