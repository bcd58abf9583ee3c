/// Deliveries of fulfilled promises that are still to be made, in order.
///
/// A promise made by composition is fulfilled by a link of the promise before it (see
/// ``_PromiseWaiter/link(_:)``). If the link delivered to that promise's waiters itself, a chain of
/// *n* promises would nest *n* calls deep and could overflow the stack; instead it returns the
/// delivery as work, and whoever fulfilled the first promise runs the work in a loop.
@usableFromInline
struct _PromiseWork {
    @usableFromInline var steps: [() -> _PromiseWork] = []

    /// No work.
    @inlinable
    init() {}

    /// One delivery.
    @inlinable
    init(_ step: @escaping () -> _PromiseWork) {
        steps = [step]
    }

    /// Whether there is nothing to do.
    @inlinable
    var isEmpty: Bool { steps.isEmpty }

    /// Adds `other`'s steps after this work's.
    @inlinable
    mutating func append(_ other: _PromiseWork) {
        steps += other.steps
    }

    /// Runs the steps in order, and the steps they return after them, until none is left.
    ///
    /// - Complexity: O(*n*) for *n* steps, and constant stack depth.
    @inlinable
    consuming func run() {
        var index = 0
        while index < steps.count {
            let more = steps[index]()
            index += 1
            if index == steps.count {
                // The common case, a chain: start over instead of growing the list.
                steps = more.steps
                index = 0
            } else {
                steps += more.steps
            }
        }
    }
}
