/// A standalone transform that remembers the last message it forwarded: makes any observable an
/// ``ObservableCache``; made by ``ObservableSource/cache()->Cached<Self,Self.Message>``.
///
/// ```swift
/// let profile = Messenger<Profile>()
/// let cachedProfile = profile.cache()       // sends Profile?
/// observer.observe(cachedProfile) { profile in ... }
/// cachedProfile.latestMessage               // the last profile forwarded, or nil
/// ```
///
/// Its message is optional, `Value?`, but never a double optional: the cache of an observable whose
/// messages are `Int` sends `Int?`, and so does the cache of one whose messages are `Int?`.
///
/// Like every standalone transform it observes its ``origin`` only while it is observed itself:
/// ``latestMessage`` is the last message it forwarded while observed (or `nil`), and does not
/// follow the origin while nobody observes the cache. Sending through the cache does not change
/// it. See <doc:StandaloneTransforms>.
public final class Cached<Origin: ObservableSource, Value>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the forwarded messages.
    public let messenger: Messenger<Value?>

    @usableFromInline let _latest: _LockedBox<Value?>
    @usableFromInline let _link: _OriginLink<Origin, Origin.Message>

    @usableFromInline
    init(
        _origin origin: Origin,
        messenger: Messenger<Value?>,
        latest: _LockedBox<Value?>,
        forward: @escaping (Origin.Message, AnyObject, (any Actor)?) -> Void
    ) {
        self.messenger = messenger
        _latest = latest
        _link = Self._link(to: origin, for: messenger, handler: forward)
        messenger._core.keepAliveWhileObserved(self)
    }

    /// Makes a cache of `origin`, whose messages `wrap` turns into this cache's.
    @inlinable
    convenience init(_ origin: Origin, _ wrap: @escaping @Sendable (Origin.Message) -> Value?) {
        let messenger = Messenger<Value?>()
        let core = messenger._core
        let latest = _LockedBox<Value?>(nil)
        self.init(_origin: origin, messenger: messenger, latest: latest) { message, author, isolation in
            let value = wrap(message)
            _ = latest.exchange(value)  // the replaced message is released here, outside the lock
            core.send(value, author: author, checksChange: false, isolation: isolation)
        }
    }

    /// The last message forwarded from the origin, or `nil` if none was.
    ///
    /// - Complexity: O(1).
    public var latestMessage: Value? { _latest.value }

    /// The observable whose messages this cache forwards.
    ///
    /// Setting it replaces the origin: an observation of the old origin moves to the new one. The
    /// latest message stays until the new origin sends. Safe from any thread.
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

// `origin` and the observation of it are guarded by the link's lock, the latest message by its
// box's lock; the rest is immutable.
extension Cached: @unchecked Sendable where Origin: Sendable, Origin.Message: Sendable, Value: Sendable {}

extension ObservableSource {
    /// Makes a cache of this observable: a standalone transform that forwards every message as an
    /// optional and remembers the last one; see ``Cached``.
    ///
    /// - Returns: A cache whose messages are `Message?`.
    /// - Complexity: O(1); per message, one store and one send.
    @inlinable @_disfavoredOverload  // for optional messages, the overload without a double optional wins
    public func cache() -> Cached<Self, Message> {
        Cached(self) { $0 }
    }

    /// Makes a cache of this observable of optional messages: a standalone transform that
    /// forwards every message and remembers the last one. Its messages are `Wrapped?`, as this
    /// observable's, not a double optional; see ``Cached``.
    ///
    /// - Returns: A cache whose messages are `Wrapped?`.
    /// - Complexity: O(1); per message, one store and one send.
    @inlinable
    public func cache<Wrapped>() -> Cached<Self, Wrapped> where Message == Wrapped? {
        Cached(self) { $0 }
    }
}
