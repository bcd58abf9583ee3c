import Testing

@testable import Messaging

/// The transactions of a set or dictionary, step by step, without threads or locks.
@Suite("_TransactionSteps: the changes of a transaction, merged by the thread that ends it")
struct TransactionStepsTests {
    typealias Steps = _TransactionSteps<String>

    @Test func editsJoinOnlyWhileATransactionIsOpen() {
        var steps = Steps()
        #expect(!steps.absorbsEdits)
        steps.begin()
        #expect(steps.absorbsEdits)
        steps.begin()
        steps.append("a")
        // An inner transaction's end hands nothing out.
        #expect(steps.end() == nil)
        #expect(steps.absorbsEdits)
        steps.append("b")
        #expect(steps.end() == ["a", "b"])
        // The changes are being merged: edits still join.
        #expect(steps.absorbsEdits)
        guard case .send = steps.afterMerging("ab") else {
            Issue.record("expected .send")
            return
        }
        #expect(!steps.absorbsEdits)
    }

    @Test func changesMadeWhileMergingAreHandedToTheMergingThread() {
        var steps = Steps()
        steps.begin()
        steps.append("a")
        #expect(steps.end() == ["a"])
        steps.append("b")
        steps.append("c")
        guard case .merge(let more) = steps.afterMerging("a") else {
            Issue.record("expected .merge")
            return
        }
        #expect(more == ["b", "c"])
        guard case .send = steps.afterMerging("abc") else {
            Issue.record("expected .send")
            return
        }
    }

    @Test func aTransactionBegunWhileMergingTakesTheMergedChangeFirst() {
        var steps = Steps()
        steps.begin()
        steps.append("a")
        #expect(steps.end() == ["a"])
        steps.begin()
        steps.append("b")
        // That transaction ends before the merging thread asks: it does not merge too.
        #expect(steps.end() == nil)
        steps.begin()
        guard case .handedOver = steps.afterMerging("a") else {
            Issue.record("expected .handedOver")
            return
        }
        steps.append("c")
        #expect(steps.end() == ["a", "b", "c"])
    }

    @Test func aTransactionEndedWhileAnotherThreadMergesLeavesItsChangesToThatThread() {
        var steps = Steps()
        steps.begin()
        #expect(steps.end() == [])
        steps.begin()
        steps.append("a")
        #expect(steps.end() == nil)
        guard case .merge(let more) = steps.afterMerging("") else {
            Issue.record("expected .merge")
            return
        }
        #expect(more == ["a"])
    }
}
