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

    /// An edit works on a second copy of the contents that it keeps for the next edit; that copy
    /// must not keep a removed member alive.
    @Test func aRemovedMemberIsReleasedWhenTheEditThatRemovedItReturns() {
        let edits: [(ObservableSet<Member>, Member) -> Void] = [
            { set, member in set.remove(member) },
            { set, member in set.subtract([member]) },
            { set, _ in set.formIntersection([]) },
            { set, member in set.formSymmetricDifference([member]) },
            { set, _ in set.removeAll() },
            { set, member in set.modify { _ = $0.remove(member) } },
            { set, _ in set.value = [] },
            { set, member in set.withTransaction { _ = set.remove(member) } },
        ]
        for (index, edit) in edits.enumerated() {
            let set = ObservableSet<Member>()
            weak var weakMember: Member?
            do {
                let member = Member()
                weakMember = member
                // Several edits first, so that the removing one finds a spare copy to edit.
                set.insert(Member())
                set.insert(member)
                set.insert(Member())
                edit(set, member)
            }
            #expect(weakMember == nil, "edit \(index)")
            #expect(set.count < 3, "edit \(index)")
        }
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
