import Testing

@testable import Messaging

/// The spare copy's states, step by step, without threads or locks.
@Suite("_SpareCopy: the second copy an edit of a set or dictionary works on")
struct SpareCopyTests {
    typealias Spare = _SpareCopy<SetChange<Int>>

    /// What a `take` hands out.
    struct Taken {
        var state: _SpareState
        var contents: Set<Int>
        var catchUp: SetChange<Int>
    }

    static func take(_ spare: inout Spare, onlyIfBehind: Bool = false) -> Taken {
        var contents: Set<Int> = []
        var catchUp = SetChange<Int>()
        let state = spare.take(into: &contents, catchUp: &catchUp, onlyIfBehind: onlyIfBehind)
        return Taken(state: state, contents: contents, catchUp: catchUp)
    }

    /// Keeps `replaced` as a commit would, and returns what is left to release.
    static func keep(
        _ spare: inout Spare, _ replaced: Set<Int>, behind change: SetChange<Int>, isExact: Bool = true,
        tookSpare: Bool
    ) -> (replaced: Set<Int>, oldContents: Set<Int>, oldChange: SetChange<Int>) {
        var replaced = replaced
        var oldContents: Set<Int> = []
        var oldChange = SetChange<Int>()
        spare.keep(
            &replaced, behind: change, isExact: isExact, tookSpare: tookSpare, releasing: &oldContents, &oldChange)
        return (replaced, oldContents, oldChange)
    }

    @Test func thereIsNoSpareUntilACommitKeepsOne() {
        var spare = Spare()
        #expect(Self.take(&spare).state == .none)

        let left = Self.keep(&spare, [1], behind: SetChange(inserted: [2]), tookSpare: false)
        #expect(left.replaced.isEmpty && left.oldContents.isEmpty && left.oldChange.isEmpty)
        let taken = Self.take(&spare)
        #expect(taken.state == .behind)
        #expect(taken.contents == [1])
        #expect(taken.catchUp == SetChange(inserted: [2]))
        // Taken: no other edit gets it.
        #expect(Self.take(&spare).state == .none)
    }

    @Test func aCommitWhileAnotherEditHasTheSpareKeepsNothing() {
        var spare = Spare()
        _ = Self.keep(&spare, [1], behind: SetChange(inserted: [2]), tookSpare: false)
        _ = Self.take(&spare)

        let left = Self.keep(&spare, [1, 2], behind: SetChange(inserted: [3]), tookSpare: false)
        // Left to release after unlocking; the spare stays taken.
        #expect(left.replaced == [1, 2])
        #expect(Self.take(&spare).state == .none)

        // The edit that has it finds the contents moved on, and gives it up.
        spare.abandon()
        #expect(Self.take(&spare).state == .none)
    }

    @Test func theCommitOfTheEditThatHasTheSpareKeepsTheContentsItReplaced() {
        var spare = Spare()
        _ = Self.keep(&spare, [1], behind: SetChange(inserted: [2]), tookSpare: false)
        _ = Self.take(&spare)

        let left = Self.keep(&spare, [1, 2], behind: SetChange(inserted: [3]), tookSpare: true)
        #expect(left.replaced.isEmpty)
        let taken = Self.take(&spare)
        #expect(taken.state == .behind)
        #expect(taken.contents == [1, 2])
        #expect(taken.catchUp == SetChange(inserted: [3]))
    }

    @Test func aCommitThatNoChangeDescribesLeavesNoSpareAndHandsTheOldOneOut() {
        var spare = Spare()
        _ = Self.keep(&spare, [1], behind: SetChange(inserted: [2]), tookSpare: false)

        let left = Self.keep(&spare, [1, 2], behind: SetChange(inserted: [3]), isExact: false, tookSpare: false)
        // The replaced contents and the spare they would have replaced, with its change, are all
        // handed back to be released after unlocking.
        #expect(left.replaced == [1, 2])
        #expect(left.oldContents == [1])
        #expect(left.oldChange == SetChange(inserted: [2]))
        #expect(Self.take(&spare).state == .none)
    }

    @Test func aSpareReplacedByANewerOneIsHandedOutWithItsChange() {
        var spare = Spare()
        _ = Self.keep(&spare, [1], behind: SetChange(inserted: [2]), tookSpare: false)

        let left = Self.keep(&spare, [1, 2], behind: SetChange(inserted: [3]), tookSpare: false)
        #expect(left.replaced.isEmpty)
        #expect(left.oldContents == [1])
        #expect(left.oldChange == SetChange(inserted: [2]))
        let taken = Self.take(&spare)
        #expect(taken.contents == [1, 2])
        #expect(taken.catchUp == SetChange(inserted: [3]))
    }

    @Test func aSparePutBackIsCurrentOnlyIfNothingWasCommitted() {
        var spare = Spare()
        _ = Self.keep(&spare, [1], behind: SetChange(inserted: [2]), tookSpare: false)
        _ = Self.take(&spare)

        var updated: Set<Int> = [1, 2]
        spare.putBack(&updated, isCurrent: true)
        #expect(updated.isEmpty)
        // A current spare stays for an edit, not for bringing it up to date.
        #expect(Self.take(&spare, onlyIfBehind: true).state == .none)
        let taken = Self.take(&spare)
        #expect(taken.state == .current)
        #expect(taken.contents == [1, 2])
        #expect(taken.catchUp.isEmpty)

        var stale: Set<Int> = [1, 2]
        spare.putBack(&stale, isCurrent: false)
        #expect(stale == [1, 2])
        #expect(Self.take(&spare).state == .none)
    }
}
