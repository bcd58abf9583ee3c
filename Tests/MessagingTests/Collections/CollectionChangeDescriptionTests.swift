import Messaging
import Testing

@Suite("Collection changes: descriptions")
struct CollectionChangeDescriptionTests {
    @Test func anArrayChangeShowsItsCountsAndModifications() {
        #expect(
            ArrayChange(inserting: "x", at: 2, into: ["a", "b"]).description
                == #"2 -> 3 elements: [insert("x", at: 2)]"#)
        #expect(
            ArrayChange(movingFrom: 0, to: 1, in: ["a", "b"]).description
                == #"2 -> 2 elements: [remove("a", at: 0), insert("a", at: 2)]"#)
    }

    @Test func aSetChangeShowsItsRemovedAndInsertedMembers() {
        #expect(SetChange(removed: ["a"], inserted: ["c"]).description == #"removed ["a"], inserted ["c"]"#)
    }

    @Test func aDictionaryChangeShowsItsEntries() {
        #expect(
            DictionaryChange(removed: ["a": 1], updated: ["b": Update(2, 3)]).description
                == #"removed ["a": 1], inserted [:], updated ["b": 2 -> 3]"#)
    }
}
