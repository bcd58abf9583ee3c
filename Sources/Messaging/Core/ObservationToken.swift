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
