/// A view of a set that keeps its count while it is observed, guarded by its messenger's lock, and
/// moves it in the step that numbers each change it sends.
protocol _SetViewWithCount<Element>: ObservableSource, Sendable where Message == SetChange<Element> {
    associatedtype Element: Hashable & Sendable

    /// Gives `running` the view's count, or has the view give it when it first knows it. Called
    /// under the lock of the view's messenger, in the step that starts an observation of the view.
    func _startCount(_ running: _LockedBox<Int?>)
}

/// The observable of a set view's count: a standalone operator that observes the view only while
/// it is observed itself. Each observation keeps a running count of its own, started with the
/// view's count in the step that starts it (or in the step the view first knows it), and moved by
/// the members each change inserts less those it removes.
final class _SetViewCount<View: _SetViewWithCount>: ObservableSource, _StandaloneOperator {
    let messenger = Messenger<Update<Int>>()

    let _link: _OriginLink<View, SetChange<View.Element>>

    init(_ view: View) {
        let core = messenger._core
        _link = _OriginLink(
            view, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            handler: { _, _, _ in },
            replayOf: { view in
                // `nil` until the view knows its count.
                let count = _LockedBox<Int?>(nil)
                return (
                    {
                        // Under the view's messenger lock, which guards its count: the count is
                        // read, or waited for, in the step that starts the observation.
                        view._startCount(count)
                        return SetChange()
                    },
                    view,
                    { change, author, isolation in
                        let delta = change.inserted.count - change.removed.count
                        guard delta != 0 else { return }
                        count._lock.lock()
                        let old = count._value
                        if let old { count._value = old + delta }
                        count._lock.unlock()
                        guard let old else { return }
                        core.send(Update(old, old + delta), author: author, checksChange: false, isolation: isolation)
                    }
                )
            })
        core.keepAliveWhileObserved(self)
    }

    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The link guards the view and its observation, each observation's box its count; the rest is
// immutable.
extension _SetViewCount: @unchecked Sendable {}
