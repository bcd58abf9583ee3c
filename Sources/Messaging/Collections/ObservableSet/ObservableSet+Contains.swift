extension ObservableSet {
    /// An observable of whether the set has a member equal to `member`: it sends
    /// `Update(old, new)` whenever an edit inserts or removes such a member, and nothing for an
    /// edit that keeps its membership (a replacement by ``update(with:isolation:)`` included).
    ///
    /// ```swift
    /// observer.observe(selection.observableContains(item)) { update in
    ///     checkmark.isHidden = !update.new
    /// }
    /// ```
    ///
    /// It is an ``ObservableMembership`` of the set: it observes the set only while it is observed
    /// itself, and keeps the set alive while it is. A transaction's merged change gives one update
    /// at most, from the membership before the transaction to the membership after it. Its `value`
    /// is whether the set has the member now, so an observation can start with it
    /// (`subscribe(replayingLatest: true)`).
    ///
    /// - Parameter member: The member to watch. It is hashed and compared on the delivering
    ///   thread, outside every lock.
    /// - Returns: The observable of the membership of `member`, a cache.
    /// - Complexity: O(1) to make; per change of the set, while observed, O(1) on average and at
    ///   most one send.
    public func observableContains(_ member: Element) -> ObservableMembership<ObservableSet<Element>, Element> {
        ObservableMembership(
            self, member: member,
            expressionMember: .count(of: self, counts: SetChange._moves(of: member), readsCountAsBool: true)
        ) { collection, member in collection.contains(member) }
    }
}
