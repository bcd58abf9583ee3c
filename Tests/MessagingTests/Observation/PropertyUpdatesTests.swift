#if canImport(Observation)
import Foundation
import Messaging
import Observation
import Testing

@Observable
@MainActor
private final class Document {
    var title = "a"
    var tags: [String] = []
    var size = Size(width: 1)
}

/// A value that is not `Equatable`.
private struct Size: Sendable {
    var width: Int
}

/// The messages of `source`, one at a time, as they come; the token keeps the subscription.
@MainActor
private func messages<Message: Sendable>(
    of source: PropertyUpdates<Message>
) -> (AsyncStream<Message>.Iterator, ObservationToken) {
    let (stream, continuation) = AsyncStream<Message>.makeStream()
    let token = source.subscribe { continuation.yield($0) }
    return (stream.makeAsyncIterator(), token)
}

@Suite("Observation model properties as messages")
@MainActor
struct PropertyUpdatesTests {
    @Test("each change sends an update from the old value to the new one, in order")
    func updatesCarryOldAndNew() async {
        let document = Document()
        let titles = document.updates(of: \.title)
        var (iterator, token) = messages(of: titles)

        document.title = "b"
        #expect(await iterator.next(isolation: #isolation) == Update("a", "b"))
        document.title = "c"
        #expect(await iterator.next(isolation: #isolation) == Update("b", "c"))
        withExtendedLifetime(token) {}
    }

    @Test("changes in one main-actor turn come as one update, from the last value sent")
    func oneTurnIsOneUpdate() async {
        let document = Document()
        let titles = document.updates(of: \.title)
        var (iterator, token) = messages(of: titles)

        document.title = "b"
        document.title = "c"
        #expect(await iterator.next(isolation: #isolation) == Update("a", "c"))
        document.title = "d"
        #expect(await iterator.next(isolation: #isolation) == Update("c", "d"))
        withExtendedLifetime(token) {}
    }

    @Test("a change undone in the same turn, or an equal value, sends nothing")
    func noChangeSendsNothing() async {
        let document = Document()
        let titles = document.updates(of: \.title)
        var (iterator, token) = messages(of: titles)

        document.title = "x"
        document.title = "a"
        await settle()
        document.title = "a"
        await settle()
        document.title = "e"
        // The first message is the last change's: the two before sent nothing.
        #expect(await iterator.next(isolation: #isolation) == Update("a", "e"))
        withExtendedLifetime(token) {}
    }

    @Test("a computed key path follows every property it reads")
    func computedKeyPath() async {
        let document = Document()
        let counts = document.updates(of: \.tags.count)
        var (iterator, token) = messages(of: counts)

        document.tags.append("one")
        #expect(await iterator.next(isolation: #isolation) == Update(0, 1))
        document.tags.append("two")
        #expect(await iterator.next(isolation: #isolation) == Update(1, 2))
        withExtendedLifetime(token) {}
    }

    @Test("values(of:) sends the new value of a property that is not Equatable")
    func valuesOfNonEquatable() async {
        let document = Document()
        let sizes = document.values(of: \.size)
        var (iterator, token) = messages(of: sizes)

        document.size = Size(width: 2)
        #expect(await iterator.next(isolation: #isolation)?.width == 2)
        document.size = Size(width: 2)  // not Equatable: every change counts
        #expect(await iterator.next(isolation: #isolation)?.width == 2)
        document.size.width = 3
        #expect(await iterator.next(isolation: #isolation)?.width == 3)
        withExtendedLifetime(token) {}
    }

    @Test("when the model dies, the source finishes and its observations end")
    func modelDeathFinishes() async {
        var document: Document? = Document()
        weak let weakDocument = document
        let titles = document!.updates(of: \.title)
        let (_, token) = messages(of: titles)
        #expect(titles.messenger.observationCount == 1)

        document = nil
        #expect(weakDocument == nil)  // the source holds its model weakly
        #expect(await eventually { titles.isFinished })
        #expect(titles.messenger.observationCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test("a source that nobody keeps dies at once, and the model goes on without it")
    func releasedSourceDoesNotLeak() async {
        let document = Document()
        weak var weakTitles: PropertyUpdates<Update<String>>?
        do {
            let titles = document.updates(of: \.title)
            weakTitles = titles
            #expect(weakTitles != nil)
        }
        #expect(weakTitles == nil)
        document.title = "b"  // its tracking scope fires into nothing
        await settle()
        #expect(document.title == "b")
    }

    @Test("finish() ends the observations and stops the messages")
    func finishStops() async {
        let document = Document()
        let titles = document.updates(of: \.title)
        let received = Locked([Update<String>]())
        let token = titles.subscribe { update in received.withLock { $0.append(update) } }
        titles.finish()
        titles.finish()
        #expect(titles.isFinished)
        #expect(titles.messenger.observationCount == 0)
        document.title = "b"
        await settle()
        #expect(received.value.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test("changes made on other threads arrive on the main actor, in order, ending at the last value")
    func changesFromOtherThreads() async {
        let number = Var(0)  // an Observation model that other threads may change
        let numbers = number.updates(of: \.value)
        var (iterator, token) = messages(of: numbers)

        let finished = runOnThreads(4) { index in
            for step in 1...50 { number.modify { $0 = max($0, index * 1_000 + step) } }
        }
        #expect(finished)
        let last = number.value
        var previous = 0
        while previous != last {
            guard let update = await iterator.next(isolation: #isolation) else { break }
            #expect(update.old == previous)
            #expect(update.new > update.old)
            previous = update.new
        }
        #expect(previous == last)
        withExtendedLifetime(token) {}
    }
}

/// Lets the main actor run what the changes so far scheduled: tasks hop there one at a time.
@MainActor
private func settle() async {
    for _ in 0..<10 { await Task.yield() }
}
#endif
