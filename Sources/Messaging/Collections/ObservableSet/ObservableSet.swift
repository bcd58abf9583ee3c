/// An observable set: it holds a set and sends a ``SetChange`` for every edit.
///
/// ```swift
/// let tags = ObservableSet(["red", "green"])
///
/// observer.observe(tags) { change in
///     // change.apply(to: &myCopy) keeps a copy in step
/// }
///
/// tags.insert("blue")          // sends an insertion of "blue"
/// tags.remove("red")           // sends a removal of "red"
/// tags.formUnion(["red", "x"]) // sends one insertion of "red" and "x"
/// tags.withTransaction {       // sends one merged change when the block ends
///     tags.remove("x")
///     tags.insert("y")
/// }
/// ```
///
/// Every edit sends exactly one change, describing the edit against the contents right before it:
/// applying the change to the old contents gives the new contents. An edit that changes nothing
/// (inserting a member already there, removing one that is not, a union with a subset) sends
/// nothing.
///
/// The set is thread-safe like ``Var``: its contents are kept under the lock of its messenger, and
/// each edit and the numbering of its change are one atomic step, so observers receive the changes
/// in the order the edits happened, whichever threads made them.
///
/// Hashing and comparing elements is code of the element's type, so no edit does either under
/// that lock: each edit works out its change and the new contents outside the lock, then replaces
/// the contents in one step if no other edit came meanwhile, and otherwise works them out again
/// from the newer contents. No element is released under the lock either. The set keeps a second
/// copy of its contents that nothing else shares, which an edit brings up to date with the change
/// before and edits in place, so that an edit costs what the same edit of a `Set` costs, not a
/// copy of the contents. An edit copies the contents, O(*count*), only when it finds that copy
/// missing: while another thread's edit has it, for the first edit after the set is made, after
/// `value` is set or `modify` changed something (those work on a copy of their own), and while
/// something still holds the contents that the copy shares its storage with (a `value` read
/// before the previous edit, kept).
///
/// ## Transactions
///
/// ``withTransaction(isolation:_:)`` groups edits: observers receive one merged change when the
/// outermost transaction ends, or nothing if the edits cancel out. A transaction belongs to the
/// set, not to a thread: while one is open, edits from every thread are merged into it, in the
/// order they happened, and its change is sent when the last open transaction ends.
///
/// ## Async sequences and Observation
///
/// Its changes are an async sequence like every observable's messages (`messages`,
/// `makeMessageStream()`). Where Apple's Observation framework is available, reading ``value``,
/// ``count`` or ``contains(_:)`` inside `withObservationTracking` (a SwiftUI view's `body`)
/// tracks the set, as it does a ``Var``.
///
/// ## Replay
///
/// The set is an ``ObservableCache``: its ``latestMessage`` is the whole contents as one insertion
/// into an empty set, so an observation started with `replayingLatest: true` first receives the
/// current contents.
///
/// - Complexity: Reading ``value`` is O(1) (a copy on write). Each edit costs what the same edit
///   of a `Set` costs, twice (once on each copy of the contents), plus O(*n*) for *n* observers,
///   plus O(*count*) when it finds no second copy to edit (see above).
public final class ObservableSet<Element: Hashable & Sendable>: ObservableSource, _HashedCollection {
    /// The messenger that sends the set's changes.
    public let messenger = Messenger<SetChange<Element>>()

    /// The contents. Guarded by the lock of `messenger`'s core.
    var _storage: Set<Element>

    /// Counts the steps that changed the contents or the open transaction's change, so that an
    /// edit can tell whether what it worked out from is still current. Guarded by the lock of
    /// `messenger`'s core.
    var _version: UInt64 = 0

    /// The open transactions and the changes of the edits made while one is open. Guarded by the
    /// lock of `messenger`'s core.
    var _transaction = _TransactionSteps<SetChange<Element>>()

    /// The bridge to Observation, made on the first read of ``value`` or ``count``; never
    /// replaced after. Guarded by the lock of `messenger`'s core.
    var _tracking: _VarTracking?

    /// A copy of the contents for the next edit to bring up to date and edit in place, so that an
    /// edit does not copy the contents. Guarded by the lock of `messenger`'s core.
    var _spare = _SpareCopy<SetChange<Element>>()

    /// Empty contents and the empty change, for the edits to copy (see `_HashedCollection`).
    let _noContents: Set<Element> = []
    let _noChange = SetChange<Element>()

    /// Creates an observable set holding `elements`.
    ///
    /// - Parameter elements: The initial contents. Creating the set sends nothing.
    /// - Complexity: O(1).
    public init(_ elements: Set<Element> = []) {
        _storage = elements
    }

    /// The current contents, as a copy: later edits of the observable set do not change it.
    ///
    /// Setting it replaces the whole contents and sends one change with only what differs: the
    /// old members that are not in the new contents, removed, and the new members that were not
    /// in the old contents, inserted; nothing if the two are equal. A member in both stays out of
    /// the change, even if the new contents hold a different instance equal to it; the set then
    /// holds that new instance.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*count* + *m*) for *m* new members, plus O(*n*)
    ///   for *n* observers.
    public var value: Set<Element> {
        get {
            let (value, tracking) = messenger._core.withLock { (_storage, _tracking) }
            _access(tracking)
            return value
        }
        set {
            _edit(isolation: nil, keepsSpare: false) { contents in
                let change = SetChange(from: contents, to: newValue)
                contents = newValue
                return (change, ())
            }
        }
    }

    /// The number of members.
    ///
    /// - Complexity: O(1).
    public var count: Int {
        let (count, tracking) = messenger._core.withLock { (_storage.count, _tracking) }
        _access(tracking)
        return count
    }

    /// Whether the set is empty.
    ///
    /// - Complexity: O(1).
    public var isEmpty: Bool { count == 0 }

    /// Whether the set has a member equal to `member`.
    ///
    /// - Parameter member: The member to look for. It is hashed and compared after the set's lock
    ///   is released, against the contents as they were when the lock was held.
    /// - Returns: `true` if the set has a member equal to `member`.
    /// - Complexity: O(1) on average.
    public func contains(_ member: Element) -> Bool {
        value.contains(member)
    }
}

// `_storage`, `_version`, `_transaction`, `_tracking` and `_spare` are guarded by the lock of
// `messenger`'s core.
extension ObservableSet: @unchecked Sendable {}
