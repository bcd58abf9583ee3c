import Foundation
import Testing

@testable import Messaging

/// Random edits and transactions of an observable array, checked after every step against the
/// same edits of a plain `Array`, and against a copy kept in step by applying every received
/// change to it.
///
/// Set `MESSAGING_MODEL_STEPS` for longer runs and `MESSAGING_MODEL_SEEDS` (such as `1,2,3`) for
/// other seeds; a failing seed replays.
@Suite("Model: random edits of an ObservableArray checked against their changes")
struct ObservableArrayModelTests {
    static var steps: Int {
        modelSteps(standard: 100_000)
    }

    static var seeds: [UInt64] { CollectionChangeModelTests.seeds }

    @Test(arguments: seeds)
    func everyReceivedChangeTurnsThePreviousContentsIntoTheCurrentOnes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let array = ObservableArray<Int>()
        let recorder = ArrayChangeRecorder(array)
        var model: [Int] = []
        var copy: [Int] = []
        // Two incremental folds, checked against their recomputation after every step.
        let sum = array.observableSum
        let evens = array.observableCount { $0 % 2 == 0 }
        let sums = Locked<[Update<Int>]>([])
        let evenCounts = Locked<[Update<Int>]>([])
        let foldTokens = [
            sum.subscribe { update in sums.withLock { $0.append(update) } },
            evens.subscribe { update in evenCounts.withLock { $0.append(update) } },
        ]
        defer { withExtendedLifetime(foldTokens) {} }
        var lastSum = 0
        var lastEvenCount = 0

        func element() -> Int { random.roll(0..<6) }
        func edit() {
            let count = model.count
            switch random.roll(0..<10) {
            case 0:
                let new = element()
                array.append(new)
                model.append(new)
            case 1:
                let index = random.roll(0...count)
                let new = element()
                array.insert(new, at: index)
                model.insert(new, at: index)
            case 2 where count > 0:
                let index = random.roll(0..<count)
                #expect(array.remove(at: index) == model.remove(at: index))
            case 3 where count > 0:
                let index = random.roll(0..<count)
                let new = element()
                array[index] = new
                model[index] = new
            case 4:
                let lower = random.roll(0...count)
                let range = lower..<random.roll(lower...min(count, lower + 3))
                let new = (0..<random.roll(0...3)).map { _ in element() }
                array.replaceSubrange(range, with: new)
                model.replaceSubrange(range, with: new)
            case 5 where count > 0:
                let source = random.roll(0..<count)
                let destination = random.roll(0..<count)
                array.move(from: source, to: destination)
                model.insert(model.remove(at: source), at: destination)
            case 6:
                let new = (0..<random.roll(0...3)).map { _ in element() }
                let index = random.roll(0...count)
                array.insert(contentsOf: new, at: index)
                model.insert(contentsOf: new, at: index)
            case 7 where random.roll(0..<20) == 0:
                array.removeAll()
                model.removeAll()
            case 8:
                let drop = random.roll(0..<6)
                array.modify { $0.removeAll { $0 == drop } }
                model.removeAll { $0 == drop }
            default:
                let new = element()
                array.append(new)
                model.append(new)
            }
        }

        var step = 0
        while step < Self.steps {
            if random.roll(0..<8) == 0 {
                let edits = random.roll(0...6)
                array.withTransaction {
                    for _ in 0..<edits {
                        edit()
                        if random.roll(0..<4) == 0 { array.withTransaction { edit() } }
                    }
                    #expect(recorder.take().isEmpty)
                }
                step += edits
            } else {
                edit()
                step += 1
            }
            let received = recorder.take()
            #expect(received.count <= 1, "seed \(seed), step \(step): one edit or transaction, one change")
            for change in received {
                #expect(!change.isEmpty)
                #expect(change.countBefore == copy.count)
                change.apply(to: &copy)
            }
            #expect(array.value == model, "seed \(seed), step \(step)")
            #expect(copy == model, "seed \(seed), step \(step)")
            for update in sums.withLock({ updates in
                defer { updates = [] }
                return updates
            }) {
                #expect(update.old == lastSum && update.new != update.old, "seed \(seed), step \(step)")
                lastSum = update.new
            }
            for update in evenCounts.withLock({ updates in
                defer { updates = [] }
                return updates
            }) {
                #expect(update.old == lastEvenCount && update.new != update.old, "seed \(seed), step \(step)")
                lastEvenCount = update.new
            }
            #expect(lastSum == model.reduce(0, +) && sum.value == lastSum, "seed \(seed), step \(step)")
            #expect(lastEvenCount == model.count { $0 % 2 == 0 } && evens.value == lastEvenCount)
            if copy != model || array.value != model || lastSum != model.reduce(0, +) { return }
        }
    }
}
