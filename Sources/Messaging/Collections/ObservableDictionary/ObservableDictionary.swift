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
/// lock: as ``ObservableSet`` does, each edit works out its change and the new entries on a copy of
/// the entries, outside the lock, then replaces the entries in one step if no other edit came
/// meanwhile, and otherwise works them out again from the newer entries. No key or value is
/// released under the lock either. An edit therefore costs a copy of the entries, O(*count*),
/// where the same edit of a `Dictionary` may cost O(1): group many edits with `modify` or
/// ``merge(_:isolation:)`` rather than making them one at a time.
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
/// - Complexity: Reading ``value`` is O(1) (a copy on write); each edit costs a copy of the
///   entries, O(*count*), plus what the same edit of a `Dictionary` costs, plus O(*n*) for *n*
///   observers.
public final class ObservableDictionary<Key: Hashable & Sendable, Value: Equatable & Sendable>: ObservableSource {
    /// The messenger that sends the dictionary's changes.
    public let messenger = Messenger<DictionaryChange<Key, Value>>()

    /// The entries. Guarded by the lock of `messenger`'s core.
    var _storage: [Key: Value]

    /// Counts the steps that changed the entries or the open transaction's change, so that an edit
    /// can tell whether what it worked out from is still current. Guarded by the lock of
    /// `messenger`'s core.
    var _version: UInt64 = 0

    /// How many transactions are open. Guarded by the lock of `messenger`'s core.
    var _transactionDepth = 0

    /// The merged change of the edits made while a transaction is open, sent when the last one
    /// ends. Guarded by the lock of `messenger`'s core.
    var _pending = DictionaryChange<Key, Value>()

    /// The bridge to Observation, made on the first read; never replaced after. Guarded by the
    /// lock of `messenger`'s core.
    var _tracking: _VarTracking?

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
            _edit(isolation: nil) { old in (DictionaryChange(from: old, to: newValue), newValue, ()) }
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

    /// Works out an edit from a copy of the entries outside the lock, then commits it: replaces
    /// the entries and sends the change, or merges it into the open transaction's change, in one
    /// atomic step if no other edit came meanwhile; otherwise starts again from the newer entries.
    ///
    /// `edit` gets the entries and returns the change against them, the new entries and the edit's
    /// result. It may run more than once. An empty change commits nothing.
    func _edit<Result, Failure: Error>(
        isolation: (any Actor)?,
        _ edit: ([Key: Value]) throws(Failure) -> (DictionaryChange<Key, Value>, [Key: Value], Result)
    ) throws(Failure) -> Result {
        while true {
            let (old, version, pending) = messenger._core.withLock {
                (_storage, _version, _transactionDepth > 0 ? _pending : nil)
            }
            var (change, new, result) = try edit(old)
            guard !change.isEmpty else { return result }
            // Merged here, outside the lock: merging hashes the keys.
            var merged = pending?.merged(with: change)
            var committed = false
            var tracking: _VarTracking?
            messenger._core.sendChange(
                author: self,
                checksChange: true,
                isolation: isolation,
                isUnchanged: { $0.isEmpty },
                standIn: messenger,
                {
                    guard self._version == version, (self._transactionDepth > 0) == (merged != nil) else {
                        return DictionaryChange()
                    }
                    committed = true
                    self._version &+= 1
                    // What the lock replaces leaves in `new` and `merged`, so that no entry is
                    // released under it.
                    swap(&new, &self._storage)
                    guard merged != nil else {
                        tracking = self._tracking
                        return change
                    }
                    swap(&merged!, &self._pending)
                    return DictionaryChange()
                }
            )
            tracking?._changed()
            if committed { return result }
        }
    }
}

// `_storage`, `_version`, `_transactionDepth`, `_pending` and `_tracking` are guarded by the lock
// of `messenger`'s core.
extension ObservableDictionary: @unchecked Sendable {}
