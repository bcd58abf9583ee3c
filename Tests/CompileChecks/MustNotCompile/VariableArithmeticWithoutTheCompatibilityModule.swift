// expected-error: cannot convert value of type 'Var<Int>' to expected argument type 'Int'
//
// Rejected: `import Messaging` alone declares no arithmetic on variables, so `+` finds only the
// standard library's operators, none of which takes a `Var`. SwiftObserver's sugar (`+ - * /` and
// `+=` on variables, `<-`, `int`, `string`) is in the opt-in SwiftObserverCompatibility module, so
// that files which never use it do not pay for its overloads in type checking.
// Write it right: add `import SwiftObserverCompatibility` (see the must-compile
// SwiftObserverCompatibility.swift), or compute with the value: `number.value + 2`.
import Messaging

func sum(_ number: Var<Int>) -> Int {
    number + 2
}
