import GeneralObserver

// What `ObservableSource` reads of a core to answer the `GeneralObservable` questions: its
// relationships are its active observations (`subscribe(_:)` of an observer makes a silent one),
// plus the ledger of those with subscribers that are not observers.

extension _MessengerCore {
    /// The ledger, if anything made it; `nil` means no relationship was ever recorded in it.
    ///
    /// Inlinable, so that code specialized for the message type asks it cheaply: unspecialized,
    /// reading the core's fields looks up their layout at run time (several hundred instructions).
    @inlinable
    final var existingLedger: SubscriptionLedger? {
        withLock { _words.pointee.ledger }
    }

    /// The observers of the active observations, each once, in the order they first observed;
    /// tokens have no observer and are left out.
    ///
    /// The weak references are loaded under the lock into strong ones, which the caller releases
    /// after unlocking: no `deinit` runs under the lock.
    ///
    /// - Complexity: O(*n*) for *n* slots of the delivery table.
    final func observers() -> [any GeneralSubscriber] {
        withLock {
            guard let table = _state.pointee._table else { return [] }
            var listed = Set<ObjectIdentifier>()
            var observers: [any GeneralSubscriber] = []
            table.withUnsafeMutablePointers { count, slots in
                for index in 0..<count.pointee {
                    guard let observation = slots[index], observation._isActiveWhileLocked,
                        let observer = observation._observer
                    else { continue }
                    if listed.insert(ObjectIdentifier(observer)).inserted { observers.append(observer) }
                }
            }
            return observers
        }
    }
}
