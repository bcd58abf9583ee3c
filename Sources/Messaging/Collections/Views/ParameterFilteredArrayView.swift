/// The elements of an ``ObservableArray`` that satisfy a predicate whose parameter is a ``Var``, as
/// an observable array of its own: the issues whose title contains the text of a search field,
/// kept up to date when the issues change and when the text changes. Made by
/// `filteredElements(matching:where:)`.
///
/// ```swift
/// let search = Var("")
/// let found = issues.filteredElements(matching: search) { issue, text in
///     text.isEmpty || issue.title.contains(text)
/// }
/// observer.observe(found) { change in
///     change.apply(to: &rows)   // indices are positions among the issues found
/// }
/// search.value = "crash"        // one change: the issues that no longer match leave, in place
/// issues.append(Issue(title: "Crash on launch"))   // an insertion at the end of the view
/// ```
///
/// The array's edits are filtered as ``FilteredArrayView`` filters them, with the parameter's
/// current value (a transaction's merged change gives one change of the view). When the parameter
/// changes, the view tests every element again and sends one change: the elements that leave the
/// view and those that join it, each run of them between two elements that stay being one
/// modification at its position in the view. A change that touches no included element sends
/// nothing. The view applies the array's changes and the parameter's updates one at a time, in
/// the order they reach it, whichever threads make them, and sends its changes in that order, so
/// applying each change to the contents before it always gives the contents after it.
///
/// It is GlueKit's filter by an observable predicate: a predicate that changes is a fixed function
/// of a value that changes (a `Var` holds `Equatable` values, which a closure is not).
///
/// ## Observed or not
///
/// Like every standalone transform, it observes the array and the parameter only while it is
/// observed itself, and keeps itself, the array and the parameter alive while it is. Each
/// observation starts with the source's current value, read under the source's lock in the step
/// that starts it. From then on the view keeps its own copy of the array's contents (the elements
/// it must test again when the parameter changes, as of the last change it applied) and one bit
/// per element in a tree that counts the included ones. While nothing observes it, ``value`` and
/// ``count`` filter the array's current contents with the parameter's current value.
///
/// The predicate runs outside every lock of the library, on the thread that applies the message
/// (the one that delivered it, or one delivering the other source's message at the same time).
/// For a given parameter it must give the same answer for an element every time.
///
/// - Complexity: Per change of the array, while observed: O(*k* log *n*) for *k* elements removed
///   and inserted, *k* calls of the predicate, plus the cost of the same edit on the view's copy of
///   the contents (O(*n*) element moves for an edit in the middle, as `Array` makes them). Per
///   update of the parameter: *n* calls of the predicate and O(*n*) to rebuild the bits and make
///   the change. Memory: one reference to each element of the array and about 2 bits per element
///   while observed, nothing otherwise.
public final class ParameterFilteredArrayView<Element: Sendable, Parameter: Equatable & Sendable>:
    ObservableCache, _StandaloneOperator
{
    /// The messenger that sends the view's changes.
    public let messenger: Messenger<ArrayChange<Element>>

    /// The array the view filters.
    public let array: ObservableArray<Element>

    /// The variable whose value the predicate takes as its second argument.
    public let parameter: Var<Parameter>

    let _isIncluded: @Sendable (Element, Parameter) -> Bool
    let _state: _ParameterFilterState<Element, Parameter>
    let _arrayLink: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>
    let _parameterLink: _OriginLink<Var<Parameter>, Update<Parameter>>

    /// Makes the view of the elements of `array` for which `isIncluded` returns `true` with the
    /// current value of `parameter`; observing it starts observing both.
    ///
    ///
    /// - Parameters:
    ///   - array: The array to filter; held strongly.
    ///   - parameter: The variable the predicate depends on; held strongly.
    ///   - isIncluded: Whether an element is in the view for a value of the parameter; the same
    ///     answer for the same two every time.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(
        _ array: ObservableArray<Element>,
        matching parameter: Var<Parameter>,
        where isIncluded: @escaping @Sendable (Element, Parameter) -> Bool
    ) {
        // The per-element code is made here, in the client's code, where it is specialized.
        self.init(
            _array: array, parameter: parameter, isIncluded: isIncluded,
            code: _ParameterFilterCode(isIncluded: isIncluded))
    }

    @usableFromInline
    init(
        _array array: ObservableArray<Element>,
        parameter: Var<Parameter>,
        isIncluded: @escaping @Sendable (Element, Parameter) -> Bool,
        code: _ParameterFilterCode<Element, Parameter>
    ) {
        let messenger = Messenger<ArrayChange<Element>>()
        let core = messenger._core
        let state = _ParameterFilterState<Element, Parameter>(core: core, code: code)
        self.messenger = messenger
        self.array = array
        self.parameter = parameter
        _isIncluded = isIncluded
        _state = state
        // Each observation of a source gets its own handler, which starts with the source's
        // value, read under its lock in the step that starts the observation.
        _arrayLink = _OriginLink(
            array, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            handler: { _, _, _ in },
            replayOf: { array in
                let claimed = _FilterGeneration()
                return (
                    { array._latestMessageUnderLock() }, array,
                    { change, author, isolation in
                        state.submit(.array(change), claimed: claimed, author: author, isolation: isolation)
                    }
                )
            })
        _parameterLink = _OriginLink(
            parameter, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            handler: { _, _, _ in },
            replayOf: { parameter in
                let claimed = _FilterGeneration()
                return (
                    { parameter._latestMessageUnderLock() }, parameter,
                    { update, author, isolation in
                        state.submit(.parameter(update.new), claimed: claimed, author: author, isolation: isolation)
                    }
                )
            })
        core.keepAliveWhileObserved(self)
    }

    /// The included elements, in the array's order: while observed, the view's contents after the
    /// last change it sent; otherwise the array's current contents filtered with the parameter's
    /// current value.
    ///
    /// - Complexity: O(*n*) for *n* elements of the array; while not observed, plus *n* calls of
    ///   the predicate.
    public var value: [Element] {
        if let contents = _state.currentContents { return contents }
        let parameter = parameter.value
        return array.value.filter { _isIncluded($0, parameter) }
    }

    /// The number of included elements.
    ///
    /// - Complexity: O(1) while the view is observed; otherwise as ``value``.
    public var count: Int {
        if let count = _state.currentCount { return count }
        let parameter = parameter.value
        var count = 0
        for element in array.value where _isIncluded(element, parameter) { count += 1 }
        return count
    }

    /// Whether no element is included.
    ///
    /// - Complexity: As ``count``.
    public var isEmpty: Bool { count == 0 }

    /// The whole contents of the view (``value``) as one insertion into an empty array: what a new
    /// observation that asks for the latest message receives first.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: ArrayChange<Element> {
        ArrayChange(insertingContentsOf: value, at: 0, into: [])
    }

    /// An observable of the view's count: `Update(old, new)` for every change of the view that
    /// changes its number of elements, and nothing for one that keeps it.
    ///
    /// It reads the counts each change of the view carries (``ArrayChange/countBefore`` and
    /// ``ArrayChange/countAfter``): it is an ``ObservableCount`` of the view, which observes the view
    /// (and the view its sources) only while it is observed itself. Its `value` is ``count``, so it
    /// can be a source of an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; per change of the view, O(1) and at most one send.
    public var observableCount: ObservableCount<ParameterFilteredArrayView<Element, Parameter>> {
        ObservableCount(view: self) { $0.count }
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        let core = messenger._core
        _state.forgetIfUnobserved { core.observationCount == 0 }
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_arrayLink)
        body(_parameterLink)
    }
}

// The array, the parameter and the predicate are immutable and `Sendable`; the contents, the
// parameter's value and the bits are guarded by the state's lock, the observations by the links'.
extension ParameterFilteredArrayView: @unchecked Sendable {}

extension ObservableArray {
    /// A view of the elements for which `isIncluded` returns `true` with the current value of
    /// `parameter`: the view follows the array's edits, and tests every element again when the
    /// parameter changes.
    ///
    /// ```swift
    /// let minimum = Var(3)
    /// let urgent = issues.filteredElements(matching: minimum) { issue, minimum in
    ///     issue.priority >= minimum
    /// }
    /// ```
    ///
    /// See ``ParameterFilteredArrayView`` for what it sends and what it costs. For a predicate
    /// that never changes, use ``ObservableArray/filteredElements(where:)``; for an observable
    /// `Bool` property of each element, `filteredElements(by:)` (``PropertyFilteredArrayView``).
    ///
    /// - Parameters:
    ///   - parameter: The variable the predicate depends on.
    ///   - isIncluded: Whether an element is in the view for a value of the parameter; the same
    ///     answer for the same two every time.
    /// - Returns: The view; it observes the array and the parameter only while it is observed.
    /// - Complexity: O(1).
    @inlinable
    public func filteredElements<Parameter: Equatable & Sendable>(
        matching parameter: Var<Parameter>,
        where isIncluded: @escaping @Sendable (Element, Parameter) -> Bool
    ) -> ParameterFilteredArrayView<Element, Parameter> {
        ParameterFilteredArrayView(self, matching: parameter, where: isIncluded)
    }
}
