extension _MessengerCore {
    /// Adds an observation and runs `body` under the same lock, in one atomic step.
    ///
    /// What `body` reads of the state the lock guards (a variable's value) is exactly the state
    /// before every message that the observation will receive: a change made before this step is
    /// already in that state, and one made after is sent to the observation. A variable's async
    /// sequence of values seeds its buffer this way, so it neither misses nor repeats a change.
    ///
    /// `body` must be library code that only moves values (copying the value, storing it in a
    /// buffer no other thread can reach yet): never user code, a release that could run a
    /// `deinit`, or anything that takes another lock of the library.
    ///
    /// - Parameters:
    ///   - observation: A new, active observation.
    ///   - body: Runs under the core's lock, after the observation is in the table.
    /// - Complexity: O(1) amortized, plus the cost of `body`.
    @inlinable
    final func insert(_ observation: _Observation<Message>, whileLocked body: () -> Void) {
        withLock {
            if observation._isActiveWhileLocked { _state.pointee.insert(observation) }
            body()
        }
    }
}
