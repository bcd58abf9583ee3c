#if canImport(Observation)
import Observation
#endif

/// What a ``Var`` tells Apple's Observation framework: the base class does nothing.
///
/// A variable keeps one of these in a stored property, made on the first read of ``Var/value``
/// (see ``Var/_beginTracking()``). It is a class of its own, rather than an
/// `ObservationRegistrar` stored in the variable, for two reasons:
///
/// - The package supports systems older than Observation (macOS 13, iOS 16), and a stored
///   property cannot have a type that is only available on newer systems. This base class is
///   available everywhere; the subclass that holds the registrar, `_VarRegistrar`, exists only
///   where Observation can be imported and is made only where it is available.
/// - An `ObservationRegistrar` costs two allocations and its `willSet` and `didSet` several
///   hundred instructions each time, even when nothing tracks the variable. Making it on the first
///   read leaves a variable that is never read through `value` (one only observed through its
///   messenger, say) exactly as it was: one pointer-sized field, `nil`, and no work when it is set.
///
/// Once made it stays for the variable's life: Observation gives no way to learn whether a
/// tracking scope still waits for a change, so every change after the first read tells the
/// registrar.
@usableFromInline
class _VarTracking<Value: Equatable> {
    @usableFromInline
    init() {}

    /// Records a read of the variable's value in the tracking scope of the current thread, if any.
    ///
    /// Call it outside the variable's lock.
    @usableFromInline
    func _access(_ variable: Var<Value>) {}

    /// Tells tracking scopes that the value changed from `old` to `new`, unless they are equal.
    ///
    /// Call it outside the variable's lock, after the new value is stored: `==` and the scopes'
    /// `onChange` closures run here.
    @usableFromInline
    func _changed(_ variable: Var<Value>, from old: Value, to new: Value) {}

    /// Tells tracking scopes that the value was sent again, whether or not it changed.
    ///
    /// Call it outside the variable's lock.
    @usableFromInline
    func _resent(_ variable: Var<Value>) {}
}

extension Var {
    /// Makes the variable's bridge to Observation, where Observation is available, and records
    /// the read that asked for it.
    ///
    /// Called by the getter of ``value`` while the bridge does not exist yet. On systems without
    /// Observation it does nothing, and is called again by the next read.
    @usableFromInline
    @inline(never)
    func _beginTracking() {
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            let made = _VarRegistrar<Value>()
            // Under the lock only pointers move; the bridge that lost a race is released after.
            let tracking = messenger._core.withLock {
                if let existing = _tracking { return existing }
                _tracking = made
                return made
            }
            tracking._access(self)
        }
        #endif
    }
}

#if canImport(Observation)
/// A ``Var``'s bridge to Observation: its registrar and the key path of its value.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class _VarRegistrar<Value: Equatable>: _VarTracking<Value> {
    let registrar = ObservationRegistrar()

    /// Made once here: forming a key path literal on every call costs a runtime lookup.
    let keyPath: KeyPath<Var<Value>, Value> = \.value

    override init() {}

    override func _access(_ variable: Var<Value>) {
        registrar.access(variable, keyPath: keyPath)
    }

    override func _changed(_ variable: Var<Value>, from old: Value, to new: Value) {
        guard old != new else { return }
        _resent(variable)
    }

    override func _resent(_ variable: Var<Value>) {
        // `willSet` runs the `onChange` closures of the tracking scopes that read the value, so it
        // is called here, outside every lock, after the value is stored: an `onChange` that reads
        // the variable sees the new value.
        registrar.willSet(variable, keyPath: keyPath)
        registrar.didSet(variable, keyPath: keyPath)
    }
}

/// A variable is observable by Observation too: reading ``Var/value`` inside
/// `withObservationTracking` (and so in a SwiftUI view's `body`) tracks it, and a change to the
/// value calls the scope's `onChange`. See <doc:ObservationBridge>.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Var: Observable {}
#endif
