/// An observable dictionary: it holds a dictionary and sends a ``DictionaryChange`` for every edit.
///
/// ```swift
/// let scores = ObservableDictionary(["ann": 3])
///
/// observer.observe(scores) { change in
///     // change.apply(to: &myCopy) keeps a copy in step
/// }
///
/// scores["bob"] = 5                // sends an insertion of "bob": 5
/// scores["ann"] = 4                // sends an update of "ann" from 3 to 4
/// scores["ann"] = 4                // sends nothing: the value is the same
/// scores.removeValue(forKey: "bob") // sends a removal of "bob": 5
/// scores.withTransaction {         // sends one merged change when the block ends
///     scores["cem"] = 1
///     scores["ann"] = nil
/// }
/// ```
///
/// Every edit sends exactly one change, describing the edit against the entries right before it:
/// applying the change to the old entries gives the new entries. An edit that changes nothing
/// (setting a key to the value it has, removing a key that is not there) sends nothing: values are
/// compared with `==`, which is why they must be `Equatable`.
///
/// The dictionary is thread-safe like ``Var``: its entries are kept under the lock of its
/// messenger, and each edit and the numbering of its change are one atomic step, so observers
/// receive the changes in the order the edits happened, whichever threads made them.
///
/// Hashing keys and comparing values is code of their types, so no edit does either under that
/// lock: as ``ObservableSet`` does, each edit works out its change and the new entries outside the
/// lock, then replaces the entries in one step if no other edit came meanwhile, and otherwise
/// works them out again from the newer entries. No key or value is released under the lock
/// either. Like the set, the dictionary keeps a second copy of its entries for the next edit to
/// bring up to date and edit in place, so that an edit costs what the same edit of a `Dictionary`
/// costs; it copies the entries, O(*count*), only when it finds that copy missing (another
/// thread's edit has it, the first edit, the edit after setting ``value`` or a `modify` that
/// changed something, or a `value` read earlier still shares its storage).
///
/// ## Transactions
///
/// ``withTransaction(isolation:_:)`` groups edits: observers receive one merged change when the
/// outermost transaction ends, or nothing if the edits cancel out. While one is open, edits from
/// every thread join it, in the order they happened.
///
/// ## Async sequences, Observation and replay
///
/// Its changes are an async sequence like every observable's messages (`messages`,
/// `makeMessageStream()`). Where Apple's Observation framework is available, reading ``value``,
/// ``count`` or a value by key inside `withObservationTracking` tracks the dictionary, as it does
/// a ``Var``. It is an ``ObservableCache``: its ``latestMessage`` is the whole contents as one
/// insertion, so an observation started with `replayingLatest: true` first receives them.
///
/// - Complexity: Reading ``value`` is O(1) (a copy on write). Each edit costs what the same edit
///   of a `Dictionary` costs, twice (once on each copy of the entries), plus O(*n*) for *n*
///   observers, plus O(*count*) when it finds no second copy to edit (see above).
public final class ObservableDictionary<Key: Hashable & Sendable, Value: Equatable & Sendable>: ObservableSource,
    _HashedCollection
{
    /// The messenger that sends the dictionary's changes.
    public let messenger = Messenger<DictionaryChange<Key, Value>>()

    /// The entries. Guarded by the lock of `messenger`'s core.
    var _storage: [Key: Value]

    /// Counts the steps that changed the entries or the open transaction's change, so that an edit
    /// can tell whether what it worked out from is still current. Guarded by the lock of
    /// `messenger`'s core.
    var _version: UInt64 = 0

    /// The open transactions and the changes of the edits made while one is open. Guarded by the
    /// lock of `messenger`'s core.
    var _transaction = _TransactionSteps<DictionaryChange<Key, Value>>()

    /// The bridge to Observation, made on the first read; never replaced after. Guarded by the
    /// lock of `messenger`'s core.
    var _tracking: _VarTracking?

    /// A copy of the entries for the next edit to bring up to date and edit in place, so that an
    /// edit does not copy the entries. Guarded by the lock of `messenger`'s core.
    var _spare = _SpareCopy<DictionaryChange<Key, Value>>()

    /// Empty contents and the empty change, for the edits to copy (see `_HashedCollection`).
    let _noContents: [Key: Value] = [:]
    let _noChange = DictionaryChange<Key, Value>()

    /// Creates an observable dictionary holding `entries`.
    ///
    /// - Parameter entries: The initial entries. Creating the dictionary sends nothing.
    /// - Complexity: O(1).
    public init(_ entries: [Key: Value] = [:]) {
        _storage = entries
    }

    /// The current entries, as a copy: later edits of the observable dictionary do not change it.
    ///
    /// Setting it replaces all the entries and sends one change with only what differs: the keys
    /// that are gone, removed; the new keys, inserted; the keys whose value differs, updated;
    /// nothing if the two are equal.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*count* + *m*) for *m* new entries, plus O(*n*)
    ///   for *n* observers.
    public var value: [Key: Value] {
        get {
            let (value, tracking) = messenger._core.withLock { (_storage, _tracking) }
            _access(tracking)
            return value
        }
        set {
            _edit(isolation: nil, keepsSpare: false) { entries in
                let change = DictionaryChange(from: entries, to: newValue)
                entries = newValue
                return (change, ())
            }
        }
    }

    /// The number of entries.
    ///
    /// - Complexity: O(1).
    public var count: Int {
        let (count, tracking) = messenger._core.withLock { (_storage.count, _tracking) }
        _access(tracking)
        return count
    }

    /// Whether the dictionary is empty.
    ///
    /// - Complexity: O(1).
    public var isEmpty: Bool { count == 0 }
}

// `_storage`, `_version`, `_transaction`, `_tracking` and `_spare` are guarded by the lock of
// `messenger`'s core.
extension ObservableDictionary: @unchecked Sendable {}
