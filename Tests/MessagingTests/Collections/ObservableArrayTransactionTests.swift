import Testing

@testable import Messaging

/// Rules 3 and 4 of observable collections: a transaction sends one merged change when the
/// outermost transaction ends, and a removal and re-insertion inside it can be read as a move.
@Suite("ObservableArray: transactions")
struct ObservableArrayTransactionTests {
    @Test func observersSeeOneMergedChangeWhenTheTransactionEnds() {
        let array = ObservableArray([1, 2, 3])
        let recorder = ArrayChangeRecorder(array)
        array.withTransaction {
            array.append(4)
            array.remove(at: 0)
            #expect(recorder.take().isEmpty)
            #expect(array.value == [2, 3, 4])
        }
        #expect(recorder.take() == [change(3, .remove(1, at: 0), .insert(4, at: 3))])
    }

    @Test func transactionsNestAndOnlyTheOutermostSends() {
        let array = ObservableArray([1])
        let recorder = ArrayChangeRecorder(array)
        array.withTransaction {
            array.append(2)
            array.withTransaction { array.append(3) }
            #expect(recorder.take().isEmpty)
            array.append(4)
        }
        #expect(recorder.take() == [change(1, .replaceSlice([], at: 1, with: [2, 3, 4]))])
    }

    @Test func aTransactionWhoseEditsCancelOutSendsNothing() {
        let array = ObservableArray([1])
        let recorder = ArrayChangeRecorder(array)
        array.withTransaction {
            array.append(2)
            array.remove(at: 1)
        }
        array.withTransaction {}
        #expect(recorder.take().isEmpty)
    }

    @Test func aTransactionEndsWhenItsBodyThrows() {
        struct Failure: Error {}
        let array = ObservableArray([1])
        let recorder = ArrayChangeRecorder(array)
        #expect(throws: Failure.self) {
            try array.withTransaction { () throws(Failure) in
                array.append(2)
                throw Failure()
            }
        }
        #expect(recorder.take() == [change(1, .insert(2, at: 1))])
        array.append(3)
        #expect(recorder.take() == [change(2, .insert(3, at: 2))])
    }

    @Test func aHandlerThatEditsAgainMakesANewChangeAndTransactionsStillPair() {
        let array = ObservableArray([1])
        let log = Locked<[ArrayChange<Int>]>([])
        let token = array.subscribe { received in
            log.withLock { $0.append(received) }
            if received.countAfter == 2 {
                array.withTransaction { array.append(3) }
            }
        }
        array.withTransaction { array.append(2) }
        #expect(log.value == [change(1, .insert(2, at: 1)), change(2, .insert(3, at: 2))])
        array.append(4)
        #expect(log.value.last == change(3, .insert(4, at: 3)))
        withExtendedLifetime(token) {}
    }

    @Test func aRemovalAndReinsertionInATransactionCanBeReportedAsAMove() {
        let array = ObservableArray([10, 20, 30])
        let recorder = ArrayChangeRecorder(array)
        array.withTransaction {
            let element = array.remove(at: 0)
            array.append(element)
        }
        let received = recorder.take()
        #expect(received == [change(3, .remove(10, at: 0), .insert(10, at: 3))])
        #expect(
            received.first?.batchUpdatesInferringMoves()
                == ArrayBatchUpdates(moved: [ArrayBatchUpdates.Move(from: 0, to: 2)]))
    }
}
