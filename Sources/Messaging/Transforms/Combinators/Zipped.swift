/// An observable that pairs the messages of two observables in order: the first of one with the
/// first of the other, the second with the second, and so on; made by
/// ``ObservableSource/zip(_:)``.
///
/// ```swift
/// let requests = Messenger<Request>()
/// let responses = Messenger<Response>()
/// let exchanges = requests.zip(responses)
/// observer.observe(exchanges) { request, response in log(request, response) }
/// ```
///
/// A pair is sent as soon as its second message arrives, with that message's author. A message
/// waits, in its source's order, until the other source sends its counterpart; nothing is dropped
/// or used twice, so a source that sends more than the other makes its messages wait without
/// bound (as Combine's `zip` does). The pairs are made under a lock and sent after unlocking, in
/// the order they were made, whichever threads make them.
///
/// It observes its sources only while it is observed itself, once each however many observe it,
/// and observing it keeps it and its sources alive for as long as the observation lasts. When its
/// last observation ends, the messages still waiting are dropped, so pairing starts afresh with
/// the next observation. If a source dies (a ``Weak`` one whose observable is gone), nothing can
/// be paired any more and its observations end.
///
/// - Complexity: Per message of a source, while observed: O(1) amortized, and one send for a
///   message that completes a pair.
public final class Zipped<First: ObservableSource, Second: ObservableSource>: ObservableSource, _StandaloneOperator {
    /// A pair of one message of each source.
    public typealias Message = (First.Message, Second.Message)

    /// The messenger that sends the pairs.
    public let messenger: Messenger<(First.Message, Second.Message)>

    /// The observables zipped, in the order of the pair.
    public let sources: (First, Second)

    @usableFromInline let _state: _ZipState<First.Message, Second.Message>
    let _firstLink: _OriginLink<First, First.Message>
    let _secondLink: _OriginLink<Second, Second.Message>

    /// Makes an observable that pairs the messages of `first` and `second` in order.
    ///
    /// Prefer ``ObservableSource/zip(_:)``; see there.
    ///
    /// - Parameters:
    ///   - first: The observable whose messages come first in each pair.
    ///   - second: The observable whose messages come second.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(_ first: First, _ second: Second) {
        let messenger = Messenger<(First.Message, Second.Message)>()
        let state = _ZipState<First.Message, Second.Message>(core: messenger._core)
        self.init(
            _first: first, second, messenger: messenger, state: state,
            firstHandler: { message, author, isolation in state.receiveFirst(message, author: author, isolation) },
            secondHandler: { message, author, isolation in state.receiveSecond(message, author: author, isolation) }
        )
    }

    @usableFromInline
    init(
        _first first: First, _ second: Second,
        messenger: Messenger<(First.Message, Second.Message)>,
        state: _ZipState<First.Message, Second.Message>,
        firstHandler: @escaping (First.Message, AnyObject, (any Actor)?) -> Void,
        secondHandler: @escaping (Second.Message, AnyObject, (any Actor)?) -> Void
    ) {
        self.messenger = messenger
        sources = (first, second)
        _state = state
        let core = messenger._core
        _firstLink = _OriginLink(
            first, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 }, handler: firstHandler)
        _secondLink = _OriginLink(
            second, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 }, handler: secondHandler)
        core.keepAliveWhileObserved(self)
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        if messenger._core.observationCount == 0 { _state.dropWaiting() }
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_firstLink)
        body(_secondLink)
    }
}

// The sources are immutable; the waiting messages are guarded by the state's lock, and each link
// guards its own observation.
extension Zipped: @unchecked Sendable
where First: Sendable, Second: Sendable, First.Message: Sendable, Second.Message: Sendable {}

extension ObservableSource {
    /// Makes an observable that pairs this observable's messages with `other`'s in order: the
    /// first with the first, the second with the second, and so on.
    ///
    /// ```swift
    /// let exchanges = requests.zip(responses)  // sends (Request, Response)
    /// ```
    ///
    /// A message waits until the other observable sends its counterpart; see ``Zipped``. For the
    /// latest message of each instead, use ``combineLatest(_:_:)``.
    ///
    /// - Parameter other: The observable whose messages come second in each pair.
    /// - Returns: The zipped observable. Observing it keeps it alive; it observes both observables
    ///   only while it is observed.
    /// - Complexity: O(1).
    @inlinable
    public func zip<Other: ObservableSource>(_ other: Other) -> Zipped<Self, Other> {
        Zipped(self, other)
    }
}

/// The messages of a ``Zipped`` waiting for their counterparts, and the pairs waiting to be sent.
///
/// `@unchecked Sendable`: `_firsts`, `_seconds` and the outbox are guarded by `_lock`. At most one
/// of the two rings holds messages at any time.
@usableFromInline
final class _ZipState<First, Second>: @unchecked Sendable {
    @usableFromInline let _lock: _Lock
    @exclusivity(unchecked) @usableFromInline var _firsts = _Ring<First>()
    @exclusivity(unchecked) @usableFromInline var _seconds = _Ring<Second>()
    @usableFromInline let _outbox: _Outbox<(First, Second)>

    @inlinable
    init(core: _MessengerCore<(First, Second)>) {
        let lock = _Lock()
        _lock = lock
        _outbox = _Outbox(core: core, lock: lock)
    }

    /// Pairs a message of the first source with the oldest waiting message of the second, or
    /// makes it wait.
    ///
    /// - Complexity: O(1) amortized, and one send for a pair.
    @inlinable
    func receiveFirst(_ message: First, author: AnyObject, _ isolation: (any Actor)?) {
        _lock.lock()
        let sends: Bool
        if let second = _seconds.popFirst() {
            sends = _outbox.post((message, second), author: author)
        } else {
            _firsts.append(message)  // its author is not the pair's: the counterpart's will be
            sends = false
        }
        _lock.unlock()
        if sends { _outbox.send(isolation: isolation) }
    }

    /// Pairs a message of the second source with the oldest waiting message of the first, or
    /// makes it wait.
    ///
    /// - Complexity: O(1) amortized, and one send for a pair.
    @inlinable
    func receiveSecond(_ message: Second, author: AnyObject, _ isolation: (any Actor)?) {
        _lock.lock()
        let sends: Bool
        if let first = _firsts.popFirst() {
            sends = _outbox.post((first, message), author: author)
        } else {
            _seconds.append(message)
            sends = false
        }
        _lock.unlock()
        if sends { _outbox.send(isolation: isolation) }
    }

    /// Drops every waiting message; they are released after unlocking.
    func dropWaiting() {
        var firsts = _Ring<First>()
        var seconds = _Ring<Second>()
        _lock.withLock {
            swap(&firsts, &_firsts)
            swap(&seconds, &_seconds)
        }
        withExtendedLifetime((firsts, seconds)) {}
    }
}
