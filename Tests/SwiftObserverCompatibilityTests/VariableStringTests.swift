import Messaging
import SwiftObserverCompatibility
import Testing

@Suite("String variables: the string property, + with nil as empty, and the string protocols")
struct VariableStringTests {
    // MARK: The String Property

    @Test func stringPropertyReadsNilAsEmpty() {
        #expect(Var<String?>().string == "")
        #expect(Var<String?>("a").string == "a")
        #expect(Var("b").string == "b")
        #expect(Var<String>().string == "")
    }

    @Test func settingTheStringPropertySetsTheValueAndSendsAnUpdate() {
        let text = Var<String?>()
        let recorder = VariableRecorder(text)
        text.string = "hi"
        text.string = "hi"
        text.string = ""
        #expect(text.value == "")
        #expect(recorder.updates == [Update(nil, "hi"), Update("hi", "")])
        #expect(recorder.authors.allSatisfy { $0 === text })
    }

    @Test func settingTheEmptyStringOnANilValueWritesTheEmptyString() {
        let text = Var<String?>()
        let recorder = VariableRecorder(text)
        text.string = ""
        #expect(text.value == "")
        #expect(recorder.updates == [Update(nil, "")])
    }

    @Test func optionalVariablesReadANilVariableAsEmpty() {
        let missing: Var<String>? = nil
        let missingOptional: Var<String?>? = nil
        let holdingNil: Var<String?>? = Var()
        #expect(missing.string == "")
        #expect(missingOptional.string == "")
        #expect(holdingNil.string == "")
    }

    @Test func settingTheStringOfAnOptionalVariableSetsItsValueOrDoesNothingWhenNil() {
        let variable = Var("a")
        let recorder = VariableRecorder(variable)
        let optional: Var<String>? = variable
        optional.string = "b"
        let missing: Var<String?>? = nil
        missing.string = "c"
        #expect(variable.value == "b")
        #expect(missing == nil)
        #expect(recorder.updates == [Update("a", "b")])
    }

    // MARK: Concatenation

    @Test func concatenationWorksForEveryPairWithAVariable() {
        let s = "s"
        let o: String? = "o"
        let v = Var("v")
        let vo = Var<String?>("w")
        let ov: Var<String>? = Var("x")
        let ovo: Var<String?>? = Var("y")
        let joined: [String] = [
            s + v, s + vo, s + ov, s + ovo,
            o + v, o + vo, o + ov, o + ovo,
            v + s, v + o, v + v, v + vo, v + ov, v + ovo,
            vo + s, vo + o, vo + v, vo + vo, vo + ov, vo + ovo,
            ov + s, ov + o, ov + v, ov + vo, ov + ov, ov + ovo,
            ovo + s, ovo + o, ovo + v, ovo + vo, ovo + ov, ovo + ovo,
        ]
        #expect(
            joined == [
                "sv", "sw", "sx", "sy",
                "ov", "ow", "ox", "oy",
                "vs", "vo", "vv", "vw", "vx", "vy",
                "ws", "wo", "wv", "ww", "wx", "wy",
                "xs", "xo", "xv", "xw", "xx", "xy",
                "ys", "yo", "yv", "yw", "yx", "yy",
            ]
        )
    }

    @Test func concatenationReadsNilAsEmpty() {
        let o: String? = nil
        let vo = Var<String?>()
        let ov: Var<String>? = nil
        let ovo: Var<String?>? = Var()
        let v = Var("v")
        #expect(v + o == "v")
        #expect(vo + v == "v")
        #expect(ov + v + ovo == "v")
        #expect(o + vo == "")
    }

    @Test func concatenationChainsWithLiteralsAndSetsAVariable() {
        let name = Var<String?>("Ada")
        let greeting = Var<String>()
        let recorder = VariableRecorder(greeting)
        greeting <- "Hello, " + name + "!"
        #expect(greeting.value == "Hello, Ada!")
        #expect(recorder.updates == [Update("", "Hello, Ada!")])
        let plain = "a" + "b" + "c"
        #expect(plain == "abc")
    }

    // MARK: TextOutputStream

    @Test func writeAppendsAndSendsAnUpdate() {
        let log = Var("a")
        let recorder = VariableRecorder(log)
        log.write("b")
        log.write("")
        log.write("c")
        #expect(log.value == "abc")
        #expect(recorder.updates == [Update("a", "ab"), Update("ab", "abc")])
        #expect(recorder.authors.allSatisfy { $0 === log })
    }

    @Test func writeToANilValueStartsFromEmpty() {
        let log = Var<String?>()
        let recorder = VariableRecorder(log)
        log.write("x")
        #expect(log.value == "x")
        #expect(recorder.updates == [Update(nil, "x")])
    }

    @Test func printCanWriteToAStringVariable() {
        var log = Var<String>()
        print("a", "b", separator: "-", terminator: ".", to: &log)
        print(1, to: &log)
        #expect(log.value == "a-b.1\n")
    }

    // MARK: Collection

    @Test func aStringVariableIsABidirectionalCollectionOfItsCharacters() {
        let word = Var("héllo")
        #expect(Array(word) == ["h", "é", "l", "l", "o"])
        #expect(word.count == 5)
        #expect(!word.isEmpty)
        #expect(word.first == "h")
        #expect(word.last == "o")
        #expect(word[word.startIndex] == "h")
        #expect(word[word.index(before: word.endIndex)] == "o")
        #expect(word[word.index(after: word.startIndex)] == "é")
        #expect(String(word.reversed()) == "olléh")
        #expect(word.dropFirst() == "éllo")
        #expect(word.dropLast(2) == "hél")
        #expect(word.contains("l"))
        #expect(word.map { $0.uppercased() }.joined() == "HÉLLO")
    }

    @Test func aNilStringVariableIsAnEmptyCollection() {
        let text = Var<String?>()
        #expect(text.isEmpty)
        #expect(text.count == 0)
        #expect(Array(text) == [])
        #expect(text.first == nil)
        #expect(text.startIndex == text.endIndex)
    }

    @Test func theCollectionFollowsTheCurrentValue() {
        let text = Var<String?>("ab")
        #expect(text.count == 2)
        text.value = "xyz"
        #expect(String(text) == "xyz")
        #expect(text.last == "z")
    }

    @Test func genericCollectionAlgorithmsAcceptStringVariables() {
        func lastTwo<C: BidirectionalCollection>(_ collection: C) -> [C.Element] {
            Array(collection.suffix(2))
        }
        #expect(lastTwo(Var("abc")) == ["b", "c"])
        #expect(lastTwo(Var<String?>("xy")) == ["x", "y"])
    }

    // MARK: Descriptions

    @Test func descriptionIsTheString() {
        let text = Var("hi")
        #expect(text.description == "hi")
        #expect("\(text)" == "hi")
        #expect(String(describing: text) == "hi")
        #expect(Var<String?>().description == "")
        #expect("\(Var<String?>("x"))" == "x")
    }

    @Test func debugDescriptionIsTheQuotedString() {
        #expect(Var("hi").debugDescription == "\"hi\"")
        #expect(String(reflecting: Var("a\"b")) == #""a\"b""#)
        #expect(Var<String?>().debugDescription == "\"\"")
    }
}
