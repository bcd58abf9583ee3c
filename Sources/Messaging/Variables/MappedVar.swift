/// A two-way mapping of a ``Var``: reading it maps the variable's value, writing it writes the
/// variable through the inverse mapping. Made by ``Var/map(_:inverse:)``.
///
/// ```swift
/// let celsius = Var(20.0)
/// let fahrenheit = celsius.map({ $0 * 9 / 5 + 32 }, inverse: { ($0 - 32) * 5 / 9 })
///
/// observer.observe(fahrenheit) { update in print(update.old, "→", update.new) }
/// fahrenheit.value = 212   // celsius.value is now 100; prints 68.0 → 212.0
/// celsius.value = 0        // prints 212.0 → 32.0
/// ```
///
/// This is GlueKit's "updatable" mapping: a view of one variable in other units, another type or
/// another shape, that a text field or a slider can both show and edit. The variable stays the
/// one place the value lives; the mapping holds no value of its own.
///
/// It sends `Update(forward(old), forward(new))` for each update of the variable that changes the
/// mapped value, and nothing for one that does not (two values that map to the same one). Like
/// every standalone transform, it observes the variable only while it is observed itself, and
/// its updates carry the author of the variable's update.
///
/// The two closures should undo each other: `forward(inverse(x)) == x`. Where they do not (a
/// lossy conversion), writing `x` stores `inverse(x)` in the variable, and reading gives
/// `forward(inverse(x))`, the value the variable really holds. For a compound edit in one
/// atomic step, modify the variable: `variable.modify { ... }`.
///
/// - Complexity: Reading and writing cost one call of `forward` or `inverse` plus the variable's
///   read or set; per update of the variable, while observed, two calls of `forward` and a
///   comparison, then one send.
public final class MappedVar<Source: Equatable & Sendable, Value: Equatable & Sendable>: ObservableCache {
    /// The variable that holds the value.
    public let variable: Var<Source>

    @usableFromInline let _forward: @Sendable (Source) -> Value
    @usableFromInline let _inverse: @Sendable (Value) -> Source
    @usableFromInline let _updates: Filtered<Var<Source>, Update<Value>>

    /// Makes a two-way mapping of `variable`; the same as `variable.map(forward, inverse: inverse)`.
    ///
    /// - Parameters:
    ///   - variable: The variable that holds the value. Held strongly.
    ///   - forward: Maps the variable's value to this mapping's value; runs on the thread that
    ///     reads the value, or that delivers the variable's update.
    ///   - inverse: Maps a value written to this mapping to the variable's value; runs on the thread
    ///     that writes.
    /// - Complexity: O(1).
    @inlinable
    public init(
        _ variable: Var<Source>,
        forward: @escaping @Sendable (Source) -> Value,
        inverse: @escaping @Sendable (Value) -> Source
    ) {
        self.variable = variable
        _forward = forward
        _inverse = inverse
        _updates = Filtered(variable) { update, _ in
            let old = forward(update.old)
            let new = forward(update.new)
            return old == new ? nil : Update(old, new)
        }
    }

    /// The messenger that sends the mapped updates.
    public var messenger: Messenger<Update<Value>> { _updates.messenger }

    /// The variable's value, mapped; setting it sets the variable to `inverse(newValue)`, authored
    /// by the variable, as setting ``Var/value`` is.
    ///
    /// - Complexity: One call of `forward` or `inverse`, plus the variable's read, or its set:
    ///   O(*n*) for its *n* observers.
    @inlinable
    public var value: Value {
        get { _forward(variable.value) }
        set { variable.value = _inverse(newValue) }
    }

    /// Sets the variable to `inverse(value)` and names the author of its update.
    ///
    /// - Parameters:
    ///   - value: The new mapped value.
    ///   - author: The author of the variable's update, which this mapping forwards.
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `set` returns.
    /// - Complexity: One call of `inverse`, plus the variable's set: O(*n*) for its *n* observers.
    @inlinable
    public func set(_ value: Value, as author: AnyObject, isolation: isolated (any Actor)? = #isolation) {
        variable.set(_inverse(value), as: author, isolation: isolation)
    }

    /// The current mapped value as an update whose `old` and `new` are equal, as ``Var`` gives.
    ///
    /// - Complexity: One call of `forward`, plus the variable's read.
    public var latestMessage: Update<Value> {
        let value = value
        return Update(value, value)
    }
}

// Every stored property is immutable and `Sendable`; the value lives in the variable, guarded by
// its messenger's lock.
extension MappedVar: Sendable {}

extension Var where Value: Sendable {
    /// A two-way mapping of this variable: reading it gives `forward(value)`, writing `x` to it
    /// sets this variable to `inverse(x)`.
    ///
    /// ```swift
    /// let celsius = Var(20.0)
    /// let fahrenheit = celsius.map({ $0 * 9 / 5 + 32 }, inverse: { ($0 - 32) * 5 / 9 })
    /// fahrenheit.value = 212   // celsius.value is now 100
    /// ```
    ///
    /// See ``MappedVar`` for what it sends and when.
    ///
    /// - Parameters:
    ///   - forward: Maps this variable's value to the mapping's value.
    ///   - inverse: Maps a value written to the mapping back to this variable's value.
    /// - Returns: The mapping; it observes this variable only while it is observed itself.
    /// - Complexity: O(1).
    @inlinable
    public func map<Mapped: Equatable & Sendable>(
        _ forward: @escaping @Sendable (Value) -> Mapped,
        inverse: @escaping @Sendable (Mapped) -> Value
    ) -> MappedVar<Value, Mapped> {
        MappedVar(self, forward: forward, inverse: inverse)
    }
}
