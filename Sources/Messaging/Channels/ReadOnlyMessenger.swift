/// The observing side of a ``Messenger``: it can be observed, but nothing can be sent through it.
///
/// Hand it out where a component should listen but never broadcast:
///
/// ```swift
/// final class ThemeManager {
///     var themes: ReadOnlyMessenger<Theme> { channel.readOnly }
///     private let channel = Messenger<Theme>()
///
///     func updateTheme(_ theme: Theme) { channel.send(theme) }
/// }
///
/// let token = themeManager.themes.subscribe { theme in apply(theme) }
/// ```
///
/// It is Rasat's `channel.observable`. It holds its messenger strongly, so it keeps it alive.
public struct ReadOnlyMessenger<Message> {
    @usableFromInline let _messenger: Messenger<Message>

    init(_ messenger: Messenger<Message>) {
        _messenger = messenger
    }

    /// Starts an observation that lasts as long as the returned token; see
    /// ``GeneralObservable/subscribe(_:)->ObservationToken``.
    ///
    /// - Parameter receive: The handler, called on the thread that delivers the message.
    /// - Returns: The token that owns the observation; releasing it ends the observation.
    /// - Complexity: O(1) amortized.
    public func subscribe(_ receive: @escaping @Sendable (Message) -> Void) -> ObservationToken {
        _messenger.subscribe(receive)
    }

    /// Starts an observation that lasts as long as the returned token, with a handler isolated to
    /// the caller's actor; see ``ObservableSource/subscribeIsolated(isolation:_:)``.
    ///
    /// - Parameters:
    ///   - isolation: The actor the handler runs on; leave the default, the caller's actor.
    ///   - receive: The handler, isolated to `isolation`.
    /// - Returns: The token that owns the observation; releasing it ends the observation.
    /// - Complexity: O(1) amortized.
    public func subscribeIsolated(
        isolation: isolated any Actor = #isolation,
        _ receive: @escaping (Message) -> Void
    ) -> ObservationToken {
        _messenger.subscribeIsolated(isolation: isolation, receive)
    }

    /// Starts a free observation by ``FreeObserver/shared``; see
    /// ``ObservableSource/observed(_:)-((Message)->Void)``.
    ///
    /// - Parameter receive: The handler, called on the thread that delivers the message.
    /// - Complexity: O(1) amortized.
    public func observed(_ receive: @escaping @Sendable (Message) -> Void) {
        _messenger.observed(receive)
    }

    /// Observes for exactly one message; see ``ObservableSource/observedOnce(_:)``.
    ///
    /// - Parameter receive: The handler, called at most once.
    /// - Returns: The free observer that observes until the first message.
    /// - Complexity: O(1) amortized.
    @discardableResult
    public func observedOnce(_ receive: @escaping @Sendable (Message) -> Void) -> FreeObserver {
        _messenger.observedOnce(receive)
    }

    /// The number of active observations of the messenger behind this view.
    ///
    /// Meant for debugging and tests, such as checking that a screen's observations ended with the
    /// screen; it answers Rasat's `observable.subscriptions().count`. It is the messenger's
    /// ``Messenger/observationCount``.
    ///
    /// - Complexity: O(1).
    public var observationCount: Int { _messenger.observationCount }
}

extension ReadOnlyMessenger: Sendable where Message: Sendable {}

extension Messenger {
    /// A view of this messenger that can be observed but cannot send.
    public var readOnly: ReadOnlyMessenger<Message> { ReadOnlyMessenger(self) }
}

extension Observer {
    /// Starts observing the messenger behind a read-only view.
    ///
    /// - Parameters:
    ///   - observable: The read-only view to observe.
    ///   - receive: The handler, called on the thread that delivers the message.
    /// - Complexity: O(1) amortized.
    public func observe<Message>(
        _ observable: ReadOnlyMessenger<Message>,
        _ receive: @escaping @Sendable (Message) -> Void
    ) {
        observe(observable._messenger, receive)
    }

    /// Starts observing the messenger behind a read-only view, receiving authors too.
    ///
    /// - Parameters:
    ///   - observable: The read-only view to observe.
    ///   - receive: The handler, called with the message and its author.
    /// - Complexity: O(1) amortized.
    public func observe<Message>(
        _ observable: ReadOnlyMessenger<Message>,
        _ receive: @escaping @Sendable (Message, AnyObject) -> Void
    ) {
        observe(observable._messenger, receive)
    }

    /// Whether this observer has an active observation of the messenger behind `observable`.
    ///
    /// - Parameter observable: The read-only view to ask about.
    /// - Returns: `true` while at least one observation is active.
    public func isObserving<Message>(_ observable: ReadOnlyMessenger<Message>) -> Bool {
        isObserving(observable._messenger)
    }

    /// Ends every observation of the messenger behind `observable` by this observer.
    ///
    /// - Parameter observable: The read-only view to receive nothing more from.
    public func stopObserving<Message>(_ observable: ReadOnlyMessenger<Message>) {
        stopObserving(observable._messenger)
    }
}

extension FreeObserver {
    /// Starts observing the messenger behind a read-only view, with a handler isolated to the
    /// caller's actor; see ``observeIsolated(_:isolation:_:)-(_,_,(Source.Message)->Void)``.
    ///
    /// - Parameters:
    ///   - observable: The read-only view to observe.
    ///   - isolation: The actor the handler runs on; leave the default, the caller's actor.
    ///   - receive: The handler, isolated to `isolation`.
    /// - Complexity: O(1) amortized.
    public func observeIsolated<Message>(
        _ observable: ReadOnlyMessenger<Message>,
        isolation: isolated any Actor = #isolation,
        _ receive: @escaping (Message) -> Void
    ) {
        observeIsolated(observable._messenger, isolation: isolation, receive)
    }
}

extension MainActorObserver {
    /// Starts observing the messenger behind a read-only view; `receive` runs on the main actor.
    ///
    /// - Parameters:
    ///   - observable: The read-only view to observe.
    ///   - receive: The handler, main-actor isolated.
    /// - Complexity: O(1) amortized.
    public func observe<Message>(
        _ observable: ReadOnlyMessenger<Message>,
        _ receive: @escaping (Message) -> Void
    ) {
        observe(observable._messenger, receive)
    }
}

extension ActorObserver {
    /// Starts observing the messenger behind a read-only view; `receive` runs on this actor.
    ///
    /// - Parameters:
    ///   - observable: The read-only view to observe.
    ///   - receive: The handler, isolated to this actor.
    /// - Complexity: O(1) amortized.
    public func observe<Message>(
        _ observable: ReadOnlyMessenger<Message>,
        _ receive: @escaping (Message) -> Void
    ) {
        observe(observable._messenger, receive)
    }

    /// Starts observing the messenger behind a read-only view with a handler that receives this
    /// actor, isolated; see ``observeWeakly(_:_:)-(Source,_)``.
    ///
    /// - Parameters:
    ///   - observable: The read-only view to observe.
    ///   - receive: The handler, called on this actor with the actor and the message.
    /// - Complexity: O(1) amortized.
    public func observeWeakly<Message>(
        _ observable: ReadOnlyMessenger<Message>,
        _ receive: @escaping @Sendable (isolated Self, Message) -> Void
    ) where Message: Sendable {
        observeWeakly(observable._messenger, receive)
    }
}
