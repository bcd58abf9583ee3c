/// A standalone transform that may drop messages of its origin, and may change their type: an
/// observable of its own, made by ``ObservableSource/filter(_:)``,
/// ``ObservableSource/compactMap(_:)``, ``ObservableSource/select(_:)``,
/// ``ObservableSource/unwrap()``, ``ObservableSource/distinct()``,
/// ``ObservableSource/discard(first:)``, ``ObservableSource/scan(_:_:)``, ``ObservableSource/filterAuthor(_:)``,
/// ``ObservableSource/from(_:)`` and ``ObservableSource/notFrom(_:)``.
///
/// ```swift
/// let messenger = Messenger<String>()
/// let shortMessages = messenger.filter { $0.count < 10 }
/// ```
///
/// It observes its ``origin`` only while it is observed itself, once however many observe it, and
/// sends each message that passes with the origin message's author. Observing it keeps it (and so
/// its origin) alive for as long as the observation lasts; see <doc:StandaloneTransforms>. The
/// state of ``ObservableSource/distinct()``, ``ObservableSource/discard(first:)`` and
/// ``ObservableSource/scan(_:_:)`` belongs to the transform, and so is shared by all its observers.
///
/// - Complexity: Per message of the origin, while observed: the filter, then one send for a
///   message that passes.
public final class Filtered<Origin: ObservableSource, Message>: ObservableSource, _StandaloneOperator {
    /// The messenger that sends the messages that pass.
    public let messenger: Messenger<Message>

    @usableFromInline let _link: _OriginLink<Origin, Origin.Message>

    @usableFromInline
    init(
        _origin origin: Origin, messenger: Messenger<Message>,
        forward: @escaping (Origin.Message, AnyObject, (any Actor)?) -> Void
    ) {
        self.messenger = messenger
        _link = Self._link(to: origin, for: messenger, handler: forward)
        messenger._core.keepAliveWhileObserved(self)
    }

    /// Makes a transform that sends, for every message of `origin` and its author, what `filter`
    /// returns, unless it returns `nil`.
    ///
    /// ```swift
    /// let fromFriends = Filtered(messenger) { text, author in friends.contains(author) ? text : nil }
    /// ```
    ///
    /// - Parameters:
    ///   - origin: The observable whose messages are filtered. Held strongly; see ``Weak`` to hold
    ///     it weakly.
    ///   - filter: The message to send for a message and its author, or `nil` to drop it; runs on
    ///     the thread that delivers the origin's message.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(
        _ origin: Origin,
        _ filter: @escaping @Sendable (Origin.Message, AnyObject) -> Message?
    ) {
        let messenger = Messenger<Message>()
        let core = messenger._core
        self.init(_origin: origin, messenger: messenger) { message, author, isolation in
            if let next = filter(message, author) {
                core.send(next, author: author, checksChange: false, isolation: isolation)
            }
        }
    }

    /// The observable whose messages this transform filters.
    ///
    /// Setting it replaces the origin: an observation of the old origin moves to the new one.
    /// Safe from any thread. The state of `distinct()`, `discard(first:)` and `scan` carries over.
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
extension Filtered: @unchecked Sendable where Origin: Sendable, Origin.Message: Sendable, Message: Sendable {}

extension ObservableSource {
    /// Makes a standalone transform that sends only the messages for which `isIncluded` returns
    /// `true`.
    ///
    /// - Parameter isIncluded: Whether a message goes on; runs on the thread that delivers it.
    /// - Returns: An observable that sends the messages that pass; see ``Filtered``.
    /// - Complexity: O(1); per message, the test and one send for a message that passes.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Message) -> Bool) -> Filtered<Self, Message> {
        Filtered(self) { message, _ in isIncluded(message) ? message : nil }
    }

    /// Makes a standalone transform that maps every message and sends the results that are not
    /// `nil`.
    ///
    /// - Parameter transform: Maps a message; runs on the thread that delivers it.
    /// - Returns: An observable that sends the results that are not `nil`; see ``Filtered``.
    /// - Complexity: O(1); per message, the transform and one send for a result that is not `nil`.
    @inlinable
    public func compactMap<Next>(_ transform: @escaping @Sendable (Message) -> Next?) -> Filtered<Self, Next> {
        Filtered(self) { message, _ in transform(message) }
    }

    /// Makes a standalone transform that sends `Void` for every message equal to `selected`, so
    /// that its handlers take no argument.
    ///
    /// ```swift
    /// let myNotifier = messenger.select("my notification")
    /// observer.observe(myNotifier) { someone sent "my notification" }
    /// ```
    ///
    /// - Parameter selected: The message to pass on.
    /// - Returns: An observable that sends `()` for each message equal to `selected`; see
    ///   ``Filtered``.
    /// - Complexity: O(1); per message, one comparison and one send for a match.
    @inlinable
    public func select(_ selected: Message) -> Filtered<Self, Void> where Message: Equatable & Sendable {
        Filtered(self) { message, _ in message == selected ? () : nil }
    }

    /// Makes a standalone transform that sends the messages that are not `nil`, unwrapped.
    ///
    /// ```swift
    /// let errorCodes = Messenger<Int?>()
    /// let errorAlert = errorCodes.unwrap()  // sends Int
    /// ```
    ///
    /// - Returns: An observable that sends the unwrapped messages; see ``Filtered``.
    /// - Complexity: O(1); per message, one send for a message that is not `nil`.
    @inlinable
    public func unwrap<Wrapped>() -> Filtered<Self, Wrapped> where Message == Wrapped? {
        Filtered(self) { message, _ in message }
    }

    /// Makes a standalone transform that drops each message equal to the one before it; the first
    /// always goes through.
    ///
    /// The previous message is the transform's, shared by its observers, and kept while nobody
    /// observes: a message equal to the last one passed on is dropped even after a pause.
    ///
    /// - Returns: An observable that sends the messages that differ from their predecessor; see
    ///   ``Filtered``.
    /// - Complexity: O(1); per message, one comparison (outside any lock) and one send.
    @inlinable
    public func distinct() -> Filtered<Self, Message> where Message: Equatable & Sendable {
        let previous = _LockedBox<Message?>(nil)
        return Filtered(self) { message, _ in
            previous.exchange(message) == message ? nil : message
        }
    }

    /// Makes a standalone transform that drops the first `count` messages it receives, and sends
    /// every later one.
    ///
    /// The count belongs to the transform: the first `count` messages it receives while observed,
    /// whoever observes it.
    ///
    /// - Parameter count: How many messages to drop; zero or more (a negative count stops the
    ///   program with a precondition failure).
    /// - Returns: An observable that sends the messages after the first `count`; see ``Filtered``.
    /// - Complexity: O(1); per message, O(1) and one send.
    @inlinable
    public func discard(first count: Int) -> Filtered<Self, Message> {
        precondition(count >= 0, "discard(first:) needs a count of zero or more, not \(count)")
        let left = _LockedBox(count)
        return Filtered(self) { message, _ in left.countDown() ? nil : message }
    }

    /// Makes a standalone transform that sends on a running state: each message updates it with
    /// `next`, and the new state goes on.
    ///
    /// ```swift
    /// let balance = deposits.scan(0) { balance, deposit in balance + deposit }
    /// observer.observe(balance) { total in show(total) }
    /// ```
    ///
    /// The state belongs to the transform, shared by all its observers, and is kept while nobody
    /// observes: it goes on from where it was when observing starts again. The origin delivers
    /// one message at a time, so `next` sees each state once; `next` runs outside any lock.
    ///
    /// - Parameters:
    ///   - initial: The state before the first message.
    ///   - next: Makes the next state from the current one and a message; runs on the thread that
    ///     delivers the message.
    /// - Returns: An observable that sends each new state; see ``Filtered``.
    /// - Complexity: O(1); per message, `next` and one send.
    @inlinable
    public func scan<State: Sendable>(
        _ initial: State,
        _ next: @escaping @Sendable (State, Message) -> State
    ) -> Filtered<Self, State> {
        let state = _LockedBox(initial)
        return Filtered(self) { message, _ in
            let updated = next(state.value, message)
            _ = state.exchange(updated)  // the old state is released here, outside the lock
            return updated
        }
    }

    /// Makes a standalone transform that sends only the messages whose author passes
    /// `isIncluded`.
    ///
    /// ```swift
    /// let friendMessages = messenger.filterAuthor { friends.contains($0) }
    /// ```
    ///
    /// - Parameter isIncluded: Whether a message from this author goes on; runs on the thread that
    ///   delivers it.
    /// - Returns: An observable that sends the messages from the authors that pass; see
    ///   ``Filtered``.
    /// - Complexity: O(1); per message, the test and one send for a message that passes.
    @inlinable
    public func filterAuthor(_ isIncluded: @escaping @Sendable (AnyObject) -> Bool) -> Filtered<Self, Message> {
        Filtered(self) { message, author in isIncluded(author) ? message : nil }
    }

    /// Makes a standalone transform that sends only the messages from `author`, which it holds
    /// weakly.
    ///
    /// - Parameter author: The author whose messages go on; once it is gone, nothing does.
    /// - Returns: An observable that sends `author`'s messages; see ``Filtered``.
    /// - Complexity: O(1); per message, one weak load and one send for a message that passes.
    @inlinable
    public func from(_ author: AnyObject) -> Filtered<Self, Message> {
        let expected = _WeakAuthor(author)
        return Filtered(self) { message, author in expected.object === author ? message : nil }
    }

    /// Makes a standalone transform that sends only the messages not from `author`, which it holds
    /// weakly.
    ///
    /// - Parameter author: The author whose messages are dropped; once it is gone, all go on.
    /// - Returns: An observable that sends the messages of every other author; see ``Filtered``.
    /// - Complexity: O(1); per message, one weak load and one send for a message that passes.
    @inlinable
    public func notFrom(_ author: AnyObject) -> Filtered<Self, Message> {
        let expected = _WeakAuthor(author)
        return Filtered(self) { message, author in expected.object === author ? nil : message }
    }
}
