// SwiftObserver's sugar for variables, with the compatibility module imported next to Messaging:
// the programs in MustNotCompile that use `+` and `<-` with `import Messaging` alone compile here.
import Messaging
import SwiftObserverCompatibility

func sum(_ number: Var<Int>) -> Int {
    number + 2
}

func reset(_ number: Var<Int>) {
    number <- 42
}

func sugar() {
    let numVar = Var<Int?>()
    numVar.int += 5
    numVar <- Var(1) + 2
    let count = Var(0)
    count += 1
    count *= 3
    let text = Var<String?>()
    text += "Hello"
    let greeting: String = text + ", " + Var("world")
    var log = Var<String>()
    print(greeting, to: &log)
    let letters = log.filter { $0 == "l" }.count
    let bigger = Var(2) > Var(1) && Var("a") == Var("a")
    print(numVar.int, count.value, text.string, letters, bigger, sum(count))
    reset(count)
}
