// State that several threads of a test read and change, guarded by a lock.

import Foundation

/// A value that several threads read and change.
public final class Locked<Value: Sendable>: @unchecked Sendable {  // `_value` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _value: Value

    /// Makes the guarded value.
    public init(_ value: Value) {
        _value = value
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        _lock.withLock { body(&_value) }
    }

    /// A copy of the current value.
    public var value: Value {
        _lock.withLock { _value }
    }
}

/// A thread-safe, append-only list of objects, kept strongly, so that a test can compare their
/// identities (`===`) afterwards.
public final class ObjectLog: @unchecked Sendable {  // `_objects` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _objects: [AnyObject] = []

    /// Makes an empty list.
    public init() {}

    /// Records one object.
    public func append(_ object: AnyObject) {
        _lock.withLock { _objects.append(object) }
    }

    /// Everything recorded so far, in the order it was recorded.
    public var objects: [AnyObject] {
        _lock.withLock { _objects }
    }
}
