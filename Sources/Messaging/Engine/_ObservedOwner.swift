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
