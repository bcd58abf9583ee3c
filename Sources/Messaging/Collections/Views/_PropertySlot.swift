/// A view's slot that observes a property of one element: `_FollowEachSlot`, `_PropertyFilterSlot`
/// and `_PropertySetFilterSlot`. Its fields are guarded by the lock of the view's state.
protocol _PropertySlot: AnyObject {
    /// What the property's observation receives.
    associatedtype Observed

    /// Whether the element left the view: the updates of its property change nothing then.
    var isDead: Bool { get set }

    /// The observation of the element's property, until the slot dies.
    var observation: _Observation<Observed>? { get set }
}

/// Ends the observations of `slots`, whose elements left a view: marks them dead and takes their
/// observations out in one step under `withLock`, the view state's lock, and ends them after
/// unlocking, since ending one releases what its handler holds.
///
/// - Complexity: O(*k*) for *k* slots.
func _endObservations<Slot: _PropertySlot>(
    of slots: [Slot],
    withLock: (() -> [_Observation<Slot.Observed>]) -> [_Observation<Slot.Observed>]
) {
    guard !slots.isEmpty else { return }
    let observations = withLock {
        slots.compactMap { slot in
            slot.isDead = true
            return slot.observation.take()
        }
    }
    for observation in observations { _ = observation._end() }
}
