#if canImport(Observation)
import Foundation
import Messaging
import Observation
import Testing

/// Counts `onChange` calls and records what the variable held when each ran.
private final class ChangeLog<Value: Sendable>: Sendable {
    let seen = Locked([Value]())

    var count: Int { seen.value.count }
}

/// Tracks `variable` once, as a SwiftUI body would, and records in `log` what `onChange` sees.
///
/// `onChange` holds the variable weakly: the variable's registrar keeps a scope that never fires,
/// and a strong capture would keep the variable alive with it.
private func track<Value: Equatable & Sendable>(_ variable: Var<Value>, into log: ChangeLog<Value>) {
    _ = withObservationTracking {
        variable.value
    } onChange: { [weak variable] in
        guard let variable else { return }
        log.seen.withLock { $0.append(variable.value) }
    }
}

@Suite("Var seen through Observation")
struct VarObservationTests {
    @Test("a Var read inside withObservationTracking is tracked, once per scope")
    func readIsTracked() {
        let number = Var(1)
        let log = ChangeLog<Int>()
        track(number, into: log)

        number.value = 2
        number.value = 3  // the scope already fired: Observation tracks once per scope

        #expect(log.seen.value == [2])
        track(number, into: log)
        number.value = 4
        #expect(log.seen.value == [2, 4])
    }

    @Test("onChange runs after the new value is stored, so it reads the new value")
    func onChangeSeesTheNewValue() {
        let text = Var("old")
        let log = ChangeLog<String>()
        track(text, into: log)
        text.value = "new"
        #expect(log.seen.value == ["new"])
    }

    @Test("a Var that the scope does not read is not tracked")
    func unreadVarIsNotTracked() {
        let read = Var(0)
        let unread = Var(0)
        _ = unread.value  // read outside the scope: still not tracked by it
        let fired = Locked(0)
        _ = withObservationTracking {
            read.value
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        unread.value = 1
        #expect(fired.value == 0)
        read.value = 1
        #expect(fired.value == 1)
    }

    @Test("setting an equal value tells no scope, like it sends no update")
    func equalValueIsNotAChange() {
        let number = Var(5)
        let log = ChangeLog<Int>()
        track(number, into: log)
        number.value = 5
        number.set(5, as: number)
        number.modify { $0 += 0 }
        #expect(log.count == 0)
        number.value = 6
        #expect(log.seen.value == [6])
    }

    @Test("send() re-sends an equal value and tells the scope")
    func sendTellsTheScope() {
        let number = Var(5)
        let log = ChangeLog<Int>()
        track(number, into: log)
        number.send()
        #expect(log.seen.value == [5])
    }

    @Test(
        "every way of changing a Var tells the scope",
        arguments: ["value =", "set(_:as:)", "modify"]
    )
    func everyChangeIsTracked(_ way: String) {
        let number = Var(12)
        let log = ChangeLog<Int>()
        track(number, into: log)
        switch way {
        case "value =": number.value = 24
        case "set(_:as:)": number.set(24, as: number)
        default: number.modify { $0 *= 2 }
        }
        #expect(log.seen.value == [24])
    }

    @Test("a modify that throws changes nothing and tells no scope")
    func throwingModifyIsNotAChange() {
        struct Refused: Error {}
        let number = Var(1)
        let log = ChangeLog<Int>()
        track(number, into: log)
        #expect(throws: Refused.self) {
            try number.modify { value throws(Refused) in
                value = 2
                throw Refused()
            }
        }
        #expect(log.count == 0)
        #expect(number.value == 1)
    }

    @Test("messenger observers and Observation both hear one change, observers first")
    func bothWorldsHearOneChange() {
        let number = Var(0)
        let events = EventLog()
        let observer = FreeObserver()
        observer.observe(number) { events.append("update \($0.new)") }
        _ = withObservationTracking {
            number.value
        } onChange: {
            events.append("onChange")
        }
        number.value = 1
        #expect(events.entries == ["update 1", "onChange"])
        withExtendedLifetime(observer) {}
    }

    @Test("a change made on another thread calls onChange on that thread")
    func changeFromAnotherThread() async {
        let number = Var(0)
        let fired = Locked([Int]())
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = withObservationTracking {
                number.value
            } onChange: {
                fired.withLock { $0.append(number.value) }
                done.resume()
            }
            Thread { number.value = 7 }.start()
        }
        #expect(fired.value == [7])
    }

    @Test("many threads changing and many scopes re-arming: every scope hears a later change")
    func concurrentChangesAndScopes() {
        let number = Var(0)
        let armed = Locked(Set<Int>())
        let fired = Locked(Set<Int>())
        let finished = runOnThreads(8) { index in
            for step in 0..<200 {
                if index.isMultiple(of: 2) {
                    let scope = index * 1_000 + step
                    armed.withLock { _ = $0.insert(scope) }
                    _ = withObservationTracking {
                        number.value
                    } onChange: {
                        fired.withLock { _ = $0.insert(scope) }
                    }
                } else {
                    number.value = index * 1_000 + step + 1
                }
            }
        }
        #expect(finished)
        // One more change after every scope was armed: each scope that had not fired fires now.
        // (Changes racing on several threads may tell one scope more than once, as Observation
        // does for its own models; that is why scopes are counted in a set.)
        number.value = -1
        #expect(armed.value.count == 800)
        #expect(fired.value == armed.value)
    }

    @Test("a Var and its registrar die with their last reference, also after being tracked")
    func trackedVarIsReleased() {
        weak var weakVariable: Var<Int>?
        let fired = Locked(0)
        do {
            let number = Var(0)
            weakVariable = number
            _ = withObservationTracking {
                number.value
            } onChange: {
                fired.withLock { $0 += 1 }
            }
            #expect(weakVariable != nil)
        }
        #expect(weakVariable == nil)
        #expect(fired.value == 0)
    }

    @Test("a Var is Observable and still an ObservableSource")
    func conformances() {
        let number = Var(0)
        #expect((number as AnyObject) is any Observable)
        #expect((number as AnyObject) is any ObservableSource)
    }
}
#endif
