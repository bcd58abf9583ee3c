// The forms of the stages after a hop that also take the handler and end the chain, as
// ``ObservationChain``'s do, so that a hopped chain keeps the trailing-closure syntax:
//
//     observe(progress).onMainActor().map({ Int($0 * 100) }) { percent in label.text = "\(percent) %" }
//
// Each is its stage followed by `receive(_:)`; change them with the stages in
// `ObservationChain+Hops.swift`.

extension MainActorObservationChain {
    /// Transforms each message, on the main actor. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - transform: The transform, on the main actor.
    ///   - receive: The handler, on the main actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func map<Next>(
        _ transform: @escaping @MainActor @Sendable (Output) -> Next,
        receive: @escaping @MainActor @Sendable (Next) -> Void
    ) {
        map(transform).receive(receive)
    }

    /// Lets through only the messages for which `isIncluded` returns `true`, on the main actor. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - isIncluded: Whether a message goes on, on the main actor.
    ///   - receive: The handler, on the main actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func filter(
        _ isIncluded: @escaping @MainActor @Sendable (Output) -> Bool,
        receive: @escaping @MainActor @Sendable (Output) -> Void
    ) {
        filter(isIncluded).receive(receive)
    }

    /// Transforms each message on the main actor, and lets through only the results that are not `nil`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - transform: The transform, on the main actor.
    ///   - receive: The handler, on the main actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func compactMap<Next>(
        _ transform: @escaping @MainActor @Sendable (Output) -> Next?,
        receive: @escaping @MainActor @Sendable (Next) -> Void
    ) {
        compactMap(transform).receive(receive)
    }

    /// Turns each ``Update`` into its new value. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler, on the main actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func new<Value>(receive: @escaping @MainActor @Sendable (Value) -> Void) where Output == Update<Value> {
        new().receive(receive)
    }

    /// Lets through only the messages that are not `nil`, unwrapped. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler, on the main actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>(receive: @escaping @MainActor @Sendable (Wrapped) -> Void) where Output == Wrapped? {
        unwrap().receive(receive)
    }

    /// Unwraps each message, replacing `nil` with `defaultValue`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - defaultValue: The value that replaces `nil`.
    ///   - receive: The handler, on the main actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped: Sendable>(
        _ defaultValue: Wrapped, receive: @escaping @MainActor @Sendable (Wrapped) -> Void
    )
    where Output == Wrapped? {
        unwrap(defaultValue).receive(receive)
    }

    /// Drops each message that equals the previous one; the first always goes through. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler, on the main actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func distinct(receive: @escaping @MainActor @Sendable (Output) -> Void) where Output: Equatable {
        distinct().receive(receive)
    }

    /// Drops the first `count` messages, and lets every later one through. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - count: How many messages to drop; not negative.
    ///   - receive: The handler, on the main actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func discard(first count: Int, receive: @escaping @MainActor @Sendable (Output) -> Void) {
        discard(first: count).receive(receive)
    }
}

extension ActorObservationChain {
    /// Transforms each message, on the actor. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - transform: The transform, isolated to the actor.
    ///   - receive: The handler, isolated to the actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func map<Next>(
        _ transform: @escaping @Sendable (isolated Isolation, Output) -> Next,
        receive: @escaping @Sendable (isolated Isolation, Next) -> Void
    ) {
        map(transform).receive(receive)
    }

    /// Lets through only the messages for which `isIncluded` returns `true`, on the actor. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - isIncluded: Whether a message goes on, isolated to the actor.
    ///   - receive: The handler, isolated to the actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func filter(
        _ isIncluded: @escaping @Sendable (isolated Isolation, Output) -> Bool,
        receive: @escaping @Sendable (isolated Isolation, Output) -> Void
    ) {
        filter(isIncluded).receive(receive)
    }

    /// Transforms each message on the actor, and lets through only the results that are not `nil`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - transform: The transform, isolated to the actor.
    ///   - receive: The handler, isolated to the actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func compactMap<Next>(
        _ transform: @escaping @Sendable (isolated Isolation, Output) -> Next?,
        receive: @escaping @Sendable (isolated Isolation, Next) -> Void
    ) {
        compactMap(transform).receive(receive)
    }

    /// Turns each ``Update`` into its new value. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler, isolated to the actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func new<Value>(receive: @escaping @Sendable (isolated Isolation, Value) -> Void)
    where Output == Update<Value> {
        new().receive(receive)
    }

    /// Lets through only the messages that are not `nil`, unwrapped. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler, isolated to the actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped>(receive: @escaping @Sendable (isolated Isolation, Wrapped) -> Void)
    where Output == Wrapped? {
        unwrap().receive(receive)
    }

    /// Unwraps each message, replacing `nil` with `defaultValue`. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - defaultValue: The value that replaces `nil`.
    ///   - receive: The handler, isolated to the actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func unwrap<Wrapped: Sendable>(
        _ defaultValue: Wrapped, receive: @escaping @Sendable (isolated Isolation, Wrapped) -> Void
    ) where Output == Wrapped? {
        unwrap(defaultValue).receive(receive)
    }

    /// Drops each message that equals the previous one; the first always goes through. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - receive: The handler, isolated to the actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func distinct(receive: @escaping @Sendable (isolated Isolation, Output) -> Void)
    where Output: Equatable, Output: Sendable {
        distinct().receive(receive)
    }

    /// Drops the first `count` messages, and lets every later one through. Then ends the chain with `receive`: starts the observation.
    ///
    /// - Parameters:
    ///   - count: How many messages to drop; not negative.
    ///   - receive: The handler, isolated to the actor.
    /// - Complexity: O(1) amortized, as `observe`; per message, O(1) more.
    @inlinable
    public func discard(first count: Int, receive: @escaping @Sendable (isolated Isolation, Output) -> Void) {
        discard(first: count).receive(receive)
    }
}
