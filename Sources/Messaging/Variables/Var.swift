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
/// number.value = 43   // sends nothing: the value did not change
/// ```
///
/// Reading and writing ``value`` is thread-safe: the value is kept under the lock of the variable's
/// messenger, and each change is numbered in the same atomic step, so observers receive the updates
/// in the order the changes happened, whichever threads made them. The comparison that decides
/// whether a change is sent (`old != new`) runs outside the lock, right before delivery.
///
/// ## Atomic Changes
///
/// These change the value in one atomic step: no other change can come between reading the old
/// value and writing the new one, so concurrent changes are never lost.
///
/// - ``modify(_:isolation:)``: `count.modify { $0 += 1 }`, any change computed from the value.
/// - Setting a value that does not depend on the old one: `value =` and
///   ``set(_:as:isolation:)``.
///
/// These are *not* atomic: `count.value += 1` and `count.value = count.value + 1` read the value,
/// then set it in a second step, so two threads doing so at once can lose an increment.
///
/// SwiftObserver's sugar for variables (`<-`, `count += 1`, `+ - * /` on number variables,
/// `int` and `string`, a string variable as a collection of characters, comparing variables by
/// value) is not part of this module: it comes with the opt-in `SwiftObserverCompatibility`
/// module. See <doc:MigratingToMessaging#The-SwiftObserver-compatibility-layer>.
public final class Var<Value: Equatable>: ObservableSource {
    /// The messenger that sends the variable's updates.
    public let messenger = Messenger<Update<Value>>()

    /// Guarded by the lock of `messenger`'s core. The lock makes every access exclusive, so the
    /// run-time exclusivity check (about 60 instructions per set) is left out.
    @exclusivity(unchecked) @usableFromInline var _storage: Value

    /// The bridge to Apple's Observation framework, made on the first read of ``value`` and kept
    /// from then on; `nil` before. Guarded by the lock of `messenger`'s core, like `_storage`.
    /// See `_VarTracking` for why it is an object of its own.
    @exclusivity(unchecked) @usableFromInline var _tracking: _VarTracking?

    /// Creates a variable holding `value`.
    ///
    /// - Parameter value: The initial value. Creating a variable sends nothing.
    public init(_ value: Value) {
        _storage = value
    }

    /// The current value. Setting a different value sends `Update(old, new)`, authored by the
    /// variable itself.
    ///
    /// A setter cannot know its caller's actor. Main-actor handlers run at once when the value is
    /// set on the main actor (recognised by the main dispatch queue being current); handlers on any
    /// other actor receive the update soon after, in order, on their actor.
    /// ``set(_:as:isolation:)`` knows the caller's actor and runs its handlers at once.
    ///
    /// Where Apple's Observation framework is available, reading the value inside
    /// `withObservationTracking` (a SwiftUI view's `body`, say) tracks the variable: the next
    /// change calls the scope's `onChange`, after the new value is stored. See
    /// <doc:ObservationBridge>.
    ///
    /// - Complexity: Reading is O(1). Setting is O(*n*) for *n* observers.
    @inlinable
    public var value: Value {
        get {
            // The bridge is never replaced or released while the variable lives, so it is used
            // without a retain: a retain and a release would double the cost of `_access`.
            let (value, tracking) = _withCore { core in
                core.withLock { (_storage, _tracking.map { Unmanaged.passUnretained($0) }) }
            }
            if let tracking {
                tracking._withUnsafeGuaranteedRef { $0._access() }
            } else {
                _beginTracking()
            }
            return value
        }
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
    /// It also counts as a change for Observation: tracking scopes that read the value are told,
    /// as a view showing the variable should be redrawn when asked to, even though setting an
    /// equal value tells them nothing.
    ///
    /// - Parameter isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*n*) for *n* observers.
    public func send(isolation: isolated (any Actor)? = #isolation) {
        var tracking: _VarTracking?
        messenger._core.sendChange(author: self, checksChange: false, isolation: isolation, standIn: messenger) {
            tracking = _tracking
            return Update(_storage, _storage)
        }
        tracking?._changed()
    }

    /// Changes the value in place in one atomic step, and sends the update like `value =`.
    ///
    /// ```swift
    /// count.modify { $0 += 1 }                     // never loses a concurrent change
    /// let old = count.modify { count in
    ///     defer { count = 0 }
    ///     return count                             // reset, and return what was there
    /// }
    /// ```
    ///
    /// No other change to the variable can come between reading the value and writing the new one,
    /// so increments from several threads are never lost, which `count.value += 1` (a read, then a
    /// separate write) does not guarantee. If the value changed, `modify` sends one update,
    /// authored by the variable; if `body` leaves the value equal to the old one, it sends nothing.
    ///
    /// - Important: `body` runs while the variable's lock is held, so every other reader and writer
    ///   of this variable waits for it. Keep it short, and let it only compute with the value it is
    ///   given: it must not read or write any `Var`, send or observe through any messenger, or call
    ///   code that might. Touching this variable from `body` deadlocks (on Apple platforms the lock
    ///   stops the program instead).
    ///
    /// If `body` throws, the value stays as it was, even if `body` changed it before throwing,
    /// nothing is sent, and `modify` throws the error.
    ///
    /// - Parameters:
    ///   - body: Changes the value it is given in place; may return a result.
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `modify` returns.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, with the value unchanged.
    /// - Complexity: O(*n*) for *n* observers, plus the cost of `body`.
    @discardableResult
    public func modify<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) throws(Failure) -> Result {
        try _modify(isolation: isolation, body)
    }

    /// ``modify(_:isolation:)`` for callers that cannot name their actor, such as operators.
    func _modify<Result, Failure: Error>(
        isolation: (any Actor)?,
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // `sendChange` takes a closure that cannot throw, so the outcome leaves it in a variable.
        // On failure the update carries the old value twice, and the unchanged update is dropped.
        // The closure is passed directly, not kept in a variable first, so that it stays on the
        // stack: a closure stored in a local is allocated on the heap.
        var outcome: Swift.Result<Result, Failure>?
        // What `body` left in the value when it threw: released after unlocking, like the rest.
        var abandoned: Value?
        // Copied out only if something may track the value; told after unlocking.
        var tracked: (Unmanaged<_VarTracking>, old: Value, new: Value)?
        _withCore { core in
            core.sendChange(
                author: self,
                checksChange: true,
                isolation: isolation,
                isUnchanged: { $0.old == $0.new },
                standIn: messenger,
                {
                    let old = self._storage
                    var new = old
                    do throws(Failure) {
                        outcome = .success(try body(&new))
                    } catch {
                        outcome = .failure(error)
                        abandoned = consume new
                        return Update(old, old)
                    }
                    self._storage = new
                    if let tracking = self._tracking { tracked = (Unmanaged.passUnretained(tracking), old, new) }
                    return Update(old, new)
                }
            )
        }
        _ = consume abandoned
        if let (tracking, old, new) = tracked, old != new { tracking._withUnsafeGuaranteedRef { $0._changed() } }
        // `produce` ran exactly once, before `sendChange` returned.
        return try outcome!.get()
    }

    /// Replaces the value with `transform(value)` and sends the update like `value =`, in one
    /// atomic step: no other change can come between reading the old value and setting the new.
    ///
    /// `transform` runs under the lock, so it must be library code that only computes a value
    /// (such as appending to a string), never user code.
    @inlinable
    func _transform(author: AnyObject, isolation: (any Actor)?, _ transform: (Value) -> Value) {
        // The closure only moves values: the old one leaves inside the update and is released,
        // like the update, outside the lock. It is passed directly so that it stays on the stack.
        // Observation is told after unlocking, and only if something read the value before.
        var tracked: (Unmanaged<_VarTracking>, old: Value, new: Value)?
        _withCore { core in
            core.sendChange(
                author: author,
                checksChange: true,
                isolation: isolation,
                isUnchanged: { $0.old == $0.new },
                standIn: messenger,
                {
                    let old = self._storage
                    let new = transform(old)
                    self._storage = new
                    if let tracking = self._tracking { tracked = (Unmanaged.passUnretained(tracking), old, new) }
                    return Update(old, new)
                }
            )
        }
        if let (tracking, old, new) = tracked, old != new { tracking._withUnsafeGuaranteedRef { $0._changed() } }
    }

    /// The messenger's core. The variable holds its messenger and the messenger its core, both as
    /// constants, for as long as the variable lives, so the core is used without a retain: read
    /// through two objects, the compiler would otherwise retain and release it on every set.
    @inlinable @inline(__always)
    func _withCore<Result>(_ body: (_MessengerCore<Update<Value>>) -> Result) -> Result {
        Unmanaged.passUnretained(messenger._core)._withUnsafeGuaranteedRef(body)
    }

    @inlinable
    func _set(_ newValue: Value, author: AnyObject, isolation: (any Actor)?) {
        _transform(author: author, isolation: isolation) { _ in newValue }
    }
}

// The value is only accessed under the lock of the messenger's core.
extension Var: @unchecked Sendable where Value: Sendable {}
