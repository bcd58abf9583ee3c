import Foundation
import Testing

@testable import Messaging

/// Random edits of an array, a set and a dictionary, each described by its change, checked after
/// every edit against the collection's own methods: applying the change to the old contents gives
/// the new contents, reversing it gives the old back, merging the changes of a run of consecutive
/// edits equals applying them in turn, and (for arrays) the `CollectionDifference` and the table
/// view's batch updates give the new contents.
///
/// Set `MESSAGING_MODEL_STEPS` for longer runs and `MESSAGING_MODEL_SEEDS` (such as `1,2,3`) for
/// other seeds; a failing seed replays.
@Suite("Model: random edits checked against their changes")
struct CollectionChangeModelTests {
    static var steps: Int {
        modelSteps(standard: 100_000)
    }

    /// The seeds to run, one test case each: `MESSAGING_MODEL_SEEDS` (numbers separated by commas),
    /// or seed 1, so that the default run of each type takes a few seconds in a debug build.
    static var seeds: [UInt64] {
        let listed = ProcessInfo.processInfo.environment["MESSAGING_MODEL_SEEDS"]?.split(separator: ",")
            .compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        return listed.flatMap { $0.isEmpty ? nil : $0 } ?? [1]
    }

    // MARK: Arrays

    /// One random edit of `old`: the contents after it (made by `Array`'s own methods, or built
    /// directly) and the change that describes it.
    static func randomArrayEdit(of old: [Int], _ random: inout SeededGenerator) -> (
        new: [Int], change: ArrayChange<Int>
    ) {
        func element() -> Int { random.roll(0..<6) }
        func elements() -> [Int] { (0..<random.roll(0...3)).map { _ in element() } }
        func range() -> Range<Int> {
            let lower = random.roll(0...old.count)
            return lower..<random.roll(lower...min(old.count, lower + 4))
        }
        var new = old
        // Grow while small, shrink while large, so that the array stays around 8 elements.
        let shrinking = old.count > 10
        switch random.roll(0..<13) {
        case 0 where !shrinking:
            let (value, index) = (element(), random.roll(0...old.count))
            new.insert(value, at: index)
            return (new, ArrayChange(inserting: value, at: index, into: old))
        case 1 where !shrinking:
            let (values, index) = (elements(), random.roll(0...old.count))
            new.insert(contentsOf: values, at: index)
            return (new, ArrayChange(insertingContentsOf: values, at: index, into: old))
        case 2 where !shrinking:
            let value = element()
            new.append(value)
            return (new, ArrayChange(appending: value, to: old))
        case 3 where !shrinking:
            let values = elements()
            new.append(contentsOf: values)
            return (new, ArrayChange(appendingContentsOf: values, to: old))
        case 4 where !old.isEmpty:
            let index = random.roll(0..<old.count)
            new.remove(at: index)
            return (new, ArrayChange(removingAt: index, from: old))
        case 5:
            let bounds = range()
            new.removeSubrange(bounds)
            return (new, ArrayChange(removingSubrange: bounds, from: old))
        case 6 where random.roll(0..<8) == 0:
            new.removeAll()
            return (new, ArrayChange(removingAllFrom: old))
        case 7:
            let (bounds, values) = (range(), elements())
            new.replaceSubrange(bounds, with: values)
            return (new, ArrayChange(replacingSubrange: bounds, with: values, in: old))
        case 8 where !old.isEmpty:
            let (value, index) = (element(), random.roll(0..<old.count))
            new[index] = value
            return (new, ArrayChange(setting: value, at: index, in: old))
        case 9 where !old.isEmpty:
            let source = random.roll(0..<old.count)
            let destination = random.roll(0..<old.count)
            new.insert(new.remove(at: source), at: destination)
            return (new, ArrayChange(movingFrom: source, to: destination, in: old))
        case 10:
            // Several edits at once, found by diffing.
            for _ in 0..<random.roll(1...3) {
                let lower = random.roll(0...new.count)
                let upper = random.roll(lower...min(new.count, lower + 3))
                new.replaceSubrange(lower..<upper, with: elements())
            }
            return (new, ArrayChange(from: old, to: new))
        default:
            // Random modifications, some adjacent, made into a change directly.
            var modifications: [ArrayModification<Int>] = []
            new = []
            var offset = 0
            while true {
                let unchanged = min(old.count - offset, random.roll(0...4))
                new += old[offset..<(offset + unchanged)]
                offset += unchanged
                if offset == old.count && random.roll(0..<2) == 0 { break }
                let removed = Array(old[offset..<min(old.count, offset + random.roll(0...2))])
                let inserted = shrinking ? [] : elements()
                if !removed.isEmpty || !inserted.isEmpty {
                    modifications.append(ArrayModification(at: offset, replacing: removed, with: inserted))
                }
                new += inserted
                offset += removed.count
                if offset == old.count && random.roll(0..<2) == 0 { break }
            }
            new += old[offset...]
            return (new, ArrayChange(countBefore: old.count, modifications: modifications))
        }
    }

    /// What a table view shows after performing `updates` on rows that showed `old`: inserted and
    /// reloaded rows ask the data source (the new contents), moved rows carry their old element,
    /// and the other rows keep theirs, in order, in the places left. `nil` if the updates are not
    /// a valid batch update of `old.count` rows into `new.count` rows.
    static func perform(_ updates: ArrayBatchUpdates, on old: [Int], showing new: [Int]) -> [Int]? {
        func isIncreasing(_ rows: [Int]) -> Bool {
            var index = 1
            while index < rows.count {
                guard rows[index - 1] < rows[index] else { return false }
                index += 1
            }
            return true
        }
        guard old.count - updates.deleted.count + updates.inserted.count == new.count,
            isIncreasing(updates.deleted), isIncreasing(updates.inserted), isIncreasing(updates.reloaded)
        else { return nil }
        // What each old row becomes (0 kept, 1 deleted or moved away, 2 reloaded), and what each
        // new row shows; a row named twice is invalid.
        var fates = [UInt8](repeating: 0, count: old.count)
        var rows = [Int?](repeating: nil, count: new.count)
        func mark(_ row: Int, _ fate: UInt8) -> Bool {
            guard row >= 0, row < old.count, fates[row] == 0 else { return false }
            fates[row] = fate
            return true
        }
        func show(_ element: Int, at row: Int) -> Bool {
            guard row >= 0, row < new.count, rows[row] == nil else { return false }
            rows[row] = element
            return true
        }
        for row in updates.deleted where !mark(row, 1) { return nil }
        for row in updates.reloaded where !mark(row, 2) { return nil }
        for move in updates.moved where !mark(move.from, 1) || !show(old[move.from], at: move.to) { return nil }
        for row in updates.inserted where !new.indices.contains(row) || !show(new[row], at: row) { return nil }
        var oldRow = 0
        for row in rows.indices where rows[row] == nil {
            while oldRow < old.count, fates[oldRow] == 1 { oldRow += 1 }
            guard oldRow < old.count else { return nil }
            rows[row] = fates[oldRow] == 2 ? new[row] : old[oldRow]
            oldRow += 1
        }
        while oldRow < old.count, fates[oldRow] == 1 { oldRow += 1 }
        return oldRow == old.count ? rows.map { $0! } : nil
    }

    /// Checks one change of `old` into `new`: what every step checks, and, if `thoroughly`, what
    /// a sample of the steps checks too; false after recording an issue.
    static func check(
        _ change: ArrayChange<Int>, from old: [Int], to new: [Int], thoroughly: Bool, seed: UInt64, step: Int
    ) -> Bool {
        func fail(_ what: String) -> Bool {
            Issue.record(
                "seed \(seed), step \(step): \(what); old \(old), new \(new), change \(Array(change.modifications))")
            return false
        }
        guard change.countBefore == old.count, change.countAfter == new.count else { return fail("counts") }
        guard change.applied(to: old) == new else { return fail("applied \(change.applied(to: old))") }
        guard change.reversed().applied(to: new) == old else { return fail("reversed") }
        guard old.applying(change.collectionDifference) == new else { return fail("CollectionDifference") }
        guard perform(change.batchUpdates, on: old, showing: new) == new else {
            return fail("batch updates \(change.batchUpdates)")
        }
        guard thoroughly else { return true }
        guard change._isCanonical, change.reversed()._isCanonical, change.reversed().reversed() == change else {
            return fail("not canonical")
        }
        guard ArrayChange(countBefore: old.count, modifications: change.modifications) == change else {
            return fail("remade from its modifications")
        }
        var oneByOne = old
        for modification in change.modifications.reversed() {
            oneByOne.replaceSubrange(modification.oldRange, with: modification.newElements)
        }
        guard oneByOne == new else { return fail("modifications applied from the last \(oneByOne)") }
        guard ArrayChange(change.collectionDifference, countBefore: old.count) == change else {
            return fail("from its difference")
        }
        let withMoves = change.batchUpdatesInferringMoves()
        guard perform(withMoves, on: old, showing: new) == new else {
            return fail("batch updates with moves \(withMoves)")
        }
        guard change.map({ $0 * 10 }).applied(to: old.map { $0 * 10 }) == new.map({ $0 * 10 }) else {
            return fail("mapped")
        }
        return true
    }

    @Test("random array edits: apply, reverse, merge, CollectionDifference, batch updates", arguments: seeds)
    func arrayChanges(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var current = (0..<8).map { $0 % 6 }
        var runStart = current
        var run = ArrayChange<Int>(countBefore: current.count)
        var previous = [ArrayChange<Int>(countBefore: current.count), ArrayChange<Int>(countBefore: current.count)]
        var moves = 0
        for step in 0..<Self.steps {
            let (new, change) = Self.randomArrayEdit(of: current, &random)
            // One step in eight also checks the rest: the canonical form, remaking the change from
            // its modifications and its difference, moves, `map`, both forms of merging, and that
            // merging the last three changes either way gives the same change.
            let thoroughly = step % 8 == 0
            guard Self.check(change, from: current, to: new, thoroughly: thoroughly, seed: seed, step: step) else {
                return
            }
            let copied = thoroughly ? run.merged(with: change) : run
            run.merge(with: change)
            guard run.applied(to: runStart) == new, run.reversed().applied(to: new) == runStart,
                !thoroughly || (run == copied && run._isCanonical)
            else {
                Issue.record(
                    "seed \(seed), step \(step): merged run from \(runStart) to \(new) is \(Array(run.modifications))")
                return
            }
            if thoroughly {
                if !change.batchUpdatesInferringMoves().moved.isEmpty { moves += 1 }
                let left = previous[0].merged(with: previous[1]).merged(with: change)
                let right = previous[0].merged(with: previous[1].merged(with: change))
                guard left == right else {
                    Issue.record("seed \(seed), step \(step): merging \(previous + [change]) is not associative")
                    return
                }
            }
            previous = [previous[1], change]
            current = new
            if random.roll(0..<12) == 0 {
                runStart = current
                run = ArrayChange(countBefore: current.count)
            }
        }
        // The random edits must reach the moves they are meant to test.
        #expect(moves > Self.steps / 800)
    }

    // MARK: Sets

    /// A member whose equality and hash see only its key; its tag tells replacements apart.
    struct Tagged: Hashable, Sendable {
        let key: Int
        let tag: Int

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(key) }
    }

    /// Whether two sets hold the same members with the same tags.
    static func same(_ a: Set<Tagged>, _ b: Set<Tagged>) -> Bool {
        guard a.count == b.count else { return false }
        for member in a {
            guard let index = b.firstIndex(of: member), b[index].tag == member.tag else { return false }
        }
        return true
    }

    @Test("random set edits: apply, reverse, merge", arguments: seeds)
    func setChanges(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var current: Set<Tagged> = []
        var runStart = current
        var run = SetChange<Tagged>()
        for step in 0..<Self.steps {
            func member() -> Tagged { Tagged(key: random.roll(0..<12), tag: step) }
            func members() -> Set<Tagged> { Set((0..<random.roll(0...4)).map { _ in member() }) }
            var new = current
            let change: SetChange<Tagged>
            switch random.roll(0..<9) {
            case 0, 1:
                let value = member()
                change = SetChange(inserting: value, into: current)
                new.insert(value)
            case 2, 3:
                let value = member()
                change = SetChange(updatingWith: value, in: current)
                new.update(with: value)
            case 4, 5:
                let value = member()
                change = SetChange(removing: value, from: current)
                new.remove(value)
            case 6:
                new.formUnion(members())
                change = SetChange(from: current, to: new)
            case 7:
                new.formSymmetricDifference(members())
                change = SetChange(from: current, to: new)
            default:
                new.subtract(members())
                change = SetChange(from: current, to: new)
            }
            let context = "seed \(seed), step \(step)"
            guard Self.same(change.applied(to: current), new) else {
                Issue.record("\(context): applying \(change) to \(current) does not give \(new)")
                return
            }
            guard Self.same(change.reversed().applied(to: new), current) else {
                Issue.record("\(context): the reverse of \(change) does not give \(current) back")
                return
            }
            run.merge(with: change)
            guard Self.same(run.applied(to: runStart), new),
                Self.same(run.reversed().applied(to: new), runStart)
            else {
                Issue.record("\(context): the merged run \(run) from \(runStart) does not give \(new)")
                return
            }
            current = new
            if random.roll(0..<12) == 0 {
                runStart = current
                run = SetChange()
            }
        }
    }

    // MARK: Dictionaries

    @Test("random dictionary edits: apply, reverse, merge, diff", arguments: seeds)
    func dictionaryChanges(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var current: [Int: Int] = [:]
        var runStart = current
        var run = DictionaryChange<Int, Int>()
        for step in 0..<Self.steps {
            func key() -> Int { random.roll(0..<12) }
            func value() -> Int { random.roll(0..<4) }
            var new = current
            let change: DictionaryChange<Int, Int>
            switch random.roll(0..<7) {
            case 0, 1, 2:
                let (k, v) = (key(), value())
                change = DictionaryChange(updatingValue: v, forKey: k, in: current)
                new[k] = v
            case 3, 4:
                let k = key()
                change = DictionaryChange(removingValueForKey: k, from: current)
                new.removeValue(forKey: k)
            case 5:
                let other = Dictionary((0..<random.roll(0...3)).map { _ in (key(), value()) }) { $1 }
                new.merge(other) { $1 }
                change = DictionaryChange(from: current, to: new)
            default:
                let dropped = value()
                new = new.filter { $0.value != dropped }
                change = DictionaryChange(from: current, to: new)
            }
            let context = "seed \(seed), step \(step)"
            guard change.applied(to: current) == new, change.reversed().applied(to: new) == current else {
                Issue.record("\(context): \(change) does not turn \(current) into \(new) and back")
                return
            }
            // One step in eight also diffs the two dictionaries.
            let diff = step % 8 == 0 ? DictionaryChange(from: current, to: new) : change
            guard diff.applied(to: current) == new,
                step % 8 != 0 || diff.updated.values.allSatisfy({ $0.old != $0.new })
            else {
                Issue.record("\(context): the diff \(diff) of \(current) and \(new) is wrong")
                return
            }
            run.merge(with: change)
            guard run.applied(to: runStart) == new, run.reversed().applied(to: new) == runStart else {
                Issue.record("\(context): the merged run \(run) from \(runStart) does not give \(new)")
                return
            }
            current = new
            if random.roll(0..<12) == 0 {
                runStart = current
                run = DictionaryChange()
            }
        }
    }
}

extension SeededGenerator {
    /// A number in `range`, drawn without the standard library's generic code, which is slow in a
    /// debug build.
    mutating func roll(_ range: Range<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// A number in `range`; see ``roll(_:)-(Range<Int>)``.
    mutating func roll(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
