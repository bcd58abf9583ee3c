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
