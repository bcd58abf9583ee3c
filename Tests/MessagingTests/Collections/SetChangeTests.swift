import Messaging
import Testing

@Suite("SetChange: removed and inserted members")
struct SetChangeTests {
    /// A member whose equality and hash see only its key, so that a replacement can be told from
    /// keeping the member that was there.
    struct Tagged: Hashable, Sendable, CustomStringConvertible {
        let key: String
        let tag: Int

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(key) }
        var description: String { "\(key)\(tag)" }
    }

    /// The members with their tags, so that two sets compare on what equality does not see.
    func tags(_ set: Set<Tagged>) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: set.map { ($0.key, $0.tag) })
    }

    @Test func applyingRemovesThenInserts() {
        let change = SetChange(removed: ["a"], inserted: ["c"])
        #expect(change.applied(to: ["a", "b"]) == ["b", "c"])
        var set: Set = ["a", "b"]
        change.apply(to: &set)
        #expect(set == ["b", "c"])
    }

    @Test func diffingGivesTheMembersOnlyOnEitherSide() {
        let change = SetChange(from: ["a", "b"], to: ["b", "c"])
        #expect(change.removed == ["a"])
        #expect(change.inserted == ["c"])
        #expect(SetChange(from: ["a"], to: ["a"]).isEmpty)
    }

    @Test func insertingAMemberTheSetHasIsNoChange() {
        #expect(SetChange(inserting: "a", into: ["a", "b"]).isEmpty)
        #expect(SetChange(inserting: "c", into: ["a", "b"]) == SetChange(inserted: ["c"]))
    }

    @Test func removingAnAbsentMemberIsNoChange() {
        #expect(SetChange(removing: "c", from: ["a", "b"]).isEmpty)
        #expect(SetChange(removing: "a", from: ["a", "b"]) == SetChange(removed: ["a"]))
    }

    @Test func removingReportsTheSetsOwnMember() {
        let change = SetChange(removing: Tagged(key: "a", tag: 2), from: [Tagged(key: "a", tag: 1)])
        #expect(change.removed.map(\.tag) == [1])
    }

    @Test func updatingWithAnEqualMemberIsAReplacement() {
        let old: Set = [Tagged(key: "a", tag: 1), Tagged(key: "b", tag: 1)]
        let change = SetChange(updatingWith: Tagged(key: "a", tag: 2), in: old)
        #expect(change.removed.map(\.tag) == [1])
        #expect(change.inserted.map(\.tag) == [2])
        #expect(!change.isEmpty)
        #expect(tags(change.applied(to: old)) == ["a": 2, "b": 1])
        #expect(tags(change.reversed().applied(to: change.applied(to: old))) == ["a": 1, "b": 1])
    }

    @Test func updatingWithANewMemberIsAnInsertion() {
        #expect(SetChange(updatingWith: "c", in: ["a"]) == SetChange(inserted: ["c"]))
    }

    @Test func reversedSwapsRemovedAndInserted() {
        let change = SetChange(removed: ["a"], inserted: ["c"])
        #expect(change.reversed() == SetChange(removed: ["c"], inserted: ["a"]))
        #expect(change.reversed().applied(to: ["b", "c"]) == ["a", "b"])
    }

    @Test func insertingThenRemovingTheSameMemberCancelsOut() {
        let merged = SetChange(inserted: ["x"]).merged(with: SetChange(removed: ["x"]))
        #expect(merged.isEmpty)
    }

    @Test func removingThenInsertingTheSameMemberIsAReplacement() {
        let old: Set = [Tagged(key: "a", tag: 1)]
        let merged = SetChange(removed: [Tagged(key: "a", tag: 1)]).merged(
            with: SetChange(inserted: [Tagged(key: "a", tag: 2)]))
        #expect(merged.removed.map(\.tag) == [1])
        #expect(merged.inserted.map(\.tag) == [2])
        #expect(tags(merged.applied(to: old)) == ["a": 2])
    }

    @Test func insertingThenReplacingIsAnInsertionOfTheLastMember() {
        let merged = SetChange(inserted: [Tagged(key: "a", tag: 1)]).merged(
            with: SetChange(removed: [Tagged(key: "a", tag: 1)], inserted: [Tagged(key: "a", tag: 2)]))
        #expect(merged.removed.isEmpty)
        #expect(merged.inserted.map(\.tag) == [2])
    }

    @Test func replacingThenRemovingIsARemovalOfTheFirstMember() {
        let merged = SetChange(removed: [Tagged(key: "a", tag: 1)], inserted: [Tagged(key: "a", tag: 2)]).merged(
            with: SetChange(removed: [Tagged(key: "a", tag: 2)]))
        #expect(merged.removed.map(\.tag) == [1])
        #expect(merged.inserted.isEmpty)
    }

    @Test func mergingKeepsUnrelatedEditsOfBoth() {
        let merged = SetChange(removed: ["a"], inserted: ["b"]).merged(with: SetChange(removed: ["c"], inserted: ["d"]))
        #expect(merged == SetChange(removed: ["a", "c"], inserted: ["b", "d"]))
    }

    @Test func applyingARemovalOfAnAbsentMemberStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = SetChange(removed: ["x"]).applied(to: ["a"])
        }
    }

    @Test func applyingAnInsertionOfAPresentMemberStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = SetChange(inserted: ["a"]).applied(to: ["a"])
        }
    }

    @Test func mergingARemovalOfARemovedMemberStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = SetChange(removed: ["a"]).merged(with: SetChange(removed: ["a"]))
        }
    }
}
