#if canImport(Observation)
import Observation
#endif

extension ObservableDictionary {
    /// Tells Observation that the entries were read: through the bridge if there is one, or after
    /// making it.
    func _access(_ tracking: _VarTracking?) {
        if let tracking {
            tracking._access()
        } else {
            _beginObservationTracking(of: self, in: messenger._core, at: \._tracking)
        }
    }
}

#if canImport(Observation)
/// Where Apple's Observation framework is available, reading ``ObservableDictionary/value``,
/// ``ObservableDictionary/count`` or a value by key inside `withObservationTracking` (a SwiftUI
/// view's `body`, say) tracks the dictionary: the next edit that changes it (or the end of a
/// transaction that changed it) calls the scope's `onChange`, after the new entries are stored and
/// the change delivered.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ObservableDictionary: Observable {}
#endif
