import Messaging
import Testing

/// An error that a `modify` body throws.
struct VariableModifyError: Error, Equatable {}

@Suite("Atomic changes: modify sends one update per change")
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
}
