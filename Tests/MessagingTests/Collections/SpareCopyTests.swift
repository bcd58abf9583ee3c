import Testing

@testable import Messaging

/// The spare copy's states, step by step, without threads or locks.
@Suite("_SpareCopy: the second copy an edit of a set or dictionary works on")
struct SpareCopyTests {
    typealias Spare = _SpareCopy<[Int], String>

    @Test func thereIsNoSpareUntilACommitKeepsOne() {
        var spare = Spare()
        var contents: [Int] = []
        var catchUp: String?
        #expect(!spare.take(into: &contents, catchUp: &catchUp))

        var replaced: [Int]? = [1]
        #expect(spare.keep(&replaced, behind: "+2", tookSpare: false) == nil)
        #expect(replaced == nil)
        #expect(spare.take(into: &contents, catchUp: &catchUp))
        #expect(contents == [1])
        #expect(catchUp == "+2")
        // Taken: no other edit gets it.
        #expect(!spare.take(into: &contents, catchUp: &catchUp))
    }

    @Test func aCommitWhileAnotherEditHasTheSpareKeepsNothing() {
        var spare = Spare()
        var replaced: [Int]? = [1]
        _ = spare.keep(&replaced, behind: "+2", tookSpare: false)
        var contents: [Int] = []
        var catchUp: String?
        #expect(spare.take(into: &contents, catchUp: &catchUp))

        var other: [Int]? = [1, 2]
        #expect(spare.keep(&other, behind: "+3", tookSpare: false) == nil)
        // Left to release after unlocking; the spare stays taken.
        #expect(other == [1, 2])
        #expect(!spare.take(into: &contents, catchUp: &catchUp))

        // The edit that has it finds the contents moved on, and gives it up.
        spare.abandon()
        #expect(!spare.take(into: &contents, catchUp: &catchUp))
    }

    @Test func theCommitOfTheEditThatHasTheSpareKeepsTheContentsItReplaced() {
        var spare = Spare()
        var replaced: [Int]? = [1]
        _ = spare.keep(&replaced, behind: "+2", tookSpare: false)
        var contents: [Int] = []
        var catchUp: String?
        _ = spare.take(into: &contents, catchUp: &catchUp)

        var next: [Int]? = [1, 2]
        #expect(spare.keep(&next, behind: "+3", tookSpare: true) == nil)
        #expect(next == nil)
        catchUp = nil
        #expect(spare.take(into: &contents, catchUp: &catchUp))
        #expect(contents == [1, 2])
        #expect(catchUp == "+3")
    }

    @Test func aCommitThatNoChangeDescribesLeavesNoSpare() {
        var spare = Spare()
        var replaced: [Int]? = [1]
        _ = spare.keep(&replaced, behind: "+2", tookSpare: false)

        var next: [Int]? = [1, 2]
        // The spare it replaces is handed back to be released.
        #expect(spare.keep(&next, behind: nil, tookSpare: false) == [1])
        #expect(next == [1, 2])
        var contents: [Int] = []
        var catchUp: String?
        #expect(!spare.take(into: &contents, catchUp: &catchUp))
    }

    @Test func aSparePutBackIsCurrentOnlyIfNothingWasCommitted() {
        var spare = Spare()
        var replaced: [Int]? = [1]
        _ = spare.keep(&replaced, behind: "+2", tookSpare: false)
        var contents: [Int] = []
        var catchUp: String?
        _ = spare.take(into: &contents, catchUp: &catchUp)

        #expect(spare.putBack([1, 2], isCurrent: true) == nil)
        // A current spare stays for an edit, not for bringing it up to date.
        #expect(!spare.take(into: &contents, catchUp: &catchUp, onlyIfBehind: true))
        catchUp = "unchanged"
        #expect(spare.take(into: &contents, catchUp: &catchUp))
        #expect(contents == [1, 2])
        #expect(catchUp == "unchanged")

        #expect(spare.putBack([1, 2], isCurrent: false) == [1, 2])
        #expect(!spare.take(into: &contents, catchUp: &catchUp))
    }
}
