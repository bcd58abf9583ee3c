/// The rows to delete, insert, move and reload for a change of an array shown in a table or
/// collection view, in the coordinates a batch update expects; made by
/// ``ArrayChange/batchUpdates`` and ``ArrayChange/batchUpdatesInferringMoves()``.
///
/// ```swift
/// let updates = change.batchUpdates
/// tableView.performBatchUpdates {
///     items = change.applied(to: items)
///     tableView.deleteRows(at: updates.deleted.map { IndexPath(row: $0, section: 0) }, with: .automatic)
///     tableView.insertRows(at: updates.inserted.map { IndexPath(row: $0, section: 0) }, with: .automatic)
///     tableView.reloadRows(at: updates.reloaded.map { IndexPath(row: $0, section: 0) }, with: .automatic)
///     for move in updates.moved {
///         tableView.moveRow(at: IndexPath(row: move.from, section: 0), to: IndexPath(row: move.to, section: 0))
///     }
/// }
/// ```
///
/// ## Coordinates
///
/// A batch update takes the rows it deletes, reloads and moves away from in the contents *before*
/// the change, and the rows it inserts and moves to in the contents *after* it, and performs the
/// deletions before the insertions, whatever order they are listed in:
/// - ``deleted``, ``reloaded`` and each move's ``Move/from`` are offsets in the old contents;
/// - ``inserted`` and each move's ``Move/to`` are offsets in the new contents.
///
/// An old offset is in at most one of ``deleted``, ``reloaded`` and the moves' sources, and a new
/// offset in at most one of ``inserted`` and the moves' destinations. The rows that are neither
/// deleted nor moved keep their order and fill, in order, the new offsets that are neither
/// inserted nor moved to; a reloaded row is one of them whose element was replaced. Every list is
/// sorted in increasing order (the moves by source).
///
/// For APIs that take a `CollectionDifference`, use ``ArrayChange/collectionDifference``.
public struct ArrayBatchUpdates: Hashable, Sendable {
    /// The rows deleted, as offsets in the contents before the change.
    public var deleted: [Int]

    /// The rows inserted, as offsets in the contents after the change.
    public var inserted: [Int]

    /// The rows moved, each from its offset in the contents before the change to its offset in the
    /// contents after it.
    public var moved: [Move]

    /// The rows whose element was replaced in place, as offsets in the contents before the change.
    public var reloaded: [Int]

    /// Makes batch updates from their lists.
    ///
    /// - Parameters:
    ///   - deleted: The rows deleted, as offsets in the contents before the change.
    ///   - inserted: The rows inserted, as offsets in the contents after the change.
    ///   - moved: The rows moved, from old offsets to new offsets.
    ///   - reloaded: The rows reloaded, as offsets in the contents before the change.
    /// - Complexity: O(1).
    public init(deleted: [Int] = [], inserted: [Int] = [], moved: [Move] = [], reloaded: [Int] = []) {
        self.deleted = deleted
        self.inserted = inserted
        self.moved = moved
        self.reloaded = reloaded
    }

    /// Whether there is nothing to delete, insert, move or reload.
    ///
    /// - Complexity: O(1).
    public var isEmpty: Bool { deleted.isEmpty && inserted.isEmpty && moved.isEmpty && reloaded.isEmpty }

    /// A row moved from its offset in the contents before the change to its offset in the contents
    /// after it.
    public struct Move: Hashable, Sendable {
        /// The row's offset in the contents before the change.
        public var from: Int

        /// The row's offset in the contents after the change.
        public var to: Int

        /// Makes a move from the old offset `from` to the new offset `to`.
        ///
        /// - Parameters:
        ///   - from: The row's offset in the contents before the change.
        ///   - to: The row's offset in the contents after the change.
        /// - Complexity: O(1).
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }
}
