/// An object that a messenger keeps alive while it is observed: a standalone transform, a
/// combinator, a time operator. See ``_MessengerCore/keepAliveWhileObserved(_:)``.
@usableFromInline
protocol _ObservedOwner: AnyObject {
    /// The number of active observations of the owner's messenger left zero or reached it.
    ///
    /// Called outside every lock, by the thread that made the change; calls from several threads
    /// may arrive in any order, so the owner reads the current number rather than trusting the
    /// call's order.
    func _observedChanged()
}

/// An object told when the messenger of an observation it made dies, or its observable ends every
/// observation (`stopBeingObserved()`): the origin of a standalone transform, say. It is the
/// observation's `observer` field, held weakly, on an observation made as a token's (no
/// ``Observer``).
protocol _MessengerDeathListener: AnyObject {
    /// The messenger of `observation` died, or its observable ended it with every other one; the
    /// observation has ended. Called outside every lock.
    func _messengerDied(of observation: AnyObject)
}

extension _Observation {
    /// An observation made like a token's, whose `observer` field holds `listener` weakly so that
    /// the messenger's death reaches it (see `Messenger.deinit`).
    static func _makeForwarding(
        core: _MessengerCore<Message>,
        handler: _Handler<Message>,
        listener: any _MessengerDeathListener
    ) -> _Observation<Message> {
        _make(observer: listener, core: core, target: nil, handler: handler, isToken: true)
    }
}

extension _ObservationRecord {
    /// The object told when this observation's messenger dies, if it made the observation.
    var _deathListener: (any _MessengerDeathListener)? {
        _observerObject as? any _MessengerDeathListener
    }
}

extension Messenger {
    /// Ends every observation because the owner's origin died or ended the owner's observation of
    /// it: an async sequence learns that no message will come, and transforms further down a chain
    /// end theirs in turn (see `_stopBeingObservedByAll()`).
    func _endObservationsAfterOriginDied() {
        _stopBeingObservedByAll()
    }
}
