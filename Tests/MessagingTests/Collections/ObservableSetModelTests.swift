import Foundation
import Testing

@testable import Messaging

/// Random edits and transactions of an observable set, checked after every step against the same
/// edits of a plain `Set`, against a copy kept in step by applying every received change to it,
/// and against what its count and a member's presence reported.
///
/// Set `MESSAGING_MODEL_STEPS` for longer runs and `MESSAGING_MODEL_SEEDS` (such as `1,2,3`) for
/// other seeds; a failing seed replays.
@Suite("Model: random edits of an ObservableSet checked against their changes")
struct ObservableSetModelTests {
    static var steps: Int {
        modelSteps(standard: 100_000)
    }

    static var seeds: [UInt64] { CollectionChangeModelTests.seeds }

    /// The member whose presence is observed.
    static let watched = 3

    @Test(arguments: seeds)
    func everyReceivedChangeTurnsThePreviousContentsIntoTheCurrentOnes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let set = ObservableSet<Int>()
        let recorder = SetChangeRecorder(set)
        let counts = Locked<[Update<Int>]>([])
        let countToken = set.observableCount.subscribe { update in counts.withLock { $0.append(update) } }
        let presences = Locked<[Update<Bool>]>([])
        let presenceToken = set.observableContains(Self.watched).subscribe { update in
            presences.withLock { $0.append(update) }
        }
        var model: Set<Int> = []
        var copy: Set<Int> = []
        var count = 0
        var isPresent = false

        func element() -> Int { random.roll(0..<8) }
        func elements() -> [Int] { (0..<random.roll(0...4)).map { _ in element() } }
        func edit() {
            switch random.roll(0..<11) {
            case 0, 1:
                let new = element()
                let result = set.insert(new)
                let expected = model.insert(new)
                #expect(result == expected)
            case 2:
                let new = element()
                #expect(set.update(with: new) == model.update(with: new))
            case 3, 4:
                let old = element()
                #expect(set.remove(old) == model.remove(old))
            case 5 where random.roll(0..<10) == 0:
                set.removeAll()
                model.removeAll()
            case 5:
                let new = elements()
                set.formUnion(new)
                model.formUnion(new)
            case 6:
                let old = elements()
                set.subtract(old)
                model.subtract(old)
            case 7:
                let kept = elements() + elements() + elements()
                set.formIntersection(kept)
                model.formIntersection(kept)
            case 8:
                let toggled = elements()
                set.formSymmetricDifference(toggled)
                model.formSymmetricDifference(toggled)
            case 9:
                let new = Set(elements() + elements())
                set.value = new
                model = new
            default:
                let dropped = element()
                let added = element()
                set.modify {
                    $0.remove(dropped)
                    $0.insert(added)
                }
                model.remove(dropped)
                model.insert(added)
            }
        }

        var step = 0
        while step < Self.steps {
            if random.roll(0..<8) == 0 {
                let edits = random.roll(0...6)
                set.withTransaction {
                    for _ in 0..<edits {
                        edit()
                        if random.roll(0..<4) == 0 { set.withTransaction { edit() } }
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
                change.apply(to: &copy)
            }
            for update in counts.withLock({ updates in
                defer { updates = [] }
                return updates
            }) {
                #expect(update.old == count && update.new != update.old, "seed \(seed), step \(step)")
                count = update.new
            }
            for update in presences.withLock({ updates in
                defer { updates = [] }
                return updates
            }) {
                #expect(update.old == isPresent && update.new != update.old, "seed \(seed), step \(step)")
                isPresent = update.new
            }
            #expect(set.value == model, "seed \(seed), step \(step)")
            #expect(copy == model, "seed \(seed), step \(step)")
            #expect(count == model.count, "seed \(seed), step \(step)")
            #expect(isPresent == model.contains(Self.watched), "seed \(seed), step \(step)")
            if copy != model || set.value != model || count != model.count { return }
        }
        withExtendedLifetime((countToken, presenceToken)) {}
    }

    /// Equal members can be different instances; every edit must leave the instances that the
    /// same edit of a `Set` leaves, whichever copy of the contents it worked on.
    @Test(arguments: seeds)
    func everyEditLeavesTheMembersThatASetWouldHold(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let set = ObservableSet<Tagged>()
        var model: Set<Tagged> = []
        var step = 0

        func tags(_ members: Set<Tagged>) -> [Int: String] {
            Dictionary(uniqueKeysWithValues: members.map { ($0.id, $0.tag) })
        }
        func element() -> Tagged { Tagged(id: random.roll(0..<8), tag: "#\(step).\(random.roll(0..<1000))") }
        func elements() -> [Tagged] { (0..<random.roll(0...4)).map { _ in element() } }
        func edit() {
            switch random.roll(0..<10) {
            case 0, 1:
                let new = element()
                #expect(set.insert(new).memberAfterInsert.tag == model.insert(new).memberAfterInsert.tag)
            case 2:
                let new = element()
                #expect(set.update(with: new)?.tag == model.update(with: new)?.tag)
            case 3:
                let old = element()
                #expect(set.remove(old)?.tag == model.remove(old)?.tag)
            case 4:
                let new = elements()
                set.formUnion(new)
                model.formUnion(new)
            case 5:
                let old = elements()
                set.subtract(old)
                model.subtract(old)
            case 6:
                let kept = elements() + elements() + elements()
                set.formIntersection(kept)
                model.formIntersection(kept)
            case 7:
                let toggled = Set(elements())
                set.formSymmetricDifference(toggled)
                model.formSymmetricDifference(toggled)
            case 8:
                // Equal members keep the new instances only if the contents change.
                let new = Set(elements() + elements())
                if new != model { model = new }
                set.value = new
            default:
                let added = element()
                set.modify { $0.update(with: added) }
                if model.contains(added) {
                    // An update by an equal member is no change: nothing is committed.
                } else {
                    model.insert(added)
                }
            }
        }

        while step < Self.steps / 10 {
            if random.roll(0..<8) == 0 {
                set.withTransaction {
                    for _ in 0..<random.roll(0...4) { edit() }
                }
            } else {
                edit()
            }
            step += 1
            #expect(tags(set.value) == tags(model), "seed \(seed), step \(step)")
            if tags(set.value) != tags(model) { return }
        }
    }
}
