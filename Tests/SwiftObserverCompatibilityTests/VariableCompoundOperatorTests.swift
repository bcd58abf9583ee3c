import Messaging
import SwiftObserverCompatibility
import Testing

@Suite("Compound operators on variables: one atomic change and one update each")
struct VariableCompoundOperatorTests {
    @Test func numberCompoundOperatorsChangeTheValueAndSendOneUpdateEach() {
        let count = Var(10)
        let recorder = VariableRecorder(count)
        count += 5
        count -= 3
        count *= 2
        count /= 5
        count += 0
        #expect(count.value == 4)
        #expect(recorder.updates == [Update(10, 15), Update(15, 12), Update(12, 24), Update(24, 4)])
        #expect(recorder.authors.allSatisfy { $0 === count })
    }

    @Test func floatingPointCompoundOperatorsFollowTheNumberType() {
        let ratio = Var<Float>(1)
        ratio += 0.5
        ratio *= 4
        ratio -= 1
        ratio /= 2
        #expect(ratio.value == 2.5)
        let double = Var(1.0)
        double /= 0
        #expect(double.value == .infinity)
    }

    @Test func integerCompoundDivisionRoundsTowardZero() {
        let number = Var(-7)
        number /= 2
        #expect(number.value == -3)
    }

    @Test func stringCompoundAppendSendsOneUpdateAndReadsNilAsEmpty() {
        let text = Var("a")
        let textRecorder = VariableRecorder(text)
        text += "b"
        text += ""
        #expect(text.value == "ab")
        #expect(textRecorder.updates == [Update("a", "ab")])
        let optional = Var<String?>()
        let optionalRecorder = VariableRecorder(optional)
        optional += "x"
        #expect(optional.value == "x")
        #expect(optionalRecorder.updates == [Update(nil, "x")])
    }
}
