// Real threads for the concurrency tests, and polling for what they leave running.

import Dispatch
import Foundation

/// Runs `body(index)` on `count` new threads, released together, and waits for them.
///
/// - Returns: `true` if every thread finished within `timeout` seconds; `false` means a deadlock
///   (or a far too slow test). The default leaves room for a machine that runs the whole suite in
///   parallel with other work: a flood that takes 0.1 s alone has taken more than 20 s there.
@discardableResult
public func runOnThreads(_ count: Int, timeout: Double = 120, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
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
        thread.stackSize = 1 << 20
        thread.start()
    }
    started.wait()
    for _ in 0..<count {
        gate.signal()
    }
    return finished.wait(timeout: .now() + timeout) == .success
}

/// Polls `condition` on the calling thread until it holds: for what a runner of the library's
/// finishes after every sender returned, or what is delivered through messengers a test cannot
/// name (an operator's own messenger behind `some ObservableSource`).
///
/// - Returns: Whether the condition held within `timeout` seconds.
public func waitUntil(timeout: Double = 180, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + timeout
    while !condition() {
        if DispatchTime.now() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}
