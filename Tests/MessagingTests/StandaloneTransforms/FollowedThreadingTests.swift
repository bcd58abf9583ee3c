import Foundation
import Testing

@testable import Messaging

@Suite("Followed: switches racing with the old inner's messages")
struct FollowedThreadingTests {
    /// One thread changes the first inner variable (positive values) while another switches to
    /// the second (negative values) and changes it. Whatever the interleaving, once the switch is
    /// reported no positive value may follow, and every update starts where the one before ended.
    @Test(arguments: 0..<20)
    func noMessageOfAReplacedInnerArrivesAfterTheSwitch(round: Int) {
        let first = Var(0)
        let second = Var(-1)
        let useSecond = Var(false)
        let follower = useSecond.follow { $0 ? second : first }
        let received = Locked<[Update<Int>]>([])
        let token = follower.subscribe { update in received.withLock { $0.append(update) } }
        let finished = runOnThreads(2) { index in
            if index == 0 {
                for value in 1...2_000 { first.value = value }
            } else {
                Thread.sleep(forTimeInterval: Double(round % 5) * 0.000_2)
                useSecond.value = true
                for value in 2...200 { second.value = -value }
            }
        }
        #expect(finished)
        #expect(
            waitUntilDelivered(follower.messenger, first.messenger, second.messenger, useSecond.messenger))
        // The follower's outbox may have handed its last updates to a runner of their own.
        #expect(waitUntil { received.value.last?.new == -200 })
        let updates = received.value
        #expect(updates.last?.new == -200)
        let switchIndex = updates.firstIndex { $0.new < 0 }
        #expect(switchIndex != nil)
        if let switchIndex {
            #expect(updates[switchIndex...].allSatisfy { $0.new < 0 })
            #expect(updates[..<switchIndex].allSatisfy { $0.new > 0 })
        }
        for (before, after) in zip(updates, updates.dropFirst()) where before.new != after.old {
            Issue.record("\(after) does not start where \(before) ended")
        }
        #expect(first.messenger.observationCount == 0)
        withExtendedLifetime(token) {}
    }
}
