import Testing

@testable import Messaging

/// A transaction of an observable set sends one merged change when the outermost transaction
/// ends, and begins and ends always pair.
@Suite("ObservableSet: transactions")
struct ObservableSetTransactionTests {
    @Test func observersSeeOneMergedChangeWhenTheTransactionEnds() {
        let set = ObservableSet<Int>([1, 2, 3])
        let recorder = SetChangeRecorder(set)
        set.withTransaction {
            set.insert(4)
            set.remove(1)
            #expect(recorder.take().isEmpty)
            #expect(set.value == [2, 3, 4])
        }
        #expect(recorder.take() == [SetChange(removed: [1], inserted: [4])])
    }

    @Test func transactionsNestAndOnlyTheOutermostSends() {
        let set = ObservableSet<Int>([1])
        let recorder = SetChangeRecorder(set)
        set.withTransaction {
            set.insert(2)
            set.withTransaction { set.formUnion([3, 5]) }
            #expect(recorder.take().isEmpty)
            set.remove(5)
            set.insert(4)
        }
        #expect(recorder.take() == [SetChange(inserted: [2, 3, 4])])
        #expect(set.value == [1, 2, 3, 4])
    }

    @Test func aTransactionWhoseEditsCancelOutSendsNothing() {
        let set = ObservableSet<Int>([1])
        let recorder = SetChangeRecorder(set)
        set.withTransaction {
            set.insert(2)
            set.remove(2)
        }
        set.withTransaction {}
        #expect(recorder.take().isEmpty)
        set.insert(3)
        #expect(recorder.take() == [SetChange(inserted: [3])])
    }

    @Test func aMemberRemovedAndInsertedAgainInATransactionIsAReplacement() {
        let set = ObservableSet([Tagged(id: 1, tag: "a")])
        let recorder = SetChangeRecorder(set)
        set.withTransaction {
            set.remove(Tagged(id: 1, tag: ""))
            set.insert(Tagged(id: 1, tag: "b"))
        }
        let received = recorder.take()
        #expect(received == [SetChange(removed: [Tagged(id: 1, tag: "")], inserted: [Tagged(id: 1, tag: "")])])
        #expect(received.first?.removed.first?.tag == "a")
        #expect(received.first?.inserted.first?.tag == "b")
    }

    @Test func aTransactionEndsWhenItsBodyThrows() {
        struct Failure: Error {}
        let set = ObservableSet<Int>([1])
        let recorder = SetChangeRecorder(set)
        #expect(throws: Failure.self) {
            try set.withTransaction { () throws(Failure) in
                set.insert(2)
                throw Failure()
            }
        }
        #expect(recorder.take() == [SetChange(inserted: [2])])
        set.insert(3)
        #expect(recorder.take() == [SetChange(inserted: [3])])
    }

    @Test func aHandlerThatEditsAgainMakesANewChangeAndTransactionsStillPair() {
        let set = ObservableSet<Int>([1])
        let log = Locked<[SetChange<Int>]>([])
        let token = set.subscribe { received in
            log.withLock { $0.append(received) }
            if received.inserted.contains(2) {
                set.withTransaction { set.insert(3) }
            }
        }
        set.withTransaction { set.insert(2) }
        #expect(log.value == [SetChange(inserted: [2]), SetChange(inserted: [3])])
        set.insert(4)
        #expect(log.value.last == SetChange(inserted: [4]))
        withExtendedLifetime(token) {}
    }
}
