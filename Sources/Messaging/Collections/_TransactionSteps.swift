/// The open transactions of an observable set or dictionary, and the changes of the edits made
/// while one is open, in order.
///
/// Merging two changes hashes elements, which is code of the element's type, so it is not done
/// under the owner's lock: an edit only appends its change, and the thread that ends the last open
/// transaction merges the changes outside the lock, then sends the merged change in one locked
/// step, or goes on merging the changes that came meanwhile. Each merge costs the size of the
/// change merged, so a transaction of *k* edits costs O(*k*) in all, not O(*k*²).
///
/// Every method runs under the owner's lock and only says what to do next; what it hands out is
/// released after unlocking.
struct _TransactionSteps<Change> {
    /// How many transactions are open.
    private var _depth = 0

    /// The changes not merged yet, in the order of their edits.
    private var _steps: [Change] = []

    /// Whether the thread that ended the last transaction is merging its changes.
    private var _isMerging = false

    /// What the thread that merges a transaction's changes does next.
    enum Next {
        /// Sends the merged change: nothing came meanwhile.
        case send
        /// Merges these changes, which came meanwhile, into the merged change, and asks again.
        case merge([Change])
        /// Nothing: a transaction began meanwhile, and the merged change is now its first change.
        case handedOver
    }

    /// Whether an edit's change joins a transaction rather than being sent: a transaction is
    /// open, or the changes of the last one are being merged.
    var absorbsEdits: Bool { _depth > 0 || _isMerging }

    /// Opens a transaction.
    mutating func begin() {
        _depth += 1
    }

    /// Adds the change of an edit made while ``absorbsEdits``.
    mutating func append(_ change: Change) {
        _steps.append(change)
    }

    /// Closes a transaction.
    ///
    /// - Returns: The changes to merge, if the caller closed the last open transaction and no
    ///   other thread is merging: the caller then merges them and calls
    ///   ``afterMerging(_:)``. Otherwise `nil`.
    mutating func end() -> [Change]? {
        precondition(_depth > 0, "a transaction ended that did not begin")
        _depth -= 1
        guard _depth == 0, !_isMerging else { return nil }
        _isMerging = true
        return _takeSteps()
    }

    /// Says what the merging thread does with `merged`, every change handed to it merged.
    mutating func afterMerging(_ merged: Change) -> Next {
        if _depth > 0 {
            _steps.insert(merged, at: 0)
            _isMerging = false
            return .handedOver
        }
        guard _steps.isEmpty else { return .merge(_takeSteps()) }
        _isMerging = false
        return .send
    }

    private mutating func _takeSteps() -> [Change] {
        var taken: [Change] = []
        swap(&taken, &_steps)
        return taken
    }
}
