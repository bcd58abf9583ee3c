import Messaging

/// Every change an observable set sends, in order, kept while the recorder lives.
final class SetChangeRecorder<Element: Hashable & Sendable>: Sendable {
    let token: ObservationToken
    let received = Locked<[SetChange<Element>]>([])

    init(_ set: ObservableSet<Element>, replayingLatest: Bool = false) {
        let received = received
        token = set.subscribe(replayingLatest: replayingLatest) { change in
            received.withLock { $0.append(change) }
        }
    }

    /// The changes received so far, leaving the list empty.
    func take() -> [SetChange<Element>] {
        received.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }
}

/// Every change a view of a set sends, applied to a copy of its contents, and kept in order while
/// the follower lives. It starts with the view's contents, as a replay, which it does not record.
final class SetViewFollower<View: ObservableCache & Sendable, Element: Hashable & Sendable>: Sendable
where View.Message == SetChange<Element> {
    let view: View
    let copy = Locked<Set<Element>>([])
    let received = Locked<[SetChange<Element>]>([])
    let token: ObservationToken

    init(_ view: View) {
        self.view = view
        let copy = copy
        let received = received
        token = view.subscribe(replayingLatest: true) { change in
            copy.withLock { change.apply(to: &$0) }
            received.withLock { $0.append(change) }
        }
        received.withLock { $0 = [] }  // the replay of the contents
    }

    /// The changes received so far, leaving the list empty.
    func take() -> [SetChange<Element>] {
        received.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }
}

/// Every update an observable of a set sends, as `old->new`, kept while the recorder lives.
final class UpdateRecorder: Sendable {
    let token: ObservationToken
    let received = Locked<[String]>([])

    init<Value>(_ source: some ObservableSource<Update<Value>>) {
        let received = received
        token = source.subscribe { update in
            received.withLock { $0.append("\(update.old)->\(update.new)") }
        }
    }

    /// The updates received so far, leaving the list empty.
    func take() -> [String] {
        received.withLock { updates in
            defer { updates = [] }
            return updates
        }
    }
}

/// A member whose equality looks only at `id`, so that two equal members can still be told
/// apart by `tag`.
struct Tagged: Hashable, Sendable, CustomStringConvertible {
    let id: Int
    let tag: String

    static func == (lhs: Tagged, rhs: Tagged) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
    var description: String { "\(id)\(tag)" }
}
