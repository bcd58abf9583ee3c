/// An observable variable: it holds a value and sends an ``Update`` whenever the value changes.
///
/// ```swift
/// let number = Var(42)
///
/// observer.observe(number) { update in
///     print("from \(update.old) to \(update.new)")
/// }
///
/// number.value = 43   // sends Update(42, 43)
/// number <- 44        // the same, shorter
/// number.value = 44   // sends nothing: the value did not change
/// ```
///
/// Reading and writing ``value`` is thread-safe: the value is kept under the lock of the variable's
/// messenger, and each change is numbered in the same atomic step, so observers receive the updates
/// in the order the changes happened, whichever threads made them. The comparison that decides
/// whether a change is sent (`old != new`) runs outside the lock, right before delivery.
///
/// A `Var` is `Equatable` (and `Comparable` where its value is), by value.
public final class Var<Value: Equatable>: ObservableSource {
    /// The messenger that sends the variable's updates.
    public let messenger = Messenger<Update<Value>>()

    /// Guarded by the lock of `messenger`'s core.
    @usableFromInline var _storage: Value

    /// Creates a variable holding `value`.
    ///
    /// - Parameter value: The initial value. Creating a variable sends nothing.
    public init(_ value: Value) {
        _storage = value
    }

    /// The current value. Setting a different value sends `Update(old, new)`, authored by the
    /// variable itself.
    ///
    /// A setter cannot know its caller's actor: handlers isolated to an actor other than the main
    /// actor (or to the main actor, when set off the main thread) receive the update soon after,
    /// in order, on their actor. ``set(_:as:isolation:)`` knows the caller's actor and runs its
    /// handlers at once.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    public var value: Value {
        get { messenger._core._lock.withLock { _storage } }
        set { _set(newValue, author: self, isolation: nil) }
    }

    /// Sets the value and names the author of the update.
    ///
    /// ```swift
    /// sharedText.set("my new text", as: self)  // observers can tell this edit came from `self`
    /// ```
    ///
    /// - Parameters:
    ///   - value: The new value. Sends nothing if it equals the current value.
    ///   - author: The object to present as the update's author.
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `set` returns.
    /// - Complexity: O(*n*) for *n* observers.
    public func set(_ value: Value, as author: AnyObject, isolation: isolated (any Actor)? = #isolation) {
        _set(value, author: author, isolation: isolation)
    }

    /// Sends the current value again, as an update whose `old` and `new` are equal.
    ///
    /// - Parameter isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*n*) for *n* observers.
    public func send(isolation: isolated (any Actor)? = #isolation) {
        messenger._core.sendChange(author: self, shouldDeliver: nil, isolation: isolation) {
            Update(_storage, _storage)
        }
    }

    /// Replaces the value with `transform(value)` and sends the update like `value =`, in one
    /// atomic step: no other change can come between reading the old value and setting the new.
    ///
    /// `transform` runs under the lock, so it must be library code that only computes a value
    /// (such as appending to a string), never user code.
    func _transform(author: AnyObject, isolation: (any Actor)?, _ transform: (Value) -> Value) {
        // `produce` only moves values: the old one leaves inside the update and is released, like
        // the update, outside the lock.
        let produce = { () -> Update<Value> in
            let old = self._storage
            let new = transform(old)
            self._storage = new
            return Update(old, new)
        }
        messenger._core.sendChange(
            author: author,
            shouldDeliver: { $0.old != $0.new },
            isolation: isolation,
            produce
        )
    }

    private func _set(_ newValue: Value, author: AnyObject, isolation: (any Actor)?) {
        _transform(author: author, isolation: isolation) { _ in newValue }
    }
}

// The value is only accessed under the lock of the messenger's core.
extension Var: @unchecked Sendable where Value: Sendable {}

extension Var: Equatable {
    /// Whether both variables hold equal values.
    ///
    /// - Parameters:
    ///   - lhs: A variable.
    ///   - rhs: Another variable.
    /// - Returns: `lhs.value == rhs.value`.
    public static func == (lhs: Var, rhs: Var) -> Bool { lhs.value == rhs.value }
}

extension Var: Comparable where Value: Comparable {
    /// Whether the first variable's value is less than the second's.
    ///
    /// - Parameters:
    ///   - lhs: A variable.
    ///   - rhs: Another variable.
    /// - Returns: `lhs.value < rhs.value`.
    public static func < (lhs: Var, rhs: Var) -> Bool { lhs.value < rhs.value }
}

infix operator <- : AssignmentPrecedence

extension Var {
    /// Sets the variable's value: `number <- 42` is `number.value = 42`.
    ///
    /// - Parameters:
    ///   - variable: The variable to set.
    ///   - value: The new value.
    public static func <- (variable: Var, value: Value) {
        variable.value = value
    }
}
