import Testing

@testable import Messaging

/// An observable set and its members are released when nothing holds them, observed or not.
@Suite("ObservableSet: lifetime")
struct ObservableSetLifetimeTests {
    /// A member that is a class instance, hashed by identity, so a weak reference can watch it.
    final class Member: Hashable, Sendable {
        static func == (lhs: Member, rhs: Member) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    @Test func anObservedSetAndItsMembersAreReleasedWithTheirLastReferences() {
        weak var weakSet: ObservableSet<Member>?
        weak var weakRemoved: Member?
        weak var weakKept: Member?
        var recorder: SetChangeRecorder<Member>?
        var counts: UpdateRecorder?
        do {
            let set = ObservableSet<Member>()
            let removed = Member()
            let kept = Member()
            weakSet = set
            weakRemoved = removed
            weakKept = kept
            recorder = SetChangeRecorder(set)
            counts = UpdateRecorder(set.observableContains(removed))
            set.insert(removed)
            set.insert(kept)
            set.withTransaction { set.remove(removed) }
            counts?.token.stopObserving()
        }
        #expect(weakSet == nil)
        // The recorder still holds the changes that carry the members.
        #expect(weakRemoved != nil)
        #expect(weakKept != nil)
        _ = recorder?.take()
        #expect(weakRemoved == nil)
        #expect(weakKept == nil)
        withExtendedLifetime((recorder, counts)) {}
    }

    @Test func theCountStopsHoldingTheSetWhenItsObservationEnds() {
        weak var weakSet: ObservableSet<Int>?
        var token: ObservationToken?
        do {
            let set = ObservableSet<Int>([1])
            weakSet = set
            token = set.observableCount.subscribe { _ in }
            set.insert(2)
        }
        #expect(weakSet != nil)
        token?.stopObserving()
        token = nil
        #expect(weakSet == nil)
    }
}
