import Dispatch

/// Where a call's bounded share of work goes when the call's budget is spent: a messenger's
/// delivery of other threads' messages, a receiver's relationship callbacks. Counts the runners
/// that have not finished, so that ``waitForPendingDeliveries()`` can wait for them.
enum _HandOffs {
    /// The runners started and not finished.
    private static let _inFlight = _LockedBox(0)

    /// Runs `work` on a dispatch queue of its own.
    ///
    /// A queue of its own runs on a thread the system adds when others are blocked, unlike a task,
    /// which waits for a free thread of the fixed concurrency pool: a pool kept busy by callers
    /// that block would never run the work.
    static func run(label: String, _ work: @escaping @Sendable () -> Void) {
        _inFlight.add(1)
        DispatchQueue(label: label).async {
            work()
            _inFlight.add(-1)
        }
    }

    /// How many runners took over work and have not finished.
    static var inFlight: Int { _inFlight.value }
}
