import Foundation
import Messaging
import Testing

/// Two deadlocks that threaded use found: in both, an object's `deinit` ran under a receiver's lock
/// and called back into the library, which took the same lock. No `deinit` may run under any lock
/// of the library; these tests race the two scenarios for a while and fail on a hang.
@Suite("Deadlocks: no deinit runs under a receiver's lock")
struct DeadlockRegressionTests {
    /// A custom observable source, made and dropped in a loop.
    final class Source: ObservableSource, Sendable {
        let messenger = Messenger<Int>()
    }

    /// A plain subscriber whose `deinit` asks the library something about `watcher`.
    final class Listener: GeneralSubscriber, Sendable {
        let uuid = UUID()
        let source: Source
        let watcher: Spy

        init(source: Source, watcher: Spy) {
            self.source = source
            self.watcher = watcher
        }

        deinit {
            _ = watcher.isObserving(source)
            _ = source.observers.count
        }
    }

    /// Repeats `body` until `duration` has passed.
    static func repeatFor(_ duration: Duration, _ body: () -> Void) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: duration)
        while clock.now < deadline { body() }
    }

    @Test("stopObserving in a loop while another thread has the observer observe sources that it drops")
    func stoppingWhileSourcesDie() {
        let watcher = Spy("watcher")
        let finished = runOnThreads(2, timeout: 30) { index in
            if index == 0 {
                Self.repeatFor(.seconds(1)) { watcher.stopObserving() }
            } else {
                Self.repeatFor(.seconds(1)) {
                    let source = Source()
                    watcher.observe(source) { _ in }
                    source.send(1)
                }
            }
        }
        #expect(finished, "deadlock: stopObserving and a dying source")
    }

    @Test("a plain subscriber released on another thread while an observer observes and stops")
    func subscriberReleasedWhileObserving() {
        let source = Source()
        let watcher = Spy("watcher")
        let finished = runOnThreads(2, timeout: 30) { index in
            if index == 0 {
                Self.repeatFor(.seconds(1)) {
                    watcher.observe(source) { _ in }
                    watcher.stopObserving(source)
                }
            } else {
                Self.repeatFor(.seconds(1)) {
                    for _ in 0..<16 {
                        let listener = Listener(source: source, watcher: watcher)
                        source.subscribe(listener)
                    }
                }
            }
        }
        #expect(finished, "deadlock: a subscriber's deinit under the receiver's lock")
        withExtendedLifetime(source) {}
    }
}
