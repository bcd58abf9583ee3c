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
        let source: any ObservableSource & Sendable
        let watcher: Spy

        init(source: any ObservableSource & Sendable, watcher: Spy) {
            self.source = source
            self.watcher = watcher
        }

        deinit {
            _ = watcher.isObserving(source)
            _ = source.observers.count
        }
    }

    /// A source whose `uuid` getter, which the library reads while recording a relationship, asks
    /// the library about its observer, and may drop the last reference to an object whose `deinit`
    /// does the same: user code that must not run under the receiver's lock.
    final class IntrospectiveSource: ObservableSource, Sendable {
        let messenger = Messenger<Int>()
        let watcher: Spy
        let held: Locked<Listener?>
        let id = UUID()

        init(watcher: Spy, holding listener: Listener?) {
            self.watcher = watcher
            held = Locked(listener)
        }

        var uuid: UUID {
            _ = watcher.isObserving(self)
            // Drops the last reference to the listener, whose `deinit` calls back too.
            held.withLock { $0 = nil }
            return id
        }
    }

    /// Repeats `body` until `duration` has passed.
    static func repeatFor(_ duration: Duration, _ body: () -> Void) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: duration)
        while clock.now < deadline { body() }
    }

    @Test("a source's uuid getter that calls back into the library does not deadlock observe or stop")
    func getterCallsBack() {
        let watcher = Spy("watcher")
        let finished = runOnThreads(1) { _ in
            let source = IntrospectiveSource(watcher: watcher, holding: nil)
            watcher.observe(source) { _ in }
            watcher.stopObserving(source)
        }
        #expect(finished, "deadlock: a user-implemented getter under the receiver's lock")
    }

    @Test("a deinit that a relationship change triggers, and that calls back into the library, does not deadlock")
    func deinitTriggeredByAChangeCallsBack() {
        let watcher = Spy("watcher")
        let other = IntrospectiveSource(watcher: watcher, holding: nil)
        let finished = runOnThreads(1) { _ in
            let source = IntrospectiveSource(watcher: watcher, holding: Listener(source: other, watcher: watcher))
            watcher.observe(source) { _ in }
        }
        #expect(finished, "deadlock: a deinit under the receiver's lock")
    }

    @Test("stopObserving in a loop while other threads have the observer observe sources that they drop")
    func stoppingWhileSourcesDie() {
        let watcher = Spy("watcher")
        let finished = runOnThreads(4) { index in
            if index == 0 {
                Self.repeatFor(.milliseconds(700)) { watcher.stopObserving() }
            } else {
                // Each thread keeps a few sources alive and replaces one at a time, so that sources
                // die while the stopping thread walks the observer's table.
                var sources = (0..<32).map { _ in Source() }
                var next = 0
                Self.repeatFor(.milliseconds(700)) {
                    let source = Source()
                    watcher.observe(source) { _ in }
                    source.send(1)
                    sources[next] = source
                    next = (next + 1) % sources.count
                }
            }
        }
        #expect(finished, "deadlock: stopObserving and a dying source")
    }

    @Test("a plain subscriber released on another thread while an observer observes and stops")
    func subscriberReleasedWhileObserving() {
        let source = Source()
        let watcher = Spy("watcher")
        let finished = runOnThreads(2) { index in
            if index == 0 {
                Self.repeatFor(.milliseconds(700)) {
                    watcher.observe(source) { _ in }
                    watcher.stopObserving(source)
                }
            } else {
                // Listeners live a while and die one at a time, so that some die while a sweep of
                // the source's ledger holds them.
                var listeners = (0..<64).map { _ in Listener(source: source, watcher: watcher) }
                var next = 0
                Self.repeatFor(.milliseconds(700)) {
                    let listener = Listener(source: source, watcher: watcher)
                    source.subscribe(listener)
                    listeners[next] = listener
                    next = (next + 1) % listeners.count
                }
            }
        }
        #expect(finished, "deadlock: a subscriber's deinit under the receiver's lock")
        withExtendedLifetime(source) {}
    }
}
