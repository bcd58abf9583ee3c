/// The code of a ``ParameterFilteredArrayView`` that runs once per element, made in the client's
/// code by the view's inlinable initializer, where it is specialized for the element and parameter
/// types: unspecialized, testing every element again cost about 600 instructions per element.
@usableFromInline
struct _ParameterFilterCode<Element: Sendable, Parameter: Sendable>: Sendable {
    /// The predicate applied to each of the elements, with a parameter.
    @usableFromInline let filter: @Sendable ([Element], Parameter) -> [Bool]
    /// Applies an array's change to the view's copy of the contents.
    @usableFromInline let apply: @Sendable (ArrayChange<Element>, inout [Element]) -> Void
    /// The view's change for an array's change, from its plan (see ``FilteredArrayView``).
    @usableFromInline let viewChange: @Sendable (ArrayChange<Element>, [Bool], _FilterPlan) -> ArrayChange<Element>
    /// The view's change when the inclusion bits of the contents go from the first to the second,
    /// with the view's count before it.
    @usableFromInline let refilterChange: @Sendable ([Element], [Bool], [Bool], Int) -> ArrayChange<Element>

    @inlinable
    init(isIncluded: @escaping @Sendable (Element, Parameter) -> Bool) {
        filter = { elements, parameter in elements.map { isIncluded($0, parameter) } }
        apply = { change, contents in change.apply(to: &contents) }
        viewChange = { change, included, plan in
            FilteredArrayView<Element>._viewChange(of: change, included: included, plan: plan)
        }
        refilterChange = { contents, old, new, countBefore in
            ArrayChange._refiltering(contents, from: old, to: new, countBefore: countBefore)
        }
    }
}

/// One message for a ``ParameterFilteredArrayView``'s state: a change of the array or an update of
/// the parameter, with the observation it came from and its author.
struct _ParameterFilterEvent<Element: Sendable, Parameter: Sendable>: @unchecked Sendable {
    // The generation object is guarded by the state's lock; the rest is immutable.
    enum Kind {
        case array(ArrayChange<Element>)
        case parameter(Parameter)
    }

    var kind: Kind
    /// The generation the observation that delivered the message claimed; 0 before its first
    /// message, the replay of the contents or of the parameter's value.
    var claimed: _FilterGeneration
    var author: AnyObject
}

/// The state of a ``ParameterFilteredArrayView`` while it is observed: the array's contents as the
/// view last applied them, the parameter the view last applied, the inclusion bits in a tree that
/// counts them, and the queue of messages from the array and the parameter.
///
/// Both sources' messages go through one ``_SerialDrain``: the first thread to submit one becomes
/// the runner and applies it, then the ones other threads (or its own observers' handlers) queued
/// meanwhile, in the order they were queued, and sends each resulting change. So the view's changes
/// go out in the order the view applied them, and only one thread at a time applies them: the
/// predicate runs on the runner's thread, outside every lock.
///
/// Every field is guarded by `_lock`, a leaf: nothing else is locked while it is held, and no user
/// code runs under it. What it replaces (the bits, a parameter, the elements of a seeding) leaves
/// the lock in locals and is released after unlocking; an element the contents drop under it is
/// still held by the array's change being applied.
final class _ParameterFilterState<Element: Sendable, Parameter: Sendable>:
    _DrainedViewState, @unchecked Sendable
{  // guarded by `_lock`
    typealias Event = _ParameterFilterEvent<Element, Parameter>

    /// What applying one message leads to.
    enum _Step {
        /// The message is from an observation that is over: drop it.
        case stale
        /// The array's contents arrived; filter them with `parameter` if it is known.
        case seedContents(parameter: Parameter?)
        /// The array changed before the parameter is known: only the contents follow it.
        case followContents
        /// The array changed: filter its inserted elements with `parameter`, then apply it.
        case filterChange(parameter: Parameter)
        /// The parameter changed: filter every element of `contents` with it.
        case refilter(contents: [Element]?)
    }

    let _lock = _Lock()
    let _core: _MessengerCore<ArrayChange<Element>>
    let _code: _ParameterFilterCode<Element, Parameter>
    @exclusivity(unchecked) var _drain = _SerialDrain<Event>(budget: 64)
    /// The array's contents as of the last change the view applied; `nil` until its replay arrives.
    @exclusivity(unchecked) var _contents: [Element]?
    /// The parameter the bits were filtered with; `nil` until its replay arrives.
    @exclusivity(unchecked) var _parameter: Parameter?
    /// One bit per element of `_contents`, set where it is included; `nil` until both are known.
    @exclusivity(unchecked) var _bits: _CountedBits?
    /// The generations of the current observations of the array and of the parameter; 0: none.
    @exclusivity(unchecked) var _arrayGeneration: UInt64 = 0
    @exclusivity(unchecked) var _parameterGeneration: UInt64 = 0
    @exclusivity(unchecked) var _lastGeneration: UInt64 = 0

    init(core: _MessengerCore<ArrayChange<Element>>, code: _ParameterFilterCode<Element, Parameter>) {
        _core = core
        _code = code
    }

    /// The number of included elements while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(1).
    var currentCount: Int? {
        _lock.withLock { _bits?.onesCount }
    }

    /// The included elements while observed and seeded; `nil` otherwise.
    ///
    /// - Complexity: O(*n*) for *n* elements of the array, under the lock (no user code).
    var currentContents: [Element]? {
        _lock.withLock { () -> [Element]? in
            guard let bits = _bits, let contents = _contents else { return nil }
            var included: [Element] = []
            included.reserveCapacity(bits.onesCount)
            for (element, bit) in zip(contents, bits._bits) where bit { included.append(element) }
            return included
        }
    }

    /// Queues a message and, if no other thread is applying messages, applies it and every
    /// message queued meanwhile, sending the view's changes. Call without any lock.
    func submit(_ kind: Event.Kind, claimed: _FilterGeneration, author: AnyObject, isolation: (any Actor)?) {
        // A queued message may wait for another thread; an author sending from its `deinit`
        // cannot wait with it.
        let event = Event(kind: kind, claimed: claimed, author: _authorToKeep(author, standIn: nil) ?? _noAuthor)
        _submit(event, isolation: isolation)
    }

    static var _handOffLabel: String { "Messaging.ParameterFilteredArrayView" }

    func _withDrain<Result>(_ body: (inout _SerialDrain<Event>) -> Result) -> Result {
        _lock.withLock { body(&_drain) }
    }

    /// Applies one message and sends the view's change, if any. Only the drain's runner calls it.
    func _apply(_ event: Event, isolation: (any Actor)?) {
        guard let change = _viewChange(for: event), !change.isEmpty else { return }
        _core.send(change, author: event.author, checksChange: false, isolation: isolation)
    }

    /// The view's change for one message, after applying it to the state.
    func _viewChange(for event: Event) -> ArrayChange<Element>? {
        switch event.kind {
        case .array(let change):
            switch _lock.withLock({ _arrayStep(event.claimed) }) {
            case .stale, .refilter:
                return nil
            case .seedContents(let parameter):
                _seed(change._new, parameter: parameter, claimed: event.claimed)
                return nil
            case .followContents:
                _lock.withLock {
                    guard event.claimed._value == _arrayGeneration, _contents != nil else { return }
                    change.apply(to: &_contents!)
                }
                return nil
            case .filterChange(let parameter):
                let included = _code.filter(change._new, parameter)
                let plan = _lock.withLock { () -> _FilterPlan? in
                    // Only the runner changes the state, so nothing moved since `_arrayStep`.
                    guard let bits = _bits, _contents != nil else { return nil }
                    let plan = _FilterState<Element>._apply(change, included: included, to: bits)
                    _code.apply(change, &_contents!)
                    return plan
                }
                return plan.map { _code.viewChange(change, included, $0) }
            }
        case .parameter(let parameter):
            guard case .refilter(let contents) = _lock.withLock({ _parameterStep(event.claimed) }) else {
                return nil
            }
            guard let contents else {
                let replaced = _lock.withLock { () -> Parameter? in
                    guard event.claimed._value == _parameterGeneration else { return nil }
                    defer { _parameter = parameter }
                    return _parameter
                }
                withExtendedLifetime(replaced) {}  // released here, outside the lock
                return nil
            }
            let included = _code.filter(contents, parameter)
            var replaced: (Parameter?, _CountedBits?) = (nil, nil)
            let change = _lock.withLock { () -> ArrayChange<Element>? in
                guard event.claimed._value == _parameterGeneration else { return nil }
                replaced.0 = _parameter
                _parameter = parameter
                let bits = _CountedBits(included)
                replaced.1 = _bits
                _bits = bits
                guard let old = replaced.1 else { return nil }
                return _code.refilterChange(contents, old._bits, included, old.onesCount)
            }
            withExtendedLifetime(replaced) {}  // released here, outside the lock
            return change
        }
    }

    /// What a message of the array's observation leads to; claims a generation with its first
    /// message. Call under the lock.
    func _arrayStep(_ claimed: _FilterGeneration) -> _Step {
        if claimed._value == 0 {
            _lastGeneration &+= 1
            claimed._value = _lastGeneration
            _arrayGeneration = _lastGeneration
            return .seedContents(parameter: _parameter)
        }
        guard claimed._value == _arrayGeneration, _contents != nil else { return .stale }
        guard _bits != nil, let parameter = _parameter else { return .followContents }
        return .filterChange(parameter: parameter)
    }

    /// What a message of the parameter's observation leads to; claims a generation with its
    /// first message. Call under the lock.
    func _parameterStep(_ claimed: _FilterGeneration) -> _Step {
        if claimed._value == 0 {
            _lastGeneration &+= 1
            claimed._value = _lastGeneration
            _parameterGeneration = _lastGeneration
        }
        guard claimed._value == _parameterGeneration else { return .stale }
        return .refilter(contents: _contents)
    }

    /// Installs the contents the array's observation started with, and their bits if the
    /// parameter is known (only the runner changes the parameter, so it is still the one given).
    /// Sends nothing: a view that starts following its sources has nothing to report against.
    func _seed(_ contents: [Element], parameter: Parameter?, claimed: _FilterGeneration) {
        let bits = parameter.map { parameter in _CountedBits(_code.filter(contents, parameter)) }
        var replaced: ([Element]?, _CountedBits?) = (nil, nil)
        _lock.withLock {
            guard claimed._value == _arrayGeneration else { return }
            replaced = (_contents, _bits)
            _contents = contents
            _bits = bits
        }
        withExtendedLifetime(replaced) {}  // released here, outside the lock
    }

    /// Forgets the contents, the parameter and the bits once the view is no longer observed, and
    /// makes the observations that follow them obsolete.
    ///
    /// `isUnobserved` takes the view's messenger lock, which is never held while this lock is
    /// taken.
    func forgetIfUnobserved(_ isUnobserved: () -> Bool) {
        let forgotten: ([Element]?, Parameter?, _CountedBits?) = _lock.withLock {
            guard isUnobserved() else { return (nil, nil, nil) }
            _arrayGeneration = 0
            _parameterGeneration = 0
            defer {
                _contents = nil
                _parameter = nil
                _bits = nil
            }
            return (_contents, _parameter, _bits)
        }
        withExtendedLifetime(forgotten) {}  // released here, outside the lock
    }
}

extension ArrayChange {
    /// The view's change when the inclusion of `contents` goes from `old` to `new`: each run of
    /// elements that leave or join the view, between two that stay, is one modification at its
    /// offset in the view before the change.
    ///
    /// - Complexity: O(*n*) for *n* elements of the array.
    @inlinable
    static func _refiltering(
        _ contents: [Element], from old: [Bool], to new: [Bool], countBefore: Int
    ) -> ArrayChange<Element> {
        var change = ArrayChange<Element>(countBefore: countBefore)
        var rank = 0
        var spanOffset: Int?
        for index in contents.indices {
            switch (old[index], new[index]) {
            case (true, true):
                if let offset = spanOffset.take() { change._closeSpan(at: offset) }
                rank += 1
            case (true, false):
                if spanOffset == nil { spanOffset = rank }
                change._old.append(contents[index])
                rank += 1
            case (false, true):
                if spanOffset == nil { spanOffset = rank }
                change._new.append(contents[index])
            case (false, false):
                break
            }
        }
        if let offset = spanOffset { change._closeSpan(at: offset) }
        return change
    }
}
