import Testing

@testable import Messaging

/// Rules 5 and 6 of observable collections, and replay: the count is an observable of its own,
/// delivery follows the core's rules, and a new observer can start with the current contents.
@Suite("ObservableArray: observing")
struct ObservableArrayObservationTests {
    @Test func observableCountReportsOldToNewOnlyWhenTheCountChanges() {
        let array = ObservableArray([1, 2])
        let counts = Locked<[String]>([])
        let token = array.observableCount.subscribe { update in
            counts.withLock { $0.append("\(update.old)->\(update.new)") }
        }
        array.append(3)
        array[0] = 9
        array.move(from: 0, to: 2)
        array.replaceSubrange(0..<1, with: [7])
        array.withTransaction {
            array.append(4)
            array.remove(at: 0)
            array.removeAll()
        }
        #expect(counts.value == ["2->3", "3->0"])
        withExtendedLifetime(token) {}
    }

    @Test func aChangeMadeFromAHandlerFollowsTheCurrentOneForEveryObserver() {
        let array = ObservableArray<Int>()
        let log = EventLog()
        let first = array.subscribe { received in
            log.append("a:\(received.countAfter)")
            if received.countAfter == 1 { array.append(2) }
        }
        let second = array.subscribe { received in log.append("b:\(received.countAfter)") }
        array.append(1)
        #expect(log.entries == ["a:1", "b:1", "a:2", "b:2"])
        withExtendedLifetime((first, second)) {}
    }

    @Test func anObserverAddedDuringADeliverySeesOnlyLaterChanges() {
        let array = ObservableArray<Int>()
        let late = Locked<ArrayChangeRecorder<Int>?>(nil)
        let token = array.subscribe { _ in
            late.withLock { if $0 == nil { $0 = ArrayChangeRecorder(array) } }
        }
        array.append(1)
        array.append(2)
        #expect(late.value?.take() == [change(1, .insert(2, at: 1))])
        withExtendedLifetime(token) {}
    }

    @Test func stoppingTakesEffectAtOnce() {
        let array = ObservableArray<Int>()
        let recorder = ArrayChangeRecorder(array)
        array.append(1)
        recorder.token.stopObserving()
        array.append(2)
        #expect(recorder.take() == [change(0, .insert(1, at: 0))])
    }

    @Test func aNewObserverCanStartWithTheContentsAsOneInsertion() {
        let array = ObservableArray([1, 2])
        let recorder = ArrayChangeRecorder(array, replayingLatest: true)
        array.append(3)
        #expect(
            recorder.take() == [change(0, .replaceSlice([], at: 0, with: [1, 2])), change(2, .insert(3, at: 2))])
        #expect(array.latestMessage == change(0, .replaceSlice([], at: 0, with: [1, 2, 3])))
    }
}
