import Messaging

/// Every change an observable array sends, in order, kept while the recorder lives.
final class ArrayChangeRecorder<Element: Sendable>: Sendable {
    let token: ObservationToken
    let received = Locked<[ArrayChange<Element>]>([])

    init(_ array: ObservableArray<Element>, replayingLatest: Bool = false) {
        let received = received
        token = array.subscribe(replayingLatest: replayingLatest) { change in
            received.withLock { $0.append(change) }
        }
    }

    /// The changes received so far, leaving the list empty.
    func take() -> [ArrayChange<Element>] {
        received.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }
}

/// A change of an array of `countBefore` elements made of `modifications`.
func change<Element>(_ countBefore: Int, _ modifications: ArrayModification<Element>...) -> ArrayChange<Element> {
    ArrayChange(countBefore: countBefore, modifications: modifications)
}
