import Foundation
import Testing

@testable import Messaging

/// The order-statistics B-tree behind sorted views, against a sorted `Array` on random
/// operations: bounds, ranks, insertion and removal at a rank, selection, and its shape.
@Suite("_SortedCountedTree: an order-statistics B-tree against a sorted array")
struct SortedCountedTreeTests {
    /// An element whose order looks at its key only, so that equivalent elements can differ.
    struct Keyed: Equatable {
        let key: Int
        let id: Int
    }

    static func byKey(_ a: Keyed, _ b: Keyed) -> Bool { a.key < b.key }

    /// The reference: where the tree's rules put an element, in a plain sorted array.
    static func upperBound(_ element: Keyed, in array: [Keyed]) -> Int {
        array.partitionPoint { byKey(element, $0) }
    }

    @Test(arguments: [1, 2] as [UInt64])
    func randomInsertionsAndRemovalsMatchASortedArray(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let tree = _SortedCountedTree<Keyed>()
        var model: [Keyed] = []
        var nextID = 0
        let steps = Swift.max(
            1_000, modelSteps(standard: 100_000))
        // Grows to a few thousand elements (a depth of 3), shrinks, grows again.
        for step in 0..<steps {
            let growing = (step / 20_000) % 2 == 0
            let keys = step % 3 == 0 ? 8 : 1_000_000
            if model.isEmpty || random.roll(0..<10) < (growing ? 6 : 4) {
                let element = Keyed(key: random.roll(0..<keys), id: nextID)
                nextID += 1
                let rank = tree.upperBound(of: element, by: Self.byKey)
                #expect(rank == Self.upperBound(element, in: model))
                tree.insert(element, at: rank)
                model.insert(element, at: rank)
            } else {
                let element = model[random.roll(0..<model.count)]
                let rank = tree.rank(of: element, by: Self.byKey)
                #expect(rank == model.firstIndex(of: element))
                #expect(
                    tree.lowerBound(of: element, by: Self.byKey) == model.partitionPoint { !Self.byKey($0, element) })
                guard let rank else { return }
                #expect(tree.remove(at: rank) == element)
                model.remove(at: rank)
            }
            #expect(tree.count == model.count)
            #expect(tree.first == model.first)
            if !model.isEmpty {
                let rank = random.roll(0..<model.count)
                #expect(tree.element(at: rank) == model[rank])
            }
            if step % 997 == 0 {
                #expect(tree._isValid(by: Self.byKey), "seed \(seed), step \(step)")
                #expect(tree.elements == model, "seed \(seed), step \(step)")
                let limit = random.roll(0...20)
                #expect(tree.prefix(limit) == Array(model.prefix(limit)))
            }
        }
        #expect(tree._isValid(by: Self.byKey))
        #expect(tree.elements == model)
    }

    @Test func aTreeBuiltFromSortedElementsIsBalancedAndShallow() {
        for count in [0, 1, 47, 48, 49, 100, 2_305, 100_000] {
            let tree = _SortedCountedTree(sorted: Array(0..<count))
            #expect(tree._isValid(by: <), "\(count) elements")
            #expect(tree.count == count)
            #expect(tree.elements == Array(0..<count))
        }
        let large = _SortedCountedTree(sorted: Array(0..<1_000_000))
        #expect(large._depth == 4)
        #expect(large.element(at: 765_432) == 765_432)
        #expect(large.upperBound(of: 500_000, by: <) == 500_001)
        #expect(large.lowerBound(of: 500_000, by: <) == 500_000)
    }

    @Test func removingEverythingLeavesAnEmptyLeaf() {
        let tree = _SortedCountedTree(sorted: Array(0..<5_000))
        var random = SeededGenerator(seed: 7)
        while tree.count > 0 {
            _ = tree.remove(at: random.roll(0..<tree.count))
        }
        #expect(tree._isValid(by: <))
        #expect(tree._depth == 1)
        #expect(tree.first == nil)
    }

    @Test func anElementThatIsNotThereHasNoRank() {
        let tree = _SortedCountedTree(sorted: [1, 2, 2, 3])
        #expect(tree.rank(of: 4, by: <) == nil)
        #expect(tree.rank(of: 2, by: <) == 1)
        #expect(tree.linearRank(of: 3) == 3)
    }
}

extension Array {
    /// The index of the first element for which `isAfter` holds, `isAfter` being false for a
    /// prefix and true for the rest.
    func partitionPoint(_ isAfter: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
