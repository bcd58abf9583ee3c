/// Opens a chain of promises: returns the promise that `makePromise` returns.
///
/// ```swift
/// promise {                   // establish context and increase readability
///     getInt()                // return a Promise<Int>
/// }.then {                    // chain another promise sequentially
///     getString(takeInt: $0)  // take Int sent by 'promise', return a Promise<String>
/// }.whenFulfilled {
///     print($0)               // print String sent by promise 'then'
/// }
/// ```
///
/// It adds nothing but readability: every step of the chain is a closure, and the chain says
/// that it deals with promises.
///
/// - Parameter makePromise: Called at once; returns the first promise of the chain.
/// - Returns: The promise that `makePromise` returned.
public func promise<Value>(_ makePromise: () -> Promise<Value>) -> Promise<Value> {
    makePromise()
}

extension Promise {
    /// Chains another promise sequentially: when this promise is fulfilled, `makeNext` makes the
    /// next one from its value.
    ///
    /// ```swift
    /// promise {
    ///     getInt()
    /// }.then { int in
    ///     getString(takeInt: int)  // a Promise<String> that depends on the Int
    /// }.whenFulfilled { string in
    ///     print(string)
    /// }
    /// ```
    ///
    /// The returned promise is kept alive by this one until this one is fulfilled, then by the
    /// promise that `makeNext` returned until that one is: keeping the end of a chain is never
    /// necessary. Chains may be of any length: their promises are fulfilled by a loop, not by
    /// nested calls.
    ///
    /// - Parameter makeNext: Called once, with this promise's value, on the thread that fulfils
    ///   it (or at once, if it is fulfilled already).
    /// - Returns: A promise fulfilled with the value of the promise that `makeNext` returns.
    /// - Complexity: O(1) amortized.
    public func then<Next>(_ makeNext: @escaping @Sendable (Value) -> Promise<Next>) -> Promise<Next> {
        let next = Promise<Next>()
        _whenFulfilled { value in
            makeNext(value)._whenFulfilled { nextValue in next._fulfillLater(nextValue) }
        }.run()
        return next
    }

    /// Chains another promise concurrently: both are under way at once, and the returned promise
    /// is fulfilled with both values once both are fulfilled.
    ///
    /// ```swift
    /// promise {
    ///     getInt()
    /// }.and {
    ///     getString()  // starts now, not after getInt()
    /// }.whenFulfilled { (int, string) in
    ///     print(int, string)
    /// }
    /// ```
    ///
    /// - Parameter makeOther: Called at once, before `and` returns; returns the other promise.
    /// - Returns: A promise of this promise's value and the other promise's value, in that order.
    /// - Complexity: O(1) amortized.
    public func and<Other>(_ makeOther: () -> Promise<Other>) -> Promise<(Value, Other)> {
        let other = makeOther()
        let both = Promise<(Value, Other)>()
        _whenFulfilled { value in
            other._whenFulfilled { otherValue in both._fulfillLater((value, otherValue)) }
        }.run()
        return both
    }

    /// Maps the value: returns a promise of `transform`'s result.
    ///
    /// ```swift
    /// promise {
    ///     getInt()
    /// }.whenFulfilled {
    ///     print($0)   // the Int
    /// }.map {
    ///     "\($0)"     // the Int as a String
    /// }.whenFulfilled {
    ///     print($0)   // the String
    /// }
    /// ```
    ///
    /// - Parameter transform: Called once, with the value, on the thread that fulfils this promise
    ///   (or at once, if it is fulfilled already).
    /// - Returns: A promise fulfilled with the transformed value when this one is fulfilled.
    /// - Complexity: O(1) amortized.
    public func map<Next>(_ transform: @escaping @Sendable (Value) -> Next) -> Promise<Next> {
        let next = Promise<Next>()
        _whenFulfilled { value in next._fulfillLater(transform(value)) }.run()
        return next
    }

    /// Replaces a `nil` value with `defaultValue`.
    ///
    /// ```swift
    /// let title: Promise<String?> = loadTitle()
    /// title.unwrap("Untitled").whenFulfilled { title in print(title) }
    /// ```
    ///
    /// - Parameter defaultValue: The value of the returned promise when this one's is `nil`.
    /// - Returns: A promise of the unwrapped value.
    /// - Complexity: O(1) amortized.
    public func unwrap<Wrapped>(_ defaultValue: Wrapped) -> Promise<Wrapped> where Value == Wrapped? {
        map { $0 ?? defaultValue }
    }

    /// Takes the new value of an ``Update``.
    ///
    /// - Returns: A promise of the update's ``Update/new`` value.
    /// - Complexity: O(1) amortized.
    public func new<Wrapped>() -> Promise<Wrapped> where Value == Update<Wrapped> {
        map { $0.new }
    }
}
