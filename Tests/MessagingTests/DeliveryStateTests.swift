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

    /// Whether the action delivers the message at once.
    func isDelivered(_ action: _SendAction<Int>) -> Bool {
        if case .deliver = action { return true }
        return false
    }

    func isQueued(_ action: _SendAction<Int>) -> Bool {
        if case .queued = action { return true }
        return false
    }

    /// The next message, or `nil` if the messenger went idle; and how many tables were retired.
    func finish(_ state: inout _DeliveryState<Int>) -> (next: Int?, retired: Int) {
        switch state.finishDelivery() {
        case .idle: (nil, 0)
        case .idleReleasing(let retired, _): (nil, retired == nil ? 0 : 1)
        case .deliverNext(let delivery, let retired): (delivery.envelope.message, retired == nil ? 0 : 1)
        }
    }

    /// The next queued envelope, or `nil` if the messenger went idle.
    func nextEnvelope(_ state: inout _DeliveryState<Int>) -> _Envelope<Int>? {
        if case .deliverNext(let delivery, _) = state.finishDelivery() { return delivery.envelope }
        return nil
    }

    @Test("a messenger nobody ever observed drops its messages and stays idle")
    func nobodyObserved() {
        var state = _DeliveryState<Int>()
        guard case .dropped = state.send(1, author: author, isUnchanged: nil) else {
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

        #expect(isDelivered(state.send(10, author: author, isUnchanged: nil)))
        #expect(isQueued(state.send(11, author: author, isUnchanged: nil)))
        #expect(isQueued(state.send(12, author: author, isUnchanged: { $0 == 12 })))

        #expect(finish(&state).next == 11)
        let last = nextEnvelope(&state)
        #expect(last?.message == 12)
        // The test travels with the queued message, for whoever delivers it.
        #expect(last?.isUnchanged?(12) == true)
        #expect(finish(&state).next == nil)
        guard case .idle = state.phase else {
            Issue.record("expected .idle")
            return
        }
        #expect(isDelivered(state.send(13, author: author, isUnchanged: nil)))
        withExtendedLifetime(first) {}
    }

    /// The capacity of the state's message queue; 0 when the extras were never made.
    func queueCapacity(_ state: _DeliveryState<Int>) -> Int {
        state._extras?._fields.pointee.queue.capacity ?? 0
    }

    @Test("a drained queue gives back the memory of a burst, whatever count it ended with")
    func drainedBurstGivesMemoryBack() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)
        _ = state.send(0, author: author, isUnchanged: nil)
        for message in 1...200_000 {
            _ = state.send(message, author: author, isUnchanged: nil)
        }
        #expect(queueCapacity(state) >= 200_000)
        var delivered = 0
        while let envelope = nextEnvelope(&state) {
            delivered += 1
            #expect(envelope.message == delivered)
        }
        #expect(delivered == 200_000)
        #expect(queueCapacity(state) <= _DeliveryState<Int>._keptQueueCapacity)
        withExtendedLifetime(first) {}
    }

    @Test("under sustained sending the queue stays short, and its peak buffer is given back once it drains")
    func sustainedSendingGivesMemoryBack() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)
        _ = state.send(0, author: author, isUnchanged: nil)
        // A burst, then a sender that keeps one message ahead of the delivering thread: the
        // delivered prefix is dropped as it goes, so the count falls while the buffer stays.
        for message in 1...100_000 {
            _ = state.send(message, author: author, isUnchanged: nil)
        }
        var next = 100_001
        var expected = 1
        while let envelope = nextEnvelope(&state) {
            #expect(envelope.message == expected)
            expected += 1
            if next <= 150_000 {
                _ = state.send(next, author: author, isUnchanged: nil)
                next += 1
            }
        }
        #expect(expected == 150_001)
        #expect(queueCapacity(state) <= _DeliveryState<Int>._keptQueueCapacity)
        // The next burst starts afresh and works as before.
        _ = state.send(1, author: author, isUnchanged: nil)
        #expect(isQueued(state.send(2, author: author, isUnchanged: nil)))
        #expect(finish(&state).next == 2)
        #expect(finish(&state).next == nil)
        withExtendedLifetime(first) {}
    }

    @Test("an observation added during a delivery goes on a copy; the table the delivery read is handed back")
    func insertDuringDelivery() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)
        guard case .deliver(let read) = state.send(1, author: author, isUnchanged: nil) else {
            Issue.record("expected .deliver")
            return
        }
        guard case .deliveringFromTable = state.phase else {
            Issue.record("expected .deliveringFromTable")
            return
        }

        let second = observation()
        state.insert(second)
        guard case .deliveringFromRetiredTable = state.phase else {
            Issue.record("expected .deliveringFromRetiredTable")
            return
        }
        #expect(state.table !== read.takeUnretainedValue())
        // The table the delivery read is handed back for release after unlocking.
        guard case .idleReleasing(let retired, _) = state.finishDelivery() else {
            Issue.record("expected .idleReleasing")
            return
        }
        #expect(retired === read.takeUnretainedValue())
        #expect(state.liveCount == 2)
        withExtendedLifetime((first, second)) {}
    }

    @Test("an observation added while messages are queued receives only those queued after it")
    func insertBetweenQueuedMessages() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)
        _ = state.send(1, author: author, isUnchanged: nil)
        #expect(isQueued(state.send(2, author: author, isUnchanged: nil)))
        let second = observation()
        state.insert(second)
        #expect(isQueued(state.send(3, author: author, isUnchanged: nil)))

        // The delivery loop calls an observation with a message only if `_firstSequence <= sequence`.
        let two = nextEnvelope(&state)
        let three = nextEnvelope(&state)
        #expect(two?.message == 2 && three?.message == 3)
        if let two, let three {
            #expect(first._firstSequence <= two.sequence && first._firstSequence <= three.sequence)
            #expect(second._firstSequence > two.sequence)
            #expect(second._firstSequence <= three.sequence)
        }
        #expect(finish(&state).next == nil)
        withExtendedLifetime((first, second)) {}
    }

    @Test("a change that retires the table mid-delivery keeps the queue, in order, and retires only once")
    func retiringKeepsTheQueue() {
        var state = _DeliveryState<Int>()
        let observations = (0..<3).map { _ in observation() }
        state.insert(observations[0])
        state.insert(observations[1])
        guard case .deliver(let read) = state.send(1, author: author, isUnchanged: nil) else {
            Issue.record("expected .deliver")
            return
        }
        #expect(isQueued(state.send(2, author: author, isUnchanged: nil)))
        #expect(isQueued(state.send(3, author: author, isUnchanged: nil)))

        // The first change retires the table the delivery reads; the later ones change the copy in
        // place, and queueing goes on behind the same delivery.
        state.insert(observations[2])
        state.remove(observations[0])
        #expect(isQueued(state.send(4, author: author, isUnchanged: nil)))

        guard case .deliverNext(let next, let retired) = state.finishDelivery() else {
            Issue.record("expected .deliverNext")
            return
        }
        #expect(next.envelope.message == 2)
        #expect(retired === read.takeUnretainedValue())
        #expect(next.table.takeUnretainedValue() === state.table)
        #expect(finish(&state) == (3, 0))
        #expect(finish(&state) == (4, 0))
        #expect(finish(&state) == (nil, 0))
        #expect(state.liveCount == 2)
        withExtendedLifetime(observations) {}
    }

    @Test("a messenger whose deliveries never overlap a send or a change makes no extras")
    func noExtrasUntilNeeded() {
        var state = _DeliveryState<Int>()
        _ = state.send(0, author: author, isUnchanged: nil)
        #expect(state._table == nil && state._extras == nil)

        let first = observation()
        state.insert(first)
        for value in 1...3 {
            #expect(isDelivered(state.send(value, author: author, isUnchanged: nil)))
            #expect(finish(&state) == (nil, 0))
            state.insert(observation())
        }
        #expect(state._extras == nil)

        _ = state.send(4, author: author, isUnchanged: nil)
        #expect(isQueued(state.send(5, author: author, isUnchanged: nil)))
        #expect(state._extras != nil)
        #expect(finish(&state) == (5, 0))
        #expect(finish(&state) == (nil, 0))
        withExtendedLifetime(first) {}
    }

    @Test("the core's fields, with the lock word in the state's padding, stay within 48 bytes")
    func coreLayout() {
        #expect(MemoryLayout<_CoreWords<Int>>.size <= 6 * MemoryLayout<Int>.size)
        #expect(
            MemoryLayout<_CoreWords<Int>>.offset(of: \.lock)!
                < MemoryLayout<_CoreWords<Int>>.offset(of: \.state)! + MemoryLayout<_DeliveryState<Int>>.stride
        )
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
        _ = state.send(1, author: author, isUnchanged: nil)
        #expect(isQueued(state.send(2, author: author, isUnchanged: nil)))

        let table = state.removeAll()
        guard case .idleReleasing(let retired, let discarded) = state.finishDelivery() else {
            Issue.record("expected .idleReleasing")
            return
        }
        #expect(retired === table)
        #expect(discarded.compactMap { $0?.message } == [2])
        withExtendedLifetime(first) {}
    }

    @Test("a queue that never runs empty does not keep its delivered prefix")
    func queuePrefixIsTrimmed() {
        var state = _DeliveryState<Int>()
        let first = observation()
        state.insert(first)
        _ = state.send(0, author: author, isUnchanged: nil)
        // Each delivery finishes while another message is already queued.
        for value in 1...1_000 {
            #expect(isQueued(state.send(value, author: author, isUnchanged: nil)))
            #expect(finish(&state).next == value)
        }
        #expect((state._extras?._fields.pointee.queue.count ?? 0) <= 130)
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
        guard case .dropped = state.send(1, author: author, isUnchanged: nil) else {
            Issue.record("expected .dropped")
            return
        }
        withExtendedLifetime((first, table)) {}
    }
}
