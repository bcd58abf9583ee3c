/// The current value of an observable property of each element of an ``ObservableArray``, in the
/// array's order, as an observable array of its own: whether each issue is open. Made by
/// `followEach(_:)`.
///
/// ```swift
/// final class Issue: Sendable {
///     let title: String
///     let isOpen: Var<Bool>
/// }
/// let openFlags = issues.followEach(\.isOpen)   // sends ArrayChange<Bool>
/// observer.observe(openFlags) { change in
///     change.apply(to: &flags)
/// }
/// issues.append(Issue(title: "Leak", isOpen: true))   // an insertion of `true` at the end
/// issues[0].isOpen.value = false                      // a replacement at 0, if it was `true`
/// ```
///
/// It sends an ``ArrayChange`` exact against its own contents: a change of the array is the same
/// change of the values (insertions, removals and replacements at the same offsets; a
/// transaction's merged change gives one change of the view), and an update of an element's
/// property is a replacement at the element's current index, or nothing if the new value equals
/// the one the view holds. Changes go out in the order the view applied them, whichever threads
/// made them, so applying each change to the contents before it always gives the contents after it.
///
/// ## Observed or not
///
/// Like every standalone transform, it observes the array and the properties only while it is
/// observed itself, and keeps itself and the array alive while it is. When its first observation
/// starts, it observes the array, reading the contents in the step that starts that observation,
/// then calls `select` for each element (outside every lock of the library) and observes each
/// property. A ``Var``'s value is read in the step that starts its observation; another cache's
/// latest message just before, and an update racing that read is reported when it arrives. The view
/// holds each property and its last value while observed, never the elements: once an element
/// leaves the array, the view stops observing its property, and no later update of it reaches the
/// view. While nothing observes it, ``value`` reads the array and each property each time.
///
/// `select` is called once per element when the element arrives, not again: it should return the
/// same observable for the same element, as a stored property does.
///
/// - Complexity: Per update of a property, while observed: one `==` and O(*d*) to find the element
///   among the *n* elements of the array, for an element that the array's edits moved by *d*
///   places since the view last found it (O(1) if it has not moved, O(*n*) at most). Per change of the array:
///   O(*n*) to move the slots after its first modification, plus one call of `select` and one new
///   observation per inserted element. Memory: one slot per element while observed.
public final class FollowedElements<
    Element: Sendable, Property: ObservableCache & Sendable, Value: Equatable & Sendable
>:
    ObservableCache, _StandaloneOperator
where Property.Message == Update<Value> {
    /// The messenger that sends the view's changes.
    public let messenger: Messenger<ArrayChange<Value>>

    /// The array whose elements' properties the view follows.
    public let array: ObservableArray<Element>

    let _select: @Sendable (Element) -> Property
    let _reader = _PropertyReader<Property, Value>()
    let _state: _FollowEachState<Property, Value>
    var _link: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>!

    /// Makes the view of the property `select` leads to, for each element of `array`; observing it
    /// starts observing the array and the properties.
    ///
    /// - Parameters:
    ///   - array: The array; held strongly.
    ///   - select: The observable property of an element; called outside every lock, on the thread
    ///     that starts the view's observation or delivers the array's change, and for each element
    ///     whenever ``value`` is read while the view is not observed.
    /// - Complexity: O(1).
    public init(_ array: ObservableArray<Element>, select: @escaping @Sendable (Element) -> Property) {
        let messenger = Messenger<ArrayChange<Value>>()
        self.messenger = messenger
        self.array = array
        _select = select
        _state = _FollowEachState(core: messenger._core)
        // The link's handler and starter need `self` for the properties' death listener, which
        // holds it weakly; they are set once, here, before anything can observe the view.
        _link = nil
        _link = _OriginLink(
            array, messengerOf: { $0.messenger }, isObserved: { messenger._core.observationCount > 0 },
            handler: { [weak self] change, author, isolation in
                self?._arrayChanged(change, author: author, isolation: isolation)
            },
            starter: { [weak self] array, observation, arrayMessenger in
                self?._seed(array, observation: observation, arrayMessenger: arrayMessenger)
            })
        messenger._core.keepAliveWhileObserved(self)
    }

    /// The current value of each element's property, in the array's order.
    ///
    /// - Complexity: O(*n*) for *n* elements; while not observed, plus one call of `select` and
    ///   one read of a latest message per element.
    public var value: [Value] {
        if let contents = _state.currentContents { return contents }
        return array.value.map { _select($0).latestMessage.new }
    }

    /// The number of values, the array's count.
    ///
    /// - Complexity: O(1).
    public var count: Int {
        _state.currentCount ?? array.count
    }

    /// An observable of the view's count: `Update(old, new)` for every change of the view that
    /// changes its number of values (the array's count), and nothing for one that keeps it.
    ///
    /// It reads the counts each change of the view carries (``ArrayChange/countBefore`` and
    /// ``ArrayChange/countAfter``): it is an ``ObservableCount`` of the view, which observes the view
    /// (and the view its sources) only while it is observed itself. Its `value` is ``count``, so it
    /// can be a source of an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; per change of the view, O(1) and at most one send.
    public var observableCount: ObservableCount<FollowedElements<Element, Property, Value>> {
        ObservableCount(view: self) { $0.count }
    }

    /// The contents as one insertion into an empty array, as ``ObservableArray/latestMessage`` gives.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: ArrayChange<Value> {
        ArrayChange(insertingContentsOf: value, at: 0, into: [])
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
            _FollowEachEdit(
                offset: span.offset, oldCount: span.oldCount, slots: _prepare(change._new[span.newRange]))
        }
        _state.arrayChanged(
            edits, countBefore: change.countBefore, author: author, epoch: epoch, isolation: isolation)
    }

    /// Makes a slot for each element and starts observing its property, reading its value in the
    /// same step where the property allows it. Runs without locks: `select` is user code.
    func _prepare(_ elements: ArraySlice<Element>) -> [_FollowEachSlot<Property, Value>] {
        let state = _state
        return elements.map { element in
            let property = _select(element)
            let slot = _FollowEachSlot<Property, Value>(property: property)
            let core = property.messenger._core
            let observation = _Observation<Update<Value>>._makeForwarding(
                core: core,
                handler: .forward({ update, author, isolation in
                    state.propertyChanged(update.new, of: slot, author: author, isolation: isolation)
                }),
                listener: self)
            state._lock.withLock { slot.observation = observation }
            if let read = _reader.readUnderLock {
                core.insert(observation) {
                    guard observation._isActiveWhileLocked else { return }
                    slot.value = read(property)
                }
            } else {
                // Not under its messenger's lock: read just before, and an update racing the read
                // is reported when it arrives.
                let value = property.latestMessage.new
                state._lock.withLock { slot.value = value }
                core.insert(observation)
            }
            return slot
        }
    }
}

// The array and the closure are immutable and `Sendable`; the slots are guarded by the state's
// lock, the observation of the array by the link's; `_link` is set once, in `init`.
extension FollowedElements: @unchecked Sendable {}

extension ObservableArray {
    /// The current value of the observable property at `keyPath` of each element, in order, as an
    /// observable array that follows the array's changes and each element's updates: GlueKit's
    /// `selectEach`.
    ///
    /// ```swift
    /// let openFlags = issues.followEach(\.isOpen)   // sends ArrayChange<Bool>
    /// ```
    ///
    /// See ``FollowedElements`` for what it sends and what it costs.
    ///
    /// - Parameter keyPath: Leads from an element to its observable property, whose messages are
    ///   updates (a ``Var``).
    /// - Returns: The view; it observes the array and the properties only while it is observed.
    /// - Complexity: O(1).
    public func followEach<Property: ObservableCache & Sendable, Value: Equatable & Sendable>(
        _ keyPath: KeyPath<Element, Property> & Sendable
    ) -> FollowedElements<Element, Property, Value> where Property.Message == Update<Value> {
        FollowedElements(self) { $0[keyPath: keyPath] }
    }

    /// The current value of the observable property that `select` returns for each element, in
    /// order, as an observable array that follows the array's changes and each element's updates.
    ///
    /// ```swift
    /// let openFlags = issues.followEach { issue in issue.isOpen }
    /// ```
    ///
    /// See ``FollowedElements`` for what it sends and what it costs.
    ///
    /// - Parameter select: Returns an element's observable property, whose messages are updates;
    ///   the same one for the same element every time.
    /// - Returns: The view; it observes the array and the properties only while it is observed.
    /// - Complexity: O(1).
    public func followEach<Property: ObservableCache & Sendable, Value: Equatable & Sendable>(
        _ select: @escaping @Sendable (Element) -> Property
    ) -> FollowedElements<Element, Property, Value> where Property.Message == Update<Value> {
        FollowedElements(self, select: select)
    }
}
