// Helpers shared by the tests of the SwiftObserver compatibility layer: the few of the Messaging
// tests' helpers that these tests need. They are copies, not imports, so that this target depends
// on nothing but the two library modules.

import Foundation
import Messaging

/// A value that several threads read and change.
final class Locked<Value: Sendable>: @unchecked Sendable {  // `_value` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _value: Value

    init(_ value: Value) {
        _value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        _lock.withLock { body(&_value) }
    }

    /// A copy of the current value.
    var value: Value {
        _lock.withLock { _value }
    }
}

/// Records every update a variable sends, with its author, in delivery order.
final class VariableRecorder<Value: Equatable & Sendable>: Sendable {
    var updates: [Update<Value>] { _updates.value }
    var authors: [AnyObject] { _authors.objects }
    private let _updates = Locked([Update<Value>]())
    private let _authors = ObjectLog()
    private let token = FreeObserver()

    init(_ variable: Var<Value>) {
        token.observe(variable) { [weak self] update, author in
            self?._updates.withLock { $0.append(update) }
            self?._authors.append(author)
        }
    }
}

/// A thread-safe, append-only list of objects, kept strongly, so that a test can compare their
/// identities (`===`) afterwards.
final class ObjectLog: @unchecked Sendable {  // `_objects` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _objects: [AnyObject] = []

    /// Records one object.
    func append(_ object: AnyObject) {
        _lock.withLock { _objects.append(object) }
    }

    /// Everything recorded so far, in the order it was recorded.
    var objects: [AnyObject] {
        _lock.withLock { _objects }
    }
}

/// Runs `body(index)` on `count` new threads, released together, and waits for them.
///
/// - Returns: `true` if every thread finished within `timeout` seconds; `false` means a deadlock.
func runOnThreads(_ count: Int, timeout: Double = 60, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let started = DispatchGroup()
    let finished = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for index in 0..<count {
        started.enter()
        finished.enter()
        let thread = Thread {
            started.leave()
            gate.wait()
            body(index)
            finished.leave()
        }
        thread.start()
    }
    started.wait()
    for _ in 0..<count { gate.signal() }
    return finished.wait(timeout: .now() + timeout) == .success
}

/// Polls `condition` on the calling thread until it holds, for deliveries that a runner of the
/// library's finishes after every sender returned.
///
/// - Returns: Whether the condition held within `timeout` seconds.
func waitUntil(timeout: Double = 180, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + timeout
    while !condition() {
        if DispatchTime.now() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}
