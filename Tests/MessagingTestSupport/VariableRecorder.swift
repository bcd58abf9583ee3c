// Helpers that the tests of Messaging and of its SwiftObserver compatibility layer share.

import Messaging
import SharedTestSupport

/// Records every update a variable sends, with its author, in delivery order.
public final class VariableRecorder<Value: Equatable & Sendable>: Sendable {
    /// The updates received so far, in delivery order.
    public var updates: [Update<Value>] { _updates.value }
    /// The author of each update in ``updates``, in the same order.
    public var authors: [AnyObject] { _authors.objects }
    private let _updates = Locked([Update<Value>]())
    private let _authors = ObjectLog()
    private let token = FreeObserver()

    /// Starts recording the updates of `variable`.
    public init(_ variable: Var<Value>) {
        token.observe(variable) { [weak self] update, author in
            self?._updates.withLock { $0.append(update) }
            self?._authors.append(author)
        }
    }
}
