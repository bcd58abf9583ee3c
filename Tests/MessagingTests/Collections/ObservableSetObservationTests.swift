import Testing

@testable import Messaging

/// The count and a member's presence are observables of their own, delivery follows the core's
/// rules, and a new observer can start with the current contents.
@Suite("ObservableSet: observing")
struct ObservableSetObservationTests {
    @Test func observableCountReportsOldToNewOnlyWhenTheCountChanges() {
        let set = ObservableSet<Int>([1, 2])
        let counts = UpdateRecorder(set.observableCount)
        set.insert(3)
        set.insert(3)
        set.update(with: 1)
        set.formSymmetricDifference([1, 9])
        set.remove(2)
        set.withTransaction {
            set.insert(4)
            set.remove(4)
        }
        set.withTransaction {
            set.insert(5)
            set.removeAll()
        }
        #expect(counts.take() == ["2->3", "3->2", "2->0"])
    }

    @Test func observableCountStartsFromTheCountWhenItIsObservedAgain() {
        let set = ObservableSet<Int>([1])
        let count = set.observableCount
        var counts = UpdateRecorder(count)
        set.insert(2)
        #expect(counts.take() == ["1->2"])
        counts.token.stopObserving()
        set.formUnion([3, 4])
        counts = UpdateRecorder(count)
        set.remove(1)
        #expect(counts.take() == ["4->3"])
    }

    @Test func observableCountStartedDuringADeliveryCountsFromTheContentsThen() {
        let set = ObservableSet<Int>()
        let late = Locked<UpdateRecorder?>(nil)
        let token = set.subscribe { _ in
            late.withLock { if $0 == nil { $0 = UpdateRecorder(set.observableCount) } }
            if set.count == 1 { set.formUnion([2, 3]) }
        }
        set.insert(1)
        set.remove(2)
        #expect(late.value?.take() == ["1->3", "3->2"])
        withExtendedLifetime(token) {}
    }

    @Test func oneCountObservedTwiceSendsEachUpdateToBoth() {
        let set = ObservableSet<Int>([1])
        let count = set.observableCount
        let first = UpdateRecorder(count)
        set.insert(2)
        let second = UpdateRecorder(count)
        set.insert(3)
        first.token.stopObserving()
        set.remove(1)
        #expect(first.take() == ["1->2", "2->3"])
        #expect(second.take() == ["2->3", "3->2"])
    }

    @Test func observableContainsReportsOnlyWhenTheMembershipChanges() {
        let set = ObservableSet<Int>([1, 2])
        let presence = UpdateRecorder(set.observableContains(3))
        set.insert(4)
        set.insert(3)
        set.update(with: 3)
        set.remove(1)
        set.formSymmetricDifference([3])
        set.withTransaction {
            set.insert(3)
            set.remove(3)
        }
        set.value = [3]
        #expect(presence.take() == ["false->true", "true->false", "false->true"])
    }

    @Test func aChangeMadeFromAHandlerFollowsTheCurrentOneForEveryObserver() {
        let set = ObservableSet<Int>()
        let log = EventLog()
        let first = set.subscribe { received in
            log.append("a:\(received.inserted.sorted())")
            if received.inserted.contains(1) { set.insert(2) }
        }
        let second = set.subscribe { received in log.append("b:\(received.inserted.sorted())") }
        set.insert(1)
        #expect(log.entries == ["a:[1]", "b:[1]", "a:[2]", "b:[2]"])
        withExtendedLifetime((first, second)) {}
    }

    @Test func anObserverAddedDuringADeliverySeesOnlyLaterChanges() {
        let set = ObservableSet<Int>()
        let late = Locked<SetChangeRecorder<Int>?>(nil)
        let token = set.subscribe { _ in
            late.withLock { if $0 == nil { $0 = SetChangeRecorder(set) } }
        }
        set.insert(1)
        set.insert(2)
        #expect(late.value?.take() == [SetChange(inserted: [2])])
        withExtendedLifetime(token) {}
    }

    @Test func stoppingTakesEffectAtOnce() {
        let set = ObservableSet<Int>()
        let recorder = SetChangeRecorder(set)
        set.insert(1)
        recorder.token.stopObserving()
        set.insert(2)
        #expect(recorder.take() == [SetChange(inserted: [1])])
    }

    @Test func aNewObserverCanStartWithTheContentsAsOneInsertion() {
        let set = ObservableSet<Int>([1, 2])
        let recorder = SetChangeRecorder(set, replayingLatest: true)
        set.insert(3)
        #expect(recorder.take() == [SetChange(inserted: [1, 2]), SetChange(inserted: [3])])
        #expect(set.latestMessage == SetChange(inserted: [1, 2, 3]))
        #expect(ObservableSet<Int>().latestMessage.isEmpty)
    }
}
