import Testing

@testable import Messaging

/// Edits from several threads at once: no edit is lost, and the changes, received in order,
/// rebuild the contents.
@Suite("ObservableArray: threads")
struct ObservableArrayThreadingTests {
    @Test func editsFromEightThreadsArriveInOrderAndRebuildTheContents() {
        let array = ObservableArray<Int>()
        let copy = Locked<[Int]>([])
        let counts = Locked<[Int]>([])
        let token = array.subscribe { received in
            copy.withLock { received.apply(to: &$0) }
        }
        let countToken = array.observableCount.subscribe { update in counts.withLock { $0.append(update.new) } }
        let finished = runOnThreads(8) { thread in
            for step in 0..<200 {
                switch step % 5 {
                case 0: array.append(thread)
                case 1: array.insert(thread, at: 0)
                case 2: array.modify { if !$0.isEmpty { $0.removeLast() } }
                case 3:
                    array.withTransaction {
                        array.append(thread)
                        array.append(thread)
                    }
                default: array.modify { $0.append(thread) }
                }
            }
        }
        #expect(finished)
        // A send past its budget of other threads' messages hands the rest on: wait for it.
        #expect(waitUntilDelivered(array.messenger))
        #expect(waitUntil { counts.withLock { $0.last } == array.count })
        // 200 steps on each thread: 40 of each kind; every kind but removal adds, a transaction two.
        #expect(array.count == 8 * (40 + 40 - 40 + 80 + 40))
        #expect(copy.value == array.value)
        withExtendedLifetime((token, countToken)) {}
    }
}
