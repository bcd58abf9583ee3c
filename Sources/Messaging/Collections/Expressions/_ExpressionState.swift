/// What a source's link tells an ``ObservableExpression``'s state, whatever the value's type:
/// closures made where the state's type is known, so that they run specialized for it.
@usableFromInline
final class _ExpressionInputs: Sendable {
    /// How many values the source at an index sent.
    @usableFromInline let receivedCount: @Sendable (_ index: Int) -> UInt64
    /// Stores the value of the source at an index (if the count is `nil` or still its count of
    /// values received) and, once every source has a value, computes and reports the result.
    @usableFromInline let receive:
        @Sendable (
            _ value: any Sendable, _ index: Int, _ ifReceivedCountIs: UInt64?, _ author: AnyObject,
            _ isolation: (any Actor)?
        ) -> Void

    @inlinable
    init<Value>(_ state: _ExpressionState<Value>) {
        receivedCount = { index in state.receivedCount(at: index) }
        receive = { value, index, received, author, isolation in
            state.receive(value, at: index, ifReceivedCountIs: received, author: author, isolation: isolation)
        }
    }
}

/// The latest values of an ``ObservableExpression``'s sources, and its last result.
///
/// The values, how many each source sent, and the version that counts them are guarded by
/// `_lock`, a leaf but for the messenger's lock, which ``forgetIfUnobserved(_:)`` takes under it.
/// The last result and its version are guarded by the lock of the expression's messenger, so that
/// storing a result and ordering its update are one step; no user code runs under either.
@usableFromInline
final class _ExpressionState<Value: Equatable & Sendable>: @unchecked Sendable {
    @usableFromInline let _lock = _Lock()
    @usableFromInline let _core: _MessengerCore<Update<Value>>
    @usableFromInline let evaluate: @Sendable ([any Sendable]) -> Value
    /// Guarded by `_lock`.
    @exclusivity(unchecked) @usableFromInline var _values: [any Sendable]
    @exclusivity(unchecked) @usableFromInline var _hasValue: [Bool]
    @exclusivity(unchecked) @usableFromInline var _received: [UInt64]
    @exclusivity(unchecked) @usableFromInline var _missing: Int
    /// Counts the values stored and the ends of observation; a result carries the version of the
    /// values it was computed from.
    @exclusivity(unchecked) @usableFromInline var _version: UInt64 = 0
    /// Guarded by the messenger's lock: the last result, `nil` until the first result after
    /// observing starts; the version of the values it was computed from.
    @exclusivity(unchecked) @usableFromInline var _reported: Value?
    @exclusivity(unchecked) @usableFromInline var _reportedVersion: UInt64 = 0

    @inlinable
    init(core: _MessengerCore<Update<Value>>, sourceCount: Int, evaluate: @escaping @Sendable ([any Sendable]) -> Value)
    {
        _core = core
        self.evaluate = evaluate
        _values = Array(repeating: _NoValue(), count: sourceCount)
        _hasValue = Array(repeating: false, count: sourceCount)
        _received = Array(repeating: 0, count: sourceCount)
        _missing = sourceCount
    }

    /// The last result while observed, once there is one.
    @inlinable
    var reported: Value? {
        _core.withLock { _reported }
    }

    @inlinable
    func receivedCount(at index: Int) -> UInt64 {
        _lock.withLock { _received[index] }
    }

    @inlinable
    func receive(
        _ value: any Sendable, at index: Int, ifReceivedCountIs received: UInt64?, author: AnyObject,
        isolation: (any Actor)?
    ) {
        var replaced: any Sendable = value
        let snapshot = _lock.withLock { () -> (values: [any Sendable], version: UInt64)? in
            if let received {
                guard _received[index] == received else { return nil }
            } else {
                _received[index] &+= 1
            }
            swap(&replaced, &_values[index])
            if !_hasValue[index] {
                _hasValue[index] = true
                _missing -= 1
            }
            _version &+= 1
            return _missing == 0 ? (_values, _version) : nil
        }
        _ = consume replaced  // released here, outside the lock
        guard let snapshot else { return }
        report(evaluate(snapshot.values), version: snapshot.version, author: author, isolation: isolation)
    }

    /// Stores `new` as the result and sends the update, unless a result of newer values was
    /// stored already; the first result after observing starts is stored without an update.
    @inlinable
    func report(_ new: Value, version: UInt64, author: AnyObject, isolation: (any Actor)?) {
        _core.sendChange(
            author: author, checksChange: true, isolation: isolation, isUnchanged: { $0.old == $0.new },
            {
                guard version > _reportedVersion else {
                    // Older than the result sent: an unchanged update, which is dropped.
                    let reported = _reported ?? new
                    return Update(reported, reported)
                }
                _reportedVersion = version
                let old = _reported ?? new
                _reported = new
                return Update(old, new)
            })
    }

    /// Forgets the values and the result once the expression is no longer observed, so that reads
    /// compute the formula from the sources, and a result computed before is never stored.
    ///
    /// `isUnobserved` takes the messenger's lock, which is never held while this lock is taken.
    @inlinable
    func forgetIfUnobserved(_ isUnobserved: () -> Bool) {
        let count = _values.count
        var forgotten: ([any Sendable], Value?) = ([], nil)
        _lock.withLock {
            guard isUnobserved() else { return }
            _version &+= 1
            let version = _version
            forgotten.0 = _values
            _values = Array(repeating: _NoValue(), count: count)
            _hasValue = Array(repeating: false, count: count)
            _missing = count
            _core.withLock {
                forgotten.1 = _reported.take()
                _reportedVersion = version
            }
        }
        // Released here, outside the locks.
        withExtendedLifetime(forgotten) {}
    }
}

/// The value of a source that has not sent one yet.
@usableFromInline
struct _NoValue: Sendable {
    @inlinable
    init() {}
}
