/// The elements of an ``ObservableArray`` that satisfy a predicate, as an observable array of its
/// own: it sends an ``ArrayChange`` against its own contents for every change of the array that
/// touches an included element, at a cost in proportion to the change, never by filtering the
/// whole array again.
///
/// ```swift
/// let issues = ObservableArray([Issue(title: "Crash", isOpen: true), Issue(title: "Typo", isOpen: false)])
/// let open = issues.filteredElements { $0.isOpen }
/// observer.observe(open) { change in
///     change.apply(to: &openRows)   // indices are positions among the open issues
/// }
/// issues.append(Issue(title: "Leak", isOpen: true))    // sends an insertion at 1
/// issues.append(Issue(title: "Style", isOpen: false))  // sends nothing
/// issues[0] = Issue(title: "Crash", isOpen: false)     // sends a removal at 0
/// ```
///
/// For each modification of the array's change, an included element that is inserted or removed
/// is inserted or removed at its position among the included elements; a replacement of an
/// included element by an included one is a replacement there, of an included element by an
/// excluded one a removal, of an excluded one by an included one an insertion, and of two excluded
/// elements nothing. A change that touches no included element sends nothing; a transaction's
/// merged change gives one change of the view. Applying each change the view sends to its
/// previous contents gives its new contents.
///
/// Not to be confused with ``ObservableSource/filter(_:)``, which drops whole change messages.
///
/// ## Observed or not
///
/// Like every standalone transform, the view observes the array only while it is observed itself,
/// and keeps itself and the array alive while it is. Its observation of the array starts with the
/// array's contents, read in the same atomic step that starts it; the view calls the predicate
/// once for each element (O(*n*), outside every lock), and from then on keeps one
/// bit per element of the array, set where the element is included, in a tree that counts them:
/// the position of an element in the view is the number of included elements before it. It
/// calls the predicate once for each element a change inserts, and never for the others.
///
/// The predicate runs outside every lock of the library, on the thread that delivers the array's
/// changes (for the contents, usually the thread that starts the first observation). It must give the same answer for
/// an element every time: a property that can change is followed only through an edit of the
/// array that replaces the element.
///
/// - Complexity: Per change of the array, while observed: O(*k* log *n*) for *k* elements removed
///   and inserted, *k* calls of the predicate, and one send when the view changes. Memory: about 2
///   bits per element of the array while observed, nothing otherwise.
public final class FilteredArrayView<Element: Sendable>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the view's changes.
    public let messenger: Messenger<ArrayChange<Element>>

    /// The array the view filters.
    public let array: ObservableArray<Element>

    @usableFromInline let _isIncluded: @Sendable (Element) -> Bool
    @usableFromInline let _state: _FilterState<Element>
    @usableFromInline let _link: _OriginLink<ObservableArray<Element>, ArrayChange<Element>>

    /// Makes the view of the elements of `array` that satisfy `isIncluded`; observing it starts
    /// following the array.
    ///
    /// - Parameters:
    ///   - array: The array to filter; held strongly.
    ///   - isIncluded: Whether an element is in the view; the same answer for an element every
    ///     time.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(
        _ array: ObservableArray<Element>,
        where isIncluded: @escaping @Sendable (Element) -> Bool
    ) {
        // The handler is made here, in the client's code, where it is specialized for the
        // element type.
        let messenger = Messenger<ArrayChange<Element>>()
        let state = _FilterState<Element>()
        let core = messenger._core
        self.init(
            _array: array, isIncluded: isIncluded, messenger: messenger, state: state,
            replayOf: { array in
                // Each observation of the array has its own handler, and starts with the contents
                // as one insertion, read under the array's lock in the step that starts it.
                let claimed = _FilterGeneration()
                return (
                    { array._latestMessageUnderLock() }, array,
                    { change, author, isolation in
                        let included = change._new.map(isIncluded)
                        switch state.step(change, included: included, claimed: claimed) {
                        case .stale:
                            return
                        case .seed(let generation):
                            state.install(_CountedBits(included), generation: generation)
                        case .send(let plan):
                            let viewChange = Self._viewChange(of: change, included: included, plan: plan)
                            guard !viewChange.isEmpty else { return }
                            core.send(viewChange, author: author, checksChange: false, isolation: isolation)
                        }
                    }
                )
            }
        )
    }

    @usableFromInline
    init(
        _array array: ObservableArray<Element>,
        isIncluded: @escaping @Sendable (Element) -> Bool,
        messenger: Messenger<ArrayChange<Element>>,
        state: _FilterState<Element>,
        replayOf:
            @escaping (ObservableArray<Element>) -> (
                latest: () -> ArrayChange<Element>, author: AnyObject,
                handler: (ArrayChange<Element>, AnyObject, (any Actor)?) -> Void
            )
    ) {
        let core = messenger._core
        self.messenger = messenger
        self.array = array
        _isIncluded = isIncluded
        _state = state
        _link = _OriginLink(
            array, messengerOf: { $0.messenger }, isObserved: { core.observationCount > 0 },
            // Every observation gets its own handler from `replayOf`.
            handler: { _, _, _ in }, replayOf: replayOf)
        core.keepAliveWhileObserved(self)
    }

    /// The included elements of the array's current contents, in the array's order.
    ///
    /// It filters the array's current contents, which may already hold edits whose changes the
    /// view has not sent yet (while another thread delivers them); the changes the view sends
    /// always follow its own previous contents.
    ///
    /// - Complexity: O(*n*) calls of the predicate for *n* elements of the array.
    public var value: [Element] {
        array.value.filter(_isIncluded)
    }

    /// The number of included elements: the count after the last change the view sent.
    ///
    /// - Complexity: O(1) while the view is observed; otherwise O(*n*) calls of the predicate for
    ///   *n* elements of the array.
    public var count: Int {
        if let count = _state.currentCount { return count }
        var count = 0
        for element in array.value where _isIncluded(element) { count += 1 }
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
    /// changes its number of elements, and nothing for one that keeps it (a replacement).
    ///
    /// ```swift
    /// open.observableCount.subscribe { update in badge.text = "\(update.new)" }
    /// ```
    ///
    /// It reads the counts each change of the view carries (``ArrayChange/countBefore`` and
    /// ``ArrayChange/countAfter``), so it costs one transform of the view's changes: it is an
    /// ``ObservableCount`` of the view, which observes the view only while it is observed itself.
    /// Its `value` is ``count``, so it can be a source of an ``ObservableExpression``.
    ///
    /// - Complexity: O(1) to make; per change of the view, O(1) and one send.
    public var observableCount: ObservableCount<FilteredArrayView<Element>> {
        // To an expression, the view's count is the fold that counts what the predicate includes,
        // observed with the array's other folds.
        let isIncluded = _isIncluded
        let member = _ExpressionFoldMember(
            array: array, initial: 0, adding: { count, element in isIncluded(element) ? count + 1 : count },
            removing: { count, element in isIncluded(element) ? count - 1 : count })
        return ObservableCount(view: self, member: member) { $0.count }
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

    /// The view's change for the array's `change`: the included elements of each modification, at
    /// the view offsets of `plan`. `included` tells which inserted elements are included.
    @inlinable
    static func _viewChange(
        of change: ArrayChange<Element>,
        included: [Bool],
        plan: _FilterPlan
    ) -> ArrayChange<Element> {
        var view = ArrayChange<Element>(countBefore: plan.countBefore)
        for (index, span) in change._spans.enumerated() {
            for position in span.oldRange where plan.wasIncluded[position] {
                view._old.append(change._old[position])
            }
            for position in span.newRange where included[position] {
                view._new.append(change._new[position])
            }
            view._closeSpan(at: plan.offsets[index])
        }
        return view
    }
}

// The array and the predicate are immutable and `Sendable`; the bits are guarded by the state's
// lock, the observation of the array by the link's.
extension FilteredArrayView: @unchecked Sendable {}

extension ObservableArray {
    /// A view of the elements that satisfy `isIncluded`, kept up to date per change: it sends
    /// changes against its own contents, with indices among the included elements.
    ///
    /// ```swift
    /// let open = issues.filteredElements { $0.isOpen }
    /// ```
    ///
    /// See ``FilteredArrayView`` for what it sends and when it observes the array. Unlike
    /// ``ObservableSource/filter(_:)``, which keeps or drops whole change messages, it filters the
    /// elements.
    ///
    /// - Parameter isIncluded: Whether an element is in the view; it must give the same answer
    ///   for an element every time.
    /// - Returns: The view; observe it to follow the array.
    /// - Complexity: O(1) to make; per change, while observed, O(*k* log *n*) for *k* elements
    ///   removed and inserted, and *k* calls of `isIncluded`.
    @inlinable
    public func filteredElements(
        where isIncluded: @escaping @Sendable (Element) -> Bool
    ) -> FilteredArrayView<Element> {
        FilteredArrayView(self, where: isIncluded)
    }
}
