import Messaging
import SwiftObserverCompatibility
import Testing

@Suite("Number variables: int, float and double properties, and + - * / with nil as zero")
struct VariableNumberTests {
    // MARK: SwiftObserver's Example

    @Test func theSeedsNumberExampleHoldsExactly() {
        let numVar = Var<Int?>()
        let recorder = VariableRecorder(numVar)
        #expect(numVar.value == nil)
        #expect(numVar.int == 0)
        numVar.int += 5
        #expect(numVar.value == 5)
        numVar <- Var(1) + 2
        #expect(numVar.value == 3)
        #expect(recorder.updates == [Update(nil, 5), Update(5, 3)])
    }

    // MARK: Number Properties

    @Test func numberPropertiesReadNilAsZero() {
        #expect(Var<Int?>().int == 0)
        #expect(Var<Int?>().float == 0)
        #expect(Var<Int?>().double == 0)
        #expect(Var<Float?>().int == 0)
        #expect(Var<Double?>().double == 0)
    }

    @Test func numberPropertiesConvertLikeSwiftsInitializers() {
        let double = Var(2.75)
        #expect(double.int == 2)
        #expect(double.float == 2.75)
        #expect(double.double == 2.75)
        #expect(Var(-2.75).int == -2)
        let int = Var<Int?>(7)
        #expect(int.int == 7)
        #expect(int.float == 7)
        #expect(int.double == 7)
        let float = Var<Float>(1.5)
        #expect(float.int == 1)
        #expect(float.double == 1.5)
    }

    @Test func settingANumberPropertySetsTheValueAndSendsAnUpdate() {
        let double = Var(0.5)
        let recorder = VariableRecorder(double)
        double.int = 3
        double.float = 1.25
        double.double = 2.5
        #expect(double.value == 2.5)
        #expect(recorder.updates == [Update(0.5, 3), Update(3, 1.25), Update(1.25, 2.5)])
        #expect(recorder.authors.allSatisfy { $0 === double })
    }

    @Test func settingANumberPropertyOnANilValueWritesTheNumber() {
        let float = Var<Float?>()
        let recorder = VariableRecorder(float)
        float.double = 1.5
        #expect(float.value == 1.5)
        #expect(recorder.updates == [Update(nil, 1.5)])
    }

    @Test func settingANumberPropertyToTheSameNumberSendsNothing() {
        let int = Var(3)
        let recorder = VariableRecorder(int)
        int.double = 3.9
        int.int = 3
        int.float = 3
        #expect(int.value == 3)
        #expect(recorder.updates.isEmpty)
    }

    @Test func settingZeroOnANilValueWritesZeroAndSendsAnUpdate() {
        let int = Var<Int?>()
        let recorder = VariableRecorder(int)
        int.int = 0
        #expect(int.value == 0)
        #expect(recorder.updates == [Update(nil, 0)])
    }

    @Test func optionalVariablesReadANilVariableAsZero() {
        let missing: Var<Int>? = nil
        let missingOptional: Var<Double?>? = nil
        #expect(missing.int == 0)
        #expect(missing.float == 0)
        #expect(missing.double == 0)
        #expect(missingOptional.int == 0)
        #expect(missingOptional.double == 0)
        let holdingNil: Var<Int?>? = Var()
        #expect(holdingNil.int == 0)
    }

    @Test func settingANumberPropertyOfANilVariableDoesNothing() {
        let missing: Var<Int>? = nil
        missing.int = 5
        missing.double = 5
        #expect(missing == nil)
        #expect(missing.int == 0)
    }

    @Test func settingANumberPropertyOfAnOptionalVariableSetsItsValue() {
        let variable = Var<Int?>()
        let recorder = VariableRecorder(variable)
        let optional: Var<Int?>? = variable
        optional.int = 4
        optional.double = 6.5
        #expect(variable.value == 6)
        #expect(optional.float == 6)
        #expect(recorder.updates == [Update(nil, 4), Update(4, 6)])
    }

    // MARK: Operators

    @Test func additionWorksForEveryPairWithAVariable() {
        let n = 1
        let o: Int? = 2
        let v = Var(4)
        let vo = Var<Int?>(8)
        let ov: Var<Int>? = Var(16)
        let ovo: Var<Int?>? = Var(32)
        let sums: [Int] = [
            n + v, n + vo, n + ov, n + ovo,
            o + v, o + vo, o + ov, o + ovo,
            v + n, v + o, v + v, v + vo, v + ov, v + ovo,
            vo + n, vo + o, vo + v, vo + vo, vo + ov, vo + ovo,
            ov + n, ov + o, ov + v, ov + vo, ov + ov, ov + ovo,
            ovo + n, ovo + o, ovo + v, ovo + vo, ovo + ov, ovo + ovo,
        ]
        #expect(
            sums == [
                5, 9, 17, 33,
                6, 10, 18, 34,
                5, 6, 8, 12, 20, 36,
                9, 10, 12, 16, 24, 40,
                17, 18, 20, 24, 32, 48,
                33, 34, 36, 40, 48, 64,
            ]
        )
    }

    @Test func nilCountsAsZeroInEveryOperandKind() {
        let o: Int? = nil
        let vo = Var<Int?>()
        let ov: Var<Int>? = nil
        let ovo: Var<Int?>? = nil
        let ovoHoldingNil: Var<Int?>? = Var()
        let five = Var(5)
        #expect(five + o == 5)
        #expect(five + vo == 5)
        #expect(five + ov == 5)
        #expect(five + ovo == 5)
        #expect(five + ovoHoldingNil == 5)
        #expect(o + vo == 0)
        #expect(five - ov == 5)
        #expect(ov - five == -5)
        #expect(five * vo == 0)
        #expect(vo / five == 0)
    }

    @Test func subtractionMultiplicationAndDivisionWorkAcrossOperandKinds() {
        let v = Var(12)
        let vo = Var<Int?>(5)
        let ov: Var<Int>? = Var(3)
        let ovo: Var<Int?>? = Var(2)
        let o: Int? = 4
        #expect(v - 2 == 10)
        #expect(20 - v == 8)
        #expect(v - vo == 7)
        #expect(o - ovo == 2)
        #expect(v * ov == 36)
        #expect(3 * vo == 15)
        #expect(ovo * o == 8)
        #expect(v / 5 == 2)
        #expect(-7 / ovo == -3)
        #expect(v / ov == 4)
        #expect(o / ovo == 2)
    }

    @Test func operatorsKeepTheNumberTypeOfTheOperands() {
        let int = Var(1) + 2
        let float = Var<Float?>(1.5) * 2
        let double = 1 / Var(4.0)
        #expect(type(of: int) == Int.self)
        #expect(type(of: float) == Float.self)
        #expect(type(of: double) == Double.self)
        #expect(int == 3)
        #expect(float == 3)
        #expect(double == 0.25)
    }

    @Test func operatorsFollowSwiftsPrecedence() {
        let a = Var(2)
        let b = Var<Int?>(3)
        let c: Var<Int>? = Var(4)
        let result: Int = a + b * c - 10 / a
        #expect(result == 9)
        let mixed = Var(1.5) * 2 + Var<Double?>(0.25) - 0.5 / Var(2.0)
        #expect(mixed == 3)
    }

    @Test func floatingPointDivisionByZeroOrNilGivesInfinityOrNaN() {
        #expect(Var(1.0) / 0 == .infinity)
        #expect(Var<Double>(-1) / Var<Double?>() == -.infinity)
        #expect((Var<Float?>() / Var<Float>()).isNaN)
        let missing: Var<Double>? = nil
        #expect(Var(3.0) / missing == .infinity)
    }

    @Test func integerDivisionRoundsTowardZero() {
        #expect(Var(7) / 2 == 3)
        #expect(Var(-7) / 2 == -3)
        #expect(Var<Int?>(7) / Var(-2) == -3)
    }

    @Test func integerDivisionByZeroTrapsLikeSwiftsDivision() async {
        await #expect(processExitsWith: .failure) {
            let divisor = Var(0)
            _ = Var(1) / divisor
        }
    }

    @Test func integerDivisionByANilVariableTrapsBecauseNilIsZero() async {
        await #expect(processExitsWith: .failure) {
            let divisor = Var<Int?>()
            _ = 1 / divisor
        }
    }

    @Test func operatorsReadTheCurrentValues() {
        let a = Var(1)
        let b = Var<Int?>()
        #expect(a + b == 1)
        b.value = 10
        a.int = 5
        #expect(a + b == 15)
    }

    @Test func theSumOfVariablesCanSetAnotherVariable() {
        let total = Var<Double?>()
        let recorder = VariableRecorder(total)
        let price = Var(2.5)
        let quantity = Var<Double?>(4)
        total <- price * quantity + 1
        #expect(total.value == 11)
        #expect(recorder.updates == [Update(nil, 11)])
    }

    @Test func plainArithmeticIsUnchanged() {
        let x = 7
        let y = 2
        #expect(x / y == 3)
        #expect(x + y * 3 - 1 == 12)
        let z = 1.5 * 2 + 1
        #expect(z == 4)
        #expect(type(of: z) == Double.self)
    }
}
