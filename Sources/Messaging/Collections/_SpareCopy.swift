/// Where the spare copy of an observable set's or dictionary's contents is.
enum _SpareState {
    /// No spare: the next edit copies the contents.
    case none
    /// An edit has the spare out; it puts it back or commits it.
    case taken
    /// The spare holds the contents before the last committed change, which turns them into the
    /// current ones.
    case behind
    /// The spare is equal to the current contents.
    case current
}

/// A second copy of an observable set's or dictionary's contents, which lets an edit work in place
/// instead of copying the contents.
///
/// An edit of a hashed collection hashes its elements, which is code of the element's type, so it
/// is not made under the lock that guards the contents: the edit works on a copy of the contents
/// outside the lock and commits it in one locked step. Editing a copy made from the locked contents
/// copies every element, since the two share their storage until one is edited. The spare is a
/// copy that nothing else shares: an edit takes it out, brings it up to date with the one change it
/// lacks, edits it in place and commits it as the new contents; the contents it replaces become
/// the spare, one change behind, and the edit brings it up to date after unlocking, which releases
/// the elements the change removed. An edit that finds no spare (another edit has it out, or the
/// last commit could not keep one) copies the locked contents, as before, and its commit leaves a
/// spare for the next edit.
///
/// The owner keeps it under the lock that guards its contents. What leaves it goes out through
/// `inout` arguments, which the owner releases after unlocking, so that no element is released
/// under the lock. The fields are plain values rather than an enumeration's payloads, so that
/// moving them in and out is a swap.
struct _SpareCopy<Change: _HashedCollectionChange> {
    private var _state = _SpareState.none

    /// The spare while ``_SpareState/behind`` or ``_SpareState/current``; empty otherwise.
    private var _contents = Change._emptyContents

    /// While ``_SpareState/behind``, the change that brings the spare up to date; empty otherwise.
    private var _catchUp = Change._none

    /// Under the lock: takes the spare out, if there is one and no other edit has it.
    ///
    /// - Parameters:
    ///   - contents: Empty contents, swapped with the spare if it is taken.
    ///   - catchUp: The empty change, swapped with the change that brings the spare up to date if
    ///     it is taken and behind.
    ///   - onlyIfBehind: Whether to leave a current spare where it is.
    /// - Returns: ``_SpareState/none`` if nothing was taken; otherwise what the spare taken is,
    ///   ``_SpareState/behind`` or ``_SpareState/current``.
    /// - Complexity: O(1).
    mutating func take(
        into contents: inout Change.Contents, catchUp: inout Change, onlyIfBehind: Bool = false
    ) -> _SpareState {
        switch _state {
        case .none, .taken:
            return .none
        case .current where onlyIfBehind:
            return .none
        case .current:
            swap(&contents, &_contents)
            _state = .taken
            return .current
        case .behind:
            swap(&contents, &_contents)
            swap(&catchUp, &_catchUp)
            _state = .taken
            return .behind
        }
    }

    /// Under the lock, as an edit commits: keeps `replaced`, the contents it replaced, as the
    /// spare, one change behind the new contents.
    ///
    /// - Parameters:
    ///   - replaced: The contents the edit replaced; left empty if they are kept, and left as they
    ///     are, to release after unlocking, if they are not.
    ///   - change: The change that turns `replaced` into the new contents.
    ///   - isExact: Whether `change` does that exactly: the new contents hold no instance of an
    ///     element that `change` does not name. If not, there is no spare until the next commit.
    ///   - tookSpare: Whether the committing edit had the spare out.
    ///   - oldContents: Empty contents, swapped with the spare this one replaces, to release after
    ///     unlocking.
    ///   - oldChange: The empty change, swapped with that spare's change, likewise.
    /// - Complexity: O(1).
    mutating func keep(
        _ replaced: inout Change.Contents, behind change: Change, isExact: Bool, tookSpare: Bool,
        releasing oldContents: inout Change.Contents, _ oldChange: inout Change
    ) {
        // The edit that has the spare out will find that the contents moved on.
        if _state == .taken && !tookSpare { return }
        swap(&oldContents, &_contents)
        swap(&oldChange, &_catchUp)
        guard isExact else {
            _state = .none
            return
        }
        swap(&replaced, &_contents)
        _catchUp = change
        _state = .behind
    }

    /// Under the lock, when an edit that took the spare commits nothing, or has brought it up to
    /// date: puts it back.
    ///
    /// - Parameters:
    ///   - contents: The spare, equal to the contents as they were when it was taken; left empty
    ///     if it is put back, and as it is, to release after unlocking, if it is stale.
    ///   - isCurrent: Whether the contents are still those: nothing was committed meanwhile.
    /// - Complexity: O(1).
    mutating func putBack(_ contents: inout Change.Contents, isCurrent: Bool) {
        guard isCurrent else {
            _state = .none
            return
        }
        swap(&contents, &_contents)
        _state = .current
    }

    /// Under the lock, when an edit that took the spare finds that the contents moved on: there is
    /// no spare until the next commit. The edit releases its copy after unlocking.
    ///
    /// - Complexity: O(1).
    mutating func abandon() {
        _state = .none
    }
}
