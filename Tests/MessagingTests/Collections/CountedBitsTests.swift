import Foundation
import Testing

@testable import Messaging

/// The counted bits behind a filtered view, checked against a plain `[Bool]` after random
/// insertions, removals, updates and ranks, across leaf splits and merges.
@Suite("_CountedBits: an order-statistics sequence of bits")
struct CountedBitsTests {
    static var steps: Int {
        modelSteps(standard: 100_000)
    }

    static func rank(_ bits: [Bool], _ position: Int) -> Int {
        bits[..<position].reduce(0) { $1 ? $0 + 1 : $0 }
    }

    @Test func anEmptySequenceCountsNothing() {
        let bits = _CountedBits()
        #expect(bits.count == 0)
        #expect(bits.onesCount == 0)
        #expect(bits.rank(0) == 0)
        #expect(bits._isValid)
    }

    @Test(arguments: [0, 1, 63, 64, 65, 767, 768, 769, 1024, 10_000, 100_000])
    func aSequenceBuiltAtOnceReadsBackAndRanks(count: Int) {
        var random = SeededGenerator(seed: UInt64(count))
        let reference = (0..<count).map { _ in random.next() & 3 == 0 }
        let bits = _CountedBits(reference)
        #expect(bits._isValid)
        #expect(bits._bits == reference)
        #expect(bits.count == count)
        #expect(bits.onesCount == reference.filter { $0 }.count)
        var ones = 0
        for position in 0..<count {
            #expect(bits.rank(position) == ones)
            #expect(bits[position] == reference[position])
            if reference[position] { ones += 1 }
        }
        #expect(bits.rank(count) == ones)
    }

    @Test(arguments: CollectionChangeModelTests.seeds)
    func randomEditsMatchAPlainArrayOfBools(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let bits = _CountedBits()
        var reference: [Bool] = []
        // Grows to 20,000 bits (several levels of inner nodes), shrinks to nothing, and grows
        // again, so that leaves and inner nodes split, merge and the root changes height both ways.
        var growing = true
        var deepest = 0
        for step in 0..<Self.steps {
            if reference.count > 20_000 { growing = false }
            if reference.isEmpty { growing = true }
            let roll = random.next() % 10
            let bit = random.next() & 1 == 0
            if roll < (growing ? 7 : 2) || reference.isEmpty {
                let position = Int(random.next() % UInt64(reference.count + 1))
                bits.insert(bit, at: position)
                reference.insert(bit, at: position)
            } else if roll < 8 {
                let position = Int(random.next() % UInt64(reference.count))
                #expect(bits.remove(at: position) == reference.remove(at: position))
            } else {
                let position = Int(random.next() % UInt64(reference.count))
                #expect(bits.set(bit, at: position) == reference[position])
                reference[position] = bit
            }
            #expect(bits.count == reference.count)
            if step % 16 == 0 {
                let position = Int(random.next() % UInt64(reference.count + 1))
                #expect(bits.rank(position) == Self.rank(reference, position))
            }
            if step % 1_000 == 0 || reference.count < 3 {
                let depth = bits._root.depthIfValid(isRoot: true)
                #expect(depth != nil)
                deepest = max(deepest, depth ?? 0)
                #expect(bits._bits == reference)
                #expect(bits.onesCount == reference.filter { $0 }.count)
            }
        }
        #expect(bits._isValid)
        #expect(bits._bits == reference)
        // Inner nodes under the root: inner nodes split too (unless the run was shortened).
        #expect(deepest >= 2 || Self.steps < 50_000)
    }
}
