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
