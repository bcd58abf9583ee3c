import Messaging
import Testing

/// An object to name as the author of a change.
final class VariableAuthor: Sendable {}

@Suite("Variables: updates on change, authors and parameterless initializers")
struct VariableTests {
    // MARK: Updates

    @Test func settingADifferentValueSendsOldAndNew() {
        let number = Var(1)
        let recorder = VariableRecorder(number)
        number.value = 2
        number.value = 3
        #expect(number.value == 3)
        #expect(recorder.updates == [Update(1, 2), Update(2, 3)])
    }

    @Test func settingAnEqualValueSendsNothing() {
        let text = Var<String?>("a")
        let recorder = VariableRecorder(text)
        text.value = "a"
        text.value = nil
        text.value = nil
        text.set("b", as: VariableAuthor())
        text.set("b", as: VariableAuthor())
        #expect(text.value == "b")
        #expect(recorder.updates == [Update("a", nil), Update(nil, "b")])
    }

    @Test func sendResendsTheCurrentValueAsOldAndNew() {
        let number = Var(7)
        let recorder = VariableRecorder(number)
        number.send()
        number.value = 8
        number.send()
        #expect(recorder.updates == [Update(7, 7), Update(7, 8), Update(8, 8)])
        #expect(recorder.authors.allSatisfy { $0 === number })
    }

    @Test func creatingAVariableSendsNothingAndObservingStartsWithTheNextChange() {
        let number = Var(1)
        number.value = 2
        let recorder = VariableRecorder(number)
        #expect(recorder.updates.isEmpty)
        number.value = 3
        #expect(recorder.updates == [Update(2, 3)])
    }

    @Test func aChangeMadeByAHandlerIsDeliveredAfterTheCurrentUpdateInOrder() {
        let number = Var(0)
        let clamp = FreeObserver()
        clamp.observe(number) { update in
            if update.new > 10 { number.value = 10 }
        }
        let recorder = VariableRecorder(number)
        number.value = 15
        #expect(number.value == 10)
        #expect(recorder.updates == [Update(0, 15), Update(15, 10)])
    }

    // MARK: Authors

    @Test func assigningTheValueNamesTheVariableAsAuthor() {
        let number = Var(0)
        let recorder = VariableRecorder(number)
        number.value = 1
        #expect(recorder.authors.count == 1)
        #expect(recorder.authors.first === number)
    }

    @Test func setAsDeliversTheGivenAuthor() {
        let number = Var(0)
        let controller = VariableAuthor()
        let recorder = VariableRecorder(number)
        number.set(42, as: controller)
        number.value = 43
        #expect(recorder.updates == [Update(0, 42), Update(42, 43)])
        #expect(recorder.authors.count == 2)
        #expect(recorder.authors.first === controller)
        #expect(recorder.authors.last === number)
    }

    @Test func anObserverCanIgnoreItsOwnChangesByAuthor() {
        let shared = Var("")
        let editor = VariableAuthor()
        let watcher = FreeObserver()
        let othersEdits = EventLog()
        watcher.observe(shared) { update, author in
            guard author !== editor else { return }
            othersEdits.append(update.new)
        }
        shared.set("mine", as: editor)
        shared.value = "theirs"
        #expect(othersEdits.entries == ["theirs"])
    }

    // MARK: Initializers

    @Test func parameterlessInitializerOfAnOptionalHoldsNil() {
        #expect(Var<String?>().value == nil)
        #expect(Var<Int?>().value == nil)
        #expect(Var<Double?>().value == nil)
    }

    @Test func parameterlessInitializerOfACollectionHoldsAnEmptyOne() {
        #expect(Var<String>().value == "")
        #expect(Var<[Int]>().value == [])
    }

    @Test func parameterlessInitializerOfANumberHoldsZero() {
        #expect(Var<Int>().value == 0)
        #expect(Var<Double>().value == 0)
        #expect(Var<Float>().value == 0)
        #expect(Var<UInt8>().value == 0)
    }

    @Test func parameterlessInitializersPickTheRightDefaultByType() {
        let optionalText: Var<String?> = Var()
        let text: Var<String> = Var()
        let number: Var<Int> = Var()
        let optionalNumber: Var<Int?> = Var()
        #expect(optionalText.value == nil)
        #expect(text.value == "")
        #expect(number.value == 0)
        #expect(optionalNumber.value == nil)
    }

}
