import Foundation
import Testing

@testable import Messaging

/// Random edits and transactions of an observable array, with a sorted view, a prefix of it, and
/// the observable least and greatest elements, each checked after every step against sorting the
/// array again, and against a copy kept in step by applying every change the view sent.
///
/// Set `MESSAGING_MODEL_STEPS` for longer or shorter runs and `MESSAGING_MODEL_SEEDS` (such as
/// `1,2,3`) for other seeds; a failing seed replays.
@Suite("Model: sorted views of a randomly edited ObservableArray against sorting it again")
struct SortedArrayViewModelTests {
    static var steps: Int { ObservableArrayModelTests.steps }
    static var seeds: [UInt64] { CollectionChangeModelTests.seeds }

    /// An element ordered by its key only: equivalent elements need not be equal.
    struct Keyed: Equatable, Sendable {
        let key: Int
        let tag: Int
    }

    /// Makes one random edit, transaction or not, of `array`, with elements from `element`.
    static func edit<Element: Sendable>(
        _ array: ObservableArray<Element>,
        _ random: inout SeededGenerator,
        element: (inout SeededGenerator) -> Element
    ) {
        let count = array.value.count
        switch random.roll(0..<11) {
        case 0, 1:
            array.append(element(&random))
        case 2:
            array.insert(element(&random), at: random.roll(0...count))
        case 3 where count > 0:
            array.remove(at: random.roll(0..<count))
        case 4 where count > 0:
            array[random.roll(0..<count)] = element(&random)
        case 5:
            let lower = random.roll(0...count)
            let range = lower..<random.roll(lower...Swift.min(count, lower + 3))
            let new = (0..<random.roll(0...3)).map { _ in element(&random) }
            array.replaceSubrange(range, with: new)
        case 6 where count > 0:
            array.move(from: random.roll(0..<count), to: random.roll(0..<count))
        case 7 where random.roll(0..<30) == 0:
            array.removeAll()
        case 8:
            let edits = random.roll(0...5)
            array.withTransaction {
                for _ in 0..<edits {
                    let count = array.value.count
                    if count > 0, random.roll(0..<2) == 0 {
                        array.remove(at: random.roll(0..<count))
                    } else {
                        array.insert(element(&random), at: random.roll(0...count))
                    }
                }
            }
        case 9 where count > 40:
            // Keeps the array small enough that sorting it at every step stays cheap.
            array.removeSubrange(0..<count / 2)
        default:
            array.append(element(&random))
        }
    }

    /// A copy of a view kept by applying what it sends, checked against the view's contents.
    final class Follower<Element: Equatable & Sendable>: Sendable {
        let view: SortedArrayView<Element>
        let copy = Locked<[Element]>([])
        let token: ObservationToken

        init(_ view: SortedArrayView<Element>) {
            self.view = view
            let copy = copy
            token = view.subscribe { change in
                copy.withLock { contents in
                    #expect(change.countBefore == contents.count)
                    #expect(!change.isEmpty)
                    change.apply(to: &contents)
                }
            }
            copy.withLock { $0 = view.value }
        }
    }

    @Test(arguments: seeds)
    func sortedViewsOfIntegersEqualSortingTheArrayAfterEveryStep(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let array = ObservableArray<Int>()
        let sorted = array.sortedView()
        let descending = array.sortedView(by: >)
        let minimum = array.observableMin
        let maximum = array.observableMax
        var followers = [Follower(sorted), Follower(sorted.prefix(3)), Follower(descending.prefix(1))]
        let lastMin = Locked<Int?>(nil)
        let lastMax = Locked<Int?>(nil)
        func follow(_ extremum: ArrayExtremum<Int>, into last: Locked<Int?>) -> ObservationToken {
            let token = extremum.subscribe { update in
                last.withLock { value in
                    #expect(update.old == value && update.new != update.old)
                    value = update.new
                }
            }
            last.withLock { $0 = extremum.value }
            return token
        }
        var extremumTokens = [follow(minimum, into: lastMin), follow(maximum, into: lastMax)]

        for step in 0..<Self.steps {
            Self.edit(array, &random) { $0.roll(0..<25) }
            if random.roll(0..<2_000) == 0 {
                // Stop and start again: the views start from the array's contents.
                let views = followers.map(\.view)
                followers = []
                extremumTokens = []
                followers = views.map { Follower($0) }
                extremumTokens = [follow(minimum, into: lastMin), follow(maximum, into: lastMax)]
            }
            let expected = array.value.sorted()
            #expect(sorted.value == expected, "seed \(seed), step \(step)")
            #expect(followers[0].copy.value == expected, "seed \(seed), step \(step)")
            #expect(followers[1].copy.value == Array(expected.prefix(3)), "seed \(seed), step \(step)")
            #expect(followers[1].view.count == Swift.min(expected.count, 3))
            #expect(followers[2].copy.value == expected.last.map { [$0] } ?? [], "seed \(seed), step \(step)")
            #expect(lastMin.value == expected.first && minimum.value == expected.first, "seed \(seed), step \(step)")
            #expect(lastMax.value == expected.last && maximum.value == expected.last, "seed \(seed), step \(step)")
            if sorted.value != expected || followers[0].copy.value != expected { return }
        }
        withExtendedLifetime(extremumTokens) {}
    }

    @Test(arguments: seeds)
    func equivalentElementsFollowTheirDocumentedOrderAfterEveryStep(seed: UInt64) {
        var random = SeededGenerator(seed: seed &+ 1_000)
        let array = ObservableArray<Keyed>()
        let byKey: @Sendable (Keyed, Keyed) -> Bool = { $0.key < $1.key }
        let view = array.sortedView(by: byKey)
        let follower = Follower(view)
        let prefix = Follower(view.prefix(4))
        // The reference: a sorted array changed by the documented rules, from the array's changes.
        var reference: [Keyed] = []
        let arrayChanges = ArrayChangeRecorder(array)
        for step in 0..<Swift.max(1, Self.steps / 2) {
            Self.edit(array, &random) { Keyed(key: $0.roll(0..<4), tag: $0.roll(0..<3)) }
            for change in arrayChanges.take() {
                for modification in change.modifications {
                    let (old, new): ([Keyed], [Keyed])
                    switch modification {
                    case .insert(let element, _): (old, new) = ([], [element])
                    case .remove(let element, _): (old, new) = ([element], [])
                    case .replace(let removed, let inserted, _): (old, new) = ([removed], [inserted])
                    case .replaceSlice(let removed, _, let inserted): (old, new) = (removed, inserted)
                    }
                    for element in old {
                        let start = reference.partitionPoint { !byKey($0, element) }
                        let index = reference[start...].firstIndex(of: element)!
                        reference.remove(at: index)
                    }
                    for element in new {
                        reference.insert(element, at: reference.partitionPoint { byKey(element, $0) })
                    }
                }
            }
            #expect(view.value == reference, "seed \(seed), step \(step)")
            #expect(follower.copy.value == reference, "seed \(seed), step \(step)")
            #expect(prefix.copy.value == Array(reference.prefix(4)), "seed \(seed), step \(step)")
            // And it is a sort of the array: the same elements, by key.
            #expect(reference.map(\.key) == array.value.map(\.key).sorted())
            if view.value != reference { return }
        }
    }
}
