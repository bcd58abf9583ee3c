import Messaging
import SwiftObserverCompatibility
import Testing

@Suite("Comparing variables: equal and ordered by their values")
struct VariableComparisonTests {
    @Test func variablesAreEqualWhenTheirValuesAre() {
        #expect(Var(1) == Var(1))
        #expect(Var(1) != Var(2))
        #expect(Var<String?>() == Var<String?>(nil))
        #expect(Var<String?>() != Var<String?>(""))
        let number = Var(5)
        let other = Var(6)
        #expect(number != other)
        other.value = 5
        #expect(number == other)
    }

    @Test func variablesCompareByValue() {
        #expect(Var(1) < Var(2))
        #expect(!(Var(2) < Var(1)))
        #expect(!(Var(2) < Var(2)))
        #expect(Var("b") > Var("a"))
        #expect(Var(3) >= Var(3))
        let sorted = [Var(3), Var(1), Var(2)].sorted().map(\.value)
        #expect(sorted == [1, 2, 3])
    }
}
