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
///   messenger, say) as it was, but for one pointer-sized field, `nil`, tested on each change.
///
/// Once made it stays for the variable's life: Observation gives no way to learn whether a
/// tracking scope still waits for a change, so every change after the first read tells the
/// registrar.
@usableFromInline
class _VarTracking {
    @usableFromInline
    init() {}

    /// Records a read of the variable's value in the tracking scope of the current thread, if any.
    ///
    /// Call it outside the variable's lock.
    @usableFromInline
    func _access() {}

    /// Tells the tracking scopes that read the value that it changed (or was sent again).
    ///
    /// Call it outside the variable's lock, after the new value is stored: the scopes' `onChange`
    /// closures run here. The caller decides whether the value changed, in its own specialized
    /// code, so that nothing here depends on the value's type.
    @usableFromInline
    func _changed() {}
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
        _beginObservationTracking(of: self, in: messenger._core, at: \._tracking)
    }
}

/// Makes the bridge to Observation of an observable whose state `core`'s lock guards, where the
/// framework is available, stores it at `slot` unless another thread stored one first, and
/// records the read that asked for it: what the first read of a ``Var``'s value or of a
/// collection's contents does.
///
/// Under the lock only pointers move; the bridge that lost a race is released after.
func _beginObservationTracking<Owner: AnyObject, Message>(
    of owner: Owner,
    in core: _MessengerCore<Message>,
    at slot: ReferenceWritableKeyPath<Owner, _VarTracking?>
) {
    #if canImport(Observation)
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
        let made = _VarRegistrar()
        let tracking = core.withLock {
            if let existing = owner[keyPath: slot] { return existing }
            owner[keyPath: slot] = made
            return made
        }
        tracking._access()
    }
    #endif
}

#if canImport(Observation)
/// A ``Var``'s bridge to Observation: its own registrar.
///
/// The registrar belongs to one variable only, so what it is told about needs no identity of the
/// variable: it reports reads and changes of its own `value` key path, with itself as the subject.
/// Nothing here is generic over the variable's value, so each call is a direct call with fixed
/// metadata; naming `Var<Value>` would look up the generic type's metadata and conformance on
/// every read and change, and make a new key path object for every variable.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class _VarRegistrar: _VarTracking, Observable {
    let registrar = ObservationRegistrar()

    /// What the registrar reports as changing. Never read: only its key path is used.
    var value: Void { () }

    /// Made once: forming a key path literal costs a runtime lookup each time.
    static let valueKeyPath: KeyPath<_VarRegistrar, Void> & Sendable = \.value

    override init() {}

    override func _access() {
        registrar.access(self, keyPath: Self.valueKeyPath)
    }

    override func _changed() {
        // `willSet` runs the `onChange` closures of the tracking scopes that read the value, so it
        // is called here, outside every lock, after the value is stored: an `onChange` that reads
        // the variable sees the new value.
        registrar.willSet(self, keyPath: Self.valueKeyPath)
        registrar.didSet(self, keyPath: Self.valueKeyPath)
    }
}

/// A variable is observable by Observation too: reading ``Var/value`` inside
/// `withObservationTracking` (and so in a SwiftUI view's `body`) tracks it, and a change to the
/// value calls the scope's `onChange`. See <doc:ObservationBridge>.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Var: Observable {}
#endif
