import Foundation
import Messaging
import Testing

/// SwiftObserver's example: a `Codable` type with a variable property.
final class VariableCodableModel: Codable {
    private(set) var text = Var("String Variable")
}

/// A model with several kinds of variables.
struct VariableCodableSettings: Codable {
    var count = Var(0)
    var title = Var<String?>()
    var ratio = Var(0.5)
    var tags = Var<[String]>()
}

@Suite("Codable variables: a variable encodes and decodes as its value alone")
struct VariableCodableTests {
    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test func aVariableEncodesAsItsValueAlone() throws {
        #expect(try json(Var(42)) == "42")
        #expect(try json(Var("a")) == #""a""#)
        #expect(try json(Var<Int?>()) == "null")
        #expect(try json([Var(1), Var(2)]) == "[1,2]")
    }

    @Test func aVariableDecodesFromItsValueAlone() throws {
        #expect(try decode(Var<Int>.self, from: "42").value == 42)
        #expect(try decode(Var<Int?>.self, from: "null").value == nil)
        #expect(try decode([Var<String>].self, from: #"["x","y"]"#).map(\.value) == ["x", "y"])
    }

    @Test func theSeedsModelRoundTrips() throws {
        let model = VariableCodableModel()
        let encoded = try json(model)
        #expect(encoded == #"{"text":"String Variable"}"#)
        let decoded = try decode(VariableCodableModel.self, from: encoded)
        #expect(decoded.text.value == "String Variable")
        let edited = try decode(VariableCodableModel.self, from: #"{"text":"edited"}"#)
        #expect(edited.text.value == "edited")
    }

    @Test func aModelWithSeveralVariablesRoundTrips() throws {
        var settings = VariableCodableSettings()
        settings.count.value = 3
        settings.title.value = "Title"
        settings.tags.value = ["a", "b"]
        let encoded = try json(settings)
        #expect(encoded == #"{"count":3,"ratio":0.5,"tags":["a","b"],"title":"Title"}"#)
        settings = try decode(VariableCodableSettings.self, from: encoded)
        #expect(settings.count.value == 3)
        #expect(settings.title.value == "Title")
        #expect(settings.ratio.value == 0.5)
        #expect(settings.tags.value == ["a", "b"])
    }

    @Test func encodingReadsTheCurrentValueAndSendsNothing() throws {
        let number = Var(1)
        let recorder = VariableRecorder(number)
        number.value = 2
        #expect(try json(number) == "2")
        #expect(recorder.updates == [Update(1, 2)])
    }

    @Test func aDecodedVariableHasNoObserversAndSendsOnlyLaterChanges() throws {
        let decoded = try decode(Var<Int>.self, from: "5")
        #expect(decoded.messenger.observationCount == 0)
        let recorder = VariableRecorder(decoded)
        #expect(recorder.updates.isEmpty)
        decoded.value = 6
        #expect(recorder.updates == [Update(5, 6)])
    }

    @Test func decodingTheWrongTypeThrows() {
        #expect(throws: DecodingError.self) {
            try decode(Var<Int>.self, from: #""text""#)
        }
        #expect(throws: DecodingError.self) {
            try decode(Var<Int>.self, from: "null")
        }
    }
}
