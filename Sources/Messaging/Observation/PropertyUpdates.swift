#if canImport(Observation)
import Observation

/// The changes of one property of an Observation model (an `@Observable` class), as messages.
///
/// Make one with `updates(of:)` (an ``Update`` of old and new value, for
/// an `Equatable` property) or `values(of:)` (the new value), and keep
/// it as long as you want the messages:
///
/// ```swift
/// @Observable @MainActor final class Document {
///     var title = "Untitled"
/// }
///
/// let titles = document.updates(of: \.title)
/// observer.observe(titles) { update in print("\(update.old) -> \(update.new)") }
/// document.title = "Notes"   // soon after, on the main actor: "Untitled -> Notes"
/// ```
///
/// It follows the property with `withObservationTracking`, tracking it again after each change.
/// Observation calls `onChange` before the new value is stored, so the value is read afterwards,
/// on the main actor, in a task of its own. That has consequences:
///
/// - Messages come soon after the change, not during it, on the main actor.
/// - Changes made within one main-actor turn (or faster than the main actor reads them) come as
///   one update, from the last value sent to the value read then; values in between are skipped,
///   and a property changed and changed back within the turn sends nothing. Updates always come
///   in the order of the values, and `old` of each is `new` of the one before.
/// - A change made on another thread is seen too, but the value is then read on the main actor,
///   so the model must allow that (a main-actor model, or one that guards its state, such as a
///   ``Var``).
///
/// It holds the model weakly. When the model dies, it finishes: it ends every observation of it
/// and sends nothing more. Releasing it ends its observations too; the model does not keep it.
///
/// For a ``Var``, observe the variable itself: its updates come during the change, every one.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public final class PropertyUpdates<Message: Sendable>: ObservableSource {
    /// The messenger that sends the property's changes.
    public nonisolated let messenger = Messenger<Message>()

    /// Whether it stopped following the property, because the model died or ``finish()`` was
    /// called: it sends nothing more.
    public private(set) var isFinished = false

    /// Reads the property inside a tracking scope whose `onChange` is the given closure (made
    /// only if Observation installs the scope), and says what to send; `nil` once finished.
    private var _step: ((() -> @Sendable () -> Void) -> _PropertyStep<Message>)?

    /// Whether the model is still alive.
    private let _modelIsAlive: () -> Bool

    init(
        modelIsAlive: @escaping () -> Bool,
        step: @escaping (() -> @Sendable () -> Void) -> _PropertyStep<Message>
    ) {
        _modelIsAlive = modelIsAlive
        _step = step
        _follow()
    }

    /// Stops following the property and ends every observation of this source.
    ///
    /// Calling it again does nothing.
    ///
    /// - Complexity: O(*n*) for *n* observations.
    public func finish() {
        guard !isFinished else { return }
        isFinished = true
        _step = nil
        stopBeingObserved()
    }

    /// Reads the property, tracking it again, and sends what changed since the last read.
    func _follow() {
        guard let step = _step else { return }
        switch step({ [weak self] in self?._makeOnChange() ?? {} }) {
        case .quiet:
            break
        case .send(let message):
            send(message)
        case .modelDied:
            finish()
        }
    }

    /// The `onChange` of one tracking scope; see ``_PropertyWatch``.
    private func _makeOnChange() -> @Sendable () -> Void {
        let watch = _PropertyWatch(source: self)
        return { watch.fire() }
    }

    /// Finishes if the model died; called when a tracking scope ended without a change.
    func _finishIfModelDied() {
        if !_modelIsAlive() { finish() }
    }
}

/// What one read of a followed property asks for.
enum _PropertyStep<Message> {
    /// Nothing changed since the last read (or this is the first one).
    case quiet
    /// Send this message.
    case send(Message)
    /// The model is gone.
    case modelDied
}

/// One tracking scope's link back to its ``PropertyUpdates``.
///
/// Observation keeps the scope's `onChange`, and so this object, until the property changes or
/// the model dies; it then releases it. A release without a change means the model may have died
/// (Observation says nothing else when it does), so the source checks, on the main actor.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class _PropertyWatch<Message: Sendable>: @unchecked Sendable {  // `_fired` is guarded by `_lock`
    private weak let source: PropertyUpdates<Message>?
    private let _lock = _Lock()
    private var _fired = false

    init(source: PropertyUpdates<Message>) {
        self.source = source
    }

    /// The property is about to change: read it once the change is done.
    func fire() {
        _lock.withLock { _fired = true }
        guard let source else { return }
        Task { @MainActor in source._follow() }
    }

    deinit {
        guard !_lock.withLock({ _fired }), let source else { return }
        Task { @MainActor in source._finishIfModelDied() }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Observable where Self: AnyObject {
    /// The changes of one property of this model, each as an ``Update`` from the old value to the
    /// new one.
    ///
    /// ```swift
    /// let titles = document.updates(of: \.title)
    /// observer.observe(titles) { update in print("\(update.old) -> \(update.new)") }
    /// ```
    ///
    /// Making it sends nothing; each change that leaves a different value sends one update, soon
    /// after the change, on the main actor. Changes within one main-actor turn come as one update.
    /// See ``PropertyUpdates`` for the details and limits.
    ///
    /// - Parameter keyPath: The property, or any value computed from the model's tracked
    ///   properties.
    /// - Returns: The source of the updates. Keep it: releasing it ends its observations.
    /// - Complexity: O(1), plus one read of the property.
    @MainActor
    public func updates<Value: Equatable & Sendable>(
        of keyPath: KeyPath<Self, Value>
    ) -> PropertyUpdates<Update<Value>> {
        var last: Value?
        let modelIsAlive = { [weak self] in self != nil }
        return PropertyUpdates(modelIsAlive: modelIsAlive) { [weak self] makeOnChange in
            guard let model = self else { return .modelDied }
            let current = withObservationTracking({ model[keyPath: keyPath] }, onChange: makeOnChange())
            defer { last = current }
            guard let previous = last, previous != current else { return .quiet }
            return .send(Update(previous, current))
        }
    }

    /// The changes of one property of this model, each as the new value.
    ///
    /// For a property whose type is not `Equatable`: every change that the source sees sends the
    /// value read after it, even if it equals the one before. Changes within one main-actor turn
    /// come as one message. See ``PropertyUpdates`` for the details and limits.
    ///
    /// - Parameter keyPath: The property, or any value computed from the model's tracked
    ///   properties.
    /// - Returns: The source of the values. Keep it: releasing it ends its observations.
    /// - Complexity: O(1), plus one read of the property.
    @MainActor
    public func values<Value: Sendable>(of keyPath: KeyPath<Self, Value>) -> PropertyUpdates<Value> {
        var isFirst = true
        let modelIsAlive = { [weak self] in self != nil }
        return PropertyUpdates(modelIsAlive: modelIsAlive) { [weak self] makeOnChange in
            guard let model = self else { return .modelDied }
            let current = withObservationTracking({ model[keyPath: keyPath] }, onChange: makeOnChange())
            defer { isFirst = false }
            return isFirst ? .quiet : .send(current)
        }
    }
}
#endif
