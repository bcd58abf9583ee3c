import Messaging
import Testing

/// An observable array's changes as an async sequence, like every observable's messages.
@Suite("ObservableArray: for await over its changes")
struct ObservableArrayAsyncTests {
    @Test func aStreamMadeBeforeTheEditsReceivesEveryChangeInOrderAndRebuildsTheContents() async {
        let array = ObservableArray([0])
        let changes = array.makeMessageStream()  // observes from here on
        array.append(1)
        array.withTransaction {
            array.append(2)
            array.insert(-1, at: 0)
        }
        array.remove(at: 1)
        var copy = [0]
        var received = 0
        for await change in changes {
            change.apply(to: &copy)
            received += 1
            if received == 3 { break }
        }
        #expect(copy == array.value)
        #expect(copy == [-1, 1, 2])
        withExtendedLifetime(changes) {}
    }

    @Test func aLoopOverMessagesEndsItsObservationWhenItBreaks() async {
        let array = ObservableArray<Int>()
        let loop = Task {
            var copy: [Int] = []
            for await change in array.messages {
                change.apply(to: &copy)
                if copy.count == 2 { break }
            }
            return copy
        }
        // The loop observes once its task runs: append until it has seen two elements.
        var appended = 0
        while array.messenger.observationCount == 0 { await Task.yield() }
        while appended < 2 {
            array.append(appended)
            appended += 1
        }
        #expect(await loop.value == [0, 1])
        #expect(array.messenger.observationCount == 0)
    }
}
