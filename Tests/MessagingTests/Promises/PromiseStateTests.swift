import Testing

@testable import Messaging

/// `_PromiseState` driven directly: waiters are strings.
@Suite struct PromiseStateTests {
    typealias State = _PromiseState<Int, String>

    @Test func waitersAreKeptInOrderAndHandedOutOnceByTheFulfilment() {
        var state = State()
        #expect(state.add("a") == .added)
        #expect(state.add("b") == .added)
        #expect(state.waiterCount == 2)
        #expect(state.fulfill(1) == .deliver(["a", "b"]))
        #expect(state.waiterCount == 0)
        #expect(state.value == 1)
    }

    @Test func aSecondFulfilmentChangesNothing() {
        var state = State()
        #expect(state.fulfill(1) == .deliver([]))
        #expect(state.fulfill(2) == .alreadyFulfilled)
        #expect(state.value == 1)
    }

    @Test func aWaiterAddedAfterTheFulfilmentRunsAtOnceAndIsNotKept() {
        var state = State()
        _ = state.fulfill(5)
        #expect(state.add("late") == .runNow("late", 5))
        #expect(state.add("cancelled anyway", id: 1, isCancelled: true) == .runNow("cancelled anyway", 5))
        #expect(state.waiterCount == 0)
    }

    @Test func aCancelledTaskIsNotAddedAndARemovedWaiterIsHandedBack() {
        var state = State()
        guard case .pending(let first) = state.reserveWaiterID(),
            case .pending(let second) = state.reserveWaiterID()
        else {
            Issue.record("a pending promise must reserve numbers")
            return
        }
        #expect(first != second)
        #expect(state.add("early", id: first, isCancelled: true) == .cancelled("early"))
        #expect(state.add("plain") == .added)
        #expect(state.add("waiting", id: second) == .added)
        #expect(state.removeWaiter(id: first) == nil)
        #expect(state.removeWaiter(id: second) == "waiting")
        #expect(state.removeWaiter(id: second) == nil)
        #expect(state.removeWaiter(id: 0) == nil)
        #expect(state.fulfill(3) == .deliver(["plain"]))
    }

    @Test func removingAWaiterKeepsTheOthersInOrderWhereverItWasAdded() {
        var state = State()
        _ = state.add("a")
        guard case .pending(let first) = state.reserveWaiterID(),
            case .pending(let second) = state.reserveWaiterID()
        else {
            Issue.record("a pending promise must reserve numbers")
            return
        }
        _ = state.add("b", id: first)
        _ = state.add("c")
        _ = state.add("d", id: second)
        _ = state.add("e")
        #expect(state.removeWaiter(id: second) == "d")
        #expect(state.removeWaiter(id: first) == "b")
        _ = state.add("f")
        #expect(state.fulfill(1) == .deliver(["a", "c", "e", "f"]))
    }

    @Test func aFulfilledPromiseReservesNothing() {
        var state = State()
        _ = state.fulfill(9)
        guard case .fulfilled(9) = state.reserveWaiterID() else {
            Issue.record("a fulfilled promise must hand out its value")
            return
        }
    }

    @Test func aPromiseOfAnOptionalCanBeFulfilledWithNil() {
        var state = _PromiseState<Int?, String>()
        #expect(state.add("a") == .added)
        guard case .deliver(let waiters) = state.fulfill(nil) else {
            Issue.record("nil is a value like any other")
            return
        }
        #expect(waiters == ["a"])
        #expect(state.isFulfilled)
        #expect(state.fulfill(1) == .alreadyFulfilled)
    }
}
