// expected-error: cannot find operator '<-' in scope
//
// Rejected: `import Messaging` alone declares no `<-`. An operator declaration is global, so it
// lives in the opt-in SwiftObserverCompatibility module, where it cannot clash with another
// library's `<-` in files that do not ask for it.
// Write it right: `number.value = 42`, or add `import SwiftObserverCompatibility`.
import Messaging

func reset(_ number: Var<Int>) {
    number <- 42
}
