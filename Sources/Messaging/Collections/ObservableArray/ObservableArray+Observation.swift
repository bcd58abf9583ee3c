#if canImport(Observation)
import Observation
#endif

extension ObservableArray {
    /// Tells Observation that the contents were read: through the bridge if there is one, or
    /// after making it.
    @usableFromInline
    func _access(_ tracking: _VarTracking?) {
        if let tracking {
            tracking._access()
        } else {
            _beginTracking()
        }
    }

    /// Makes the bridge to Observation on the first read, where the framework is available.
    @usableFromInline
    @inline(never)
    func _beginTracking() {
        _beginObservationTracking(of: self, in: messenger._core, at: \._tracking)
    }
}

#if canImport(Observation)
/// Where Apple's Observation framework is available, reading ``ObservableArray/value`` or
/// ``ObservableArray/count`` inside `withObservationTracking` (a SwiftUI view's `body`, say)
/// tracks the array: the next edit that changes it (or the end of a transaction that changed it)
/// calls the scope's `onChange`, after the new contents are stored and the change delivered.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ObservableArray: Observable {}
#endif
