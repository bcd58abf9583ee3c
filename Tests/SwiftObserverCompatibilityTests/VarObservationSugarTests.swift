#if canImport(Observation)
import Messaging
import Observation
import SwiftObserverCompatibility
import Testing

/// Records what the variable held each time a tracking scope's `onChange` ran.
private final class ChangeLog<Value: Sendable>: Sendable {
    let seen = Locked([Value]())
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

@Suite("The compatibility layer's ways of changing a Var, seen through Observation")
struct VarObservationSugarTests {
    @Test(
        "every operator that changes a number Var tells the scope",
        arguments: ["<-", "+=", "-=", "*=", "/=", "int =", "double ="]
    )
    func everyNumberChangeIsTracked(_ way: String) {
        let number = Var(way == "/=" ? 48 : 12)
        let log = ChangeLog<Int>()
        track(number, into: log)
        switch way {
        case "<-": number <- 24
        case "+=": number += 12
        case "-=": number -= -12
        case "*=": number *= 2
        case "/=": number /= 2
        case "int =": number.int = 24
        default: number.double = 24
        }
        #expect(log.seen.value == [24])
    }

    @Test("every way of appending to or setting a string Var tells the scope", arguments: ["+=", "write", "string ="])
    func everyStringChangeIsTracked(_ way: String) {
        let text = Var("ab")
        let log = ChangeLog<String>()
        track(text, into: log)
        switch way {
        case "+=": text += "c"
        case "write": text.write("c")
        default: text.string = "abc"
        }
        #expect(log.seen.value == ["abc"])
    }
}
#endif
