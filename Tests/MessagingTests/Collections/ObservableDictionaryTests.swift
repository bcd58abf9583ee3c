import Foundation
import Testing

@testable import Messaging

/// Every change an observable dictionary sends, in order.
private final class DictionaryRecorder: Sendable {
    let token: ObservationToken
    let received = Locked<[DictionaryChange<String, Int>]>([])

    init(_ dictionary: ObservableDictionary<String, Int>, replayingLatest: Bool = false) {
        let received = received
        token = dictionary.subscribe(replayingLatest: replayingLatest) { change in
            received.withLock { $0.append(change) }
        }
    }

    func take() -> [DictionaryChange<String, Int>] {
        received.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }
}

@Suite("ObservableDictionary: a dictionary that sends what changed")
struct ObservableDictionaryTests {
    @Test func eachEditSendsExactlyWhatItChanged() {
        let scores = ObservableDictionary(["ann": 3])
        let recorder = DictionaryRecorder(scores)
        scores["bob"] = 5
        scores["ann"] = 4
        #expect(scores.updateValue(6, forKey: "bob") == 5)
        #expect(scores.removeValue(forKey: "ann") == 4)
        scores["bob"] = nil
        #expect(
            recorder.take() == [
                DictionaryChange(inserted: ["bob": 5]),
                DictionaryChange(updated: ["ann": Update(3, 4)]),
                DictionaryChange(updated: ["bob": Update(5, 6)]),
                DictionaryChange(removed: ["ann": 4]),
                DictionaryChange(removed: ["bob": 6]),
            ])
        #expect(scores.value.isEmpty && scores.isEmpty)
    }

    @Test func editsThatChangeNothingSendNothing() {
        let scores = ObservableDictionary(["ann": 3])
        let recorder = DictionaryRecorder(scores)
        scores["ann"] = 3
        scores["bob"] = nil
        #expect(scores.removeValue(forKey: "cem") == nil)
        scores.merge(["ann": 3])
        scores.modify { _ in }
        scores.value = ["ann": 3]
        scores.withTransaction {
            scores["x"] = 1
            scores["x"] = nil
        }
        ObservableDictionary<String, Int>().removeAll()
        #expect(recorder.take().isEmpty)
    }

    @Test func sequenceEditsSendOneChange() {
        let scores = ObservableDictionary(["ann": 3, "bob": 1])
        let recorder = DictionaryRecorder(scores)
        scores.merge(["ann": 4, "bob": 1, "cem": 2])
        scores.modify { $0 = $0.filter { $0.value > 1 } }
        scores.value = ["ann": 4, "dan": 7]
        scores.removeAll()
        #expect(
            recorder.take() == [
                DictionaryChange(inserted: ["cem": 2], updated: ["ann": Update(3, 4)]),
                DictionaryChange(removed: ["bob": 1]),
                DictionaryChange(removed: ["cem": 2], inserted: ["dan": 7]),
                DictionaryChange(removed: ["ann": 4, "dan": 7]),
            ])
    }

    @Test func aTransactionSendsOneMergedChangeWhenTheOutermostEnds() {
        let scores = ObservableDictionary(["ann": 1])
        let recorder = DictionaryRecorder(scores)
        scores.withTransaction {
            scores["bob"] = 2
            scores.withTransaction { scores["ann"] = 5 }
            #expect(recorder.take().isEmpty)
            #expect(scores.value == ["ann": 5, "bob": 2])
        }
        #expect(recorder.take() == [DictionaryChange(inserted: ["bob": 2], updated: ["ann": Update(1, 5)])])
    }

    @Test func anEditFromAHandlerFollowsTheCurrentChange() {
        let scores = ObservableDictionary<String, Int>()
        let recorder = DictionaryRecorder(scores)
        let token = scores.subscribe { change in
            if change.inserted["a"] != nil { scores["b"] = 1 }
        }
        scores["a"] = 0
        #expect(recorder.take() == [DictionaryChange(inserted: ["a": 0]), DictionaryChange(inserted: ["b": 1])])
        withExtendedLifetime(token) {}
    }

    @Test func theCountIsAnObservableThatReportsOnlyChanges() {
        let scores = ObservableDictionary(["ann": 1])
        let counts = Locked<[Update<Int>]>([])
        let token = scores.observableCount.subscribe { update in counts.withLock { $0.append(update) } }
        scores["bob"] = 2
        scores["bob"] = 3  // an update: the count stays
        scores.withTransaction {
            scores["cem"] = 4
            scores["dan"] = 5
        }
        scores.removeAll()
        #expect(counts.value == [Update(1, 2), Update(2, 4), Update(4, 0)])
        withExtendedLifetime(token) {}
    }

    @Test func aReplayStartsWithTheEntriesAsOneInsertion() {
        let scores = ObservableDictionary(["ann": 1, "bob": 2])
        let recorder = DictionaryRecorder(scores, replayingLatest: true)
        scores["cem"] = 3
        #expect(
            recorder.take() == [
                DictionaryChange(inserted: ["ann": 1, "bob": 2]), DictionaryChange(inserted: ["cem": 3]),
            ])
    }

    @Test func theDictionaryAndItsCountDieWhenReleased() {
        weak var weakDictionary: ObservableDictionary<String, Int>?
        do {
            let scores = ObservableDictionary(["ann": 1])
            weakDictionary = scores
            let token = scores.observableCount.subscribe { _ in }
            scores["bob"] = 2
            token.stopObserving()
        }
        #expect(weakDictionary == nil)
    }

    /// A value that is a class instance, so a weak reference can watch it.
    final class Score: Equatable, Sendable {
        static func == (lhs: Score, rhs: Score) -> Bool { lhs === rhs }
    }

    /// An edit works on a second copy of the entries that it keeps for the next edit; that copy
    /// must not keep a removed or replaced value alive.
    @Test func aRemovedOrReplacedValueIsReleasedWhenTheEditReturns() {
        let edits: [(ObservableDictionary<String, Score>) -> Void] = [
            { $0.removeValue(forKey: "b") },
            { $0["b"] = nil },
            { $0["b"] = Score() },
            { $0.updateValue(Score(), forKey: "b") },
            { $0.merge(["b": Score()]) },
            { $0.removeAll() },
            { $0.modify { _ = $0.removeValue(forKey: "b") } },
            { $0.value = [:] },
        ]
        for (index, edit) in edits.enumerated() {
            let scores = ObservableDictionary<String, Score>()
            weak var weakScore: Score?
            do {
                let score = Score()
                weakScore = score
                // Several edits first, so that the removing one finds a spare copy to edit.
                scores["a"] = Score()
                scores["b"] = score
                scores["c"] = Score()
                edit(scores)
            }
            #expect(weakScore == nil, "edit \(index)")
        }
    }

    static var steps: Int {
        modelSteps(standard: 100_000)
    }

    /// Random edits and transactions, checked after every step against the same edits of a plain
    /// `Dictionary`, and against a copy kept in step by applying every received change.
    @Test(arguments: CollectionChangeModelTests.seeds)
    func everyReceivedChangeTurnsThePreviousEntriesIntoTheCurrentOnes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let dictionary = ObservableDictionary<String, Int>()
        let recorder = DictionaryRecorder(dictionary)
        let counts = Locked<[Update<Int>]>([])
        let countToken = dictionary.observableCount.subscribe { update in counts.withLock { $0.append(update) } }
        defer { withExtendedLifetime(countToken) {} }
        var model: [String: Int] = [:]
        var copy: [String: Int] = [:]
        var count = 0
        func key() -> String { "k\(random.roll(0..<12))" }
        func edit() {
            switch random.roll(0..<8) {
            case 0, 1:
                let (key, value) = (key(), random.roll(0..<4))
                dictionary[key] = value
                model[key] = value
            case 2:
                let key = key()
                #expect(dictionary.removeValue(forKey: key) == model.removeValue(forKey: key))
            case 3:
                let (key, value) = (key(), random.roll(0..<4))
                #expect(dictionary.updateValue(value, forKey: key) == model.updateValue(value, forKey: key))
            case 4:
                let other = Dictionary((0..<random.roll(0..<4)).map { _ in (key(), random.roll(0..<4)) }) { $1 }
                dictionary.merge(other)
                model.merge(other) { $1 }
            case 5:
                let limit = random.roll(0..<4)
                dictionary.modify { $0 = $0.filter { $0.value >= limit } }
                model = model.filter { $0.value >= limit }
            case 6 where random.roll(0..<20) == 0:
                dictionary.removeAll()
                model.removeAll()
            default:
                let (key, value) = (key(), random.roll(0..<4))
                dictionary[key] = value
                model[key] = value
            }
        }
        for step in 0..<Self.steps {
            if random.roll(0..<10) == 0 {
                dictionary.withTransaction {
                    for _ in 0..<random.roll(1...4) { edit() }
                }
            } else {
                edit()
            }
            for change in recorder.take() {
                #expect(!change.isEmpty)
                change.apply(to: &copy)
            }
            for update in counts.withLock({ updates in
                defer { updates = [] }
                return updates
            }) {
                #expect(update.old == count && update.new != update.old)
                count = update.new
            }
            if dictionary.value != model || copy != model || count != model.count {
                Issue.record(
                    "seed \(seed), step \(step): \(dictionary.value), copy \(copy), count \(count), model \(model)")
                return
            }
        }
    }

    @Test func eightThreadsEditingLeaveTheReceivedCopyEqualToTheEntries() {
        let dictionary = ObservableDictionary<String, Int>()
        let copy = Locked<[String: Int]>([:])
        let token = dictionary.subscribe { change in copy.withLock { change.apply(to: &$0) } }
        #expect(
            runOnThreads(8) { thread in
                for step in 0..<1_000 {
                    let key = "k\((thread * 7 + step) % 24)"
                    switch step % 5 {
                    case 0: dictionary.removeValue(forKey: key)
                    case 1: dictionary.modify { $0[key, default: 0] += 1 }
                    case 2:
                        // Other threads' edits join it, also while its changes are merged.
                        dictionary.withTransaction {
                            dictionary[key] = step
                            dictionary["t\(thread)"] = step
                            dictionary.removeValue(forKey: key)
                        }
                    default: dictionary[key] = thread * 10_000 + step
                    }
                }
            })
        #expect(waitUntilDelivered(dictionary.messenger))
        #expect(copy.value == dictionary.value)
        withExtendedLifetime(token) {}
    }
}
