/// One source of an ``ObservableExpression``, with its type erased: its identity, its latest
/// value, and how to observe it on behalf of an expression's state.
@usableFromInline
struct _ExpressionSource: Sendable {
    /// The source's identity: an expression observes each source once.
    @usableFromInline let id: ObjectIdentifier
    /// The source's latest value.
    @usableFromInline let read: @Sendable () -> any Sendable
    /// Makes the link (an ``_OriginLink``) that observes the source for the state's input at the
    /// index, while the closure says the expression is observed.
    @usableFromInline let makeLink: @Sendable (_ExpressionInputs, Int, @escaping () -> Bool) -> AnyObject
    /// For an ``ArrayFold``: how to fold it together with other folds of its array.
    @usableFromInline let foldMember: _ExpressionFoldMember?

    @inlinable
    init<Source: ObservableCache & Sendable, Value: Sendable>(_ source: Source)
    where Source.Message == Update<Value> {
        id = ObjectIdentifier(source)
        foldMember = (source as? any _ExpressionFoldSource)?._expressionFoldMember
        read = { source.latestMessage.new }
        makeLink = { inputs, index, isObserved in
            _OriginLink<Source, Update<Value>>(
                source,
                messengerOf: { $0.messenger },
                isObserved: isObserved,
                handler: { update, author, isolation in
                    inputs.receive(update.new, index, nil, author, isolation)
                },
                starter: { origin, observation, messenger in
                    let received = inputs.receivedCount(index)
                    messenger._core.insert(observation)
                    // Read after observing, so that nothing sent meanwhile is missed; stored only
                    // if no update came in meanwhile.
                    let latest = origin.latestMessage.new
                    inputs.receive(latest, index, received, origin, nil)
                }
            )
        }
    }

    /// The sources of `first` followed by those of `second` that `first` does not have.
    ///
    /// - Complexity: O(*n*) for *n* sources in all.
    @inlinable
    static func union(_ first: [_ExpressionSource], _ second: [_ExpressionSource]) -> [_ExpressionSource] {
        guard !second.isEmpty else { return first }
        var seen = Set(first.map(\.id))
        var union = first
        for source in second where seen.insert(source.id).inserted {
            union.append(source)
        }
        return union
    }
}

/// A formula of an ``ObservableExpression``: given where each source's value is among the values
/// an expression observes, the function that computes the value from those values.
@usableFromInline
struct _ExpressionTerm<Value>: Sendable {
    @usableFromInline let compile:
        @Sendable ([ObjectIdentifier: _ExpressionSlot]) -> @Sendable ([any Sendable]) -> Value

    @inlinable
    init(
        _ compile: @escaping @Sendable ([ObjectIdentifier: _ExpressionSlot]) -> @Sendable ([any Sendable]) -> Value
    ) {
        self.compile = compile
    }
}
