import Testing

@testable import Messaging

/// The delivery state machine on its own, without threads or locks: each step returns the action
/// the messenger must take.
@Suite("Delivery state: the actions of the state machine")
struct DeliveryStateTests {
    let messenger = Messenger<Int>()
    let author = Probe()

    func observation() -> _Observation<Int> {
        _Observation.make(observer: nil, messenger: messenger, target: nil, handler: .message { _ in })
    }

    /// The sequence number of a `.deliver` action, or `nil` for any other action.
    func deliveredSequence(_ action: _SendAction<Int>) -> UInt64? {
        if case .deliver(_, let sequence) = action { return sequence }
        return nil
    }

    func isQueued(_ action: _SendAction<Int>) -> Bool {
        if case .queued = action { return true }
        return false
    }

    /// The next message's sequence number, or `nil` if the messenger went idle; and how many
    /// tables were retired.
    func finish(_ state: inout _DeliveryState<Int>) -> (next: UInt64?, retired: Int) {
        switch state.finishDelivery() {
        case .idle(let retired, _): (nil, retired.count)
        case .deliverNext(let delivery, let retired): (delivery.envelope.sequence, retired.count)
        }
    }

    @Test("a messenger nobody ever observed drops its messages and stays idle")
    func nobodyObserved() {
        var state = _DeliveryState<Int>()
        guard case .dropped = state.send(1, author: author, checksChange: false) else {
            Issue.record("expected .dropped")
            return
        }
        guard case .idle = state.phase else {
            Issue.record("expected .idle")
            return
        }
    }

    @Test("one delivery at a time: later sends are queued and handed out in order, then the state is idle")
    func queuedInOrder() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)

        #expect(deliveredSequence(state.send(10, author: author, checksChange: false)) == 0)
        #expect(isQueued(state.send(11, author: author, checksChange: false)))
        #expect(isQueued(state.send(12, author: author, checksChange: true)))

        #expect(finish(&state).next == 1)
        #expect(finish(&state).next == 2)
        #expect(finish(&state).next == nil)
        guard case .idle = state.phase else {
            Issue.record("expected .idle")
            return
        }
        #expect(deliveredSequence(state.send(13, author: author, checksChange: false)) == 3)
        withExtendedLifetime(first) {}
    }

    @Test("an observation added during a delivery starts at the next sequence number, on a copied table")
    func insertDuringDelivery() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)
        _ = state.send(1, author: author, checksChange: false)
        guard case .deliveringFromTable = state.phase else {
            Issue.record("expected .deliveringFromTable")
            return
        }

        let second = observation()
        state.insert(second)
        #expect(second._firstSequence == 1)
        guard case .deliveringFromRetiredTable = state.phase else {
            Issue.record("expected .deliveringFromRetiredTable")
            return
        }
        // The table the delivery read is handed back for release after unlocking.
        #expect(finish(&state) == (nil, 1))
        #expect(state.liveCount == 2)
        withExtendedLifetime((first, second)) {}
    }

    @Test("removing counts the end as applied and empties the slot; compaction keeps the order")
    func removeAndCompact() {
        var state = _DeliveryState<Int>()
        let observations = (0..<40).map { _ in observation() }
        for observation in observations { state.insert(observation) }
        for observation in observations.prefix(30) { state.remove(observation) }

        #expect(state.liveCount == 10)
        #expect(state.endsApplied == 30)
        // Compacted once more than half of over 32 slots were holes (at the 21st removal); the
        // later removals leave holes again.
        let slots = state.table.withUnsafeMutablePointers { count, slots in
            (0..<count.pointee).map { slots[$0] }
        }
        #expect(slots.count == 19)
        let kept = slots.compactMap { $0 }
        #expect(kept.map(ObjectIdentifier.init) == observations.suffix(10).map(ObjectIdentifier.init))
        #expect(slots.indices.allSatisfy { index in slots[index].map { $0._slot == index } ?? true })
        withExtendedLifetime(observations) {}
    }

    @Test("removeAll during a delivery keeps the table the delivery reads, and drops what was queued")
    func removeAllDuringADelivery() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)
        _ = state.send(1, author: author, checksChange: false)
        #expect(isQueued(state.send(2, author: author, checksChange: false)))

        let table = state.removeAll()
        guard case .idle(let retired, let discarded) = state.finishDelivery() else {
            Issue.record("expected .idle")
            return
        }
        #expect(retired.count == 1 && retired.first === table)
        #expect(discarded.compactMap { $0?.message } == [2])
        withExtendedLifetime(first) {}
    }

    @Test("a queue that never runs empty does not keep its delivered prefix")
    func queuePrefixIsTrimmed() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)
        _ = state.send(0, author: author, checksChange: false)
        // Each delivery finishes while another message is already queued.
        for value in 1...1_000 {
            #expect(isQueued(state.send(value, author: author, checksChange: false)))
            #expect(finish(&state).next == UInt64(value))
        }
        #expect(state._queue.count <= 130)
        #expect(finish(&state).next == nil)
        withExtendedLifetime(first) {}
    }

    @Test("removeAll hands the table back and leaves none")
    func removeAll() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)
        let table = state.removeAll()
        #expect(table != nil)
        #expect(first._slot == -1)
        #expect(state.liveCount == 0)
        guard case .dropped = state.send(1, author: author, checksChange: false) else {
            Issue.record("expected .dropped")
            return
        }
        withExtendedLifetime((first, table)) {}
    }
}
