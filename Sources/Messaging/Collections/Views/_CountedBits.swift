/// A sequence of bits that inserts, removes, reads and sets a bit at a position, and counts the
/// set bits before a position (its rank), each in O(log *n*): the index of a ``FilteredArrayView``,
/// one bit per element of the array, set where the element is included.
///
/// A B-tree: its leaves hold up to 1,024 bits in 64-bit words, its inner nodes up to 16 children,
/// and every node knows how many bits and how many set bits it holds. All leaves are at the same
/// depth. A leaf that a removal leaves under a quarter full is merged with a neighbour when the
/// two fit in three quarters of a leaf, so the bits take about 1.5 to 3 bits per position with
/// the nodes' overhead.
///
/// A reference type with no locking of its own: its owner guards it.
@usableFromInline
final class _CountedBits {
    /// The bits a leaf holds at most.
    static let leafCapacity = 1024
    /// The children an inner node holds at most.
    static let fanout = 16

    // Only its owner touches it, under the owner's lock, which makes the run-time exclusivity
    // checks of these fields redundant.
    @exclusivity(unchecked) var _root: _BitsNode

    /// Makes an empty sequence.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    init() {
        _root = _BitsNode(words: [], count: 0, ones: 0)
    }

    /// Makes the sequence of `bits`, its leaves three quarters full.
    ///
    /// - Complexity: O(*n*).
    @usableFromInline
    init(_ bits: some Sequence<Bool>) {
        let perLeaf = Self.leafCapacity * 3 / 4
        var level: [_BitsNode] = []
        var words: [UInt64] = []
        var count = 0
        var ones = 0
        for bit in bits {
            if count & 63 == 0 { words.append(0) }
            if bit {
                words[words.count - 1] |= 1 &<< UInt64(count & 63)
                ones += 1
            }
            count += 1
            if count == perLeaf {
                level.append(_BitsNode(words: words, count: count, ones: ones))
                words = []
                count = 0
                ones = 0
            }
        }
        if count > 0 || level.isEmpty { level.append(_BitsNode(words: words, count: count, ones: ones)) }
        let perNode = Self.fanout * 3 / 4
        while level.count > 1 {
            var next: [_BitsNode] = []
            next.reserveCapacity(level.count / perNode + 1)
            var start = 0
            while start < level.count {
                let end = min(start + perNode, level.count)
                next.append(_BitsNode(children: Array(level[start..<end])))
                start = end
            }
            level = next
        }
        _root = level[0]
    }

    /// The number of bits.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    var count: Int { _root.count }

    /// The number of set bits.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    var onesCount: Int { _root.ones }

    /// The bit at `position`, from 0 up to, not including, ``count``.
    ///
    /// - Complexity: O(log *n*).
    @usableFromInline
    subscript(position: Int) -> Bool {
        precondition(position >= 0 && position < count, "_CountedBits: position \(position) out of 0..<\(count)")
        var node = _root
        var position = position
        while !node.isLeaf {
            for child in node.children {
                if position < child.count {
                    node = child
                    break
                }
                position -= child.count
            }
        }
        return node.words[position &>> 6] &>> UInt64(position & 63) & 1 == 1
    }

    /// The number of set bits before `position`, from 0 through ``count``.
    ///
    /// - Complexity: O(log *n*).
    @usableFromInline
    func rank(_ position: Int) -> Int {
        precondition(position >= 0 && position <= count, "_CountedBits: position \(position) out of 0...\(count)")
        var node = _root
        var position = position
        var rank = 0
        while !node.isLeaf {
            for child in node.children {
                if position <= child.count {
                    node = child
                    break
                }
                position -= child.count
                rank += child.ones
            }
        }
        return rank + node.leafRank(position)
    }

    /// Sets the bit at `position` to `bit` and returns the bit it replaced.
    ///
    /// - Complexity: O(log *n*).
    @usableFromInline
    @discardableResult
    func set(_ bit: Bool, at position: Int) -> Bool {
        precondition(position >= 0 && position < count, "_CountedBits: position \(position) out of 0..<\(count)")
        return _root.set(bit, at: position)
    }

    /// Inserts `bit` at `position`, from 0 through ``count``.
    ///
    /// - Complexity: O(log *n*).
    @usableFromInline
    func insert(_ bit: Bool, at position: Int) {
        precondition(position >= 0 && position <= count, "_CountedBits: position \(position) out of 0...\(count)")
        if let right = _root.insert(bit, at: position) {
            _root = _BitsNode(children: [_root, right])
        }
    }

    /// Removes the bit at `position` and returns it.
    ///
    /// - Complexity: O(log *n*).
    @usableFromInline
    @discardableResult
    func remove(at position: Int) -> Bool {
        precondition(position >= 0 && position < count, "_CountedBits: position \(position) out of 0..<\(count)")
        let bit = _root.remove(at: position)
        while !_root.isLeaf && _root.children.count == 1 {
            _root = _root.children[0]
        }
        return bit
    }

    /// All the bits, in order.
    ///
    /// - Complexity: O(*n*).
    var _bits: [Bool] {
        var bits: [Bool] = []
        bits.reserveCapacity(count)
        _root.appendBits(to: &bits)
        return bits
    }

    /// Whether every node's counts, sizes and depth are consistent; for tests.
    var _isValid: Bool {
        _root.depthIfValid(isRoot: true) != nil
    }
}

/// A node of ``_CountedBits``: a leaf of up to 1,024 bits, or an inner node of up to 16 children.
final class _BitsNode {
    // Only the owner of the tree touches a node, under the owner's lock, which makes the run-time
    // exclusivity checks of these fields redundant.

    /// The number of bits under the node.
    @exclusivity(unchecked) var count: Int
    /// The number of set bits under the node.
    @exclusivity(unchecked) var ones: Int
    /// A leaf's bits, 64 a word, the first in the lowest bit of the first word; as many words as
    /// `count` needs, and the bits past `count` in the last word are zero. Empty in an inner node.
    @exclusivity(unchecked) var words: [UInt64]
    /// An inner node's children; empty in a leaf.
    @exclusivity(unchecked) var children: [_BitsNode]
    let isLeaf: Bool

    init(words: [UInt64], count: Int, ones: Int) {
        self.words = words
        self.count = count
        self.ones = ones
        children = []
        isLeaf = true
    }

    init(children: [_BitsNode]) {
        self.children = children
        words = []
        count = 0
        ones = 0
        isLeaf = false
        recount()
    }

    /// Sums the children's counts.
    func recount() {
        count = 0
        ones = 0
        for child in children {
            count += child.count
            ones += child.ones
        }
    }

    /// The number of set bits before `position` in a leaf.
    func leafRank(_ position: Int) -> Int {
        let word = position &>> 6
        var rank = 0
        var index = 0
        while index < word {
            rank += words[index].nonzeroBitCount
            index += 1
        }
        let bit = position & 63
        if bit != 0 {
            rank += (words[word] & ((1 &<< UInt64(bit)) &- 1)).nonzeroBitCount
        }
        return rank
    }

    /// The child that holds `position` (less than `count`), and the position in it.
    func child(holding position: Int) -> (index: Int, position: Int) {
        var position = position
        for (index, child) in children.enumerated() {
            if position < child.count { return (index, position) }
            position -= child.count
        }
        preconditionFailure("_CountedBits: the counts of a node disagree with its children")
    }

    func set(_ bit: Bool, at position: Int) -> Bool {
        if isLeaf {
            let mask: UInt64 = 1 &<< UInt64(position & 63)
            let old = words[position &>> 6] & mask != 0
            if bit {
                words[position &>> 6] |= mask
            } else {
                words[position &>> 6] &= ~mask
            }
            ones += (bit ? 1 : 0) - (old ? 1 : 0)
            return old
        }
        let (index, inner) = child(holding: position)
        let old = children[index].set(bit, at: inner)
        ones += (bit ? 1 : 0) - (old ? 1 : 0)
        return old
    }

    /// Inserts `bit` at `position`; returns the new right sibling if the node split.
    func insert(_ bit: Bool, at position: Int) -> _BitsNode? {
        if isLeaf {
            guard count < _CountedBits.leafCapacity else {
                // Split at a word boundary, then insert into the half that holds the position.
                let half = _CountedBits.leafCapacity / 2
                let rightWords = Array(words[(half &>> 6)...])
                words.removeSubrange((half &>> 6)...)
                let rightOnes = rightWords.reduce(0) { $0 + $1.nonzeroBitCount }
                let right = _BitsNode(words: rightWords, count: count - half, ones: rightOnes)
                count = half
                ones -= rightOnes
                if position <= half {
                    leafInsert(bit, at: position)
                } else {
                    right.leafInsert(bit, at: position - half)
                }
                return right
            }
            leafInsert(bit, at: position)
            return nil
        }
        var position = position
        var index = 0
        while index < children.count - 1 && position > children[index].count {
            position -= children[index].count
            index += 1
        }
        count += 1
        if bit { ones += 1 }
        guard let split = children[index].insert(bit, at: position) else { return nil }
        children.insert(split, at: index + 1)
        guard children.count > _CountedBits.fanout else { return nil }
        let right = _BitsNode(children: Array(children[(children.count / 2)...]))
        children.removeSubrange((children.count / 2)...)
        count -= right.count
        ones -= right.ones
        return right
    }

    /// Inserts into a leaf that has room.
    func leafInsert(_ bit: Bool, at position: Int) {
        if count & 63 == 0 { words.append(0) }
        let word = position &>> 6
        let lowMask: UInt64 = (1 &<< UInt64(position & 63)) &- 1
        var carry = words[word] &>> 63
        let old = words[word]
        words[word] = (old & lowMask) | ((old & ~lowMask) &<< 1) | (bit ? lowMask &+ 1 : 0)
        var index = word + 1
        while index < words.count {
            let next = words[index] &>> 63
            words[index] = (words[index] &<< 1) | carry
            carry = next
            index += 1
        }
        count += 1
        if bit { ones += 1 }
    }

    /// Removes and returns the bit at `position`, merging an underfull child with a neighbour.
    func remove(at position: Int) -> Bool {
        if isLeaf {
            let word = position &>> 6
            let lowMask: UInt64 = (1 &<< UInt64(position & 63)) &- 1
            let old = words[word]
            let bit = old & (lowMask &+ 1) != 0
            words[word] = (old & lowMask) | ((old &>> 1) & ~lowMask)
            var index = word
            while index + 1 < words.count {
                words[index] |= (words[index + 1] & 1) &<< 63
                words[index + 1] &>>= 1
                index += 1
            }
            count -= 1
            if count & 63 == 0 { words.removeLast() }
            if bit { ones -= 1 }
            return bit
        }
        let (index, inner) = child(holding: position)
        let child = children[index]
        let bit = child.remove(at: inner)
        count -= 1
        if bit { ones -= 1 }
        if child.count == 0 && children.count > 1 {
            children.remove(at: index)
        } else if child.isUnderfull && children.count > 1 {
            let left = index + 1 < children.count ? index : index - 1
            if children[left].canMerge(children[left + 1]) {
                children[left].merge(children[left + 1])
                children.remove(at: left + 1)
            }
        }
        return bit
    }

    /// A leaf under a quarter full, or an inner node with fewer than a quarter of its children.
    var isUnderfull: Bool {
        isLeaf ? count < _CountedBits.leafCapacity / 4 : children.count < _CountedBits.fanout / 4
    }

    /// Whether this node and its right neighbour `other` fit in three quarters of one node.
    func canMerge(_ other: _BitsNode) -> Bool {
        isLeaf
            ? count + other.count <= _CountedBits.leafCapacity * 3 / 4
            : children.count + other.children.count <= _CountedBits.fanout * 3 / 4
    }

    /// Appends the contents of its right neighbour `other`, a node of the same depth.
    func merge(_ other: _BitsNode) {
        if isLeaf {
            var offset = count
            for (index, word) in other.words.enumerated() {
                let bits = min(64, other.count - index * 64)
                let shift = offset & 63
                if shift == 0 {
                    words.append(word)
                } else {
                    words[words.count - 1] |= word &<< UInt64(shift)
                    if bits > 64 - shift { words.append(word &>> UInt64(64 - shift)) }
                }
                offset += bits
            }
            count += other.count
            ones += other.ones
        } else {
            children += other.children
            count += other.count
            ones += other.ones
        }
    }

    func appendBits(to bits: inout [Bool]) {
        if isLeaf {
            for position in 0..<count {
                bits.append(words[position &>> 6] &>> UInt64(position & 63) & 1 == 1)
            }
        } else {
            for child in children { child.appendBits(to: &bits) }
        }
    }

    /// The depth of the leaves under the node if its counts and sizes are consistent; `nil`
    /// otherwise.
    func depthIfValid(isRoot: Bool) -> Int? {
        if isLeaf {
            guard count <= _CountedBits.leafCapacity, words.count == (count + 63) / 64 else { return nil }
            if count & 63 != 0, words[words.count - 1] &>> UInt64(count & 63) != 0 { return nil }
            guard ones == words.reduce(0, { $0 + $1.nonzeroBitCount }) else { return nil }
            return 0
        }
        guard !children.isEmpty, children.count <= _CountedBits.fanout, isRoot ? children.count > 1 : true else {
            return nil
        }
        var depth: Int?
        var count = 0
        var ones = 0
        for child in children {
            guard let childDepth = child.depthIfValid(isRoot: false) else { return nil }
            if let depth, depth != childDepth { return nil }
            depth = childDepth
            count += child.count
            ones += child.ones
        }
        guard count == self.count, ones == self.ones, let depth else { return nil }
        return depth + 1
    }
}
