/// A second copy of an observable set's or dictionary's contents, which lets an edit work in place
/// instead of copying the contents.
///
/// An edit of a hashed collection hashes its elements, which is code of the element's type, so it
/// is not made under the lock that guards the contents: the edit works on a copy of the contents
/// outside the lock and commits it in one locked step. Editing a copy made from the locked contents
/// copies every element, since the two share their storage until one is edited. The spare is a
/// copy that nothing else shares: an edit takes it out, brings it up to date with the one change it
/// lacks, edits it in place and commits it as the new contents; the contents it replaces become
/// the spare, one change behind, and brings it up to date after unlocking, which releases the
/// elements the change removed. An edit that finds no spare (another edit has it out, or the
/// last commit could not keep one) copies the locked contents, as before, and its commit leaves a
/// spare for the next edit.
///
/// The owner keeps it under the lock that guards its contents, and releases what ``keep(_:behind:tookSpare:)``
/// and ``putBack(_:isCurrent:)`` hand back after unlocking, so that no element is released under
/// the lock.
struct _SpareCopy<Contents, Change> {
    private enum _State {
        /// No spare: the next edit copies the contents.
        case none
        /// An edit has the spare out; it puts it back or commits it.
        case taken
        /// The contents before the last committed change, which turns them into the current ones.
        case behind(Contents, Change)
        /// A copy equal to the current contents.
        case current(Contents)
    }

    private var _state = _State.none

    /// Under the lock: takes the spare out, if there is one and no other edit has it.
    ///
    /// - Parameters:
    ///   - contents: Set to the spare, if it is taken.
    ///   - catchUp: Set to the change that brings the spare up to date, if it is taken and
    ///     behind.
    ///   - onlyIfBehind: Whether to leave a current spare where it is.
    /// - Returns: Whether the spare was taken.
    /// - Complexity: O(1).
    mutating func take(into contents: inout Contents, catchUp: inout Change?, onlyIfBehind: Bool = false) -> Bool {
        switch _state {
        case .none, .taken:
            return false
        case .behind(let spare, let change):
            _state = .taken
            contents = spare
            catchUp = change
            return true
        case .current(let spare):
            guard !onlyIfBehind else { return false }
            _state = .taken
            contents = spare
            return true
        }
    }

    /// Under the lock, as an edit commits: keeps `replaced`, the contents it replaced, as the
    /// spare, one change behind the new contents.
    ///
    /// - Parameters:
    ///   - replaced: The contents the edit replaced. Left as it is if it is not kept, and set to
    ///     `nil` if it is.
    ///   - change: The change that turns `replaced` into the new contents, or `nil` if no change
    ///     does that exactly (the new contents hold instances of elements that the change does
    ///     not name): then there is no spare until the next commit.
    ///   - tookSpare: Whether the committing edit had the spare out.
    /// - Returns: The spare this one replaces, to release after unlocking.
    /// - Complexity: O(1).
    mutating func keep(_ replaced: inout Contents?, behind change: Change?, tookSpare: Bool) -> Contents? {
        let previous: Contents?
        switch _state {
        case .taken where !tookSpare:
            // The edit that has the spare out will find that the contents moved on.
            return nil
        case .none, .taken:
            previous = nil
        case .behind(let contents, _), .current(let contents):
            previous = contents
        }
        if let change, let contents = replaced.take() {
            _state = .behind(contents, change)
        } else {
            _state = .none
        }
        return previous
    }

    /// Under the lock, when an edit that took the spare commits nothing: puts it back.
    ///
    /// - Parameters:
    ///   - contents: The spare, up to date with the contents as they were when it was taken.
    ///   - isCurrent: Whether the contents are still those: nothing was committed meanwhile.
    /// - Returns: `contents` if it is stale, to release after unlocking; otherwise `nil`.
    /// - Complexity: O(1).
    mutating func putBack(_ contents: Contents, isCurrent: Bool) -> Contents? {
        guard isCurrent else {
            _state = .none
            return contents
        }
        _state = .current(contents)
        return nil
    }

    /// Under the lock, when an edit that took the spare finds that the contents moved on: there is
    /// no spare until the next commit. The edit releases its copy after unlocking.
    ///
    /// - Complexity: O(1).
    mutating func abandon() {
        _state = .none
    }
}
