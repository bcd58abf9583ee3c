/// A handle on one observation that belongs to no object: the observation lasts as long as the
/// token, or until ``stopObserving()``.
///
/// ```swift
/// let token = messenger.subscribe { message in print(message) }
/// // ... later: release `token`, or
/// token.stopObserving()
/// ```
///
/// It is what other frameworks call a cancellable or a disposable. It is as small as an
/// observation can be: the token and the observation record are its two allocations, and it is
/// not listed among the messenger's ``GeneralObservable/observers`` (it subscribes no object); it
/// counts in ``Messenger/observationCount``, and ``ObservableSource/stopBeingObserved()`` ends it.
///
/// The handler of a token from ``GeneralObservable/subscribe(_:)->ObservationToken`` is
/// `@Sendable` and runs on the thread that delivers. In main-actor or actor code,
/// ``ObservableSource/subscribeIsolated(isolation:_:)`` makes a token whose handler is isolated to
/// that actor and runs there.
public final class ObservationToken: @unchecked Sendable {
    // Immutable; the observation it points to keeps its state under its messenger's lock.
    @usableFromInline let _observation: _ObservationRecord

    @usableFromInline
    init(_ observation: _ObservationRecord) {
        _observation = observation
    }

    deinit {
        _ = _observation._end()
    }

    /// Whether the observation is still active: not stopped, and its messenger alive.
    ///
    /// - Complexity: O(1).
    public var isObserving: Bool { _observation._isActive }

    /// Ends the observation: its handler is not called again. Calling it again does nothing.
    ///
    /// - Complexity: O(1) amortized.
    public func stopObserving() {
        _ = _observation._end()
    }
}

extension ObservableSource {
    /// Starts an observation that lasts as long as the returned token.
    ///
    /// ```swift
    /// let token = userChannel.subscribe { event in handle(event) }
    /// // ... the observation ends when `token` is released or stops observing.
    /// ```
    ///
    /// - Parameter receive: The handler, called on the thread that delivers the message.
    /// - Returns: The token that owns the observation. Keep it (for instance in an
    ///   ``ObservationBag``): releasing it ends the observation.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func subscribe(_ receive: @escaping @Sendable (Message) -> Void) -> ObservationToken {
        let messenger = messenger
        let observation = _Observation.makeToken(core: messenger._core, handler: .message(receive))
        messenger._core.insert(observation)
        return ObservationToken(observation)
    }
}

extension ObservableSource {
    /// Starts an observation that lasts as long as the returned token, with a handler isolated to
    /// the caller's actor: the main actor in main-actor code, the actor in an actor's method.
    ///
    /// ```swift
    /// @MainActor final class ProfileViewModel {
    ///     private(set) var title = ""
    ///     private let observations = ObservationBag()
    ///
    ///     init(profile: Profile) {
    ///         observations += profile.name.subscribeIsolated { [weak self] update in
    ///             self?.title = update.new      // main-actor state, no `await`
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The handler is not `@Sendable`: written in actor-isolated code, it is isolated to that
    /// actor, may use its state, and the library only ever calls it on that actor. A message sent
    /// from the actor reaches it before `send` returns; a message sent from elsewhere reaches it
    /// soon after, on the actor, in the order the messages were sent, across messengers (it
    /// shares the actor's one queue with every other handler on that actor); see
    /// <doc:DeliveryAndConcurrency>. The call exists only where there is an actor: from
    /// nonisolated code it does not compile (use
    /// ``GeneralObservable/subscribe(_:)->ObservationToken``, whose handler is `@Sendable` and
    /// runs on the delivering thread).
    ///
    /// It cannot be spelled `subscribe`: overload resolution ignores a closure's isolation, so the
    /// compiler would always pick the `@Sendable` form.
    ///
    /// - Parameters:
    ///   - isolation: The actor the handler runs on; leave the default, the caller's actor. Given
    ///     another actor (with `await`), the handler must be one the caller can hand over to it:
    ///     `Sendable`, or written outside any actor and not used by the caller afterwards. The
    ///     compiler rejects any other.
    ///   - receive: The handler, isolated to `isolation`.
    /// - Returns: The token that owns the observation. Keep it (for instance in an
    ///   ``ObservationBag``): releasing it ends the observation, and a message still on its way to
    ///   the actor is then dropped.
    /// - Complexity: O(1) amortized.
    @inlinable
    public func subscribeIsolated(
        isolation: isolated any Actor = #isolation,
        _ receive: @escaping (Message) -> Void
    ) -> ObservationToken {
        let messenger = messenger
        let observation = _Observation._make(
            observer: nil, core: messenger._core, target: .of(isolation), handler: .message(receive), isToken: true)
        messenger._core.insert(observation)
        return ObservationToken(observation)
    }
}
