#if canImport(Observation)
import Messaging
import Observation
import Testing

/// Tracks `array` once, as a SwiftUI body would, reading what `read` reads, and records in `log`
/// the contents `onChange` sees. `onChange` holds the array weakly, as a body's scope would not
/// keep its model alive.
private func track(
    _ array: ObservableArray<Int>,
    reading read: @escaping (ObservableArray<Int>) -> Void = { _ = $0.value },
    into log: Locked<[[Int]]>
) {
    withObservationTracking {
        read(array)
    } onChange: { [weak array] in
        guard let array else { return }
        log.withLock { $0.append(array.value) }
    }
}

@Suite("ObservableArray seen through Observation")
struct ObservableArrayObservationBridgeTests {
    @Test func readingTheContentsIsTrackedAndOnChangeSeesTheNewContents() {
        let array = ObservableArray([1])
        let log = Locked<[[Int]]>([])
        track(array, into: log)
        array.append(2)
        array.append(3)  // the scope fired already: Observation tracks once per scope
        #expect(log.value == [[1, 2]])
        track(array, reading: { _ = $0.count }, into: log)
        array.remove(at: 0)
        #expect(log.value == [[1, 2], [2, 3]])
    }

    @Test func anEditThatChangesNothingDoesNotFireTheScope() {
        let array = ObservableArray([1])
        let log = Locked<[[Int]]>([])
        track(array, into: log)
        array.append(contentsOf: [])
        array.removeSubrange(0..<0)
        #expect(log.value.isEmpty)
        array.append(4)
        #expect(log.value == [[1, 4]])
    }

    @Test func aTransactionFiresTheScopeOnceWhenItEnds() {
        let array = ObservableArray([1])
        let log = Locked<[[Int]]>([])
        track(array, into: log)
        array.withTransaction {
            array.append(2)
            #expect(log.value.isEmpty)
            array.append(3)
        }
        #expect(log.value == [[1, 2, 3]])
    }

    @Test func aTransactionWhoseEditsCancelOutDoesNotFireTheScope() {
        let array = ObservableArray([1])
        let log = Locked<[[Int]]>([])
        track(array, into: log)
        array.withTransaction {
            array.append(2)
            array.remove(at: 1)
        }
        #expect(log.value.isEmpty)
    }
}
#endif
