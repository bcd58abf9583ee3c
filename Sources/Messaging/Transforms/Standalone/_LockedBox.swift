/// A value behind a ``_Lock``, for the state a standalone transform keeps (`distinct()`'s previous
/// message, `discard(first:)`'s count, a cache's latest message).
///
/// A standalone transform's handler runs once at a time per observation of its origin, but two
/// observations may overlap for a moment while the origin is replaced, so the state is locked.
/// Only values move under the lock: a value that leaves it is returned, so that comparing it
/// (`==`) or releasing it happens after unlocking.
@usableFromInline
final class _LockedBox<Value>: @unchecked Sendable {  // `_value` is guarded by `_lock`
    @usableFromInline let _lock = _Lock()
    /// The lock makes every access exclusive, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) @usableFromInline var _value: Value

    @inlinable
    init(_ value: Value) {
        _value = value
    }

    /// Stores `newValue` and returns the value it replaced.
    @inlinable
    func exchange(_ newValue: Value) -> Value {
        var value = newValue
        _lock.lock()
        swap(&value, &_value)
        _lock.unlock()
        return value
    }

    /// A copy of the value.
    @inlinable
    var value: Value {
        _lock.lock()
        let value = _value
        _lock.unlock()
        return value
    }
}

extension _LockedBox where Value == Int {
    /// Counts down to zero: `true` while the count was above zero (the caller drops a message).
    @inlinable
    func countDown() -> Bool {
        _lock.lock()
        defer { _lock.unlock() }
        guard _value > 0 else { return false }
        _value -= 1
        return true
    }

    /// Adds `amount` to the value.
    @inlinable
    func add(_ amount: Int) {
        _lock.lock()
        _value += amount
        _lock.unlock()
    }
}
