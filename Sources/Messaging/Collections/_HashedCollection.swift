/// A change of a hashed collection's contents that the collection applies and merges outside its
/// lock: ``SetChange`` and ``DictionaryChange``.
protocol _HashedCollectionChange {
    /// The contents the change applies to.
    associatedtype Contents

    /// Empty contents.
    static var _emptyContents: Contents { get }

    /// The change that changes nothing.
    static var _none: Self { get }

    var isEmpty: Bool { get }
    func apply(to contents: inout Contents)
    mutating func merge(with next: Self)
}

extension SetChange: _HashedCollectionChange {
    static var _emptyContents: Set<Element> { [] }
    static var _none: SetChange { SetChange() }
}

extension DictionaryChange: _HashedCollectionChange {
    static var _emptyContents: [Key: Value] { [:] }
    static var _none: DictionaryChange { DictionaryChange() }
}

/// What ``ObservableSet`` and ``ObservableDictionary`` share: contents whose edits hash elements,
/// which is code of the element's type, and so are worked out outside the lock that guards the
/// contents.
///
/// An edit works on a spare copy of the contents (``_SpareCopy``) and commits it in one locked
/// step if no other edit came meanwhile; a transaction's edits list their changes
/// (``_TransactionSteps``), and the thread that ends the last transaction merges them outside the
/// lock. Every property is guarded by the lock of `messenger`'s core.
protocol _HashedCollection<Change>: ObservableSource where Message == Change {
    associatedtype Change: _HashedCollectionChange

    /// The contents.
    var _storage: Change.Contents { get set }

    /// Counts the commits, so that an edit can tell whether the contents it worked on are still
    /// current.
    var _version: UInt64 { get set }

    /// The open transactions and the changes of the edits made while one is open.
    var _transaction: _TransactionSteps<Change> { get set }

    /// The bridge to Observation, if a read made it.
    var _tracking: _VarTracking? { get }

    /// Empty contents, kept so that an edit copies them rather than makes them: in code not
    /// specialized for the element type, making an empty collection or change reads its type's
    /// metadata.
    var _noContents: Change.Contents { get }

    /// The empty change, kept for the same reason as ``_noContents``.
    var _noChange: Change { get }

    /// A copy of the contents for the next edit to bring up to date and edit in place.
    var _spare: _SpareCopy<Change> { get set }
}

extension _HashedCollection {
    /// Works out an edit outside the lock, then commits it: replaces the contents and sends the
    /// change, or adds it to the open transaction's changes, in one atomic step if no other
    /// edit came meanwhile; otherwise starts again from the newer contents.
    ///
    /// `edit` gets the contents to edit in place and returns the change it made to them and the
    /// edit's result. It may run more than once. An empty change commits nothing: the edit must
    /// then have left the contents as they were, and its result stands.
    ///
    /// An edit that keeps the spare (`keepsSpare`) gets the spare copy of the contents when no
    /// other edit has it, so that editing them in place copies nothing; its change must then name
    /// every element it put in the contents. The other edits, and an edit that
    /// finds the spare taken, get a copy of the locked contents, which their first edit copies.
    /// An edit that keeps the spare does not throw: a spare taken out is put back or committed.
    @inline(__always)
    func _edit<Result, Failure: Error>(
        isolation: (any Actor)?,
        keepsSpare: Bool = true,
        _ edit: (inout Change.Contents) throws(Failure) -> (Change, Result)
    ) throws(Failure) -> Result {
        while true {
            var contents = _noContents
            var catchUp = _noChange
            var taken = _SpareState.none
            let version = messenger._core.withLock {
                if keepsSpare { taken = _spare.take(into: &contents, catchUp: &catchUp) }
                if taken == .none { contents = _storage }
                return _version
            }
            let tookSpare = taken != .none
            // Brought up to date here, outside the lock: applying the change hashes the elements.
            if taken == .behind { catchUp.apply(to: &contents) }
            let (change, result) = try edit(&contents)
            guard !change.isEmpty else {
                if tookSpare {
                    messenger._core.withLock { _spare.putBack(&contents, isCurrent: _version == version) }
                }
                return result
            }
            var committed = false
            var tracking: _VarTracking?
            // What the lock replaces leaves in these, and they are released at the end of the
            // loop's pass, so that no element is released under it.
            var replaced = consume contents
            var oldContents = _noContents
            var oldChange = _noChange
            messenger._core.sendChange(
                author: self,
                checksChange: true,
                isolation: isolation,
                isUnchanged: { $0.isEmpty },
                standIn: messenger,
                {
                    guard self._version == version else {
                        if tookSpare { self._spare.abandon() }
                        return self._noChange
                    }
                    committed = true
                    self._version &+= 1
                    swap(&replaced, &self._storage)
                    self._spare.keep(
                        &replaced, behind: change, isExact: keepsSpare, tookSpare: tookSpare,
                        releasing: &oldContents, &oldChange)
                    guard self._transaction.absorbsEdits else {
                        tracking = self._tracking
                        return change
                    }
                    self._transaction.append(change)
                    return self._noChange
                }
            )
            tracking?._changed()
            guard committed else { continue }
            if keepsSpare { _updateSpare() }
            return result
        }
    }

    /// Brings the spare up to date with the change that made it one behind, so that it holds no
    /// element that left the collection: the elements that change removed or replaced are
    /// released here, after unlocking, and the next edit finds the spare current.
    ///
    /// - Complexity: O(*k*) on average for a change of *k* elements, plus O(*count*) if something
    ///   else shares the spare's storage.
    @inline(__always)
    func _updateSpare() {
        var contents = _noContents
        var catchUp = _noChange
        var taken = _SpareState.none
        let version = messenger._core.withLock {
            taken = _spare.take(into: &contents, catchUp: &catchUp, onlyIfBehind: true)
            return _version
        }
        guard taken == .behind else { return }
        catchUp.apply(to: &contents)
        messenger._core.withLock { _spare.putBack(&contents, isCurrent: _version == version) }
    }

    /// Opens a transaction: edits join it until the last open transaction ends.
    func _beginTransaction() {
        messenger._core.withLock { _transaction.begin() }
    }

    /// Closes one transaction; the last one out merges the changes and sends the result.
    func _endTransaction(isolation: (any Actor)?) {
        guard var steps = messenger._core.withLock({ _transaction.end() }) else { return }
        // Merged here, outside the lock: merging hashes the elements. The changes leave the lock
        // in `steps` and `merged`, so that nothing they hold is released under it.
        var merged = _noChange
        var tracking: _VarTracking?
        var isDone = false
        while !isDone {
            for step in steps { merged.merge(with: step) }
            steps = []
            messenger._core.sendChange(
                author: self,
                checksChange: true,
                isolation: isolation,
                isUnchanged: { $0.isEmpty },
                standIn: messenger,
                {
                    switch self._transaction.afterMerging(merged) {
                    case .merge(let more):
                        steps = more
                        return self._noChange
                    case .handedOver:
                        isDone = true
                        return self._noChange
                    case .send:
                        isDone = true
                        if !merged.isEmpty { tracking = self._tracking }
                        return merged
                    }
                }
            )
        }
        tracking?._changed()
    }
}
