/// A sorted sequence of elements in a B-tree whose inner nodes count the elements below each
/// child: an order-statistics tree.
///
/// Every operation is O(log *n*): finding where an element goes by a comparator (the rank of its
/// lower or upper bound), inserting at a rank, removing at a rank, reading the element at a rank.
/// The tree does not keep itself sorted: inserting at the rank its search gave keeps it sorted, so
/// that the comparator runs in the search and never in a mutation. A caller may search outside a
/// lock and mutate under it, provided nothing mutates the tree meanwhile.
///
/// Leaves hold up to ``_maximum`` elements; an inner node holds up to ``_maximum`` children, their
/// element counts, and the first element of each child, which searches compare. Every node but
/// the root holds at least ``_minimum`` entries, so the depth is O(log *n*). Beyond the elements,
/// a tree costs about 3 bytes per element (a leaf's header, its array's header and spare
/// capacity, and the inner nodes' copies of first elements).
///
/// Not thread-safe: its owner (``_SortedViewState``) never lets a change overlap another access,
/// which makes the run-time exclusivity checks of its fields redundant.
@usableFromInline
final class _SortedCountedTree<Element> {
    /// The most entries of a node; a node that would hold more splits in two.
    @usableFromInline static var _maximum: Int { 64 }
    /// The fewest entries of a node other than the root; a node with fewer joins a neighbour.
    @usableFromInline static var _minimum: Int { 16 }

    @exclusivity(unchecked) @usableFromInline var _root: _SortedTreeNode<Element>

    /// Makes an empty tree.
    @inlinable
    init() {
        _root = _SortedTreeNode(leaf: [])
    }

    /// Makes the tree of `sorted`, which must already be in order: O(*n*).
    @inlinable
    init(sorted: [Element]) {
        let fill = Self._maximum * 3 / 4
        guard sorted.count > fill else {
            _root = _SortedTreeNode(leaf: sorted)
            return
        }
        var level = Self._split(sorted.count, into: fill).map { range in
            _SortedTreeNode(leaf: Array(sorted[range]))
        }
        while level.count > 1 {
            level = Self._split(level.count, into: fill).map { range in
                _SortedTreeNode(children: Array(level[range]))
            }
        }
        _root = level[0]
    }

    /// Ranges that cut `count` entries into nodes of about `fill`, as even as possible, so every
    /// node has at least `fill / 2` entries.
    @inlinable
    static func _split(_ count: Int, into fill: Int) -> [Range<Int>] {
        let nodes = (count + fill - 1) / fill
        return (0..<nodes).map { node in (count * node / nodes)..<(count * (node + 1) / nodes) }
    }

    /// The number of elements.
    @inlinable
    var count: Int { _root.count }

    /// The first element, if any.
    @inlinable
    var first: Element? { _root.count == 0 ? nil : _root.elements[0] }

    /// The number of elements ordered before `element`: where it would go before every element
    /// equivalent to it.
    @inlinable
    func lowerBound(of element: Element, by areInIncreasingOrder: (Element, Element) -> Bool) -> Int {
        _bound { !areInIncreasingOrder($0, element) }
    }

    /// The number of elements not ordered after `element`: where it would go after every element
    /// equivalent to it.
    @inlinable
    func upperBound(of element: Element, by areInIncreasingOrder: (Element, Element) -> Bool) -> Int {
        _bound { areInIncreasingOrder(element, $0) }
    }

    /// The rank of the first element for which `isAfter` holds, `isAfter` being false for a
    /// prefix of the elements and true for the rest.
    @inlinable
    func _bound(_ isAfter: (Element) -> Bool) -> Int {
        var node = _root
        var rank = 0
        while true {
            let firsts = node.elements
            var low = 0
            var high = firsts.count
            while low < high {
                let middle = (low + high) / 2
                if isAfter(firsts[middle]) { high = middle } else { low = middle + 1 }
            }
            if node.isLeaf { return rank + low }
            // The last child whose first element is not after: the bound lies in it.
            let child = Swift.max(low - 1, 0)
            for index in 0..<child { rank += node.counts[index] }
            node = node.children[child]
        }
    }

    /// The rank of an element `==` to `element` among those equivalent to it, starting from the
    /// first of them; `nil` if there is none.
    ///
    /// O(log *n* + *e*) for *e* equivalent elements before it.
    @inlinable
    func rank(
        of element: Element, by areInIncreasingOrder: (Element, Element) -> Bool
    ) -> Int? where Element: Equatable {
        var rank = lowerBound(of: element, by: areInIncreasingOrder)
        var found = false
        forEach(from: rank) { candidate in
            if candidate == element {
                found = true
                return false
            }
            guard !areInIncreasingOrder(element, candidate) else { return false }
            rank += 1
            return true
        }
        return found ? rank : nil
    }

    /// The rank of the first element `==` to `element`, looking at every element: O(*n*).
    @inlinable
    func linearRank(of element: Element) -> Int? where Element: Equatable {
        var rank = 0
        var found = false
        forEach(from: 0) { candidate in
            if candidate == element {
                found = true
                return false
            }
            rank += 1
            return true
        }
        return found ? rank : nil
    }

    /// Calls `body` with the elements from rank `start` on, in order, while it returns true.
    @inlinable
    func forEach(from start: Int, _ body: (Element) -> Bool) {
        guard start < count else { return }
        _ = _root.forEach(from: start, body)
    }

    /// The element at `rank`, which must be below ``count``.
    @inlinable
    func element(at rank: Int) -> Element {
        var node = _root
        var rank = rank
        while !node.isLeaf {
            var index = 0
            while rank >= node.counts[index] {
                rank -= node.counts[index]
                index += 1
            }
            node = node.children[index]
        }
        return node.elements[rank]
    }

    /// Inserts `element` at `rank`, from 0 to ``count``.
    @inlinable
    func insert(_ element: Element, at rank: Int) {
        if let right = _root.insert(element, at: rank) {
            _root = _SortedTreeNode(children: [_root, right])
        }
    }

    /// Removes and returns the element at `rank`, which must be below ``count``.
    @inlinable
    func remove(at rank: Int) -> Element {
        let removed = _root.remove(at: rank)
        if !_root.isLeaf, _root.children.count == 1 {
            _root = _root.children[0]
        }
        return removed
    }

    /// The first `limit` elements, in order (all of them if there are fewer).
    @inlinable
    func prefix(_ limit: Int) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(Swift.min(limit, count))
        forEach(from: 0) { element in
            guard result.count < limit else { return false }
            result.append(element)
            return true
        }
        return result
    }

    /// Every element, in order.
    @inlinable
    var elements: [Element] { prefix(count) }

    /// Whether every node has its entries, counts and first elements right, and the elements are
    /// in order; for tests.
    func _isValid(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        guard _root.isValid(isRoot: true, by: areInIncreasingOrder) else { return false }
        let all = elements
        return all.count == count && zip(all, all.dropFirst()).allSatisfy { !areInIncreasingOrder($1, $0) }
    }

    /// The depth of the tree: 1 for a single leaf; for tests.
    var _depth: Int {
        var depth = 1
        var node = _root
        while !node.isLeaf {
            depth += 1
            node = node.children[0]
        }
        return depth
    }
}

/// A node of a ``_SortedCountedTree``: a leaf of elements, or an inner node of children with
/// their counts and first elements.
@usableFromInline
final class _SortedTreeNode<Element> {
    /// A leaf's elements; an inner node's first element of each child.
    @exclusivity(unchecked) @usableFromInline var elements: [Element]
    /// An inner node's children; empty for a leaf.
    @exclusivity(unchecked) @usableFromInline var children: [_SortedTreeNode]
    /// An inner node's number of elements under each child.
    @exclusivity(unchecked) @usableFromInline var counts: [Int]
    /// The number of elements under the node.
    @exclusivity(unchecked) @usableFromInline var count: Int

    @inlinable
    init(leaf elements: [Element]) {
        self.elements = elements
        children = []
        counts = []
        count = elements.count
    }

    @inlinable
    init(children: [_SortedTreeNode]) {
        self.children = children
        elements = children.map { $0.elements[0] }
        counts = children.map(\.count)
        count = counts.reduce(0, +)
    }

    @inlinable
    var isLeaf: Bool { children.isEmpty }

    /// The node's entries: elements of a leaf, children of an inner node.
    @inlinable
    var entryCount: Int { elements.count }

    /// Inserts `element` at `rank` under this node; returns the new right half if the node split.
    @inlinable
    func insert(_ element: Element, at rank: Int) -> _SortedTreeNode? {
        count += 1
        if isLeaf {
            elements.insert(element, at: rank)
        } else {
            var rank = rank
            var index = 0
            while rank > counts[index] {
                rank -= counts[index]
                index += 1
            }
            let child = children[index]
            let right = child.insert(element, at: rank)
            counts[index] = child.count
            elements[index] = child.elements[0]
            if let right {
                children.insert(right, at: index + 1)
                counts.insert(right.count, at: index + 1)
                elements.insert(right.elements[0], at: index + 1)
            }
        }
        return entryCount > _SortedCountedTree<Element>._maximum ? splitOffRightHalf() : nil
    }

    /// Removes and returns the element at `rank` under this node, joining a child that falls
    /// below the minimum with a neighbour.
    @inlinable
    func remove(at rank: Int) -> Element {
        count -= 1
        if isLeaf { return elements.remove(at: rank) }
        var rank = rank
        var index = 0
        while rank >= counts[index] {
            rank -= counts[index]
            index += 1
        }
        let child = children[index]
        let removed = child.remove(at: rank)
        counts[index] = child.count
        if child.entryCount >= _SortedCountedTree<Element>._minimum {
            elements[index] = child.elements[0]
        } else {
            rebalance(at: index)
        }
        return removed
    }

    /// Joins the child at `index`, below the minimum, with a neighbour, splitting the result
    /// again if it is too big. A node other than the root has at least two children.
    @inlinable
    func rebalance(at index: Int) {
        let left = index > 0 ? index - 1 : index
        let leftNode = children[left]
        let rightNode = children[left + 1]
        leftNode.absorb(rightNode)
        children.remove(at: left + 1)
        counts.remove(at: left + 1)
        elements.remove(at: left + 1)
        counts[left] = leftNode.count
        elements[left] = leftNode.elements[0]
        if leftNode.entryCount > _SortedCountedTree<Element>._maximum {
            let right = leftNode.splitOffRightHalf()
            counts[left] = leftNode.count
            children.insert(right, at: left + 1)
            counts.insert(right.count, at: left + 1)
            elements.insert(right.elements[0], at: left + 1)
        }
    }

    /// Appends the entries of `right`, the next node at the same depth.
    @inlinable
    func absorb(_ right: _SortedTreeNode) {
        elements.append(contentsOf: right.elements)
        children.append(contentsOf: right.children)
        counts.append(contentsOf: right.counts)
        count += right.count
    }

    /// Moves the upper half of the entries into a new node, returned.
    @inlinable
    func splitOffRightHalf() -> _SortedTreeNode {
        let middle = entryCount / 2
        let right: _SortedTreeNode
        if isLeaf {
            right = _SortedTreeNode(leaf: Array(elements[middle...]))
            elements.removeSubrange(middle...)
        } else {
            right = _SortedTreeNode(children: Array(children[middle...]))
            children.removeSubrange(middle...)
            counts.removeSubrange(middle...)
            elements.removeSubrange(middle...)
        }
        count -= right.count
        return right
    }

    /// Calls `body` with the elements from `start` under this node on, while it returns true;
    /// returns whether it always did.
    @inlinable
    func forEach(from start: Int, _ body: (Element) -> Bool) -> Bool {
        if isLeaf {
            for index in start..<elements.count where !body(elements[index]) { return false }
            return true
        }
        var start = start
        for index in children.indices {
            if start >= counts[index] {
                start -= counts[index]
                continue
            }
            guard children[index].forEach(from: start, body) else { return false }
            start = 0
        }
        return true
    }

    /// Whether the node and those under it are well formed; for tests.
    func isValid(isRoot: Bool, by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        let maximum = _SortedCountedTree<Element>._maximum
        let minimum = _SortedCountedTree<Element>._minimum
        guard entryCount <= maximum, isRoot || entryCount >= minimum else { return false }
        if isLeaf { return count == elements.count && counts.isEmpty }
        guard !isRoot || children.count >= 2, children.count == counts.count, children.count == elements.count,
            counts.reduce(0, +) == count
        else { return false }
        let depth = children[0]._depth
        for (index, child) in children.enumerated() {
            guard child.count == counts[index], child._depth == depth,
                !areInIncreasingOrder(elements[index], child.elements[0]),
                !areInIncreasingOrder(child.elements[0], elements[index]),
                child.isValid(isRoot: false, by: areInIncreasingOrder)
            else { return false }
        }
        return true
    }

    private var _depth: Int { isLeaf ? 1 : 1 + children[0]._depth }
}
