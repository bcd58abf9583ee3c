/// The observable of an ``ObservableSet``'s count: a standalone operator that observes the set
/// only while it is observed itself, and sends `Update(old, new)` when an edit changes the count.
///
/// A ``SetChange`` tells how many members came and went, not how many there were, so the operator
/// keeps a running count. Each observation of the set starts with a replay of the contents, read
/// under the set's lock in the step that starts the observation; that replay seeds the count, and
/// every later change moves it by the members it inserts less those it removes.
///
/// Limit: the count is one state for every observation the link makes. If the operator's last
/// observer stops while another thread starts observing it, the link's old observation can
/// outlive the new one's start for a moment (as for every standalone transform's state), and a
/// change delivered to both in that moment is counted twice, until the next start reseeds.
final class _ObservableSetCount<Element: Hashable & Sendable>: ObservableSource, _StandaloneOperator {
    let messenger = Messenger<Update<Int>>()

    let _link: _OriginLink<ObservableSet<Element>, SetChange<Element>>

    /// The running count: the members of the set after the last change this operator received.
    let _count: _LockedBox<Int>

    init(_ set: ObservableSet<Element>) {
        let core = messenger._core
        let count = _LockedBox(0)
        // The author of the replay, which tells a seed from a change.
        let seed = _Seed()
        _count = count
        _link = _OriginLink(
            set,
            messengerOf: { $0.messenger },
            isObserved: { core.observationCount > 0 },
            handler: { change, author, isolation in
                let delta = change.inserted.count - change.removed.count
                let isSeed = author === seed
                count._lock.lock()
                let old = count._value
                count._value = isSeed ? change.inserted.count : old + delta
                count._lock.unlock()
                guard !isSeed, delta != 0 else { return }
                core.send(Update(old, old + delta), author: author, checksChange: false, isolation: isolation)
            },
            replayOf: { set in ({ set._latestMessageUnderLock() }, seed) }
        )
        core.keepAliveWhileObserved(self)
    }

    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }

    /// The author of the replay that seeds the count.
    final class _Seed: Sendable {}
}

// The link guards the origin and its observation, the box the count; the rest is immutable.
extension _ObservableSetCount: @unchecked Sendable {}
