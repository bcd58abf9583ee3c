import Messaging
import SwiftObserverCompatibility
import Testing

@Suite("The <- operator: it sets a variable's value as value = does")
struct VariableAssignmentOperatorTests {
    @Test func arrowOperatorSetsTheValueLikeAssignment() {
        let number = Var(23)
        let recorder = VariableRecorder(number)
        number <- 42
        number <- 42
        #expect(number.value == 42)
        #expect(recorder.updates == [Update(23, 42)])
        #expect(recorder.authors.count == 1)
        #expect(recorder.authors.first === number)
    }
}
