/// Transforms applied to the messages of one observation, before its handler.
///
/// Start one with `observe(_:)` without a handler, add transforms, and end it with a handler:
///
/// ```swift
/// observer.observe(title).new().unwrap("Untitled").map { $0.count } { length in
///     // the new title's length
/// }
/// ```
///
/// The whole chain is one observation of the observable: its transforms are functions composed
/// when the chain ends, not observables, so a transform costs no object, no lock and no table, and
/// the chain ends with the observation. A chain that is never given a handler observes nothing.
///
/// Every transform has a second form that also takes the handler and ends the chain, which keeps
/// the trailing-closure syntax (`.map { ... } { result in ... }`); `receive(_:)`
/// ends a chain whose last transform takes no closure. With two closures, write the first in
/// parentheses (`.map({ $0.count }) { length in ... }`) or label the second
/// (`.map { $0.count } receive: { length in ... }`).
///
/// The observer's kind decides the closures' kind, as for `observe` with a handler: for an
/// ``Observer`` they are `@Sendable` and run on the thread that delivers; a ``MainActorObserver``
/// or an ``ActorObserver`` gets an ``IsolatedObservationChain`` instead, whose closures run on its
/// actor and may use its state.
///
/// The transforms of one chain run one message at a time, in order: a stateful transform
/// (``distinct()``, ``discard(first:)``) keeps its state per observation.
///
/// The four chain types (this one, ``IsolatedObservationChain``, and after a hop
/// ``MainActorObservationChain`` and ``ActorObservationChain``) offer the same operators, but for
/// the author filters and the handler that gets the author, which do not exist after a hop (see
/// ``MainActorObservationChain``); see <doc:TransformChains>.
public struct ObservationChain<Observing: Observer, Source: ObservableSource, Output> {
    /// The observation to be, and its transforms so far.
    @usableFromInline let _core: _ChainCore<Observing, Source, Output>

    @inlinable
    init(_core: _ChainCore<Observing, Source, Output>) {
        self._core = _core
    }
}

// MARK: - Starting a chain

extension Observer {
    /// Starts a chain of transforms on the messages of `observable`; the chain's handler makes it
    /// an observation.
    ///
    /// ```swift
    /// observe(numbers).filter { $0 > 9 }.map { "\($0)" } { text in
    ///     // a number of two digits or more, as text
    /// }
    /// ```
    ///
    /// - Parameter observable: The observable to observe.
    /// - Returns: A chain with no transform yet; nothing is observed until it gets a handler.
    /// - Complexity: O(1).
    @inlinable
    public func observe<Source: ObservableSource>(
        _ observable: Source
    ) -> ObservationChain<Self, Source, Source.Message> {
        ObservationChain(_core: .start(self, observable, on: nil))
    }
}

// MARK: - State of stateful transforms

/// The state of one stateful transform in one observation.
///
/// `@unchecked Sendable`: only the observation's composed handler touches it, and a messenger
/// never runs one observation's handler twice at once (deliveries on a messenger are serial, and
/// an actor runs its queue one call at a time); each delivery is ordered after the previous one by
/// the messenger's lock or the actor's queue.
@usableFromInline
final class _TransformState<Value>: @unchecked Sendable {
    /// Accessed by one delivery at a time (see above), so the run-time exclusivity check, about 60
    /// instructions per message, is left out.
    @exclusivity(unchecked) @usableFromInline var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

/// An author held weakly, for the author filters: a transform does not keep an author alive.
///
/// `@unchecked Sendable`: a weak reference is only loaded, which the runtime makes atomic.
@usableFromInline
final class _WeakAuthor: @unchecked Sendable {
    @usableFromInline weak var object: AnyObject?

    @inlinable
    init(_ object: AnyObject) {
        self.object = object
    }
}
