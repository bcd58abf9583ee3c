import Foundation
import Messaging
import Testing

/// A list that several threads append to.
final class VariableLockedLog<Element>: @unchecked Sendable {  // `items` is only accessed under `lock`
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var snapshot: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// A value of four words that a write sets together, so that a read can tell if it saw parts of
/// two different writes.
struct VariableTestStamp: Equatable, Sendable {
    let sequence: Int
    let negated: Int
    let copy: Int
    let negatedCopy: Int

    init(_ sequence: Int) {
        self.sequence = sequence
        negated = -sequence
        copy = sequence
        negatedCopy = -sequence
    }

    /// Whether all four words come from the same write.
    var isWhole: Bool { negated == -sequence && copy == sequence && negatedCopy == -sequence }
}

@Suite("Variables across threads: one ordered chain of updates, atomic changes, race-free reads")
struct VariableThreadingTests {
    static let threadCount = 4
    static let setsPerThread = 10_000

    /// The value that thread `thread` sets in its step `step`: distinct for every thread and step.
    static func value(thread: Int, step: Int) -> Int { (thread + 1) * 1_000_000 + step }

    @Test func concurrentSetsFormOneUnbrokenOrderedChainOfUpdates() {
        let number = Var(0)
        let log = VariableLockedLog<Update<Int>>()
        let token = FreeObserver()
        token.observe(number) { update in log.append(update) }

        let finished = runOnThreads(Self.threadCount) { thread in
            let author = VariableAuthor()
            for step in 1...Self.setsPerThread {
                number.set(Self.value(thread: thread, step: step), as: author)
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(number.messenger))

        let updates = log.snapshot
        // Every set changed the value, so every set sent exactly one update.
        #expect(updates.count == Self.threadCount * Self.setsPerThread)
        #expect(updates.first?.old == 0)
        // Each update starts where the previous one ended: none is lost, duplicated or reordered.
        let brokenLinks = zip(updates, updates.dropFirst()).filter { $0.new != $1.old }.count
        #expect(brokenLinks == 0)
        #expect(number.value == updates.last?.new)
        // Each thread's values arrive complete and in the order that thread set them.
        for thread in 0..<Self.threadCount {
            let base = Self.value(thread: thread, step: 0)
            let fromThread = updates.map(\.new).filter { $0 > base && $0 <= base + Self.setsPerThread }
            let isCompleteAndInOrder = fromThread == Array((base + 1)...(base + Self.setsPerThread))
            #expect(isCompleteAndInOrder, "thread \(thread) delivered \(fromThread.count) values")
        }
        withExtendedLifetime(token) {}
    }

    @Test func readingTheValueWhileAnotherThreadWritesSeesWholeValuesInOrder() {
        let stamp = Var(VariableTestStamp(0))
        let writes = 200_000
        let reads = VariableLockedLog<(distinct: [Int], torn: Int)>()

        // A generous limit: under the thread sanitizer, with other suites' threads running on the
        // same two cores, the writer may need well over a minute; the limit only catches a hang.
        let finished = runOnThreads(3, timeout: 240) { thread in
            if thread == 0 {
                for sequence in 1...writes { stamp.value = VariableTestStamp(sequence) }
            } else {
                // The distinct sequence numbers read, in order, and the reads that mixed two writes.
                var distinct: [Int] = []
                var torn = 0
                var current = VariableTestStamp(-1)
                while current.sequence != writes {
                    current = stamp.value
                    if !current.isWhole { torn += 1 }
                    if current.sequence != distinct.last { distinct.append(current.sequence) }
                }
                reads.append((distinct, torn))
            }
        }
        #expect(finished)

        #expect(stamp.value == VariableTestStamp(writes))
        let readers = reads.snapshot
        #expect(readers.count == 2)
        for (distinct, torn) in readers {
            // A read that is not one atomic step can mix the words of two writes.
            #expect(torn == 0)
            // A single writer writes increasing values, so each reader sees them never decrease.
            let decreases = zip(distinct, distinct.dropFirst()).filter { $0 > $1 }.count
            #expect(decreases == 0)
            #expect(distinct.allSatisfy { (0...writes).contains($0) })
        }
    }

    @Test func concurrentIncrementsAreNeverLostAndSendConsecutiveUpdates() {
        let threads = 8
        let incrementsPerThread = 10_000
        let count = Var(0)
        let log = VariableLockedLog<Update<Int>>()
        let token = FreeObserver()
        token.observe(count) { update in log.append(update) }

        let finished = runOnThreads(threads) { _ in
            for _ in 0..<incrementsPerThread {
                count.modify { $0 += 1 }
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(count.messenger))

        let total = threads * incrementsPerThread
        #expect(count.value == total)
        // One update per increment, each from n to n + 1, in order: exactly 0→1, 1→2, ….
        let updates = log.snapshot
        #expect(updates.count == total)
        let expected = (0..<total).map { Update($0, $0 + 1) }
        #expect(updates == expected)
        withExtendedLifetime(token) {}
    }

    @Test func concurrentObserversEachSeeTheSameOrderedUpdates() {
        let number = Var(0)
        let first = VariableLockedLog<Int>()
        let second = VariableLockedLog<Int>()
        let token = FreeObserver()
        token.observe(number) { update in first.append(update.new) }
        token.observe(number) { update in second.append(update.new) }

        let finished = runOnThreads(Self.threadCount) { thread in
            for step in 1...500 {
                number.value = Self.value(thread: thread, step: step)
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(number.messenger))

        #expect(first.snapshot.count == Self.threadCount * 500)
        #expect(first.snapshot == second.snapshot)
        #expect(first.snapshot.last == number.value)
        withExtendedLifetime(token) {}
    }
}
