/// The observable of the count of an ``ObservableSet``, an ``ObservableDictionary`` or a view of a
/// set: a standalone operator that observes the collection only while it is observed itself, and
/// sends `Update(old, new)` when an edit changes the count.
///
/// A ``SetChange`` or a ``DictionaryChange`` tells how many members came and went, not how many
/// there were, so each observation of the collection keeps a running count of its own. It starts
/// with a replay, made under the collection's lock in the step that starts the observation and
/// delivered to it before any change: for a set or a dictionary, its contents, which seed the
/// count; for a view of a set that keeps its count, nothing, since the view gives the count itself
/// in that step (or in the step it first knows it). Every later change moves the count by the
/// members it inserts less those it removes.
///
/// Limit: if the operator's last observer stops while another thread starts observing it, the
/// link's old observation of the collection can outlive the new one's start for a moment (as for
/// every standalone transform), and a change delivered to both in that moment is sent twice. Each
/// count stays right, since each observation keeps its own.
final class _RunningCount<Origin: ObservableSource>: ObservableSource, _StandaloneOperator
where Origin.Message: _CountingChange {
    let messenger = Messenger<Update<Int>>()

    let _link: _OriginLink<Origin, Origin.Message>

    /// Counts the members of `collection`, or only those that `counts` counts in each change.
    ///
    /// - Parameters:
    ///   - collection: The collection or view to count.
    ///   - start: Makes the replay an observation starts with, under the collection's lock in the
    ///     step that starts it; it may give the observation's running count (the second argument)
    ///     its value instead. Library code only.
    ///   - counts: How many members a change (or the replay) inserts and removes; by default all of
    ///     them. A ``FilteredSetView`` counts the ones it includes. It runs outside every lock of
    ///     the library.
    init(
        _ collection: Origin,
        start: @escaping (Origin, _LockedBox<Int?>) -> Origin.Message,
        counts: @escaping @Sendable (Origin.Message) -> (inserted: Int, removed: Int) = {
            ($0._insertedCount, $0._removedCount)
        }
    ) {
        let core = messenger._core
        _link = _OriginLink(
            collection,
            messengerOf: { $0.messenger },
            isObserved: { core.observationCount > 0 },
            // Every observation gets its own handler from `replayOf`.
            handler: { _, _, _ in },
            replayOf: { collection in
                // `nil` until the replay arrives, the observation's first message, or until
                // `start` or the collection sets it.
                let count = _LockedBox<Int?>(nil)
                return (
                    { start(collection, count) }, collection,
                    { change, author, isolation in
                        let (inserted, removed) = counts(change)
                        let delta = inserted - removed
                        count._lock.lock()
                        let old = count._value
                        count._value = old.map { $0 + delta } ?? inserted
                        count._lock.unlock()
                        guard let old, delta != 0 else { return }
                        core.send(Update(old, old + delta), author: author, checksChange: false, isolation: isolation)
                    }
                )
            }
        )
        core.keepAliveWhileObserved(self)
    }

    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The link guards the origin and its observation, each observation's box its count; the rest is
// immutable.
extension _RunningCount: @unchecked Sendable {}

extension _RunningCount where Origin: _LatestUnderLock {
    /// Counts the members of a set or a dictionary, whose contents seed each observation's count.
    convenience init(
        _ collection: Origin,
        counts: @escaping @Sendable (Origin.Message) -> (inserted: Int, removed: Int) = {
            ($0._insertedCount, $0._removedCount)
        }
    ) {
        self.init(collection, start: { collection, _ in collection._latestMessageUnderLock() }, counts: counts)
    }
}

/// A change that tells how many members or entries it inserts and removes.
protocol _CountingChange {
    var _insertedCount: Int { get }
    var _removedCount: Int { get }
}

extension SetChange: _CountingChange {
    var _insertedCount: Int { inserted.count }
    var _removedCount: Int { removed.count }
}

extension DictionaryChange: _CountingChange {
    var _insertedCount: Int { inserted.count }
    var _removedCount: Int { removed.count }
}
