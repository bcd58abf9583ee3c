/// An observable that sends every message of several observables of one message type; made by
/// ``merge(_:)``.
///
/// ```swift
/// let local = Messenger<Note>()
/// let remote = Messenger<Note>()
/// let allNotes = merge(local, remote)
/// observer.observe(allNotes) { note in show(note) }
/// ```
///
/// Each message keeps its author. Messages of one source arrive in the order that source sent
/// them. Messages of different sources sent from one thread arrive in the order they were sent
/// while no other thread is delivering on those sources; a message that finds its source busy
/// with another thread's delivery waits in that source's queue and reaches the merge when that
/// delivery gets to it, so a later message of an idle source can arrive first. Send through one
/// source (or one messenger that both feed) where the order across sources matters.
///
/// It observes its sources only while it is observed itself, once each however many observe it,
/// and observing it keeps it and its sources alive for as long as the observation lasts. It holds
/// its sources strongly; wrap one with ``ObservableSource/weak()`` to hold it weakly. A source
/// that dies (a ``Weak`` one whose observable is gone) ends nothing: the others go on.
///
/// - Complexity: Per message of a source, while observed: one send.
public final class Merged<Message: Sendable>: ObservableSource, _StandaloneOperator,
    @unchecked Sendable
{
    // The sources are `Sendable` and immutable; each link guards its own observation.

    /// The messenger that sends the merged messages.
    public let messenger: Messenger<Message>

    /// The observables whose messages this one sends, in the order given.
    public let sources: [any ObservableSource<Message> & Sendable]

    let _links: [_OriginLink<any ObservableSource<Message> & Sendable, Message>]

    @usableFromInline
    init(
        _sources sources: [any ObservableSource<Message> & Sendable],
        messenger: Messenger<Message>,
        forward: @escaping (Message, AnyObject, (any Actor)?) -> Void
    ) {
        self.messenger = messenger
        self.sources = sources
        let core = messenger._core
        _links = sources.map { source in
            _OriginLink(
                source, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 }, handler: forward)
        }
        core.keepAliveWhileObserved(self)
    }

    /// Makes an observable that sends every message of each of `sources`.
    ///
    /// - Parameter sources: The observables to merge; an empty array makes one that never sends.
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public convenience init(_ sources: [any ObservableSource<Message> & Sendable]) {
        let messenger = Messenger<Message>()
        let core = messenger._core
        self.init(_sources: sources, messenger: messenger) { message, author, isolation in
            core.send(message, author: author, checksChange: false, isolation: isolation)
        }
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        for link in _links { body(link) }
    }

    /// A dead source ends nothing; its link keeps the ended observation until the merge is no
    /// longer observed.
    var _endsWhenAnOriginDies: Bool { false }
}

/// Makes an observable that sends every message of each of `sources`; see ``Merged``.
///
/// ```swift
/// let allNotes = merge(local, remote, shared)
/// ```
///
/// Where another module's `merge` (Swift Async Algorithms', say) makes the call ambiguous, write
/// `Messaging.merge(a, b)` or `Merged([a, b])`.
///
/// - Parameter sources: The observables to merge, all of one message type.
/// - Returns: The merged observable.
/// - Complexity: O(*n*) for *n* sources.
@inlinable
public func merge<Message: Sendable>(_ sources: any ObservableSource<Message> & Sendable...) -> Merged<Message> {
    Merged(sources)
}
