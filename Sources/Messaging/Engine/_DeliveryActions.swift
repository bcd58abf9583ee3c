import GeneralObserver
import _MessagingShims

/// What the messenger does after ``_DeliveryState/send(_:author:isUnchanged:)``.
@usableFromInline
enum _SendAction<Message> {
    /// Deliver the message now to every observation in this table (read unretained: the state
    /// keeps it alive and unchanged until ``_DeliveryState/finishDelivery()``).
    case deliver(table: Unmanaged<_ObservationTable<Message>>)
    /// A delivery is running; it will deliver the message, in order.
    case queued
    /// Nobody has ever observed the messenger: there is nobody to deliver to, now or later.
    case dropped
}

/// What the messenger does after ``_DeliveryState/insertReplaying(_:latest:author:)``.
@usableFromInline
enum _ReplayAction<Message> {
    /// The messenger was idle and now counts as delivering: deliver the latest message to the new
    /// observation, then finish the delivery as after a send.
    case deliver(Message)
    /// A delivery is running; it will deliver the latest message to the new observation, first.
    case queued
    /// A delivery is running, and the new observation's handler belongs to the caller's actor:
    /// the caller posts the latest message to that actor's queue before unlocking, so that it
    /// comes before anything the running delivery can post for the observation, and runs it before
    /// returning unless a handler on the actor is running already.
    case postToActor(Message)
}

/// What the messenger does after ``_DeliveryState/finishDelivery()``.
@usableFromInline
enum _FinishAction<Message> {
    /// Deliver the next queued message; release the retired table, if any, after unlocking.
    case deliverNext(_Delivery<Message>, retired: _ObservationTable<Message>?)
    /// The messenger is idle, and nothing left the state: the common case, which carries nothing
    /// to release.
    case idle
    /// The messenger is idle; release the retired table, if any, and any queued messages that
    /// could not be delivered because the messenger died meanwhile, after unlocking.
    case idleReleasing(retired: _ObservationTable<Message>?, discarded: [_Envelope<Message>?])
}

/// Where a messenger is: states that exclude each other.
@usableFromInline
enum _DeliveryPhase {
    /// No delivery runs.
    case idle
    /// A delivery runs and reads the current table, which must therefore not change in place.
    case deliveringFromTable
    /// A delivery runs and reads a table that was retired meanwhile (the extras' `retired`); the
    /// current one is its own.
    case deliveringFromRetiredTable
}
