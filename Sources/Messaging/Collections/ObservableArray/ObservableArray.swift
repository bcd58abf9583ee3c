/// An observable array: it holds an array and sends an ``ArrayChange`` for every edit.
///
/// ```swift
/// let names = ObservableArray(["Ann", "Bob"])
///
/// observer.observe(names) { change in
///     // change.apply(to: &myCopy) keeps a copy in step
/// }
///
/// names.append("Cem")      // sends an insertion of "Cem" at 2
/// names.remove(at: 0)      // sends a removal of "Ann" at 0
/// names[0] = "Bea"         // sends a replacement of "Bob" with "Bea" at 0
/// names.withTransaction {  // sends one merged change when the block ends
///     names.append("Dan")
///     names.append("Eve")
/// }
/// ```
///
/// Every edit sends exactly one change, describing the edit against the contents right before it:
/// applying the change to the old contents gives the new contents. An edit that changes nothing
/// (inserting no elements, removing an empty range, moving an element to where it is) sends
/// nothing.
///
/// The array is thread-safe like ``Var``: its contents are kept under the lock of its messenger,
/// and each edit and the numbering of its change are one atomic step, so observers receive the
/// changes in the order the edits happened, whichever threads made them. No user code runs and no
/// element is released under that lock.
///
/// ## Transactions
///
/// ``withTransaction(isolation:_:)`` groups edits: observers receive one merged change when the outermost
/// transaction ends, or nothing if the edits cancel out. A transaction belongs to the array, not
/// to a thread: while one is open, edits from every thread are merged into it, in the order they
/// happened, and its change is sent when the last open transaction ends.
///
/// ## Async sequences and Observation
///
/// Its changes are an async sequence like every observable's messages: `for await change in
/// names.messages` (which observes once the loop starts), or `names.makeMessageStream()` (which
/// observes from the moment it is made). Where Apple's Observation framework is available,
/// reading ``value`` or ``count`` inside `withObservationTracking` (a SwiftUI view's `body`)
/// tracks the array, as it does a ``Var``.
///
/// ## Replay
///
/// The array is an ``ObservableCache``: its ``latestMessage`` is the whole contents as one
/// insertion into an empty array, so an observation started with `replayingLatest: true` first
/// receives the current contents.
///
/// - Complexity: Reading ``value`` is O(1) (a copy on write); each edit costs what the same edit
///   of an `Array` costs, plus O(*n*) for *n* observers.
public final class ObservableArray<Element: Sendable>: ObservableSource {
    /// The messenger that sends the array's changes.
    public let messenger = Messenger<ArrayChange<Element>>()

    /// The contents. Guarded by the lock of `messenger`'s core.
    // The fields below are only read and written under that lock, which makes their run-time
    // exclusivity checks redundant.
    @exclusivity(unchecked) @usableFromInline
    var _storage: [Element]

    /// Counts the edits, so that `modify` can tell whether the contents changed
    /// while its body ran. Guarded by the lock of `messenger`'s core.
    @exclusivity(unchecked) @usableFromInline
    var _version: UInt64 = 0

    /// How many transactions are open. Guarded by the lock of `messenger`'s core.
    @exclusivity(unchecked) @usableFromInline
    var _transactionDepth = 0

    /// The changes made while a transaction is open, merged when the last one ends. Kept apart
    /// until then so that merging, which may drop elements, runs while they are still held here.
    /// Guarded by the lock of `messenger`'s core.
    @exclusivity(unchecked) @usableFromInline
    var _pending: [ArrayChange<Element>] = []
    /// The bridge to Observation, made on the first read of ``value`` or ``count``; never
    /// replaced after. Guarded by the lock of `messenger`'s core.
    @exclusivity(unchecked) @usableFromInline
    var _tracking: _VarTracking?

    /// Creates an observable array holding `elements`.
    ///
    /// - Parameter elements: The initial contents. Creating the array sends nothing.
    /// - Complexity: O(1).
    @inlinable
    public init(_ elements: [Element] = []) {
        _storage = elements
    }

    /// The current contents, as a copy: later edits of the observable array do not change it.
    ///
    /// Setting it replaces the whole contents and sends one replacement of all the old elements
    /// with the new ones (nothing if both are empty). Use `modify` to send only
    /// what differs.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    @inlinable
    public var value: [Element] {
        get {
            let (value, tracking) = messenger._core.withLock { (_storage, _tracking) }
            _access(tracking)
            return value
        }
        set {
            _edit(isolation: nil) { storage in
                let change = ArrayChange(replacingSubrange: 0..<storage.count, with: newValue, in: storage)
                storage = newValue
                return change
            }
        }
    }

    /// The number of elements.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var count: Int {
        let (count, tracking) = messenger._core.withLock { (_storage.count, _tracking) }
        _access(tracking)
        return count
    }

    /// Whether the array is empty.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { count == 0 }

    /// Makes the edit under the lock and sends its change, or adds the change to the open
    /// transaction.
    ///
    /// `edit` is library code: it changes the contents and returns the change that describes the
    /// edit. It must move the elements it removes into the change, so that none is released under
    /// the lock. An empty change is not sent.
    @inlinable @inline(__always)
    func _edit(isolation: (any Actor)?, _ edit: (inout [Element]) -> ArrayChange<Element>) {
        var tracking: _VarTracking?
        defer { tracking?._changed() }
        messenger._core.sendChange(
            author: self,
            checksChange: true,
            isolation: isolation,
            isUnchanged: { $0.isEmpty },
            standIn: messenger,
            {
                let change = edit(&self._storage)
                guard !change.isEmpty else { return change }
                self._version &+= 1
                guard self._transactionDepth == 0 else {
                    self._pending.append(change)
                    return ArrayChange(countBefore: self._storage.count)
                }
                tracking = self._tracking
                return change
            }
        )
    }
}

// `_storage`, `_version`, `_transactionDepth` and `_pending` are guarded by the lock of
// `messenger`'s core.
extension ObservableArray: @unchecked Sendable {}
