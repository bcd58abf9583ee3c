/// The positions of a ring's elements, its storage's header.
@usableFromInline
struct _RingHeader {
    /// Index of the first element.
    @usableFromInline var head = 0
    /// Number of elements.
    @usableFromInline var count = 0
    /// Capacity minus one; the capacity is a power of two.
    @usableFromInline let mask: Int

    @inlinable
    init(capacity: Int) {
        mask = capacity - 1
    }
}

/// The storage of a ``_Ring``: one allocation, the positions as header, then the slots.
@usableFromInline
final class _RingStorage<Element>: ManagedBuffer<_RingHeader, Element> {
    // Used by one owner at a time: a buffer's state under its lock, or a consumer.

    @inlinable
    static func make(capacity: Int) -> _RingStorage<Element> {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in _RingHeader(capacity: capacity) }, to: Self.self)
    }

    deinit {
        withUnsafeMutablePointers { header, slots in
            let capacity = header.pointee.mask + 1
            let head = header.pointee.head
            let count = header.pointee.count
            let firstRun = min(count, capacity - head)
            (slots + head).deinitialize(count: firstRun)
            slots.deinitialize(count: count - firstRun)
        }
    }
}

/// A first-in first-out queue of elements in a ring of slots that grows by doubling: appending and
/// taking the first element are O(1), and a ring that was emptied keeps its slots, so a buffer that
/// is filled and emptied again and again allocates nothing after it has grown.
///
/// This is the one type of the async sequences that handles raw memory. It has no copy-on-write:
/// a copy shares the slots, so each ring has one owner, which moves it (`swap`) rather than copying.
/// An element leaves by being moved out, so a ring never keeps a reference to a message it handed on.
@usableFromInline
struct _Ring<Element> {
    @usableFromInline var _storage: _RingStorage<Element>?

    /// An empty ring without storage: it allocates on the first append.
    @inlinable
    init() {}

    /// The number of elements.
    @inlinable
    var count: Int { _storage?.header.count ?? 0 }

    /// Whether the ring holds no element.
    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Adds an element at the end, growing the slots if they are full.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func append(_ element: Element) {
        guard let storage = _storage else {
            let storage = _RingStorage<Element>.make(capacity: 16)
            storage.withUnsafeMutablePointers { header, slots in
                slots.initialize(to: element)
                header.pointee.count = 1
            }
            _storage = storage
            return
        }
        let isFull = storage.withUnsafeMutablePointerToHeader { $0.pointee.count > $0.pointee.mask }
        if isFull {
            _grow(storage)
            _storage!.withUnsafeMutablePointers { header, slots in
                (slots + header.pointee.count).initialize(to: element)
                header.pointee.count &+= 1
            }
            return
        }
        storage.withUnsafeMutablePointers { header, slots in
            let index = (header.pointee.head &+ header.pointee.count) & header.pointee.mask
            (slots + index).initialize(to: element)
            header.pointee.count &+= 1
        }
    }

    /// Removes and returns the first element, or returns `nil` if the ring is empty.
    ///
    /// - Complexity: O(1).
    @inlinable
    mutating func popFirst() -> Element? {
        guard let storage = _storage else { return nil }
        return storage.withUnsafeMutablePointers { header, slots -> Element? in
            guard header.pointee.count > 0 else { return nil }
            let head = header.pointee.head
            header.pointee.head = (head &+ 1) & header.pointee.mask
            header.pointee.count &-= 1
            return (slots + head).move()
        }
    }

    /// Replaces the full storage with one twice as large, the elements moved to its start in order.
    @usableFromInline
    mutating func _grow(_ storage: _RingStorage<Element>) {
        let larger = storage.withUnsafeMutablePointers { header, slots in
            let capacity = header.pointee.mask + 1
            let larger = _RingStorage<Element>.make(capacity: capacity * 2)
            larger.withUnsafeMutablePointers { newHeader, newSlots in
                let head = header.pointee.head
                let firstRun = capacity - head
                newSlots.moveInitialize(from: slots + head, count: firstRun)
                (newSlots + firstRun).moveInitialize(from: slots, count: head)
                newHeader.pointee.count = capacity
            }
            // The old storage is empty now, so freeing it deinitializes nothing.
            header.pointee.count = 0
            header.pointee.head = 0
            return larger
        }
        _storage = larger
    }
}
