import GeneralObserver
import _MessagingShims

/// A message waiting for the running delivery, with what delivery needs to know about it.
@usableFromInline
struct _Envelope<Message> {
    @usableFromInline var message: Message
    @usableFromInline var author: AnyObject
    /// How many messages the messenger had queued before this one. An observation receives a
    /// queued message only if it was added before the message was queued: its `_firstSequence`
    /// (the count when it was added) is not greater.
    @usableFromInline var sequence: UInt64
    /// The sender's "unchanged" test (a variable's `old == new`), run right before delivery; the
    /// message is dropped if it holds. `nil`: always delivered.
    @usableFromInline var isUnchanged: ((Message) -> Bool)?
    /// The one observation a replayed message goes to; `nil` for a message sent to all.
    @usableFromInline var recipient: _Observation<Message>?
    /// The thread that queued the message (`_messaging_thread_id()`): a send delivers every
    /// message its own thread queued meanwhile, but only a budget of other threads' messages.
    @usableFromInline var sender: UInt

    @inlinable
    init(
        message: Message,
        author: AnyObject,
        sequence: UInt64,
        isUnchanged: ((Message) -> Bool)?,
        recipient: _Observation<Message>? = nil
    ) {
        self.message = message
        self.author = author
        self.sequence = sequence
        self.isUnchanged = isUnchanged
        self.recipient = recipient
        sender = _messaging_thread_id()
    }
}

/// One queued message and the observers it goes to, once its turn has come.
@usableFromInline
struct _Delivery<Message> {
    @usableFromInline var envelope: _Envelope<Message>
    /// The delivery table as it was when this message's turn came; see `_ObservationTable`.
    @usableFromInline var table: Unmanaged<_ObservationTable<Message>>

    @inlinable
    init(envelope: _Envelope<Message>, table: Unmanaged<_ObservationTable<Message>>) {
        self.envelope = envelope
        self.table = table
    }
}

/// The delivery table: the observations in delivery order, with `nil` holes where some ended.
///
/// A delivery reads the table without retaining it, and the state never changes a table that a
/// delivery is reading: the first change during a delivery retires that table (the state's extras
/// keep it alive) and continues on a copy; the retired table is released when the delivery
/// finishes, outside the lock. The common case, a send while nothing changes, thus costs no
/// reference counting at all. The header is the number of slots in use.
///
/// The slots hold each observation as its ``_ObservationRecord``, a class that does not depend on
/// the message type, so that code not specialized for one (inserting, removing) stores and
/// compares them without looking up type metadata; a delivery reads them as the
/// ``_Observation`` each one is.
@usableFromInline
final class _ObservationTable<Message>: ManagedBuffer<Int, _ObservationRecord?> {
    /// A table with room for at least `capacity` slots, none in use.
    @inlinable
    static func make(capacity: Int) -> _ObservationTable<Message> {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in 0 }, to: _ObservationTable<Message>.self)
    }

    deinit {
        withUnsafeMutablePointers { count, slots in
            _ = slots.deinitialize(count: count.pointee)
        }
    }

    /// The number of slots in use: the header, read through its address, which skips the run-time
    /// exclusivity check that the `header` property makes (the core's lock guards the table).
    @inlinable
    var _count: Int { withUnsafeMutablePointerToHeader { $0.pointee } }

    /// A new table holding the same slots, with room for at least `capacity`.
    @inlinable
    func copy(capacity: Int) -> _ObservationTable<Message> {
        let copy = Self.make(capacity: Swift.max(capacity, _count))
        withUnsafeMutablePointers { count, slots in
            copy.withUnsafeMutablePointers { copyCount, copySlots in
                copySlots.initialize(from: slots, count: count.pointee)
                copyCount.pointee = count.pointee
            }
        }
        return copy
    }
}

/// The fields of ``_CoreExtras``, its buffer's header; guarded by the core's lock.
@usableFromInline
struct _CoreExtrasFields<Message> {
    /// Queued messages; delivered ones are moved out, leaving `nil`, until the queue drains.
    @usableFromInline var queue: [_Envelope<Message>?] = []
    @usableFromInline var queueHead = 0
    /// How many messages were ever queued: the `sequence` of the next one.
    @usableFromInline var queuedCount: UInt64 = 0
    /// The table the running delivery reads, once a change made during that delivery retired it;
    /// released when the delivery finishes. At most one: after the first change, the current
    /// table is one that no delivery reads, so later changes are made in place.
    @usableFromInline var retired: _ObservationTable<Message>?
    /// The messenger's relationship ledger, made when first asked for. The state machine never
    /// touches it; it lives here because most messengers never need one.
    @usableFromInline var ledger: SubscriptionLedger?
    /// The object to keep alive while the messenger has an active observation (a standalone
    /// transform, say), registered by ``_MessengerCore/keepAliveWhileObserved(_:)``. Weak: while
    /// nobody observes, the owner's own holders decide its life.
    @usableFromInline weak var owner: (any _ObservedOwner)?
    /// The owner, held strongly from the first active observation to the end of the last one.
    @usableFromInline var keptAlive: (any _ObservedOwner)?
    /// How many observations in the table stand for `subscribe(_:)` without messages
    /// (``_SilentObservation``): they are not counted in `liveCount`, so they neither keep the
    /// owner alive nor count as observing.
    @usableFromInline var silentCount = 0

    @inlinable
    init() {}
}

/// The parts of a messenger's state that most messengers never need, made on first need: the
/// queue of a messenger that received a message while delivering, the table retired by a change
/// made during a delivery, and the ledger.
///
/// A messenger whose deliveries never overlap a send or a change, and whose ledger nobody asked
/// for, thus pays for none of them. Once made, the extras stay for the messenger's life, so that the queue
/// keeps its capacity and `queuedCount` only grows. One allocation: the fields are the buffer's
/// header.
@usableFromInline
final class _CoreExtras<Message>: ManagedBuffer<_CoreExtrasFields<Message>, Void> {
    // Shared between threads although `ManagedBuffer` is not `Sendable`: only ever accessed under
    // the lock of the core whose state holds it.

    @inlinable
    static func make() -> _CoreExtras<Message> {
        unsafeDowncast(create(minimumCapacity: 0) { _ in _CoreExtrasFields() }, to: _CoreExtras<Message>.self)
    }

    @inlinable
    final var _fields: UnsafeMutablePointer<_CoreExtrasFields<Message>> {
        withUnsafeMutablePointerToHeader { $0 }
    }
}
