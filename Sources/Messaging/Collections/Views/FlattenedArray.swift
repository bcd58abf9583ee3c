/// The elements of the arrays that the elements of an observable array lead to, one after the
/// other, as one observable array: all the issues of all the projects. Made by
/// ``ObservableArray/flatMap(_:)``.
///
/// ```swift
/// let allIssues = document.projects.flatMap { $0.issues }
/// observer.observe(allIssues) { change in
///     // an issue filed in the second project: an insertion after the first project's issues
/// }
/// ```
///
/// It sends an ``ArrayChange`` exact against its own contents for every change that reaches them:
/// an edit of an inner array is that edit, shifted by the inner elements of the outer elements
/// before it; inserting or removing an outer element inserts or removes all its inner elements
/// at once. A change that touches no inner element (an outer element whose array is empty) sends
/// nothing. Changes go out in the order the view applied them, whichever threads made them, so
/// applying each change to the contents before it always gives the contents after it.
///
/// ## Observed or not
///
/// Like every standalone transform, it observes its arrays only while it is observed itself.
/// When its first observation starts, it observes the outer array, calls `inner` for each outer
/// element (outside every lock of the library) and observes each inner array, reading each
/// array's contents in the step that starts its observation. It keeps a copy of the inner
/// elements while observed, so that each removal reports the elements it removes. While
/// nothing observes it, ``value`` reads the arrays each time.
///
/// `inner` is called once per outer element when the element arrives, not again when it changes
/// in place: it should return the same array for the same element, as a property of a class does.
///
/// - Complexity: Per change of an inner array, while observed: O(*p* + *k*) for *p* outer elements
///   and *k* elements the change removes and inserts. Per change of the outer array: O(*p* + *k*)
///   for the *k* inner elements of the outer elements it removes and inserts, plus one call of
///   `inner` and one new observation per inserted outer element. Memory: the inner elements,
///   copied once.
public final class FlattenedArray<Outer: Sendable, Element: Sendable>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the flattened changes.
    public let messenger: Messenger<ArrayChange<Element>>

    /// The outer array.
    public let outer: ObservableArray<Outer>

    @usableFromInline let _inner: @Sendable (Outer) -> ObservableArray<Element>
    @usableFromInline let _state: _FlattenState<Outer, Element>
    @usableFromInline var _link: _OriginLink<ObservableArray<Outer>, ArrayChange<Outer>>!

    /// Makes the flattened view of `outer`; observing it starts observing the arrays.
    ///
    /// - Parameters:
    ///   - outer: The outer array. Held strongly.
    ///   - inner: The array an outer element leads to; called outside every lock, on the thread
    ///     that starts the view's observation or delivers the outer array's change.
    /// - Complexity: O(1).
    public init(_ outer: ObservableArray<Outer>, inner: @escaping @Sendable (Outer) -> ObservableArray<Element>) {
        let messenger = Messenger<ArrayChange<Element>>()
        let state = _FlattenState<Outer, Element>(core: messenger._core)
        self.messenger = messenger
        self.outer = outer
        _inner = inner
        _state = state
        // The link's handler and starter need `self` for the inner observations' death listener,
        // which holds it weakly; they are set once, here, before anything can observe the view.
        _link = nil
        _link = _OriginLink(
            outer, messengerOf: { $0.messenger }, isObserved: { messenger._core.observationCount > 0 },
            handler: { [weak self] change, author, isolation in
                self?._outerChanged(change, author: author, isolation: isolation)
            },
            starter: { [weak self] outer, observation, outerMessenger in
                self?._seed(outer, observation: observation, outerMessenger: outerMessenger)
            })
        messenger._core.keepAliveWhileObserved(self)
    }

    /// The flattened contents.
    ///
    /// - Complexity: O(*n*) for *n* inner elements; while not observed, plus one call of `inner`
    ///   per outer element.
    public var value: [Element] {
        if let contents = _state.currentContents { return contents }
        return outer.value.flatMap { _inner($0).value }
    }

    /// The number of inner elements.
    ///
    /// - Complexity: As ``value``.
    public var count: Int { value.count }

    /// An observable of the view's count: `Update(old, new)` for every change of the view that
    /// changes its number of inner elements, and nothing for one that keeps it.
    ///
    /// It reads the counts each change of the view carries (``ArrayChange/countBefore`` and
    /// ``ArrayChange/countAfter``): it is an ``ObservableCount`` of the view, which observes the view
    /// (and the view its sources) only while it is observed itself. Its `value` is ``count``, so it
    /// can be a source of an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; per change of the view, O(1) and at most one send.
    public var observableCount: ObservableCount<FlattenedArray<Outer, Element>> {
        ObservableCount(view: self) { $0.count }
    }

    /// The contents as one insertion into an empty array, as ``ObservableArray/latestMessage`` gives.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: ArrayChange<Element> {
        let contents = value
        return ArrayChange(
            countBefore: 0,
            modifications: contents.isEmpty ? [] : [ArrayModification(at: 0, replacing: [], with: contents)])
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        let core = messenger._core
        _state.forgetIfUnobserved { core.observationCount == 0 }
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }

    /// Starts the observation of the outer array and of each inner array, then installs them.
    func _seed(
        _ outer: ObservableArray<Outer>, observation: _Observation<ArrayChange<Outer>>,
        outerMessenger: Messenger<ArrayChange<Outer>>
    ) {
        let epoch = _state.beginSeeding()
        var contents: [Outer]?
        outerMessenger._core.insert(observation) {
            guard observation._isActiveWhileLocked else { return }
            contents = outer._storage
        }
        guard let contents else { return }
        let slots = _prepare(contents)
        _state.finishSeeding(slots, epoch: epoch, isolation: nil)
    }

    func _outerChanged(_ change: ArrayChange<Outer>, author: AnyObject, isolation: (any Actor)?) {
        let epoch = _state._lock.withLock { _state._epoch }
        let prepared = change.modifications.map { _prepare($0.newElements) }
        _state.outerChanged(change, author: author, prepared: prepared, epoch: epoch, isolation: isolation)
    }

    /// Makes a slot for each outer element and starts observing its inner array, reading the inner
    /// contents in the same step. Runs without locks: `inner` is user code.
    func _prepare(_ elements: [Outer]) -> [_FlattenSlot<Element>] {
        let state = _state
        return elements.map { element in
            let array = _inner(element)
            let slot = _FlattenSlot(array: array)
            let core = array.messenger._core
            let observation = _Observation<ArrayChange<Element>>._makeForwarding(
                core: core,
                handler: .forward({ change, author, isolation in
                    state.innerChanged(change, of: slot, author: author, isolation: isolation)
                }),
                listener: self)
            state._lock.withLock { slot.observation = observation }
            core.insert(observation) {
                guard observation._isActiveWhileLocked else { return }
                slot.elements = array._storage
            }
            return slot
        }
    }
}

// The arrays and the closure are immutable and `Sendable`; the slots are guarded by the state's
// lock, the observation of the outer array by the link's; `_link` is set once, in `init`.
extension FlattenedArray: @unchecked Sendable {}

extension ObservableArray {
    /// The elements of the arrays that this array's elements lead to, one after the other, as one
    /// observable array that follows every change of this array and of each inner array.
    ///
    /// ```swift
    /// let allIssues = document.projects.flatMap { $0.issues }
    /// observer.observe(allIssues) { change in /* every issue filed, closed or moved anywhere */ }
    /// ```
    ///
    /// See ``FlattenedArray`` for what it sends and what it costs.
    ///
    /// - Parameter inner: The array an element leads to.
    /// - Returns: The flattened view; it observes the arrays only while it is observed itself.
    /// - Complexity: O(1).
    public func flatMap<Inner: Sendable>(
        _ inner: @escaping @Sendable (Element) -> ObservableArray<Inner>
    ) -> FlattenedArray<Element, Inner> {
        FlattenedArray(self, inner: inner)
    }
}
