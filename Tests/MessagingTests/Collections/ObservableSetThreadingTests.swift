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

    /// Equal members that are different instances, replaced from eight threads while edits that
    /// work on the set's spare copy and edits that work on a copy of their own race: the set ends
    /// with each thread's last instances, and so does the copy rebuilt from the changes.
    @Test func replacementsFromEightThreadsLeaveTheLastInstances() {
        let set = ObservableSet<Tagged>()
        let copy = Locked<Set<Tagged>>([])
        let token = set.subscribe { received in
            copy.withLock { received.apply(to: &$0) }
        }
        let finished = runOnThreads(8) { thread in
            // Each thread owns the ids `thread * 10 ..< thread * 10 + 10`.
            for step in 0..<400 {
                let member = Tagged(id: thread * 10 + step % 10, tag: "\(thread).\(step)")
                switch step % 4 {
                case 0: set.update(with: member)
                case 1: set.modify { $0.update(with: member) }
                case 2: set.withTransaction { set.update(with: member) }
                default:
                    set.remove(member)
                    set.insert(member)
                }
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(set.messenger))
        // The same edits of a plain `Set`, one thread after the other: each thread owns its ids.
        // A `modify` that updates a member with an equal one changes nothing, so it keeps the
        // instance, as `modify`'s change is the difference of the contents.
        var model = Set<Tagged>()
        for thread in 0..<8 {
            for step in 0..<400 {
                let member = Tagged(id: thread * 10 + step % 10, tag: "\(thread).\(step)")
                if step % 4 != 1 || !model.contains(member) { model.update(with: member) }
            }
        }
        let expected = tags(model)
        func tags(_ members: Set<Tagged>) -> [Int: String] {
            Dictionary(uniqueKeysWithValues: members.map { ($0.id, $0.tag) })
        }
        #expect(tags(set.value) == expected)
        #expect(tags(copy.value) == expected)
        withExtendedLifetime(token) {}
    }
}
