import Foundation
import Testing

@testable import Messaging

/// Sorted views of an observable set: exact changes against the view's contents, checked on
/// examples and, after every step of random edits, against sorting the set again.
@Suite("SortedSetView: a sorted view of an ObservableSet")
struct SortedSetViewTests {
    /// Every change a set view sends, applied to a copy of its contents.
    final class Follower: Sendable {
        let view: SortedSetView<Int>
        let copy = Locked<[Int]>([])
        let received = Locked<[ArrayChange<Int>]>([])
        let token: ObservationToken

        init(_ view: SortedSetView<Int>) {
            self.view = view
            let copy = copy
            let received = received
            token = view.subscribe { change in
                copy.withLock { change.apply(to: &$0) }
                received.withLock { $0.append(change) }
            }
            copy.withLock { $0 = view.value }
        }

        func take() -> [ArrayChange<Int>] {
            received.withLock { changes in
                defer { changes = [] }
                return changes
            }
        }
    }

    @Test func membersArriveAndLeaveAtTheirSortedPositions() {
        let set = ObservableSet([30, 10, 20])
        let view = Follower(set.sortedView())
        let top = Follower(set.sortedView(by: >).prefix(2))
        #expect(view.view.value == [10, 20, 30] && top.view.value == [30, 20])
        set.insert(25)
        #expect(view.take() == [change(3, .insert(25, at: 2))])
        #expect(top.take() == [change(2, .insert(25, at: 1), .remove(20, at: 1))])
        set.remove(30)
        #expect(view.take() == [change(4, .remove(30, at: 3))])
        #expect(top.take() == [change(2, .remove(30, at: 0), .insert(20, at: 2))])
        _ = set.update(with: 10)  // an equal member: nothing moves
        #expect(view.take().isEmpty)
        set.formUnion([1, 2])
        #expect(view.take() == [change(3, .insert(1, at: 0), .insert(2, at: 0))])
        #expect(view.view.count == 5 && top.view.count == 2)
        set.removeAll()
        #expect(view.copy.value == [] && top.copy.value == [])
        #expect(view.view.value == [])
    }

    @Test(arguments: CollectionChangeModelTests.seeds)
    func randomEditsLeaveTheViewsEqualToSortingTheSet(seed: UInt64) {
        var random = SeededGenerator(seed: seed &+ 2_000)
        let set = ObservableSet<Int>()
        var followers = [Follower(set.sortedView()), Follower(set.sortedView().prefix(3))]
        for step in 0..<Swift.max(1, ObservableArrayModelTests.steps / 4) {
            switch random.roll(0..<6) {
            case 0, 1: set.insert(random.roll(0..<60))
            case 2: set.remove(random.roll(0..<60))
            case 3: set.formUnion((0..<random.roll(0...4)).map { _ in random.roll(0..<60) })
            case 4: set.subtract((0..<random.roll(0...6)).map { _ in random.roll(0..<60) })
            default:
                set.withTransaction {
                    set.insert(random.roll(0..<60))
                    set.remove(random.roll(0..<60))
                }
            }
            if random.roll(0..<1_000) == 0 {
                let views = followers.map(\.view)
                followers = []
                followers = views.map { Follower($0) }
            }
            let expected = set.value.sorted()
            #expect(followers[0].copy.value == expected, "seed \(seed), step \(step)")
            #expect(followers[1].copy.value == Array(expected.prefix(3)), "seed \(seed), step \(step)")
            if followers[0].copy.value != expected { return }
        }
    }
}
