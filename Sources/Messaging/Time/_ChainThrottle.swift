/// The state of one chain observation's throttle stage, or of a standalone ``Throttled``.
///
/// `@unchecked Sendable`: only one observation's handler touches it (the chain's, or the
/// ``Throttled``'s observation of its source), and a messenger never runs its handlers twice at
/// once (see `_TransformState`).
///
/// Its per-message path is inlinable, like those of the other time stages: specialized in the
/// client, it reads no type metadata at run time.
@usableFromInline
final class _ChainThrottle<Value>: @unchecked Sendable {
    @usableFromInline let timeline: _Timeline
    /// Accessed by one delivery at a time, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) @usableFromInline var state: _ThrottleState<Value>

    @usableFromInline
    init(interval: Duration, clock: any Clock<Duration>) {
        timeline = _Timeline(clock)
        state = _ThrottleState(interval: interval)
    }

    /// `value` if it may go on now, `nil` if it is dropped: one clock reading and a comparison.
    @inlinable
    func pass(_ value: Value) -> Value? {
        let now = timeline.now
        guard case .deliver(let value) = state.receive(value, now: now) else { return nil }
        return value
    }
}
