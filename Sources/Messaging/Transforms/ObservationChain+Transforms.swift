// The transforms of ``ObservationChain`` and ``IsolatedObservationChain``, which differ only in
// their closures' kind: `@Sendable` for a plain ``Observer``, whose chain runs on the delivering
// thread, and plain closures for a main-actor or actor observer, whose chain runs on its actor.
// Two types rather than two constrained extensions of one: overloads that differ in a `Sendable`
// constraint on the message would be ambiguous in a chain.
//
// The two extensions mirror each other stage for stage: change both together.

extension ObservationChain {
    /// Transforms each message.
    ///
    /// - Parameter transform: The transform.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func map<Next>(_ transform: @escaping @Sendable (Output) -> Next) -> ObservationChain<
        Observing, Source, Next
    > {
        .init(_core: _core.appending { downstream in { output, author in downstream(transform(output), author) } })
    }

    /// Transforms each message. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - transform: The transform.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func map<Next>(
        _ transform: @escaping @Sendable (Output) -> Next, receive: @escaping @Sendable (Next) -> Void
    ) {
        map(transform).receive(receive)
    }

    /// Lets through only the messages for which `isIncluded` returns `true`.
    ///
    /// - Parameter isIncluded: Whether a message (or its author) goes on.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Output) -> Bool) -> ObservationChain<
        Observing, Source, Output
    > {
        .init(
            _core: _core.appending { downstream in
                { output, author in if isIncluded(output) { downstream(output, author) } }
            })
    }

    /// Lets through only the messages for which `isIncluded` returns `true`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - isIncluded: Whether a message (or its author) goes on.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filter(
        _ isIncluded: @escaping @Sendable (Output) -> Bool, receive: @escaping @Sendable (Output) -> Void
    ) {
        filter(isIncluded).receive(receive)
    }

    /// Transforms each message, and lets through only the results that are not `nil`.
    ///
    /// - Parameter transform: The transform.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func compactMap<Next>(_ transform: @escaping @Sendable (Output) -> Next?) -> ObservationChain<
        Observing, Source, Next
    > {
        .init(
            _core: _core.appending { downstream in
                { output, author in if let next = transform(output) { downstream(next, author) } }
            })
    }

    /// Transforms each message, and lets through only the results that are not `nil`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - transform: The transform.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func compactMap<Next>(
        _ transform: @escaping @Sendable (Output) -> Next?, receive: @escaping @Sendable (Next) -> Void
    ) {
        compactMap(transform).receive(receive)
    }

    /// Turns each ``Update`` into its new value.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func new<Value>() -> ObservationChain<Observing, Source, Value> where Output == Update<Value> {
        .init(_core: _core.appending { downstream in { update, author in downstream(update.new, author) } })
    }

    /// Turns each ``Update`` into its new value. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func new<Value>(receive: @escaping @Sendable (Value) -> Void) where Output == Update<Value> {
        new().receive(receive)
    }

    /// Lets through only the messages that are not `nil`, unwrapped.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>() -> ObservationChain<Observing, Source, Wrapped> where Output == Wrapped? {
        .init(
            _core: _core.appending { downstream in { output, author in if let output { downstream(output, author) } } })
    }

    /// Lets through only the messages that are not `nil`, unwrapped. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>(receive: @escaping @Sendable (Wrapped) -> Void) where Output == Wrapped? {
        unwrap().receive(receive)
    }

    /// Unwraps each message, replacing `nil` with `defaultValue`.
    ///
    /// - Parameter defaultValue: The value that replaces `nil`.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>(_ defaultValue: Wrapped) -> ObservationChain<Observing, Source, Wrapped>
    where Output == Wrapped?, Wrapped: Sendable {
        .init(_core: _core.appending { downstream in { output, author in downstream(output ?? defaultValue, author) } })
    }

    /// Unwraps each message, replacing `nil` with `defaultValue`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - defaultValue: The value that replaces `nil`.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>(_ defaultValue: Wrapped, receive: @escaping @Sendable (Wrapped) -> Void)
    where Output == Wrapped?, Wrapped: Sendable {
        unwrap(defaultValue).receive(receive)
    }

    /// Lets through only the messages equal to `selected`, as `Void`: the handler takes no argument.
    ///
    /// - Parameter selected: The message to let through.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func select(_ selected: Output) -> ObservationChain<Observing, Source, Void>
    where Output: Equatable, Output: Sendable {
        .init(
            _core: _core.appending { downstream in
                { output, author in if output == selected { downstream((), author) } }
            })
    }

    /// Lets through only the messages equal to `selected`, as `Void`: the handler takes no argument. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - selected: The message to let through.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func select(_ selected: Output, receive: @escaping @Sendable () -> Void)
    where Output: Equatable, Output: Sendable {
        select(selected).receive { _ in receive() }
    }

    /// Drops each message that equals the previous one; the first always goes through.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func distinct() -> ObservationChain<Observing, Source, Output> where Output: Equatable, Output: Sendable {
        .init(
            _core: _core.appending { downstream in
                let previous = _TransformState<Output?>(nil)
                return { output, author in
                    if previous.value == output { return }
                    previous.value = output
                    downstream(output, author)
                }
            })
    }

    /// Drops each message that equals the previous one; the first always goes through. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func distinct(receive: @escaping @Sendable (Output) -> Void) where Output: Equatable, Output: Sendable {
        distinct().receive(receive)
    }

    /// Drops the first `count` messages, and lets every later one through.
    ///
    /// - Parameter count: How many messages to drop; not negative.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func discard(first count: Int) -> ObservationChain<Observing, Source, Output> {
        .init(_core: _core.discard(first: count))
    }

    /// Drops the first `count` messages, and lets every later one through. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - count: How many messages to drop; not negative.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func discard(first count: Int, receive: @escaping @Sendable (Output) -> Void) {
        discard(first: count).receive(receive)
    }

    /// Lets through only the messages whose author passes `isIncluded`.
    ///
    /// - Parameter isIncluded: Whether a message (or its author) goes on.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filterAuthor(_ isIncluded: @escaping @Sendable (AnyObject) -> Bool) -> ObservationChain<
        Observing, Source, Output
    > {
        .init(
            _core: _core.appending { downstream in
                { output, author in if isIncluded(author) { downstream(output, author) } }
            })
    }

    /// Lets through only the messages whose author passes `isIncluded`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - isIncluded: Whether a message (or its author) goes on.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filterAuthor(
        _ isIncluded: @escaping @Sendable (AnyObject) -> Bool, receive: @escaping @Sendable (Output) -> Void
    ) {
        filterAuthor(isIncluded).receive(receive)
    }

    /// Lets through only the messages from `author`, which the chain holds weakly.
    ///
    /// - Parameter author: The author.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func from(_ author: AnyObject) -> ObservationChain<Observing, Source, Output> {
        .init(_core: _core.filter(author: author, isIncluded: true))
    }

    /// Lets through only the messages from `author`, which the chain holds weakly. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - author: The author.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func from(_ author: AnyObject, receive: @escaping @Sendable (Output) -> Void) {
        from(author).receive(receive)
    }

    /// Lets through only the messages not from `author`, which the chain holds weakly.
    ///
    /// - Parameter author: The author.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func notFrom(_ author: AnyObject) -> ObservationChain<Observing, Source, Output> {
        .init(_core: _core.filter(author: author, isIncluded: false))
    }

    /// Lets through only the messages not from `author`, which the chain holds weakly. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - author: The author.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func notFrom(_ author: AnyObject, receive: @escaping @Sendable (Output) -> Void) {
        notFrom(author).receive(receive)
    }

    /// Ends the chain with `receive`: starts the observation.
    ///
    /// - Parameter receive: The handler.
    /// - Complexity: O(1) amortized, as `observe`.
    @inlinable
    public func receive(_ receive: @escaping @Sendable (Output) -> Void) {
        _core.finish { output, _ in receive(output) }
    }

    /// Ends the chain with `receive`, which also gets each message's author: starts the observation.
    ///
    /// - Parameter receive: The handler.
    /// - Complexity: O(1) amortized, as `observe`.
    @inlinable
    public func receive(_ receive: @escaping @Sendable (Output, AnyObject) -> Void) {
        _core.finish(receive)
    }
}

extension IsolatedObservationChain {
    /// Transforms each message.
    ///
    /// - Parameter transform: The transform.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func map<Next>(_ transform: @escaping (Output) -> Next) -> IsolatedObservationChain<Observing, Source, Next>
    {
        .init(_core: _core.appending { downstream in { output, author in downstream(transform(output), author) } })
    }

    /// Transforms each message. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - transform: The transform.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func map<Next>(_ transform: @escaping (Output) -> Next, receive: @escaping (Next) -> Void) {
        map(transform).receive(receive)
    }

    /// Lets through only the messages for which `isIncluded` returns `true`.
    ///
    /// - Parameter isIncluded: Whether a message (or its author) goes on.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> IsolatedObservationChain<Observing, Source, Output>
    {
        .init(
            _core: _core.appending { downstream in
                { output, author in if isIncluded(output) { downstream(output, author) } }
            })
    }

    /// Lets through only the messages for which `isIncluded` returns `true`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - isIncluded: Whether a message (or its author) goes on.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool, receive: @escaping (Output) -> Void) {
        filter(isIncluded).receive(receive)
    }

    /// Transforms each message, and lets through only the results that are not `nil`.
    ///
    /// - Parameter transform: The transform.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func compactMap<Next>(_ transform: @escaping (Output) -> Next?) -> IsolatedObservationChain<
        Observing, Source, Next
    > {
        .init(
            _core: _core.appending { downstream in
                { output, author in if let next = transform(output) { downstream(next, author) } }
            })
    }

    /// Transforms each message, and lets through only the results that are not `nil`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - transform: The transform.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func compactMap<Next>(_ transform: @escaping (Output) -> Next?, receive: @escaping (Next) -> Void) {
        compactMap(transform).receive(receive)
    }

    /// Turns each ``Update`` into its new value.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func new<Value>() -> IsolatedObservationChain<Observing, Source, Value> where Output == Update<Value> {
        .init(_core: _core.appending { downstream in { update, author in downstream(update.new, author) } })
    }

    /// Turns each ``Update`` into its new value. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func new<Value>(receive: @escaping (Value) -> Void) where Output == Update<Value> {
        new().receive(receive)
    }

    /// Lets through only the messages that are not `nil`, unwrapped.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>() -> IsolatedObservationChain<Observing, Source, Wrapped> where Output == Wrapped? {
        .init(
            _core: _core.appending { downstream in { output, author in if let output { downstream(output, author) } } })
    }

    /// Lets through only the messages that are not `nil`, unwrapped. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>(receive: @escaping (Wrapped) -> Void) where Output == Wrapped? {
        unwrap().receive(receive)
    }

    /// Unwraps each message, replacing `nil` with `defaultValue`.
    ///
    /// - Parameter defaultValue: The value that replaces `nil`.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>(_ defaultValue: Wrapped) -> IsolatedObservationChain<Observing, Source, Wrapped>
    where Output == Wrapped? {
        .init(_core: _core.appending { downstream in { output, author in downstream(output ?? defaultValue, author) } })
    }

    /// Unwraps each message, replacing `nil` with `defaultValue`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - defaultValue: The value that replaces `nil`.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>(_ defaultValue: Wrapped, receive: @escaping (Wrapped) -> Void)
    where Output == Wrapped? {
        unwrap(defaultValue).receive(receive)
    }

    /// Lets through only the messages equal to `selected`, as `Void`: the handler takes no argument.
    ///
    /// - Parameter selected: The message to let through.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func select(_ selected: Output) -> IsolatedObservationChain<Observing, Source, Void>
    where Output: Equatable {
        .init(
            _core: _core.appending { downstream in
                { output, author in if output == selected { downstream((), author) } }
            })
    }

    /// Lets through only the messages equal to `selected`, as `Void`: the handler takes no argument. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - selected: The message to let through.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func select(_ selected: Output, receive: @escaping () -> Void) where Output: Equatable {
        select(selected).receive { _ in receive() }
    }

    /// Drops each message that equals the previous one; the first always goes through.
    ///
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func distinct() -> IsolatedObservationChain<Observing, Source, Output> where Output: Equatable {
        .init(
            _core: _core.appending { downstream in
                let previous = _TransformState<Output?>(nil)
                return { output, author in
                    if previous.value == output { return }
                    previous.value = output
                    downstream(output, author)
                }
            })
    }

    /// Drops each message that equals the previous one; the first always goes through. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func distinct(receive: @escaping (Output) -> Void) where Output: Equatable {
        distinct().receive(receive)
    }

    /// Drops the first `count` messages, and lets every later one through.
    ///
    /// - Parameter count: How many messages to drop; not negative.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func discard(first count: Int) -> IsolatedObservationChain<Observing, Source, Output> {
        .init(_core: _core.discard(first: count))
    }

    /// Drops the first `count` messages, and lets every later one through. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - count: How many messages to drop; not negative.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func discard(first count: Int, receive: @escaping (Output) -> Void) {
        discard(first: count).receive(receive)
    }

    /// Lets through only the messages whose author passes `isIncluded`.
    ///
    /// - Parameter isIncluded: Whether a message (or its author) goes on.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filterAuthor(_ isIncluded: @escaping (AnyObject) -> Bool) -> IsolatedObservationChain<
        Observing, Source, Output
    > {
        .init(
            _core: _core.appending { downstream in
                { output, author in if isIncluded(author) { downstream(output, author) } }
            })
    }

    /// Lets through only the messages whose author passes `isIncluded`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - isIncluded: Whether a message (or its author) goes on.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func filterAuthor(_ isIncluded: @escaping (AnyObject) -> Bool, receive: @escaping (Output) -> Void) {
        filterAuthor(isIncluded).receive(receive)
    }

    /// Lets through only the messages from `author`, which the chain holds weakly.
    ///
    /// - Parameter author: The author.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func from(_ author: AnyObject) -> IsolatedObservationChain<Observing, Source, Output> {
        .init(_core: _core.filter(author: author, isIncluded: true))
    }

    /// Lets through only the messages from `author`, which the chain holds weakly. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - author: The author.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func from(_ author: AnyObject, receive: @escaping (Output) -> Void) {
        from(author).receive(receive)
    }

    /// Lets through only the messages not from `author`, which the chain holds weakly.
    ///
    /// - Parameter author: The author.
    /// - Returns: The chain, one transform longer.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func notFrom(_ author: AnyObject) -> IsolatedObservationChain<Observing, Source, Output> {
        .init(_core: _core.filter(author: author, isIncluded: false))
    }

    /// Lets through only the messages not from `author`, which the chain holds weakly. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - author: The author.
    ///   - receive: The handler.
    /// - Complexity: O(1); per message, O(1) more.
    @inlinable
    public func notFrom(_ author: AnyObject, receive: @escaping (Output) -> Void) {
        notFrom(author).receive(receive)
    }

    /// Ends the chain with `receive`: starts the observation.
    ///
    /// - Parameter receive: The handler.
    /// - Complexity: O(1) amortized, as `observe`.
    @inlinable
    public func receive(_ receive: @escaping (Output) -> Void) {
        _core.finish { output, _ in receive(output) }
    }

    /// Ends the chain with `receive`, which also gets each message's author: starts the observation.
    ///
    /// - Parameter receive: The handler.
    /// - Complexity: O(1) amortized, as `observe`.
    @inlinable
    public func receive(_ receive: @escaping (Output, AnyObject) -> Void) {
        _core.finish(receive)
    }
}
