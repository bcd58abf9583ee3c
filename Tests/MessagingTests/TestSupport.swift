// Types and helpers shared by the Messaging tests.
//
// Logs record handler calls as "observer:message" strings, so that an expectation states the exact
// sequence of (observer, message) events and a failure prints it readably. Every shared type is
// `Sendable`: the threading tests use them from several threads, and the classes with mutable
// state guard it with an `NSLock`.

import Dispatch
import Foundation
@_exported import MessagingTestSupport
@_exported import SharedTestSupport

@testable import Messaging

// MARK: - Locked state

/// A thread-safe, append-only list of events.
final class EventLog: @unchecked Sendable {  // `_entries` is only touched while holding `_lock`
    private let _lock = NSLock()
    private var _entries: [String] = []

    /// Records one event.
    func append(_ entry: String) {
        _lock.withLock { _entries.append(entry) }
    }

    /// Everything recorded so far, in the order it was recorded.
    var entries: [String] {
        _lock.withLock { _entries }
    }

    /// Returns everything recorded so far and starts a new, empty list.
    func take() -> [String] {
        _lock.withLock {
            defer { _entries = [] }
            return _entries
        }
    }
}

// MARK: - Test types

/// A plain observer with a name.
final class Spy: Observer, Sendable {
    let receiver = Receiver()
    let name: String

    init(_ name: String) {
        self.name = name
    }
}

/// An observable source that does not own its messenger, so that the messenger can outlive it
/// (as it does when someone else keeps the messenger or a read-only view of it).
final class Relay: ObservableSource, Sendable {
    let messenger: Messenger<String>

    init(_ messenger: Messenger<String>) {
        self.messenger = messenger
    }
}

/// An object with no behaviour: handlers capture it so that a weak reference to it tells whether
/// the handler closure was released.
final class Probe: Sendable {}

/// The expected log of `messages` each delivered to every observer in `observers`, in that order:
/// `deliveries(["1", "2"], to: ["a", "b"])` is `["a:1", "b:1", "a:2", "b:2"]`.
func deliveries(_ messages: [String], to observers: [String]) -> [String] {
    messages.flatMap { message in observers.map { "\($0):\(message)" } }
}

// MARK: - FreeObserver.shared

/// Serialises the tests that use process-wide state: `FreeObserver.shared` (one test ends all of its
/// observations) and the SwiftObserver examples' `Sky.shared`.
private let sharedStateLock = NSLock()

/// Runs `body` while no other test uses `FreeObserver.shared` or another shared observable.
///
/// Swift Testing runs tests in parallel; every test that observes through `FreeObserver.shared`
/// (the global `observe(_:_:)`, `observed`, `FreeObserver.shared` itself) runs its body in here.
func withSharedState<Result>(_ body: () throws -> Result) rethrows -> Result {
    try sharedStateLock.withLock(body)
}

// MARK: - Threads

/// Waits until nothing is being delivered on `messengers` and nothing is queued on them: when every
/// sender has returned, a runner may still deliver what a send handed on past its budget of other
/// threads' messages. Messengers whose handlers send to each other are checked until all of them
/// are found idle three times in a row.
///
/// - Returns: Whether that happened within `timeout` seconds.
func waitUntilDelivered<each Message>(_ messengers: repeat Messenger<each Message>, timeout: Double = 180) -> Bool {
    let deadline = DispatchTime.now() + timeout
    var idlePasses = 0
    while idlePasses < 3 {
        var allIdle = true
        for messenger in repeat each messengers {
            if !messenger._core._isIdle { allIdle = false }
        }
        idlePasses = allIdle ? idlePasses + 1 : 0
        if DispatchTime.now() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}

// MARK: - Waiting

/// Polls `condition` on the caller's actor until it holds, yielding and sleeping between polls.
///
/// - Returns: Whether the condition held within `timeout`.
func eventually(
    isolation: isolated (any Actor)? = #isolation,
    timeout: Duration = .seconds(540),
    _ condition: () async -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while await !condition() {
        if clock.now >= deadline { return false }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}

/// The number of steps a model-based test takes: `MESSAGING_MODEL_STEPS` when it is set, for longer
/// or shorter runs, and `standard` otherwise.
func modelSteps(standard: Int) -> Int {
    ProcessInfo.processInfo.environment["MESSAGING_MODEL_STEPS"].flatMap(Int.init) ?? standard
}
