extension ObservableCache {
    /// Makes a follower of a relationship: it observes the observable at `keyPath` of the current
    /// value, and moves to the next one whenever the value changes; see ``Followed``.
    ///
    /// ```swift
    /// let currentProject = Var(Project(name: "Draft"))
    /// let projectName = currentProject.follow(\.name)   // sends Update<String>
    /// ```
    ///
    /// A switch to another inner variable is reported as an update from the last value sent to the
    /// new variable's value, unless they are equal.
    ///
    /// - Parameter keyPath: Leads from a value to its inner observable, whose messages are updates
    ///   (a ``Var``, or another follower of one).
    /// - Returns: A follower that sends the current inner observable's updates.
    /// - Complexity: O(1); per message, a few rounds of its lock and one send; per switch, ending and
    ///   starting an observation.
    public func follow<Value, Inner: ObservableSource, InnerValue: Equatable>(
        _ keyPath: KeyPath<Value, Inner> & Sendable
    ) -> Followed<Self, Inner, Update<InnerValue>> where Message == Update<Value>, Inner.Message == Update<InnerValue> {
        _follow { $0.new[keyPath: keyPath] }
    }

    /// Makes a follower of a relationship: it observes the observable that `select` returns for the
    /// current value, and moves to the next one whenever the value changes; see ``Followed``.
    ///
    /// ```swift
    /// let projectName = currentProject.follow { project in project.name }
    /// ```
    ///
    /// - Parameter select: Returns a value's inner observable, whose messages are updates; runs on
    ///   the thread that delivers the origin's update, and whenever the follower's latest message
    ///   is read or written through.
    /// - Returns: A follower that sends the current inner observable's updates.
    /// - Complexity: O(1); per message, a few rounds of its lock and one send; per switch, `select`, ending
    ///   and starting an observation.
    public func follow<Value, Inner: ObservableSource, InnerValue: Equatable>(
        _ select: @escaping @Sendable (Value) -> Inner
    ) -> Followed<Self, Inner, Update<InnerValue>> where Message == Update<Value>, Inner.Message == Update<InnerValue> {
        _follow { select($0.new) }
    }

    /// Makes a follower of an optional relationship: it observes the observable at `keyPath` of the
    /// current value, if there is one, and moves to the next one whenever the value changes; see
    /// ``Followed``.
    ///
    /// ```swift
    /// let selectedProject = Var<Project?>(nil)
    /// let projectName = selectedProject.follow(\.name)   // sends Update<String?>
    /// ```
    ///
    /// `nil` stands for "no inner": a switch to `nil` is reported as `Update(old, nil)`, a switch
    /// from `nil` to a project as `Update(nil, name)`.
    ///
    /// - Parameter keyPath: Leads from a value to its inner observable, whose messages are updates.
    /// - Returns: A follower that sends the current inner observable's updates, with optional
    ///   values.
    /// - Complexity: O(1); per message, a few rounds of its lock and one send; per switch, ending and
    ///   starting an observation.
    public func follow<Wrapped, Inner: ObservableSource, InnerValue: Equatable>(
        _ keyPath: KeyPath<Wrapped, Inner> & Sendable
    ) -> Followed<Self, Inner, Update<InnerValue?>>
    where Message == Update<Wrapped?>, Inner.Message == Update<InnerValue> {
        _followOptional { $0.new?[keyPath: keyPath] }
    }

    /// Makes a follower of an optional relationship: it observes the observable that `select`
    /// returns for the current value, if any, and moves to the next one whenever the value changes;
    /// see ``Followed``.
    ///
    /// ```swift
    /// let leadName = team.follow { team in team.members.first?.name }   // sends Update<String?>
    /// ```
    ///
    /// `nil` stands for "no inner": a switch to `nil` is reported as `Update(old, nil)`, a switch
    /// from `nil` to an inner as `Update(nil, new)`.
    ///
    /// - Parameter select: Returns a value's inner observable, or `nil` for none; runs on the
    ///   thread that delivers the origin's update, and whenever the follower's latest message is
    ///   read or written through.
    /// - Returns: A follower that sends the current inner observable's updates, with optional
    ///   values.
    /// - Complexity: O(1); per message, a few rounds of its lock and one send; per switch, `select`, ending
    ///   and starting an observation.
    public func follow<Value, Inner: ObservableSource, InnerValue: Equatable>(
        _ select: @escaping @Sendable (Value) -> Inner?
    ) -> Followed<Self, Inner, Update<InnerValue?>>
    where Message == Update<Value>, Inner.Message == Update<InnerValue> {
        _followOptional { select($0.new) }
    }

    /// Makes a follower of the latest inner observable: for a cache whose messages are observables
    /// themselves, it observes the latest one, and moves to the next one with every message; see
    /// ``Followed``.
    ///
    /// ```swift
    /// let names = Messenger<Var<String>>()
    /// let latestName = names.cache().unwrap(Var("")).switchToLatest()   // sends Update<String>
    /// ```
    ///
    /// This is Combine's `switchToLatest()` for inner caches of a value: `follow(_:)` is the same
    /// with a selection. For inners whose messages are not updates, see
    /// ``ObservableCache/switchToLatest()->Followed<Self,Inner,Inner.Message>``.
    ///
    /// - Returns: A follower that sends the latest inner observable's updates.
    /// - Complexity: O(1); per message, a few rounds of its lock and one send; per switch, ending and
    ///   starting an observation.
    public func switchToLatest<InnerValue: Equatable>() -> Followed<Self, Message, Update<InnerValue>>
    where Message: ObservableSource, Message.Message == Update<InnerValue> {
        Followed(_origin: self, select: { $0 }, lift: { $0 }, bridge: _bridgeUpdates, absent: nil)
    }

    /// Makes a follower of the latest inner observable, whatever its messages: for a cache whose
    /// messages are observables themselves, it observes the latest one, and moves to the next one
    /// with every message; see ``Followed``.
    ///
    /// ```swift
    /// let rooms = Messenger<Messenger<ChatLine>>()
    /// let lines = rooms.cache().unwrap(lobby).switchToLatest()   // sends the current room's lines
    /// ```
    ///
    /// This is Combine's `switchToLatest()` for inner observables whose messages are not updates of
    /// a value; for those,
    /// ``ObservableCache/switchToLatest()->Followed<Self,Self.Message,Update<InnerValue>>``, which reports a switch as an update, is chosen. A switch
    /// sends nothing for an inner that is not a cache; for a cache, it sends the new inner's latest
    /// message as it is, as subscribing to a Combine `CurrentValueSubject` does. When observing
    /// starts, the first inner's latest message is not sent.
    ///
    /// - Returns: A follower that sends the latest inner observable's messages.
    /// - Complexity: O(1); per message, a few rounds of its lock and one send; per switch, ending and
    ///   starting an observation.
    public func switchToLatest<Inner: ObservableSource>() -> Followed<Self, Inner, Inner.Message>
    where Message == Inner {
        Followed(_origin: self, select: { $0 }, lift: { $0 }, bridge: { _, latest in latest }, absent: nil)
    }

    /// A follower whose selector always returns an inner.
    func _follow<Inner: ObservableSource, InnerValue: Equatable>(
        _ select: @escaping @Sendable (Message) -> Inner
    ) -> Followed<Self, Inner, Update<InnerValue>> where Inner.Message == Update<InnerValue> {
        Followed(_origin: self, select: select, lift: { $0 }, bridge: _bridgeUpdates, absent: nil)
    }

    /// A follower whose selector may return no inner: its updates are of optional values.
    func _followOptional<Inner: ObservableSource, InnerValue: Equatable>(
        _ select: @escaping @Sendable (Message) -> Inner?
    ) -> Followed<Self, Inner, Update<InnerValue?>> where Inner.Message == Update<InnerValue> {
        Followed(
            _origin: self,
            select: select,
            lift: { Update($0.old, $0.new) },
            bridge: _bridgeUpdates,
            absent: Update(nil, nil)
        )
    }
}

/// The report of a switch between inner observables whose messages are updates: from the last
/// value sent to the new inner's value, or nothing if they are equal; the new inner's update as it
/// is if nothing was sent before.
func _bridgeUpdates<Value: Equatable>(_ last: Update<Value>?, _ next: Update<Value>) -> Update<Value>? {
    guard let last else { return next }
    return last.new == next.new ? nil : Update(last.new, next.new)
}
