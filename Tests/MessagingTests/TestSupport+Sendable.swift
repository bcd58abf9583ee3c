// Sendable helpers for tests whose handlers record objects or references: an `Observer`'s handlers
// are `@Sendable`, so what they change must be safe to share between threads.

import Foundation
import Messaging

/// A weak reference that several threads read and change.
final class WeakReference<Object: AnyObject & Sendable>: @unchecked Sendable {  // `_object`: `_lock`
    private let _lock = NSLock()
    private weak var _object: Object?

    init(_ object: Object? = nil) {
        _object = object
    }

    /// The object, while it is alive.
    var object: Object? {
        get { _lock.withLock { _object } }
        set { _lock.withLock { _object = newValue } }
    }
}

/// A main-actor observer with nothing else: its handlers run on the main actor and may capture the
/// main-actor state of a test.
@MainActor
final class MainActorToken: MainActorObserver {
    let receiver = Receiver()
}
