/// One observed source of a standalone transform, a combinator or a time operator: observes its
/// origin only while the owner is observed, and moves that observation when the origin is
/// replaced.
///
/// The owner's messenger core keeps the owner alive while it is observed and calls the owner's
/// ``_ObservedOwner/_observedChanged()`` when the number of its observations leaves or reaches
/// zero; the owner then calls ``update(listener:)``, which starts or ends the observation of the
/// origin. Calls may come from several threads in any order, so `update` reads the owner's
/// current number of observations, acts, and reads again until the two agree.
///
/// The observation of the origin is made like a token's (no ``Observer``); its `observer` field
/// holds the owner weakly, so that the origin's messenger tells the owner when it dies.
@usableFromInline
final class _OriginLink<Origin, Input>: @unchecked Sendable {
    // `_origin`, `_observation` and `_generation` are guarded by `_lock` (which makes their run-time
    // exclusivity checks redundant); the rest is immutable.
    // The owner's type is `Sendable` only when `Origin` is, so an origin that is not `Sendable`
    // is only ever touched on the threads its owner may be used on.

    let _lock = _Lock()
    @exclusivity(unchecked) var _origin: Origin
    /// The observation of the origin's messenger while the owner is observed. It stays, ended,
    /// when the origin's messenger died or ended it, until the owner is no longer observed.
    @exclusivity(unchecked) var _observation: _Observation<Input>?
    /// Counts origin replacements: an observation made for an older origin is dropped.
    @exclusivity(unchecked) var _generation: UInt64 = 0
    /// Reads the origin's messenger: a user getter, called outside the lock.
    let _messengerOf: (Origin) -> Messenger<Input>
    /// What each message from the origin goes to, with the actor its delivery runs on.
    let _handler: (Input, AnyObject, (any Actor)?) -> Void
    /// Whether the owner has an active observation.
    let _isObserved: () -> Bool
    /// Inserts the new observation (the second argument) into the origin's messenger (the third)
    /// itself; `nil`: just insert. A combinator reads a cache's latest message around the
    /// insertion; an aggregate reads the origin's contents in the same atomic step.
    let _starter: ((Origin, _Observation<Input>, Messenger<Input>) -> Void)?
    /// The replay that each new observation of the origin starts with, and the handler of that
    /// observation (instead of `_handler`), made for it alone so that state it keeps is its own:
    /// `latest` is read under the origin's lock in the step that inserts the observation, and
    /// delivered to it first, as sent by `author`. `nil`: no replay. Used instead of `_starter`.
    let _replayOf:
        ((Origin) -> (latest: () -> Input, author: AnyObject, handler: (Input, AnyObject, (any Actor)?) -> Void))?

    @usableFromInline
    init(
        _ origin: Origin,
        messengerOf: @escaping (Origin) -> Messenger<Input>,
        isObserved: @escaping () -> Bool,
        handler: @escaping (Input, AnyObject, (any Actor)?) -> Void,
        starter: ((Origin, _Observation<Input>, Messenger<Input>) -> Void)? = nil,
        replayOf: (
            (Origin) -> (latest: () -> Input, author: AnyObject, handler: (Input, AnyObject, (any Actor)?) -> Void)
        )? = nil
    ) {
        _origin = origin
        _messengerOf = messengerOf
        _isObserved = isObserved
        _handler = handler
        _starter = starter
        _replayOf = replayOf
    }

    deinit {
        // The owner is gone: stop observing the origin.
        _ = _observation?._end()
    }

    /// The origin.
    var origin: Origin { _lock.withLock { _origin } }

    /// Replaces the origin; the observation, if any, moves to the new one.
    ///
    /// - Complexity: O(1) amortized, plus ending and starting one observation.
    func replaceOrigin(_ newOrigin: Origin, listener: any _MessengerDeathListener) {
        var old: Origin = newOrigin
        let ended = _lock.withLock { () -> _Observation<Input>? in
            swap(&old, &_origin)
            _generation &+= 1
            return _observation.take()
        }
        _ = ended?._end()
        _ = consume old  // released here, outside the lock
        update(listener: listener)
    }

    /// Whether `observation` is this link's current observation: its origin's messenger died.
    func owns(_ observation: AnyObject) -> Bool {
        _lock.withLock { _observation === observation }
    }

    /// Starts observing the origin if the owner is observed and the link does not observe yet;
    /// ends the observation if the owner is not observed. Repeats until the two agree.
    func update(listener: any _MessengerDeathListener) {
        while true {
            let observed = _isObserved()
            let step = _lock.withLock { () -> _LinkStep<Origin, Input> in
                if observed {
                    return _observation == nil ? .start(_origin, _generation) : .done
                }
                guard let observation = _observation.take() else { return .done }
                return .stop(observation)
            }
            switch consume step {
            case .done:
                return
            case .stop(let observation):
                _ = observation._end()
            case .start(let origin, let generation):
                _start(origin, generation, listener: listener)
            }
        }
    }

    /// Makes the observation of `origin` and installs it unless the origin was replaced or
    /// another thread installed one meanwhile.
    func _start(_ origin: Origin, _ generation: UInt64, listener: any _MessengerDeathListener) {
        let messenger = _messengerOf(origin)
        let replay = _replayOf?(origin)
        // `_handler` itself when there is no replay: a handler chosen with `??` would be wrapped in
        // a thunk that every message then goes through.
        let handler: (Input, AnyObject, (any Actor)?) -> Void
        if let replay {
            handler = replay.handler
        } else {
            handler = _handler
        }
        let observation = _Observation<Input>._makeForwarding(
            core: messenger._core, handler: .forward(handler), listener: listener)
        let installed = _lock.withLock { () -> Bool in
            guard _generation == generation, _observation == nil else { return false }
            _observation = observation
            return true
        }
        // If another thread ended it meanwhile, `insert` leaves it out. One that was not installed
        // was never inserted: releasing it is all.
        guard installed else { return }
        if let replay {
            messenger._core.insertReplaying(observation, latest: replay.latest, author: replay.author, isolation: nil)
        } else if let starter = _starter {
            starter(origin, observation, messenger)
        } else {
            messenger._core.insert(observation)
        }
    }
}

/// What a combinator needs of its links, whatever their origin's type.
protocol _AnyOriginLink: AnyObject {
    func update(listener: any _MessengerDeathListener)
    func owns(_ observation: AnyObject) -> Bool
}

extension _OriginLink: _AnyOriginLink {}

/// What ``_OriginLink/update(listener:)`` does after unlocking.
enum _LinkStep<Origin, Input> {
    case done
    case start(Origin, UInt64)
    case stop(_Observation<Input>)
}
