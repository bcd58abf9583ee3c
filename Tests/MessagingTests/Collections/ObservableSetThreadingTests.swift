import Testing

@testable import Messaging

/// Edits of an observable set from several threads at once: no edit is lost, and the changes,
/// received in order, rebuild the contents.
@Suite("ObservableSet: threads")
struct ObservableSetThreadingTests {
    @Test func editsFromEightThreadsArriveInOrderAndRebuildTheContents() {
        let set = ObservableSet<Int>()
        let copy = Locked<Set<Int>>([])
        let counts = Locked<[Int]>([])
        let token = set.subscribe { received in
            copy.withLock { received.apply(to: &$0) }
        }
        let countToken = set.observableCount.subscribe { update in counts.withLock { $0.append(update.new) } }
        let finished = runOnThreads(8) { thread in
            // Each thread owns the members `thread * 1000 ..< thread * 1000 + 1000`.
            let base = thread * 1000
            for step in 0..<200 {
                switch step % 5 {
                case 0: set.insert(base + step)
                case 1: set.formUnion([base + step, base + step + 500])
                case 2: set.remove(base + step - 2)
                case 3:
                    set.withTransaction {
                        set.insert(base + step)
                        set.update(with: base + step - 2 + 500)
                    }
                default: set.modify { $0.formSymmetricDifference([base + step, base + step - 3]) }
                }
            }
        }
        #expect(finished)
        // A send past its budget of other threads' messages hands the rest on: wait for it.
        #expect(waitUntilDelivered(set.messenger))
        #expect(waitUntil { counts.withLock { $0.last } == set.count })
        // Per block of five steps from s: s is inserted and removed again, s+1 and s+501 are
        // inserted, s+3 is inserted and s+501 replaced, then s+4 is toggled on and s+1 off.
        let expected = Set(
            (0..<8).flatMap { thread in
                stride(from: 0, to: 200, by: 5).flatMap { step in
                    [step + 501, step + 3, step + 4].map { thread * 1000 + $0 }
                }
            })
        #expect(set.value == expected)
        #expect(copy.value == set.value)
        withExtendedLifetime((token, countToken)) {}
    }
}
