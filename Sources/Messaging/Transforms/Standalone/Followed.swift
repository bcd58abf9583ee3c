/// A standalone operator that follows a relationship: it observes whichever inner observable its
/// origin's current value leads to, and moves to the next one whenever the origin changes; made by
/// `follow(_:)` (with a key path or a closure) and `switchToLatest()`.
///
/// ```swift
/// final class Project: Equatable, Sendable {
///     let name: Var<String>
///     ...
/// }
/// let currentProject = Var(Project(name: "Draft"))
/// let projectName = currentProject.follow(\.name)   // sends Update<String>
///
/// observer.observe(projectName) { update in title = update.new }
/// currentProject.value.name.value = "Plan"          // Update("Draft", "Plan")
/// currentProject.value = Project(name: "Launch")    // Update("Plan", "Launch")
/// projectName.set("Launch 2")                        // writes the current project's name
/// ```
///
/// It forwards every message of the current inner observable. When the origin changes to a value
/// whose inner observable is another one (another messenger), it stops observing the old inner,
/// whose later messages it no longer forwards, and observes the new one. If the new inner is an
/// ``ObservableCache`` (a ``Var``, another follower), it then reports the switch as an update from
/// the last value it sent to the new inner's current value: `Update(old, new)`, where `old` is
/// the `new` of the last update it sent (or of the value it started from), and nothing if the two
/// are equal. An inner that is not a cache is followed without a report. The report carries the
/// author of the origin's message that caused the switch.
///
/// A relationship may be optional (an origin of `Project?`, or a selector that returns `nil`):
/// the follower's updates are then of optional values, `Update<String?>`, and `nil` stands for "no
/// inner": a switch to no inner reports `Update(old, nil)`, and a switch from none to an inner
/// `Update(nil, new)`. Writing through it while there is no inner writes nothing and returns
/// `false` (see ``Followed/set(_:as:isolation:)``).
///
/// The ordering holds across threads: a switch and a message of the old inner may race, but no
/// message of an inner that is no longer current is delivered after the switch's report. The
/// follower keeps its last message and the messages waiting to go out under a lock, and sends
/// them after unlocking, one thread at a time, in order.
///
/// Like every standalone operator, it observes its ``origin`` and the current inner only while it
/// is observed itself, once however many observe it. Observing it keeps it, its origin and the
/// current inner alive for as long as the observation lasts; it holds its origin strongly, and
/// the current inner only while observing it. When the origin's messenger dies, or the origin
/// ends every observation, the follower's observations end. An inner's death ends nothing: the
/// follower waits for the origin's next change.
///
/// When the inner observables are caches, the follower is one too: its
/// ``ObservableCache/latestMessage`` is the current inner's latest message (read through the
/// origin's latest message), so it can be replayed and followed further:
/// `document.follow(\.currentProject).follow(\.name)`.
///
/// **Why `follow`.** `map(\.name)` already maps each message to a property, so a key-path `map`
/// that also observed the property would be ambiguous with it; Combine's `switchToLatest()` and
/// Rx's `flatMapLatest` say how it works, not what it is for. A follower follows a relationship.
/// For an origin whose messages are the inner observables themselves, `switchToLatest()` is
/// there too.
///
/// - Complexity: Per message of the current inner, while observed: a few rounds of its lock and one send.
///   Per switch: ending one observation, starting another (with a replay of a cache's latest
///   message) and, for a cache, one `==`.
public final class Followed<Origin: ObservableCache, Inner: ObservableSource, Message>: ObservableSource,
    _StandaloneOperator
{
    /// The messenger that sends the current inner observable's messages and the switches' reports.
    public let messenger: Messenger<Message>

    /// Selects the inner observable of one of the origin's messages; `nil`: none.
    let _select: @Sendable (Origin.Message) -> Inner?
    let _state: _FollowState<Inner, Message>
    let _link: _OriginLink<Origin, Origin.Message>

    /// Makes a follower of `origin`.
    ///
    /// - Parameters:
    ///   - select: The inner observable of one of the origin's messages.
    ///   - lift: Turns an inner's message into the follower's.
    ///   - bridge: The report of a switch, from the last message sent to the new inner's latest
    ///     one; `nil` to send nothing.
    ///   - absent: What stands for "no inner", for an optional relationship.
    init(
        _origin origin: Origin,
        select: @escaping @Sendable (Origin.Message) -> Inner?,
        lift: @escaping (Inner.Message) -> Message,
        bridge: @escaping (Message?, Message) -> Message?,
        absent: Message?
    ) {
        let messenger = Messenger<Message>()
        let state = _FollowState<Inner, Message>(core: messenger._core, lift: lift, bridge: bridge, absent: absent)
        self.messenger = messenger
        _select = select
        _state = state
        let core = messenger._core
        _link = _OriginLink(
            origin,
            messengerOf: { $0.messenger },
            isObserved: { core.observationCount > 0 },
            handler: { message, author, isolation in
                state.switchTo(select(message), reports: true, author: author, fromSource: true, isolation: isolation)
            },
            starter: { origin, observation, messenger in
                let received = state.sourceMessages
                messenger._core.insert(observation)
                // Read after observing, so that no change is missed; used only if no message of
                // the origin came in meanwhile (it would be newer).
                state.switchTo(
                    select(origin.latestMessage), reports: false, author: origin, fromSource: false,
                    ifSourceMessagesAre: received, isolation: nil)
            }
        )
        core.keepAliveWhileObserved(self)
    }

    deinit {
        _state.endObservation()
    }

    /// The observable whose current value leads to the inner observable.
    ///
    /// - Complexity: O(1).
    public var origin: Origin { _link.origin }

    /// The inner observable that the origin's latest message leads to, or `nil` if it leads to
    /// none.
    ///
    /// It is read from the origin each time, so it is the current one whether or not the follower
    /// is observed.
    ///
    /// - Complexity: Reading the origin's latest message, and the selection.
    public var inner: Inner? { _select(origin.latestMessage) }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        _state.reconcile(isolation: nil)
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The origin and the observation of it are guarded by the link's lock, the inner observable, its
// observation and the messages waiting to go out by the state's lock; the rest is immutable.
extension Followed: @unchecked Sendable
where Origin: Sendable, Origin.Message: Sendable, Inner: Sendable, Inner.Message: Sendable, Message: Sendable {}

extension Followed: ObservableCache where Inner: ObservableCache {
    /// The current inner observable's latest message, or, with no inner, what stands for none
    /// (`Update(nil, nil)` for an optional relationship).
    ///
    /// It is read through the origin's latest message, so it is the current one whether or not the
    /// follower is observed. Sending through the follower does not change it.
    ///
    /// - Complexity: Reading the origin's and the inner's latest messages, and the selection.
    public var latestMessage: Message {
        guard let inner else {
            // Only an optional relationship has no inner, and it has a stand-in.
            guard let absent = _state._absent else {
                preconditionFailure("a follower whose selector returns an inner always has one")
            }
            return absent
        }
        return _state._lift(inner.latestMessage)
    }
}
