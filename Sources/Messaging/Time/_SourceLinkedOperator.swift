/// What the standalone time operators (``Delayed``, ``Debounced``, ``Throttled``) share: one link
/// to their source, made after the operator by its inlinable maker, so that the closure that
/// receives each message is specialized in the client's code.
///
/// The link is set once, before the operator is handed out, and guards the source with its own
/// lock; the source is only used to read its messenger, when observing starts. That is why a
/// conformer may be `@unchecked Sendable` with `_link` a `var`.
protocol _SourceLinkedOperator: _StandaloneOperator where Message == Source.Message {
    associatedtype Source: ObservableSource

    /// The link to the source; `nil` only until ``_linkSource(_:_:)`` runs.
    var _link: _OriginLink<Source, Source.Message>? { get set }
}

extension _SourceLinkedOperator {
    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        if let _link { body(_link) }
    }

    /// Links the operator to `source`, whose messages go to `receive`, and lets the operator's
    /// messenger keep it alive while it is observed. Call it once, before handing the operator
    /// out.
    ///
    /// - Complexity: O(1).
    func _linkSource(_ source: Source, _ receive: @escaping (Source.Message, AnyObject, (any Actor)?) -> Void) {
        _link = Self._link(to: source, for: messenger, handler: receive)
        messenger._core.keepAliveWhileObserved(self)
    }
}
