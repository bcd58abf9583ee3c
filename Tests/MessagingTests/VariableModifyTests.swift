import Messaging
import Testing

/// An error that a `modify` body throws.
struct VariableModifyError: Error, Equatable {}

@Suite("Atomic changes: modify and the compound operators send one update per change")
struct VariableModifyTests {
    // MARK: modify

    @Test func modifySendsOneUpdateAuthoredByTheVariable() {
        let number = Var(1)
        let recorder = VariableRecorder(number)
        number.modify { $0 += 1 }
        number.modify { value in
            value *= 10
            value += 1
        }
        #expect(number.value == 21)
        #expect(recorder.updates == [Update(1, 2), Update(2, 21)])
        #expect(recorder.authors.count == 2)
        #expect(recorder.authors.allSatisfy { $0 === number })
    }

    @Test func modifyThatLeavesTheValueEqualSendsNothing() {
        let text = Var("a")
        let recorder = VariableRecorder(text)
        text.modify { _ in }
        text.modify { value in
            value += "b"
            value.removeLast()
        }
        #expect(text.value == "a")
        #expect(recorder.updates.isEmpty)
    }

    @Test func modifyThatThrowsChangesNothingSendsNothingAndRethrows() {
        let number = Var(1)
        let recorder = VariableRecorder(number)
        #expect(throws: VariableModifyError()) {
            try number.modify { value in
                value = 99
                throw VariableModifyError()
            }
        }
        #expect(number.value == 1)
        #expect(recorder.updates.isEmpty)
        number.modify { $0 += 1 }
        #expect(recorder.updates == [Update(1, 2)])
    }

    @Test func modifyReturnsTheResultOfItsBody() {
        let list = Var([1, 2, 3])
        let recorder = VariableRecorder(list)
        let removed = list.modify { $0.removeFirst() }
        let count: Int = list.modify { $0.count }
        #expect(removed == 1)
        #expect(count == 2)
        #expect(list.value == [2, 3])
        #expect(recorder.updates == [Update([1, 2, 3], [2, 3])])
    }

    @Test @MainActor func modifyRunsHandlersOfTheCallersActorBeforeItReturns() {
        let number = Var(0)
        var received: [Update<Int>] = []
        let token = MainActorToken()
        token.observe(number) { update in received.append(update) }
        number.modify { $0 = 5 }
        #expect(received == [Update(0, 5)])
        withExtendedLifetime(token) {}
    }

    // MARK: Compound Operators

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
