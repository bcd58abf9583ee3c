/// Transforms applied to the messages of one observation by a ``MainActorObserver`` or an
/// ``ActorObserver``, before its handler; they run on the observer's actor.
///
/// It is an ``ObservationChain`` whose closures are not `@Sendable`: written in the observer's
/// main-actor or actor code, they may use its state. It can only be started there, by the
/// observer's own `observe(_:)`. It has the same operators as ``ObservationChain``; a time stage
/// (``debounce(for:clock:)``, say) sends what it sends on after a wait back to the observer's
/// actor, through its one queue. A main-actor observer's chain has no `onMainActor()`, being on
/// the main actor already.
public struct IsolatedObservationChain<Observing: Observer, Source: ObservableSource, Output> {
    /// The observation to be, and its transforms so far.
    @usableFromInline let _core: _ChainCore<Observing, Source, Output>

    @inlinable
    init(_core: _ChainCore<Observing, Source, Output>) {
        self._core = _core
    }
}

// MARK: - Starting a chain

extension MainActorObserver {
    /// Starts a chain of transforms on the messages of `observable`; the transforms and the
    /// handler run on the main actor.
    ///
    /// - Parameter observable: The observable to observe.
    /// - Returns: A chain with no transform yet; nothing is observed until it gets a handler.
    /// - Complexity: O(1).
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source
    ) -> IsolatedObservationChain<Self, Source, Source.Message> {
        IsolatedObservationChain(_core: .start(self, observable, on: _mainActorQueue()))
    }
}

extension ActorObserver {
    /// Starts a chain of transforms on the messages of `observable`; the transforms and the
    /// handler run on this actor.
    ///
    /// - Parameter observable: The observable to observe.
    /// - Returns: A chain with no transform yet; nothing is observed until it gets a handler.
    /// - Complexity: O(1).
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source
    ) -> IsolatedObservationChain<Self, Source, Source.Message> {
        IsolatedObservationChain(_core: .start(self, observable, on: _actorQueue(of: self)))
    }
}

/// The main actor's queue, for a chain's target.
@usableFromInline
func _mainActorQueue() -> AnyObject { _ActorQueue.main }

/// An actor's queue, for a chain's target.
@usableFromInline
func _actorQueue(of actor: any Actor) -> AnyObject { _ActorQueue.of(actor) }
