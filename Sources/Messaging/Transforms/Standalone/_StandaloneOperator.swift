/// What every standalone operator is (a transform, a cache, a time operator, a combinator): an
/// observable with a messenger of its own and links to its origins (``_OriginLink``), which it
/// observes only while it is observed itself.
///
/// Written here once: the answer to the operator's own observations starting or ending (each link
/// starts or ends its observation of its origin, ``_updateLinks()``), the answer to an origin's
/// messenger dying, and the link made from the operator's messenger. An operator states its links and whether a dead
/// origin ends it.
protocol _StandaloneOperator: ObservableSource, _ObservedOwner, _MessengerDeathListener {
    /// Calls `body` with each link to an origin, in order.
    func _forEachLink(_ body: (any _AnyOriginLink) -> Void)

    /// Whether the operator's observations end when an origin's messenger dies: a transform of one
    /// origin has nothing more to send; a merge or a combination goes on with its other sources.
    var _endsWhenAnOriginDies: Bool { get }
}

extension _StandaloneOperator {
    var _endsWhenAnOriginDies: Bool { true }

    /// Starts or ends the observation of each origin, to match the operator's own observations:
    /// what the operator's ``_ObservedOwner/_observedChanged()`` does. (That requirement is
    /// usable from inlinable code, so its witness cannot be a default written here.)
    ///
    /// - Complexity: O(*n*) for *n* origins, plus starting or ending their observations.
    func _updateLinks() {
        _forEachLink { $0.update(listener: self) }
    }

    /// Ends the operator's observations if `observation` was one of its links' and a dead origin
    /// ends the operator.
    func _messengerDied(of observation: AnyObject) {
        guard _endsWhenAnOriginDies else { return }
        var isOwn = false
        _forEachLink { link in
            if link.owns(observation) { isOwn = true }
        }
        if isOwn { messenger._endObservationsAfterOriginDied() }
    }

    /// Makes the link to `origin` of an operator whose messenger is `messenger`: it observes the
    /// origin while `messenger` is observed, and sends each of its messages to `handler`.
    ///
    /// Call it from the operator's initializer, then `messenger._core.keepAliveWhileObserved(self)`
    /// once every stored property is set.
    static func _link<Origin: ObservableSource>(
        to origin: Origin,
        for messenger: Messenger<Message>,
        handler: @escaping (Origin.Message, AnyObject, (any Actor)?) -> Void
    ) -> _OriginLink<Origin, Origin.Message> {
        let core = messenger._core
        return _OriginLink(
            origin, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 }, handler: handler)
    }

    /// Makes the link to `origin` of an operator whose messenger is `messenger`, whose every
    /// observation of the origin starts with a replay and has a handler of its own, both made by
    /// `replayOf` (see ``_OriginLink``): an operator that keeps state per observation, such as a
    /// running count.
    ///
    /// Call it from the operator's initializer, then `messenger._core.keepAliveWhileObserved(self)`
    /// once every stored property is set.
    static func _replayingLink<Origin: ObservableSource>(
        to origin: Origin,
        for messenger: Messenger<Message>,
        replayOf:
            @escaping (Origin) -> (
                latest: () -> Origin.Message, author: AnyObject,
                handler: (Origin.Message, AnyObject, (any Actor)?) -> Void
            )
    ) -> _OriginLink<Origin, Origin.Message> {
        let core = messenger._core
        return _OriginLink(
            origin, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            // Every observation gets its own handler from `replayOf`.
            handler: { _, _, _ in }, replayOf: replayOf)
    }
}
