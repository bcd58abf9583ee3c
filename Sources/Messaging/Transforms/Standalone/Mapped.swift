/// A standalone transform that maps every message of its origin: an observable of its own, made by
/// ``ObservableSource/map(_:)``, ``ObservableSource/new()`` and ``ObservableSource/unwrap(_:)``.
///
/// ```swift
/// let title = Var<String?>(nil)
/// let titleLength = title.new().unwrap("Untitled").map { $0.count }
///
/// observer.observe(titleLength) { length in
///     // the new title's length
/// }
/// ```
///
/// It observes its ``origin`` only while it is observed itself, once however many observe it, and
/// sends each mapped message with the origin message's author. Observing it keeps it (and so its
/// origin) alive for as long as the observation lasts; see <doc:StandaloneTransforms>.
///
/// A `Mapped` of an ``ObservableCache`` drops no message, so it is a cache too: its
/// ``ObservableCache/latestMessage`` is the mapped latest message of its origin.
///
/// - Complexity: Per message of the origin, while observed: the transform, then one send.
public final class Mapped<Origin: ObservableSource, Message>: ObservableSource, _StandaloneOperator {
    /// The messenger that sends the mapped messages.
    public let messenger: Messenger<Message>

    @usableFromInline let _transform: @Sendable (Origin.Message) -> Message
    @usableFromInline let _link: _OriginLink<Origin, Origin.Message>

    @usableFromInline
    init(
        _origin origin: Origin,
        messenger: Messenger<Message>,
        transform: @escaping @Sendable (Origin.Message) -> Message,
        forward: @escaping (Origin.Message, AnyObject, (any Actor)?) -> Void
    ) {
        self.messenger = messenger
        _transform = transform
        _link = Self._link(to: origin, for: messenger, handler: forward)
        messenger._core.keepAliveWhileObserved(self)
    }

    /// Makes a transform that sends `transform(message)` for every message of `origin`.
    ///
    /// The same as `origin.map(transform)`; use it where another module's `map` makes that call
    /// ambiguous.
    ///
    /// - Parameters:
    ///   - origin: The observable whose messages are mapped. Held strongly; see ``Weak`` to hold it
    ///     weakly.
    ///   - transform: Maps a message; runs on the thread that delivers the origin's message.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(_ origin: Origin, _ transform: @escaping @Sendable (Origin.Message) -> Message) {
        let messenger = Messenger<Message>()
        let core = messenger._core
        self.init(_origin: origin, messenger: messenger, transform: transform) { message, author, isolation in
            core.send(transform(message), author: author, checksChange: false, isolation: isolation)
        }
    }

    /// The observable whose messages this transform maps.
    ///
    /// Setting it replaces the origin: an observation of the old origin moves to the new one, so
    /// observers of the transform receive the new origin's messages from then on. Safe from any
    /// thread.
    ///
    /// ```swift
    /// let titleLength = Var("Dummy Title").new().map { $0.count }
    /// titleLength.origin.origin = Var("Real Title")
    /// ```
    ///
    /// - Complexity: O(1) to read; O(1) amortized to set.
    public var origin: Origin {
        get { _link.origin }
        set { _link.replaceOrigin(newValue, listener: self) }
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// `origin` and the observation of it are guarded by the link's lock; the rest is immutable.
extension Mapped: @unchecked Sendable where Origin: Sendable, Origin.Message: Sendable, Message: Sendable {}

extension Mapped: ObservableCache where Origin: ObservableCache {
    /// The origin's latest message, mapped: a transform that drops nothing is a cache of a cache.
    ///
    /// Sending through the transform does not change it.
    ///
    /// - Complexity: Reading the origin's latest message, and the transform.
    public var latestMessage: Message {
        _transform(origin.latestMessage)
    }
}

extension ObservableSource {
    /// Makes a standalone transform that maps every message.
    ///
    /// ```swift
    /// let messenger = Messenger<String>()
    /// let stringToInt = messenger.map { Int($0) }  // sends Int?
    /// ```
    ///
    /// - Parameter transform: Maps a message; runs on the thread that delivers it.
    /// - Returns: An observable that sends the mapped messages; see ``Mapped``.
    /// - Complexity: O(1); per message, the transform and one send.
    @inlinable
    public func map<Next>(_ transform: @escaping @Sendable (Message) -> Next) -> Mapped<Self, Next> {
        Mapped(self, transform)
    }

    /// Makes a standalone transform that sends the new value of every ``Update``.
    ///
    /// ```swift
    /// let errorCode = Var(0)              // sends Update<Int>
    /// let newErrorCode = errorCode.new()  // sends Int
    /// ```
    ///
    /// - Returns: An observable that sends each update's `new` value; see ``Mapped``.
    /// - Complexity: O(1); per message, one send.
    @inlinable
    public func new<Value>() -> Mapped<Self, Value> where Message == Update<Value> {
        Mapped(self) { $0.new }
    }

    /// Makes a standalone transform that unwraps every message, replacing `nil` with
    /// `defaultValue`.
    ///
    /// ```swift
    /// let points = Messenger<Int?>()       // sends Int?
    /// let pointsToShow = points.unwrap(0)  // sends Int, 0 for nil
    /// ```
    ///
    /// - Parameter defaultValue: What `nil` becomes.
    /// - Returns: An observable that sends the unwrapped messages; see ``Mapped``.
    /// - Complexity: O(1); per message, one send.
    @inlinable
    public func unwrap<Wrapped>(_ defaultValue: Wrapped) -> Mapped<Self, Wrapped>
    where Message == Wrapped?, Wrapped: Sendable {
        Mapped(self) { $0 ?? defaultValue }
    }
}
