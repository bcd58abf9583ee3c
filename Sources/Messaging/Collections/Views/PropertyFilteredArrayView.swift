/// The elements of an ``ObservableArray`` whose observable `Bool` property is currently `true`, as
/// an observable array of its own: the open issues, where each issue's `isOpen` is a ``Var``. Made
/// by `filteredElements(by:)`.
///
/// ```swift
/// final class Issue: Sendable {
///     let title: String
///     let isOpen: Var<Bool>
/// }
/// let open = issues.filteredElements(by: \.isOpen)
/// observer.observe(open) { change in
///     change.apply(to: &openRows)   // indices are positions among the open issues
/// }
/// issues[0].isOpen.value = false   // a removal at the position among the open ones
/// issues[1].isOpen.value = true    // an insertion there
/// ```
///
/// It sends an ``ArrayChange`` against its own contents: an element whose property becomes `true`
/// is inserted at its position among the included elements, one whose property becomes `false` is
/// removed from there, and the array's own edits are filtered as ``FilteredArrayView`` filters
/// them (a replacement of an included element by an excluded one is a removal, and so on; a
/// transaction's merged change gives one change of the view). A change that touches no included
/// element sends nothing. Changes go out in the order the view applied them, whichever threads
/// made them, so applying each change to the contents before it always gives the contents after it.
///
/// ## Observed or not
///
/// Like every standalone transform, it observes the array and the properties only while it is
/// observed itself, and keeps itself and the array alive while it is. When its first observation
/// starts, it observes the array, reading the contents in the step that starts that observation,
/// then calls `select` for each element (outside every lock of the library) and observes each
/// property; a ``Var``'s value is read in the step that starts its observation. From then on it
/// keeps one slot per element (the element, its property and the property's last value) and one
/// bit per element in a tree that counts the included ones. Once an element leaves the array, the
/// view stops observing its property and lets the element go. While nothing observes it,
/// ``value`` and ``count`` read the array and each property each time.
///
/// `select` is called once per element when the element arrives, not again: it should return the
/// same observable for the same element, as a stored property does.
///
/// - Complexity: Per update of a property, while observed: O(*d*) to find the element among the
///   *n* elements of the array, for an element that the array's edits moved by *d* places since
///   the view last found it (O(1) if it has not moved, O(*n*) at most), then O(log *n*) for its
///   position among the included elements. Per change of the array: O(*n*) to move the slots after its first
///   modification, O(*k* log *n*) for *k* elements removed and inserted, and one call of `select`
///   and one new observation per inserted element. Memory: one slot per element while observed.
public final class PropertyFilteredArrayView<Element: Sendable, Property: ObservableCache & Sendable>:
    ObservableCache, _StandaloneOperator
where Property.Message == Update<Bool> {
    /// The messenger that sends the view's changes.
    public let messenger: Messenger<ArrayChange<Element>>

    /// The array the view filters.
    public let array: ObservableArray<Element>

    let _select: @Sendable (Element) -> Property
    let _reader = _PropertyReader<Property, Bool>()
    let _state: _PropertyFilterState<Element, Property>
    /// The count steps an expression's group follows to read the view's count and the array's
    /// folds in one step; the view observes its sources while these are observed too.
    let _countSteps = Messenger<_ViewCountStep<Element>>()
    var _link: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>!

    /// Makes the view of the elements of `array` whose property, which `select` leads to, is
    /// `true`; observing it starts observing the array and the properties.
    ///
    /// - Parameters:
    ///   - array: The array to filter; held strongly.
    ///   - select: The observable property of an element; called outside every lock, on the thread
    ///     that starts the view's observation or delivers the array's change, and for each element
    ///     whenever ``value`` or ``count`` is read while the view is not observed.
    /// - Complexity: O(1).
    public init(_ array: ObservableArray<Element>, select: @escaping @Sendable (Element) -> Property) {
        let messenger = Messenger<ArrayChange<Element>>()
        self.messenger = messenger
        self.array = array
        _select = select
        let steps = _countSteps
        _state = _PropertyFilterState(core: messenger._core, stepsCore: steps._core)
        // The link's handler and starter need `self` for the properties' death listener, which
        // holds it weakly; they are set once, here, before anything can observe the view.
        _link = nil
        _link = _OriginLink(
            array, messengerOf: { $0.messenger },
            isObserved: { messenger._core.observationCount > 0 || steps._core.observationCount > 0 },
            handler: { [weak self] change, author, isolation in
                self?._arrayChanged(change, author: author, isolation: isolation)
            },
            starter: { [weak self] array, observation, arrayMessenger in
                self?._seed(array, observation: observation, arrayMessenger: arrayMessenger)
            })
        messenger._core.keepAliveWhileObserved(self)
        steps._core.keepAliveWhileObserved(self)
    }

    /// The elements whose property is `true`, in the array's order.
    ///
    /// - Complexity: O(*n*) for *n* elements of the array; while not observed, plus one call of
    ///   `select` and one read of a latest message per element.
    public var value: [Element] {
        if let contents = _state.currentContents { return contents }
        return array.value.filter { _select($0).latestMessage.new }
    }

    /// The number of elements whose property is `true`.
    ///
    /// - Complexity: O(1) while the view is observed; otherwise as ``value``.
    public var count: Int {
        if let count = _state.currentCount { return count }
        var count = 0
        for element in array.value where _select(element).latestMessage.new { count += 1 }
        return count
    }

    /// An observable of the view's count: `Update(old, new)` for every change of the view that
    /// changes its number of elements whose property is `true`, and nothing for one that keeps it.
    ///
    /// It reads the counts each change of the view carries (``ArrayChange/countBefore`` and
    /// ``ArrayChange/countAfter``): it is an ``ObservableCount`` of the view, which observes the view
    /// (and the view its sources) only while it is observed itself. Its `value` is ``count``, so it
    /// can be a source of an ``ObservableExpression``, where it is observed together with the
    /// array's folds and extremes (its `observableCount`, say): the share of open issues never
    /// mixes the count before an edit with the total after it.
    ///
    /// - Complexity: O(1) to make; per change of the view, O(1) and at most one send.
    public var observableCount: ObservableCount<PropertyFilteredArrayView<Element, Property>> {
        ObservableCount(view: self, member: _ExpressionFoldMember(countOf: self)) { $0.count }
    }

    /// The contents as one insertion into an empty array, as ``ObservableArray/latestMessage`` gives.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: ArrayChange<Element> {
        ArrayChange(insertingContentsOf: value, at: 0, into: [])
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        let core = messenger._core
        let steps = _countSteps._core
        _state.forgetIfUnobserved { core.observationCount == 0 && steps.observationCount == 0 }
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }

    /// Starts the observation of the array and of each element's property, then installs them.
    func _seed(
        _ array: ObservableArray<Element>, observation: _Observation<ArrayChange<Element>>,
        arrayMessenger: Messenger<ArrayChange<Element>>
    ) {
        let epoch = _state.beginSeeding()
        var contents: [Element]?
        arrayMessenger._core.insert(observation) {
            guard observation._isActiveWhileLocked else { return }
            contents = array._storage
        }
        guard let contents else { return }
        let slots = _prepare(contents[...])
        _state.finishSeeding(slots, epoch: epoch, isolation: nil)
    }

    func _arrayChanged(_ change: ArrayChange<Element>, author: AnyObject, isolation: (any Actor)?) {
        let epoch = _state.epoch
        let edits = change._spans.map { span in
            _PropertyFilterEdit(
                offset: span.offset, oldCount: span.oldCount, slots: _prepare(change._new[span.newRange]))
        }
        _state.arrayChanged(edits, change: change, author: author, epoch: epoch, isolation: isolation)
    }

    /// Makes a slot for each element and starts observing its property, reading its value in the
    /// same step where the property allows it. Runs without locks: `select` is user code.
    func _prepare(_ elements: ArraySlice<Element>) -> [_PropertyFilterSlot<Element, Property>] {
        let state = _state
        return elements.map { element in
            let property = _select(element)
            let slot = _PropertyFilterSlot(element: element, property: property)
            let core = property.messenger._core
            let observation = _Observation<Update<Bool>>._makeForwarding(
                core: core,
                handler: .forward({ update, author, isolation in
                    state.propertyChanged(update.new, of: slot, author: author, isolation: isolation)
                }),
                listener: self)
            state._lock.withLock { slot.observation = observation }
            if let read = _reader.readUnderLock {
                core.insert(observation) {
                    guard observation._isActiveWhileLocked else { return }
                    slot.isIncluded = read(property)
                }
            } else {
                // Not under its messenger's lock: read just before, and an update racing the read
                // is applied when it arrives.
                let isIncluded = property.latestMessage.new
                state._lock.withLock { slot.isIncluded = isIncluded }
                core.insert(observation)
            }
            return slot
        }
    }
}

extension PropertyFilteredArrayView: _CountStepView {
    func _requestCountSnapshot(for token: ObjectIdentifier, isolation: (any Actor)?) {
        _state.requestSnapshot(for: token, isolation: isolation)
    }

    var _countSnapshot: (contents: [Element], count: Int) {
        if let snapshot = _state.currentSnapshot { return snapshot }
        let contents = array.value
        var count = 0
        for element in contents where _select(element).latestMessage.new { count += 1 }
        return (contents, count)
    }
}

// The array and the closure are immutable and `Sendable`; the slots and bits are guarded by the
// state's lock, the observation of the array by the link's; `_link` is set once, in `init`.
extension PropertyFilteredArrayView: @unchecked Sendable {}

extension ObservableArray {
    /// A view of the elements whose observable `Bool` property at `keyPath` is currently `true`:
    /// an element moves in or out of the view as its property changes.
    ///
    /// ```swift
    /// let open = issues.filteredElements(by: \.isOpen)   // isOpen: Var<Bool>
    /// ```
    ///
    /// See ``PropertyFilteredArrayView`` for what it sends and what it costs. For a predicate on
    /// the element's value, which never changes in place, use ``ObservableArray/filteredElements(where:)``.
    ///
    /// - Parameter keyPath: Leads from an element to its observable property, whose messages are
    ///   updates of a `Bool` (a ``Var``).
    /// - Returns: The view; it observes the array and the properties only while it is observed.
    /// - Complexity: O(1).
    public func filteredElements<Property: ObservableCache & Sendable>(
        by keyPath: KeyPath<Element, Property> & Sendable
    ) -> PropertyFilteredArrayView<Element, Property> where Property.Message == Update<Bool> {
        PropertyFilteredArrayView(self) { $0[keyPath: keyPath] }
    }

    /// A view of the elements whose observable `Bool` property that `select` returns is currently
    /// `true`: an element moves in or out of the view as its property changes.
    ///
    /// ```swift
    /// let open = issues.filteredElements(by: { issue in issue.isOpen })
    /// ```
    ///
    /// See ``PropertyFilteredArrayView`` for what it sends and what it costs.
    ///
    /// - Parameter select: Returns an element's observable property, whose messages are updates of
    ///   a `Bool`; the same one for the same element every time.
    /// - Returns: The view; it observes the array and the properties only while it is observed.
    /// - Complexity: O(1).
    public func filteredElements<Property: ObservableCache & Sendable>(
        by select: @escaping @Sendable (Element) -> Property
    ) -> PropertyFilteredArrayView<Element, Property> where Property.Message == Update<Bool> {
        PropertyFilteredArrayView(self, select: select)
    }
}
