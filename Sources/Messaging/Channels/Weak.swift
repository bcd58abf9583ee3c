/// An observable that refers to another one weakly: observe it, or keep it in a collection,
/// without keeping the other one alive.
///
/// ```swift
/// let number = Var(12)
/// let weakNumber = number.weak()
///
/// observer.observe(weakNumber) { update in
///     // an update of `number`
/// }
///
/// var weakNumbers: [Weak<Var<Int>>] = []
/// weakNumbers.append(weakNumber)
/// ```
///
/// Observing it observes its origin: its ``messenger`` is the origin's, so the observation is one
/// of the origin's, and an observer that observes both sees one observable. When the origin dies,
/// its observations end as they always do; observing a `Weak` whose origin is gone observes
/// nothing: its ``messenger`` is then a new messenger that nobody sends through. Its
/// ``GeneralObservable/subscribe(_:)`` then answers `nil`: there is nothing to subscribe to.
public final class Weak<Origin: ObservableSource>: ObservableSource {
    /// The observable this one stands for, while it lives.
    public weak let origin: Origin?

    /// The origin's messenger, held weakly: it may outlive the origin, and must not be kept
    /// alive by this wrapper either.
    private weak let _messenger: Messenger<Origin.Message>?

    /// Refers to `origin` weakly.
    ///
    /// - Parameter origin: The observable to stand for.
    /// - Complexity: O(1).
    public init(_ origin: Origin) {
        self.origin = origin
        _messenger = origin.messenger
    }

    /// The origin's messenger while it lives; once it is gone, a new messenger with no observer
    /// and no sender, so that an observation made through this wrapper then ends at once.
    public var messenger: Messenger<Origin.Message> { _messenger ?? Messenger() }
}

extension Weak: Sendable where Origin: Sendable, Origin.Message: Sendable {}

extension ObservableSource {
    /// This observable, referred to weakly: see ``Weak``.
    ///
    /// - Returns: A wrapper that does not keep this observable alive.
    /// - Complexity: O(1).
    public func weak() -> Weak<Self> {
        Weak(self)
    }
}
