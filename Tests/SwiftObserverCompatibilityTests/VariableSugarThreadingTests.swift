import Messaging
import SwiftObserverCompatibility
import Testing

@Suite("The compatibility layer's changes across threads: compound operators and appends are atomic")
struct VariableSugarThreadingTests {
    static let threadCount = 4

    @Test func concurrentWritesAppendAtomically() {
        let log = Var<String>()
        let updates = Locked([Update<String>]())
        let token = FreeObserver()
        token.observe(log) { update in updates.withLock { $0.append(update) } }
        let writesPerThread = 500

        let finished = runOnThreads(Self.threadCount) { thread in
            let letter = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(thread)))
            for _ in 0..<writesPerThread { log.write(letter) }
        }
        #expect(finished)
        // A send delivers a budget of other threads' updates, then a runner delivers the rest.
        #expect(waitUntil { updates.value.count == Self.threadCount * writesPerThread })

        let text = log.value
        #expect(text.count == Self.threadCount * writesPerThread)
        for thread in 0..<Self.threadCount {
            let letter = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(thread)))
            #expect(text.filter { $0 == letter }.count == writesPerThread)
        }
        let sent = updates.value
        #expect(sent.count == Self.threadCount * writesPerThread)
        #expect(sent.allSatisfy { $0.new.count == $0.old.count + 1 && $0.new.hasPrefix($0.old) })
        #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.new == $1.old })
        #expect(sent.last?.new == text)
        withExtendedLifetime(token) {}
    }

    @Test func concurrentCompoundIncrementsAreNeverLostAndSendConsecutiveUpdates() {
        let threads = 8
        let incrementsPerThread = 10_000
        let count = Var(0)
        let log = Locked([Update<Int>]())
        let token = FreeObserver()
        token.observe(count) { update in log.withLock { $0.append(update) } }

        let finished = runOnThreads(threads) { _ in
            for _ in 0..<incrementsPerThread {
                count += 1
            }
        }
        #expect(finished)
        // A send delivers a budget of other threads' updates, then a runner delivers the rest.
        #expect(waitUntil { log.value.count == threads * incrementsPerThread })

        let total = threads * incrementsPerThread
        #expect(count.value == total)
        // One update per increment, each from n to n + 1, in order: exactly 0→1, 1→2, ….
        let updates = log.value
        #expect(updates.count == total)
        let expected = (0..<total).map { Update($0, $0 + 1) }
        #expect(updates == expected)
        withExtendedLifetime(token) {}
    }
}
