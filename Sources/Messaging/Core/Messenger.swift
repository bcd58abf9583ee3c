import GeneralObserver

/// The simplest observable: anyone can send messages through it, and observers receive them.
///
/// ```swift
/// let textMessenger = Messenger<String>()
///
/// observer.observe(textMessenger) { textMessage in
///     // respond to textMessage
/// }
///
/// textMessenger.send("my message")
/// ```
///
/// Every other observable either is a messenger (a subclass) or owns one (see ``ObservableSource``).
///
/// ## Delivery
/// - Every observer receives messages in the order they were sent; observers are called in the
///   order they started observing.
/// - A message sent while a delivery is running (from a handler, or from another thread) is
///   queued and delivered right after the current one has reached every observer. A messenger's
///   deliveries never nest, and no handler of one messenger ever runs twice at once. The thread
///   that is delivering delivers the queued messages too: all that its own thread queued, and up
///   to 64 from other threads, after which a runner of the library's delivers the rest, in order.
///   So ``ObservableSource/send(_:isolation:)`` may return before a message it queued was
///   delivered; ``waitForPendingDeliveries()`` waits for such messages.
/// - An observation that ends during a delivery receives nothing more: at once when it is ended
///   on the delivering thread (by an earlier handler, say); when it is ended from another thread,
///   no call starts after `stopObserving` returns, though a call that had already begun may still
///   be running. An observation that starts during a delivery receives only the messages sent
///   after it started.
/// - No handler runs while the messenger's lock is held.
///
/// A messenger is `Sendable` when its `Message` is: any thread may then send, observe and stop
/// observing at the same time. A subclass must then restate `@unchecked Sendable` and guard its
/// own state; keeping a messenger as a property (see ``ObservableSource``) avoids that.
///
/// The observations live as long as the messenger: if an ``ObservableSource`` that owns it dies
/// while something else keeps the messenger, its observers keep receiving what is sent through
/// the messenger until they stop observing it.
open class Messenger<Message>: ObservableSource {
    /// The relationship bookkeeping that makes the messenger a ``GeneralObservable``.
    ///
    /// Made when first needed, so that a messenger nobody observes costs two allocations: itself
    /// and its core.
    public var subscriptionLedger: SubscriptionLedger { _core.ledger }

    @usableFromInline let _core = _MessengerCore<Message>.make()

    /// Creates a messenger with no observers.
    public init() {}

    deinit {
        // Nobody can send or observe any more: end the observations without callbacks (the
        // ledger's own deinit removes the relationships with subscribers that are not observers),
        // and let their observers' receivers release them. This also breaks the cycle between the
        // core and its observations.
        let table = _core.removeAll()
        table?.withUnsafeMutablePointers { count, slots in
            for index in 0..<count.pointee {
                guard let observation = slots[index], observation._deactivate() else { continue }
                if let observer = observation._observer {
                    observer.receiver._forgetMessenger(ObjectIdentifier(self))
                } else if observation._isToken, let listener = observation._deathListener {
                    listener._messengerDied(of: observation)
                }
                observation._observableDidEnd()
            }
        }
        // The relationships end with the messenger, whoever still holds its core.
        _ = _core.takeLedger()
    }

    /// The messenger itself: a messenger is its own ``ObservableSource/messenger``.
    public final var messenger: Messenger<Message> { self }

    /// The number of active observations, tokens included.
    ///
    /// A relationship made by ``GeneralObservable/subscribe(_:)`` without messages is not an
    /// observation, and is not counted.
    ///
    /// - Complexity: O(1).
    public final var observationCount: Int { _core.observationCount }
}

// Its only mutable state is in `_core`, behind the core's lock.
extension Messenger: @unchecked Sendable where Message: Sendable {}
