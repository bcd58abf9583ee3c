/// An observable that sends the latest messages of several observables together, as a tuple,
/// whenever one of them sends, once each has sent; made by ``combineLatest(_:_:_:)->CombinedLatest<First,Second,Other>``.
///
/// ```swift
/// let firstName = Var("Ada")
/// let lastName = Var("Lovelace")
/// let fullName = combineLatest(firstName.new(), lastName.new()).map { name in "\(name.0) \(name.1)" }
/// observer.observe(fullName) { name in show(name) }
/// ```
///
/// Each tuple carries the author of the message that caused it. A source that is an
/// ``ObservableCache`` starts from its ``ObservableCache/latestMessage`` (read when the combination
/// starts observing it), so a combination of caches sends on the first change of any of them; a
/// source that is not a cache counts once it has sent. The latest messages are kept while nobody
/// observes; a cache's is read again when observing starts again. When every source is a cache,
/// the combination is one too, and its latest message is the tuple of theirs.
///
/// The latest messages are kept under a lock, and the tuples are sent after unlocking, in the order
/// the changes were made, whichever threads make them: the last tuple sent is always the latest.
///
/// It observes its sources only while it is observed itself, once each however many observe it,
/// and observing it keeps it and its sources alive for as long as the observation lasts. It holds
/// its sources strongly; wrap one with ``ObservableSource/weak()`` to hold it weakly. A source
/// that dies (a ``Weak`` one whose observable is gone) ends nothing: its latest message stays part
/// of the tuple.
///
/// - Complexity: Per message of a source, while observed: O(*n*) for *n* sources, and one send.
public final class CombinedLatest<each Source: ObservableSource>: ObservableSource, _StandaloneOperator {
    /// A tuple of one message of each source.
    public typealias Message = (repeat (each Source).Message)

    /// The messenger that sends the tuples.
    public let messenger: Messenger<(repeat (each Source).Message)>

    /// The observables combined, in the order of the tuple.
    public let sources: (repeat each Source)

    let _state: _CombineState<repeat (each Source).Message>
    let _links: [any _AnyOriginLink]

    /// Makes an observable that combines the latest messages of `sources`.
    ///
    /// Prefer ``combineLatest(_:_:_:)->CombinedLatest<First,Second,Other>``, which asks for at least two sources.
    ///
    /// - Parameter sources: The observables to combine.
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public convenience init(_ sources: repeat each Source) {
        let messenger = Messenger<(repeat (each Source).Message)>()
        let state = _CombineState<repeat (each Source).Message>(core: messenger._core)
        // A handler made in a `repeat` expression is not specialized, and would call the state's
        // methods unspecialized: thousands of instructions per message, looking up the tuple's
        // type metadata. So the handlers reach the state through closures made here, outside
        // the expansion, in the client's code, where they are specialized.
        let combining = _ErasedCombining(
            _lock: state._lock,
            post: { author in state._postCombined(author: author) },
            send: { isolation in state._sendPosted(isolation: isolation) }
        )
        self.init(
            _sources: repeat each sources,
            messenger: messenger,
            state: state,
            handlers: repeat _combinationHandler(combining, each state.slots)
        )
    }

    @usableFromInline
    init(
        _sources sources: repeat each Source,
        messenger: Messenger<(repeat (each Source).Message)>,
        state: _CombineState<repeat (each Source).Message>,
        handlers: repeat @escaping ((each Source).Message, AnyObject, (any Actor)?) -> Void
    ) {
        let core = messenger._core
        self.messenger = messenger
        self.sources = (repeat each sources)
        _state = state
        var links: [any _AnyOriginLink] = []
        for (source, slot, handler) in repeat (each sources, each state.slots, each handlers) {
            links.append(Self._link(source, slot, state, core, handler))
        }
        _links = links
        core.keepAliveWhileObserved(self)
    }

    /// The link that observes `source`, whose messages go to `handler`.
    static func _link<Origin: ObservableSource>(
        _ source: Origin,
        _ slot: _LatestSlot<Origin.Message>,
        _ state: _CombineState<repeat (each Source).Message>,
        _ core: _MessengerCore<(repeat (each Source).Message)>,
        _ handler: @escaping (Origin.Message, AnyObject, (any Actor)?) -> Void
    ) -> _OriginLink<Origin, Origin.Message> {
        _OriginLink(
            source,
            messengerOf: { $0.messenger },
            isObserved: { core.observationCount > 0 },
            handler: handler,
            starter: { origin, observation, messenger in
                let received = state.receivedCount(of: slot)
                messenger._core.insert(observation)
                // Read after observing, so that nothing sent meanwhile is missed; stored only if
                // no message came in meanwhile.
                if let latest = _latestMessage(ifCache: origin) {
                    state.seed(latest, in: slot, ifReceivedCountIs: received)
                }
            }
        )
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        for link in _links { body(link) }
    }

    /// A dead source ends nothing: its latest message stays.
    var _endsWhenAnOriginDies: Bool { false }
}

// The sources are immutable; the latest messages are guarded by the state's lock, and each link
// guards its own observation.
extension CombinedLatest: @unchecked Sendable
where repeat each Source: Sendable, repeat (each Source).Message: Sendable {}

extension CombinedLatest: ObservableCache where repeat each Source: ObservableCache {
    /// The tuple of the sources' latest messages.
    ///
    /// - Complexity: Reading each source's latest message.
    public var latestMessage: (repeat (each Source).Message) {
        (repeat (each sources).latestMessage)
    }
}

/// Makes an observable that sends the latest messages of two or more observables as a tuple,
/// whenever one of them sends, once each has a message; see ``CombinedLatest``.
///
/// ```swift
/// let area = combineLatest(width.new(), height.new()).map { size in size.0 * size.1 }
/// ```
///
/// Where another module's `combineLatest` (Swift Async Algorithms', say) makes the call ambiguous,
/// write `Messaging.combineLatest(a, b)` or `CombinedLatest(a, b)`.
///
/// - Parameters:
///   - first: The first observable.
///   - second: The second observable.
///   - others: Any further observables.
/// - Returns: The combination.
/// - Complexity: O(*n*) for *n* observables.
@inlinable
public func combineLatest<First: ObservableSource, Second: ObservableSource, each Other: ObservableSource>(
    _ first: First, _ second: Second, _ others: repeat each Other
) -> CombinedLatest<First, Second, repeat each Other> {
    CombinedLatest(first, second, repeat each others)
}

/// Makes an observable that sends the latest messages of two observables as a pair, whenever one
/// of them sends, once each has a message; see ``CombinedLatest``.
///
/// The same as the variadic ``combineLatest(_:_:_:)->CombinedLatest<First,Second,Other>`` with two observables, whose path for every
/// message the compiler specializes for the messages' types; it cannot do so through a parameter
/// pack.
///
/// - Parameters:
///   - first: The first observable.
///   - second: The second observable.
/// - Returns: The combination.
/// - Complexity: O(1).
@inlinable
public func combineLatest<First: ObservableSource, Second: ObservableSource>(
    _ first: First, _ second: Second
) -> CombinedLatest<First, Second> {
    let messenger = Messenger<(First.Message, Second.Message)>()
    let firstSlot = _LatestSlot<First.Message>()
    let secondSlot = _LatestSlot<Second.Message>()
    let state = _CombineState<First.Message, Second.Message>(core: messenger._core, slots: firstSlot, secondSlot) {
        guard let first = firstSlot.value, let second = secondSlot.value else { return nil }
        return (first, second)
    }
    return CombinedLatest(
        _sources: first, second,
        messenger: messenger,
        state: state,
        handlers: _combinationHandler(state, firstSlot), _combinationHandler(state, secondSlot)
    )
}

/// Makes an observable that sends the latest messages of three observables as a triple, whenever
/// one of them sends, once each has a message; see ``CombinedLatest``.
///
/// The same as the variadic ``combineLatest(_:_:_:)->CombinedLatest<First,Second,Other>`` with three observables, whose path for
/// every message the compiler specializes for the messages' types; it cannot do so through a
/// parameter pack.
///
/// - Parameters:
///   - first: The first observable.
///   - second: The second observable.
///   - third: The third observable.
/// - Returns: The combination.
/// - Complexity: O(1).
@inlinable
public func combineLatest<First: ObservableSource, Second: ObservableSource, Third: ObservableSource>(
    _ first: First, _ second: Second, _ third: Third
) -> CombinedLatest<First, Second, Third> {
    let messenger = Messenger<(First.Message, Second.Message, Third.Message)>()
    let firstSlot = _LatestSlot<First.Message>()
    let secondSlot = _LatestSlot<Second.Message>()
    let thirdSlot = _LatestSlot<Third.Message>()
    let state = _CombineState<First.Message, Second.Message, Third.Message>(
        core: messenger._core, slots: firstSlot, secondSlot, thirdSlot
    ) {
        guard let first = firstSlot.value, let second = secondSlot.value, let third = thirdSlot.value else {
            return nil
        }
        return (first, second, third)
    }
    return CombinedLatest(
        _sources: first, second, third,
        messenger: messenger,
        state: state,
        handlers: _combinationHandler(state, firstSlot), _combinationHandler(state, secondSlot),
        _combinationHandler(state, thirdSlot)
    )
}

/// Makes an observable that sends the latest messages of four observables as a tuple, whenever
/// one of them sends, once each has a message; see ``CombinedLatest``.
///
/// The same as the variadic ``combineLatest(_:_:_:)->CombinedLatest<First,Second,Other>`` with four observables, whose path for
/// every message the compiler specializes for the messages' types; it cannot do so through a
/// parameter pack. Five or more observables take the variadic function.
///
/// - Parameters:
///   - first: The first observable.
///   - second: The second observable.
///   - third: The third observable.
///   - fourth: The fourth observable.
/// - Returns: The combination.
/// - Complexity: O(1).
@inlinable
public func combineLatest<
    First: ObservableSource, Second: ObservableSource, Third: ObservableSource, Fourth: ObservableSource
>(
    _ first: First, _ second: Second, _ third: Third, _ fourth: Fourth
) -> CombinedLatest<First, Second, Third, Fourth> {
    let messenger = Messenger<(First.Message, Second.Message, Third.Message, Fourth.Message)>()
    let firstSlot = _LatestSlot<First.Message>()
    let secondSlot = _LatestSlot<Second.Message>()
    let thirdSlot = _LatestSlot<Third.Message>()
    let fourthSlot = _LatestSlot<Fourth.Message>()
    let state = _CombineState<First.Message, Second.Message, Third.Message, Fourth.Message>(
        core: messenger._core, slots: firstSlot, secondSlot, thirdSlot, fourthSlot
    ) {
        guard let first = firstSlot.value, let second = secondSlot.value, let third = thirdSlot.value,
            let fourth = fourthSlot.value
        else { return nil }
        return (first, second, third, fourth)
    }
    return CombinedLatest(
        _sources: first, second, third, fourth,
        messenger: messenger,
        state: state,
        handlers: _combinationHandler(state, firstSlot), _combinationHandler(state, secondSlot),
        _combinationHandler(state, thirdSlot), _combinationHandler(state, fourthSlot)
    )
}

/// The latest message of `source` if it is an ``ObservableCache``.
func _latestMessage<Origin: ObservableSource>(ifCache source: Origin) -> Origin.Message? {
    guard let cache = source as? any ObservableCache else { return nil }
    return _openLatestMessage(cache) as? Origin.Message
}

private func _openLatestMessage<Cache: ObservableCache>(_ cache: Cache) -> Any {
    cache.latestMessage
}

/// The latest message of one source of a combination; guarded by its ``_CombineState``'s lock, so
/// the run-time exclusivity check is left out.
@usableFromInline
final class _LatestSlot<Value> {
    @exclusivity(unchecked) @usableFromInline var value: Value?
    /// How many messages the source sent to the combination.
    @exclusivity(unchecked) @usableFromInline var received: UInt64 = 0

    @inlinable
    init() {}
}

/// Why a tuple could not be made: a source has no message yet.
@usableFromInline
struct _NoMessageYet: Error {
    @inlinable
    init() {}
}

/// Unwraps a slot's value for a tuple; typed, so that failing allocates nothing.
@inlinable @inline(__always)
func _required<Value>(_ slot: _LatestSlot<Value>) throws(_NoMessageYet) -> Value {
    guard let value = slot.value else { throw _NoMessageYet() }
    return value
}

/// A new slot, typed after `type`.
@inlinable
func _makeSlot<Value>(_ type: Value.Type) -> _LatestSlot<Value> { _LatestSlot() }

/// The latest messages of a combination's sources.
///
/// Inlinable, like ``_Outbox``: every message of a source goes through ``receive(_:in:author:isolation:)``,
/// which, specialized in the client's code, looks up no type metadata at run time.
@usableFromInline
final class _CombineState<each Value>: @unchecked Sendable {
    // The slots' contents and the outbox are guarded by `_lock`.
    @usableFromInline let _lock: _Lock
    @usableFromInline let slots: (repeat _LatestSlot<each Value>)
    @usableFromInline let _outbox: _Outbox<(repeat each Value)>
    /// The tuple of the latest messages, if every source has one. Call under the lock.
    @usableFromInline let _combined: () -> (repeat each Value)?

    /// A state whose tuples are made through the parameter pack, for any number of sources.
    @inlinable
    convenience init(core: _MessengerCore<(repeat each Value)>) {
        let slots = (repeat _makeSlot((each Value).self))
        self.init(core: core, slots: repeat each slots) {
            do throws(_NoMessageYet) {
                return (repeat try _required(each slots))
            } catch {
                return nil
            }
        }
    }

    /// A state with `slots`, whose tuples `combined` makes from them.
    ///
    /// A tuple made through the parameter pack works with type metadata at run time, even in
    /// specialized code (hundreds of instructions); `combineLatest` of two to four sources
    /// passes a closure that reads their slots by name.
    @inlinable
    init(
        core: _MessengerCore<(repeat each Value)>,
        slots: repeat _LatestSlot<each Value>,
        combined: @escaping () -> (repeat each Value)?
    ) {
        let lock = _Lock()
        _lock = lock
        _outbox = _Outbox(core: core, lock: lock)
        self.slots = (repeat each slots)
        _combined = combined
    }

    /// How many messages the source of `slot` sent.
    @inlinable
    func receivedCount<Slot>(of slot: _LatestSlot<Slot>) -> UInt64 {
        _lock.withLock { slot.received }
    }

    /// Stores a cache's latest message unless its source sent since `received`; sends nothing.
    @inlinable
    func seed<Slot>(_ latest: Slot, in slot: _LatestSlot<Slot>, ifReceivedCountIs received: UInt64) {
        var value: Slot? = latest
        _lock.withLock {
            if slot.received == received { swap(&value, &slot.value) }
        }
        withExtendedLifetime(value) {}  // the replaced message is released here, outside the lock
    }

}

extension _CombineState: _Combining {
    @inlinable
    func _postCombined(author: AnyObject) -> Bool {
        _combined().map { _outbox.post($0, author: author) } ?? false
    }

    @inlinable
    func _sendPosted(isolation: (any Actor)?) {
        _outbox.send(isolation: isolation)
    }
}

/// What the handler of a combination's source needs of its ``_CombineState``, without naming the
/// state's parameter pack: the compiler specializes a function generic over a pack and another
/// parameter less well than one generic over plain types.
@usableFromInline
protocol _Combining: AnyObject {
    var _lock: _Lock { get }
    /// Queues the tuple of the latest messages, if every source has one; `true` if the caller must
    /// then send. Call under the lock.
    func _postCombined(author: AnyObject) -> Bool
    /// Sends the queued tuples; call without the lock.
    func _sendPosted(isolation: (any Actor)?)
}

/// A ``_CombineState`` behind closures made in specialized code, for the handlers that
/// `CombinedLatest.init(_:)` makes through its parameter pack: see there.
@usableFromInline
final class _ErasedCombining: _Combining {
    @usableFromInline let _lock: _Lock
    @usableFromInline let _post: (AnyObject) -> Bool
    @usableFromInline let _send: ((any Actor)?) -> Void

    @inlinable
    init(_lock: _Lock, post: @escaping (AnyObject) -> Bool, send: @escaping ((any Actor)?) -> Void) {
        self._lock = _lock
        _post = post
        _send = send
    }

    @inlinable
    func _postCombined(author: AnyObject) -> Bool { _post(author) }

    @inlinable
    func _sendPosted(isolation: (any Actor)?) { _send(isolation) }
}

/// The handler of one source's messages: stores each in `slot` and sends the new tuple, if every
/// source has a message.
///
/// - Complexity: O(*n*) for *n* sources, and one send.
@inlinable
func _combinationHandler<State: _Combining, Slot>(
    _ state: State,
    _ slot: _LatestSlot<Slot>
) -> (Slot, AnyObject, (any Actor)?) -> Void {
    { message, author, isolation in
        var replaced: Slot? = message
        state._lock.lock()
        swap(&replaced, &slot.value)
        slot.received &+= 1
        let sends = state._postCombined(author: author)
        state._lock.unlock()
        withExtendedLifetime(replaced) {}  // released here, outside the lock
        if sends { state._sendPosted(isolation: isolation) }
    }
}
