/// An observer that is nothing but an observer: for observations that belong to no object.
///
/// ``shared`` serves the global ``observe(_:_:)-(_,(Source.Message)->Void)`` function and
/// ``ObservableSource/observed(_:)-((Message)->Void)``; its observations last until
/// they are stopped explicitly, or until their observable dies.
///
/// An instance of your own is a token: its observations last as long as you keep it, like a
/// cancellable or a subscription token in other frameworks. Release it, or call
/// ``Observer/stopObserving()``, to end them.
///
/// ```swift
/// let token = FreeObserver()
/// token.observe(messenger) { print($0) }
/// // ... later: release `token`, or
/// token.stopObserving()
/// ```
///
/// Its `observe` methods take `@Sendable` handlers, which run on the thread that delivers. In
/// main-actor or actor code, ``observeIsolated(_:isolation:_:)-(_,_,(Source.Message)->Void)``
/// takes a handler isolated to that actor, which runs there.
public final class FreeObserver: Observer, Sendable {
    /// The observer behind the global `observe` functions and `observed` methods.
    public static let shared = FreeObserver()

    /// The receiver that holds this observer's observations.
    public let receiver = Receiver()

    /// Creates a free observer with no observations.
    public init() {}
}

/// Starts a free observation of `observable` by ``FreeObserver/shared``.
///
/// It lasts until `FreeObserver.shared.stopObserving(observable)`, or until the observable dies.
///
/// - Parameters:
///   - observable: The observable to observe.
///   - receive: The handler.
/// - Complexity: O(1) amortized.
public func observe<Source: ObservableSource>(
    _ observable: Source,
    _ receive: @escaping @Sendable (Source.Message) -> Void
) {
    FreeObserver.shared.observe(observable, receive)
}

/// Starts a free observation of `observable` by ``FreeObserver/shared``, receiving authors too.
///
/// - Parameters:
///   - observable: The observable to observe.
///   - receive: The handler, called with the message and its author.
/// - Complexity: O(1) amortized.
public func observe<Source: ObservableSource>(
    _ observable: Source,
    _ receive: @escaping @Sendable (Source.Message, AnyObject) -> Void
) {
    FreeObserver.shared.observe(observable, receive)
}

/// Observes `observable` for exactly one message, with a new ``FreeObserver``.
///
/// The free observer keeps itself alive until the message arrives (or the observable dies), then
/// stops observing and dies. Ignore the result, or keep it to stop waiting early.
///
/// - Parameters:
///   - observable: The observable to observe.
///   - receive: The handler, called at most once.
/// - Returns: The free observer that observes until the first message.
/// - Complexity: O(1) amortized.
@discardableResult
public func observeOnce<Source: ObservableSource>(
    _ observable: Source,
    _ receive: @escaping @Sendable (Source.Message) -> Void
) -> FreeObserver {
    let observer = FreeObserver()
    // The handler holds the observer: the messenger keeps both alive until the first message.
    observer.observe(observable) { message in
        // Ending the observation first means no later message, even one already queued, gets here.
        observer.stopObserving()
        receive(message)
    }
    return observer
}

extension ObservableSource {
    /// Starts a free observation of this observable by ``FreeObserver/shared``.
    ///
    /// - Parameters:
    ///   - receive: The handler.
    /// - Complexity: O(1) amortized.
    public func observed(
        _ receive: @escaping @Sendable (Message) -> Void
    ) {
        FreeObserver.shared.observe(self, receive)
    }

    /// Starts a free observation of this observable by ``FreeObserver/shared``, receiving authors.
    ///
    /// - Parameters:
    ///   - receive: The handler, called with the message and its author.
    /// - Complexity: O(1) amortized.
    public func observed(
        _ receive: @escaping @Sendable (Message, AnyObject) -> Void
    ) {
        FreeObserver.shared.observe(self, receive)
    }

    /// Observes this observable for exactly one message; see ``observeOnce(_:_:)``.
    ///
    /// - Parameters:
    ///   - receive: The handler, called at most once.
    /// - Returns: The free observer that observes until the first message.
    /// - Complexity: O(1) amortized.
    @discardableResult
    public func observedOnce(
        _ receive: @escaping @Sendable (Message) -> Void
    ) -> FreeObserver {
        observeOnce(self, receive)
    }
}

// MARK: - Handlers isolated to the caller's actor

extension FreeObserver {
    /// Starts observing `observable` with a handler isolated to the caller's actor: the main actor
    /// in main-actor code, the actor in an actor's method.
    ///
    /// ```swift
    /// @MainActor final class InboxViewModel {
    ///     private(set) var unread = 0
    ///     private let observations = FreeObserver()
    ///
    ///     init(inbox: Inbox) {
    ///         observations.observeIsolated(inbox.arrivals) { [weak self] _ in
    ///             self?.unread += 1             // main-actor state, no `await`
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The handler runs as with ``ObservableSource/subscribeIsolated(isolation:_:)``: on the actor,
    /// before `send` returns when the message is sent from the actor, soon after and in order
    /// otherwise. From nonisolated code the call does not compile; use
    /// ``Observer/observe(_:_:)-(Source,(Source.Message)->Void)``, whose handler is `@Sendable`.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - isolation: The actor the handler runs on; leave the default, the caller's actor.
    ///   - receive: The handler, isolated to `isolation`.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func observeIsolated<Source: ObservableSource>(
        _ observable: Source,
        isolation: isolated any Actor = #isolation,
        _ receive: @escaping (Source.Message) -> Void
    ) {
        _observeSpecialized(observable, target: .of(isolation), .message(receive))
    }

    /// Starts observing `observable` with a handler isolated to the caller's actor, which gets
    /// every message and its author.
    ///
    /// See ``observeIsolated(_:isolation:_:)-(_,_,(Source.Message)->Void)``.
    ///
    /// - Parameters:
    ///   - observable: The observable to observe.
    ///   - isolation: The actor the handler runs on; leave the default, the caller's actor.
    ///   - receive: The handler, isolated to `isolation`, called with the message and its author.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func observeIsolated<Source: ObservableSource>(
        _ observable: Source,
        isolation: isolated any Actor = #isolation,
        _ receive: @escaping (Source.Message, AnyObject) -> Void
    ) {
        _observeSpecialized(observable, target: .of(isolation), .messageAndAuthor(receive))
    }
}

/// Starts a free observation of `observable` by ``FreeObserver/shared``, with a handler isolated
/// to the caller's actor.
///
/// ```swift
/// @MainActor func showBadge(for inbox: Inbox, on label: BadgeLabel) {
///     observeIsolated(inbox.unread) { [weak label] update in
///         label?.text = "\(update.new)"     // main-actor state, no `await`
///     }
/// }
/// ```
///
/// It lasts until `FreeObserver.shared.stopObserving(observable)`, or until the observable dies;
/// the handler runs as with ``ObservableSource/subscribeIsolated(isolation:_:)``. From nonisolated
/// code the call does not compile; use ``observe(_:_:)-(_,(Source.Message)->Void)``.
///
/// - Parameters:
///   - observable: The observable to observe.
///   - isolation: The actor the handler runs on; leave the default, the caller's actor.
///   - receive: The handler, isolated to `isolation`.
/// - Complexity: O(1) amortized.
public func observeIsolated<Source: ObservableSource>(
    _ observable: Source,
    isolation: isolated any Actor = #isolation,
    _ receive: @escaping (Source.Message) -> Void
) {
    FreeObserver.shared.observeIsolated(observable, isolation: isolation, receive)
}

/// Starts a free observation of `observable` by ``FreeObserver/shared``, with a handler isolated
/// to the caller's actor that receives authors too.
///
/// - Parameters:
///   - observable: The observable to observe.
///   - isolation: The actor the handler runs on; leave the default, the caller's actor.
///   - receive: The handler, isolated to `isolation`, called with the message and its author.
/// - Complexity: O(1) amortized.
public func observeIsolated<Source: ObservableSource>(
    _ observable: Source,
    isolation: isolated any Actor = #isolation,
    _ receive: @escaping (Source.Message, AnyObject) -> Void
) {
    FreeObserver.shared.observeIsolated(observable, isolation: isolation, receive)
}

/// Observes `observable` for exactly one message, with a new ``FreeObserver`` and a handler
/// isolated to the caller's actor.
///
/// As ``observeOnce(_:_:)``: the free observer keeps itself alive until the message arrives (or
/// the observable dies), then stops observing and dies. The handler runs as with
/// ``ObservableSource/subscribeIsolated(isolation:_:)``.
///
/// - Parameters:
///   - observable: The observable to observe.
///   - isolation: The actor the handler runs on; leave the default, the caller's actor.
///   - receive: The handler, isolated to `isolation`, called at most once.
/// - Returns: The free observer that observes until the first message.
/// - Complexity: O(1) amortized.
@discardableResult
public func observeOnceIsolated<Source: ObservableSource>(
    _ observable: Source,
    isolation: isolated any Actor = #isolation,
    _ receive: @escaping (Source.Message) -> Void
) -> FreeObserver {
    let observer = FreeObserver()
    // The handler holds the observer: the messenger keeps both alive until the first message.
    observer.observeIsolated(observable, isolation: isolation) { message in
        // Ending the observation first means no later message, even one already queued, gets here.
        observer.stopObserving()
        receive(message)
    }
    return observer
}
