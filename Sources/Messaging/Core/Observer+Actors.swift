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
@MainActor
public protocol MainActorObserver: Observer {}

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
public protocol ActorObserver: Actor, Observer {}

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
