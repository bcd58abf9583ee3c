// The variable examples of SwiftObserver's README and of the seeds that use its sugar (`<-`,
// comparing variables), compiled as they are written there and checked against what the text
// says they do. The other examples of the README, which need no sugar, are in the Messaging tests
// (SwiftObserverExamplesTests).

import Messaging
import SwiftObserverCompatibility
import Testing

@Suite("SwiftObserver's variable examples, with the compatibility layer")
struct SwiftObserverVariableExamplesTests {
    @Test func theSeedsInitializerExampleHolds() {
        let text = Var<String?>()
        #expect(text.value == nil)
        text.value = "a text"
        #expect(text.value == "a text")
        let number = Var(23)
        #expect(number.value == 23)
        number <- 42
        #expect(number.value == 42)
    }

    @Test("using variable values: the initializer, value and <-")
    func usingVariableValues() {
        let text = Var<String?>()  // text.value == nil
        #expect(text.value == nil)
        text.value = "a text"
        #expect(text.value == "a text")
        let number = Var(23)  // number.value == 23
        #expect(number.value == 23)
        number <- 42  // number.value == 42
        #expect(number.value == 42)
        #expect(Var(1) == Var(1))
        #expect(Var(1) < Var(2))
    }
}
