/// A formula over observable values, itself observable: its result is recomputed in one step from
/// the latest values of its sources whenever one of them changes.
///
/// Make one from any ``ObservableCache`` whose messages are ``Update``s (a ``Var``, an
/// ``ArrayFold`` such as ``ObservableArray/observableCount``, an ``ObservableCount`` such as
/// ``ObservableSet/observableCount`` or a view's count) and combine expressions with
/// `adding(_:)`, `subtracting(_:)`, `multiplied(by:)`, `divided(by:)`, ``negated()`` and
/// ``divided(by:ifZero:)``, with each other or with plain values:
///
/// ```swift
/// let used = ObservableExpression(usedSpace)       // a Var<Int>
/// let free = ObservableExpression(freeSpace)       // another
/// let percentUsed = used.multiplied(by: 100).divided(by: used.adding(free), ifZero: 0)
/// observer.observe(percentUsed) { update in print("\(update.new)% used") }
/// ```
///
/// The arithmetic is spelled as methods, not operators: an operator, even one that needs an
/// expression operand, is weighed by the type checker in every arithmetic expression of every
/// file that imports the module, and slowed type-checking plain `Int` arithmetic measurably.
/// ``map(_:)`` and ``combined(with:_:)`` apply any other function.
///
/// ## No state that never existed
///
/// An expression observes each of its sources once, however often it uses it: sources are told
/// apart by identity. When one changes, the expression stores the source's new value and computes
/// the whole formula from the latest value of every source, so `a.subtracting(a)` is always zero
/// and `a.multiplied(by: 100).divided(by: a.adding(b))` never mixes an old `a` with a new one, which a combination of two
/// observations of `a` would show between the two messages. The values are stored under a lock of
/// the expression's own; the formula runs after unlocking, and its results are sent in the order
/// of the changes they were computed from: a result computed from older values than one already
/// sent is dropped. It sends `Update(old, new)` when the result changes, nothing when it stays
/// equal.
///
/// Folds of one array are observed together. An expression that uses two or more ``ArrayFold``s
/// of the same array (its ``ObservableArray/observableCount`` and an
/// ``ObservableArray/observableCount(where:)``, say) observes that array once and runs all of
/// their functions on each change, so the change reaches the formula as one step: a share of open
/// issues never divides a new open count by an old total. The folds' own observers are not
/// involved: the expression folds the array for itself, in addition to what each fold does for
/// its own observers. The count of a ``FilteredArrayView`` counts what its predicate includes, so
/// it joins the folds of its array. An ``ArrayExtremum`` (``ObservableArray/observableMin``,
/// ``ObservableArray/observableMax``, or those of a ``FilteredArrayView``) joins them too: the
/// group then keeps one state per member, the extreme's elements in order, so `max - min` is
/// always the range of one state of the array. The counts of one ``ObservableSet`` or
/// ``ObservableDictionary`` (its ``ObservableSet/observableCount`` and the count of a
/// ``FilteredSetView`` of it) are observed together the same way, and so are the memberships of a
/// set (its ``ObservableSet/observableContains(_:)`` and that of a ``FilteredSetView`` of it). The count of a
/// ``PropertyFilteredArrayView`` (a filter by each element's observable property, which no fold
/// can count) joins the folds and extremes of its array too: the expression then follows the
/// view, which reports each change of the array it applies with its count after it, so filing an
/// open issue moves GlueKit's open count and total in one step.
///
/// Any other two sources that change on one edit are still two sources, each reporting the edit
/// in its turn: a fold and any other view of one array (a sorted view, a filter by a parameter,
/// or that view's ``ObservableCount``), the counts of a second filter by a property of an array
/// whose group another one leads, folds of two arrays edited one after the other. Between their two reports the formula sees one new value and one old. Numbers that must
/// agree there belong in one fold, whose result an expression can then map.
///
/// ## Observed or not
///
/// Like every standalone transform, it observes its sources only while it is observed itself.
/// When its first observation starts, it reads each source's latest value; its first result is
/// computed once all are read, and sent to nobody. While nothing observes it, ``value`` computes
/// the formula from the sources' latest values each time it is read. It holds its sources
/// strongly; observing it keeps it and them alive for as long as the observation lasts.
///
/// The formula's functions (the arithmetic of `Value`, and the closures of ``map(_:)`` and
/// ``combined(with:_:)``) run outside every lock of the library, on the thread that delivers the
/// source's change.
///
/// - Complexity: Per change of a source, while observed: O(*n*) for *n* distinct sources, plus
///   one evaluation of the formula and one send. For a change of an array whose folds it groups,
///   O(*k* × *m*) calls of the folds' functions for *k* elements removed and inserted and *m*
///   folds of that array, plus O(*k* log *n*) per extreme among them for *n* elements; for a set
///   or a dictionary whose counts it groups, one call per count of each count's function, which
///   for a filtered view's count calls the predicate *k* times. Combining two expressions is O(*n*) for the
///   sources of both.
public final class ObservableExpression<Value: Equatable & Sendable>: ObservableCache, _StandaloneOperator {
    /// The messenger that sends the result's updates.
    public let messenger: Messenger<Update<Value>>

    /// The distinct sources, in the order they first appear in the formula.
    @usableFromInline let _sources: [_ExpressionSource]
    /// The sources observed: `_sources`, with the folds of one array grouped into one source.
    @usableFromInline let _observed: [_ExpressionSource]
    /// The formula, to compile against any order of sources that includes its own.
    @usableFromInline let _term: _ExpressionTerm<Value>
    @usableFromInline let _state: _ExpressionState<Value>
    let _links: [any _AnyOriginLink]

    /// An expression of `sources` whose formula is `term`.
    ///
    /// The state and what the links call are made here, in the client's code, where they are
    /// specialized for the value's type.
    @inlinable
    convenience init(_sources sources: [_ExpressionSource], term: _ExpressionTerm<Value>) {
        let messenger = Messenger<Update<Value>>()
        let (observed, slots) = _ExpressionSource.observed(sources)
        let state = _ExpressionState<Value>(
            core: messenger._core, sourceCount: observed.count, evaluate: term.compile(slots))
        self.init(
            _sources: sources, observed: observed, term: term, messenger: messenger, state: state,
            inputs: _ExpressionInputs(state))
    }

    @usableFromInline
    init(
        _sources sources: [_ExpressionSource],
        observed: [_ExpressionSource],
        term: _ExpressionTerm<Value>,
        messenger: Messenger<Update<Value>>,
        state: _ExpressionState<Value>,
        inputs: _ExpressionInputs
    ) {
        let core = messenger._core
        self.messenger = messenger
        _sources = sources
        _observed = observed
        _term = term
        _state = state
        _links = observed.enumerated().map { index, source in
            // Always an `_OriginLink`, typed after the source.
            source.makeLink(inputs, index) { core.observationCount > 0 } as! any _AnyOriginLink
        }
        core.keepAliveWhileObserved(self)
    }

    /// An expression whose value is the latest value of `source`.
    ///
    /// - Parameter source: A cache of updates: a ``Var``, an ``ArrayFold``, an ``ObservableCount``,
    ///   another expression.
    /// - Complexity: O(1).
    @inlinable
    public convenience init<Source: ObservableCache & Sendable>(_ source: Source)
    where Source.Message == Update<Value> {
        let source = _ExpressionSource(source)
        let id = source.id
        self.init(
            _sources: [source],
            term: _ExpressionTerm { slots in slots[id]!.reader(of: Value.self) })
    }

    /// An expression whose value is always `value`: it never sends.
    ///
    /// - Parameter value: The value.
    /// - Complexity: O(1).
    @inlinable
    public convenience init(constant value: Value) {
        self.init(_sources: [], term: _ExpressionTerm { _ in { _ in value } })
    }

    /// The current result.
    ///
    /// - Complexity: O(1) while the expression is observed and has its first result; otherwise
    ///   reading each source's latest value and evaluating the formula.
    public var value: Value {
        if let reported = _state.reported { return reported }
        return _state.evaluate(_observed.map { $0.read() })
    }

    /// The current result as an update whose `old` and `new` are equal, as ``Var`` gives.
    ///
    /// - Complexity: As ``value``.
    public var latestMessage: Update<Value> {
        let value = value
        return Update(value, value)
    }

    /// An expression whose value is `transform` applied to this one's.
    ///
    /// ```swift
    /// let label = ObservableExpression(count).map { "\($0) items" }
    /// ```
    ///
    /// - Parameter transform: A function of the value; it runs outside every lock.
    /// - Returns: The new expression, with the same sources.
    /// - Complexity: O(*n*) for *n* sources.
    @inlinable
    public func map<Result>(
        _ transform: @escaping @Sendable (Value) -> Result
    ) -> ObservableExpression<Result> {
        let term = _term
        return ObservableExpression<Result>(
            _sources: _sources,
            term: _ExpressionTerm { slots in
                let evaluate = term.compile(slots)
                return { values in transform(evaluate(values)) }
            })
    }

    /// An expression whose value is `combine` applied to this one's and `other`'s, computed from
    /// the latest values of the sources of both, each source observed once.
    ///
    /// - Parameters:
    ///   - other: The other expression.
    ///   - combine: A function of the two values; it runs outside every lock.
    /// - Returns: The new expression.
    /// - Complexity: O(*n*) for the *n* sources of both.
    @inlinable
    public func combined<Other, Result>(
        with other: ObservableExpression<Other>,
        _ combine: @escaping @Sendable (Value, Other) -> Result
    ) -> ObservableExpression<Result> {
        let lhs = _term
        let rhs = other._term
        return ObservableExpression<Result>(
            _sources: _ExpressionSource.union(_sources, other._sources),
            term: _ExpressionTerm { slots in
                let left = lhs.compile(slots)
                let right = rhs.compile(slots)
                return { values in combine(left(values), right(values)) }
            })
    }

    @usableFromInline
    func _observedChanged() {
        _updateLinks()
        let core = messenger._core
        _state.forgetIfUnobserved { core.observationCount == 0 }
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        for link in _links { body(link) }
    }

    /// A source that dies ends nothing: its latest value stays part of the formula.
    var _endsWhenAnOriginDies: Bool { false }
}

// The sources and the formula are immutable and `Sendable`; the latest values are guarded by the
// state's lock, the result by the messenger's, and each link guards its own observation.
extension ObservableExpression: @unchecked Sendable {}
