// Work that fulfils promises when a test says so, and the functions of SwiftObserver's Promise
// examples (`getID()`, `getInt()`, `getString(takeInt:)`, `getString()`) built on it.

import Foundation
import Messaging

/// A stand-in for an asynchronous API: it keeps completion handlers until the test completes them,
/// as a network library keeps them until the response arrives.
final class PendingWork: @unchecked Sendable {  // `_completions` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _completions: [@Sendable () -> Void] = []

    /// Keeps `completion` until ``completeAll()``.
    func start(_ completion: @escaping @Sendable () -> Void) {
        _lock.withLock { _completions.append(completion) }
    }

    /// The number of completion handlers waiting.
    var count: Int { _lock.withLock { _completions.count } }

    /// Calls the waiting completion handlers, in the order they were started, and releases them.
    func completeAll() {
        let completions = _lock.withLock {
            defer { _completions = [] }
            return _completions
        }
        for completion in completions { completion() }
    }

    /// Releases the waiting completion handlers without calling them: the work was abandoned.
    func abandonAll() {
        let completions = _lock.withLock {
            defer { _completions = [] }
            return _completions
        }
        withExtendedLifetime(completions) {}
    }
}

/// SwiftObserver's examples' asynchronous functions, each promising a value that `work` delivers.
struct ExampleAPI: Sendable {
    let work = PendingWork()

    /// A callback-based API, as in `getIDAsync { id in ... }`.
    func getIDAsync(_ completion: @escaping @Sendable (Int) -> Void) {
        work.start { completion(42) }
    }

    func getID() -> Promise<Int> {  // getID() promises an Int
        Promise { promise in  // convenience initializer
            getIDAsync { id in  // handler retains the promise until it's fulfilled
                promise.fulfill(id)  // sends the id to the promise's observers
            }
        }
    }

    func getInt() -> Promise<Int> {
        Promise { promise in work.start { promise.fulfill(7) } }
    }

    func getString(takeInt int: Int) -> Promise<String> {
        Promise { promise in work.start { promise.fulfill("string \(int)") } }
    }

    func getString() -> Promise<String> {
        Promise { promise in work.start { promise.fulfill("a string") } }
    }
}
