#if canImport(Observation)
import Messaging
import Observation
import Testing

/// Tracks `set` once, as a SwiftUI body would, reading what `read` reads, and records in `log` the
/// contents `onChange` sees.
private func track(
    _ set: ObservableSet<Int>,
    reading read: @escaping (ObservableSet<Int>) -> Void = { _ = $0.value },
    into log: Locked<[Set<Int>]>
) {
    withObservationTracking {
        read(set)
    } onChange: { [weak set] in
        guard let set else { return }
        log.withLock { $0.append(set.value) }
    }
}

@Suite("ObservableSet seen through Observation")
struct ObservableSetObservationBridgeTests {
    @Test func readingTheContentsIsTrackedAndOnChangeSeesTheNewContents() {
        let set = ObservableSet([1])
        let log = Locked<[Set<Int>]>([])
        track(set, into: log)
        set.insert(2)
        set.insert(3)  // the scope fired already: Observation tracks once per scope
        #expect(log.value == [[1, 2]])
        track(set, reading: { _ = $0.contains(5) }, into: log)
        set.remove(1)
        #expect(log.value == [[1, 2], [2, 3]])
    }

    @Test func anEditThatChangesNothingDoesNotFireTheScope() {
        let set = ObservableSet([1])
        let log = Locked<[Set<Int>]>([])
        track(set, reading: { _ = $0.count }, into: log)
        set.insert(1)
        set.remove(7)
        #expect(log.value.isEmpty)
        set.insert(4)
        #expect(log.value == [[1, 4]])
    }

    @Test func aTransactionFiresTheScopeOnceWhenItEnds() {
        let set = ObservableSet([1])
        let log = Locked<[Set<Int>]>([])
        track(set, into: log)
        set.withTransaction {
            set.insert(2)
            #expect(log.value.isEmpty)
            set.insert(3)
        }
        #expect(log.value == [[1, 2, 3]])
    }
}
#endif
