import Testing

@testable import Messaging

/// `_MessageBufferState` and `_Ring` driven directly, without threads or tasks.
@Suite struct MessageBufferStateTests {
    /// Pushes `messages`, then takes everything the way a consumer does.
    private func kept(_ messages: [Int], _ policy: MessageBuffering) -> [Int] {
        var state = _MessageBufferState<Int>(policy)
        for message in messages { _ = state.push(message) }
        _ = state.finish()
        var taken: [Int] = []
        var consumed = _Ring<Int>()
        while true {
            switch state.take(into: &consumed) {
            case .tookAll: while let message = consumed.popFirst() { taken.append(message) }
            case .message(let message): taken.append(message)
            case .finished: return taken
            case .wait:
                Issue.record("a finished buffer never waits")
                return taken
            }
        }
    }

    @Test func unboundedKeepsEverything() {
        #expect(kept(Array(1...100), .unbounded) == Array(1...100))
    }

    @Test func newestDropsTheOldestAndReturnsItForReleaseAfterUnlocking() {
        var state = _MessageBufferState<Int>(.newest(2))
        _ = state.push(1)
        _ = state.push(2)
        guard case .release(let dropped) = state.push(3) else {
            Issue.record("a full buffer that keeps the newest must hand back the oldest")
            return
        }
        #expect(dropped == 1)
        #expect(kept(Array(1...10), .newest(2)) == [9, 10])
    }

    @Test func oldestDropsTheNewMessage() {
        #expect(kept(Array(1...10), .oldest(2)) == [1, 2])
        #expect(kept(Array(1...10), .oldest(0)) == [])
        #expect(kept(Array(1...10), .newest(0)) == [])
    }

    @Test func anUnboundedBufferHandsOverAllItHoldsInOneTake() {
        var state = _MessageBufferState<Int>(.unbounded)
        for message in 1...5 { _ = state.push(message) }
        var consumed = _Ring<Int>()
        guard case .tookAll = state.take(into: &consumed) else {
            Issue.record("expected every message at once")
            return
        }
        #expect(consumed.count == 5)
        #expect(state.ring.isEmpty)
    }

    @Test func aBoundedBufferHandsOutOneMessageAtATime() {
        var state = _MessageBufferState<Int>(.oldest(5))
        for message in 1...5 { _ = state.push(message) }
        var consumed = _Ring<Int>()
        guard case .message(1) = state.take(into: &consumed) else {
            Issue.record("expected the first message alone")
            return
        }
        #expect(state.ring.count == 4)
    }

    @Test func anEmptyActiveBufferMakesTheConsumerWait() {
        var state = _MessageBufferState<Int>(.unbounded)
        var consumed = _Ring<Int>()
        guard case .wait = state.take(into: &consumed) else {
            Issue.record("expected to wait")
            return
        }
    }

    @Test func cancellingDropsTheBufferAndIgnoresLaterMessages() {
        var state = _MessageBufferState<Int>(.unbounded)
        for message in 1...3 { _ = state.push(message) }
        var action = state.cancel()
        #expect(action.dropped.count == 3)
        #expect(action.waiting == nil)
        guard case .none = state.push(4) else {
            Issue.record("a cancelled buffer keeps nothing")
            return
        }
        var consumed = _Ring<Int>()
        guard case .finished = state.take(into: &consumed) else {
            Issue.record("a cancelled buffer is finished")
            return
        }
        #expect(state.cancel().dropped.isEmpty)
        _ = action.dropped.popFirst()
    }

    @Test func finishingKeepsTheBufferedMessagesAndIgnoresLaterOnes() {
        var state = _MessageBufferState<Int>(.unbounded)
        _ = state.push(1)
        _ = state.finish()
        _ = state.push(2)
        #expect(kept([], .unbounded) == [])
        var consumed = _Ring<Int>()
        guard case .tookAll = state.take(into: &consumed) else {
            Issue.record("expected the message sent before the end")
            return
        }
        #expect(consumed.popFirst() == 1)
        #expect(consumed.popFirst() == nil)
    }

    @Test func theRingKeepsOrderAcrossWrapAndGrowth() {
        var ring = _Ring<Int>()
        var expected: [Int] = []
        var next = 0
        // Interleave appends and removals so that the head moves before the ring grows.
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 3) {
                ring.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5) {
                #expect(ring.popFirst() == expected.removeFirst())
            }
        }
        var rest: [Int] = []
        while let element = ring.popFirst() { rest.append(element) }
        #expect(rest == expected)
    }

    @Test func theRingReleasesWhatItStillHolds() {
        weak var held: Parcel?
        do {
            var ring = _Ring<Parcel>()
            for number in 0..<20 { ring.append(Parcel(number)) }
            _ = ring.popFirst()
            held = ring.popFirst()
            #expect(held == nil)
            let kept = Parcel(99)
            held = kept
            ring.append(kept)
        }
        #expect(held == nil)
    }
}
