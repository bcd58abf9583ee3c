/// The latest message of `source` if it is an ``ObservableCache``.
func _latestMessage<Origin: ObservableSource>(ifCache source: Origin) -> Origin.Message? {
    guard let cache = source as? any ObservableCache else { return nil }
    return _openLatestMessage(cache) as? Origin.Message
}

private func _openLatestMessage<Cache: ObservableCache>(_ cache: Cache) -> Any {
    cache.latestMessage
}

/// The latest message of one source of a combination; guarded by its ``_CombineState``'s lock, so
/// the run-time exclusivity check is left out.
@usableFromInline
final class _LatestSlot<Value> {
    @exclusivity(unchecked) @usableFromInline var value: Value?
    /// How many messages the source sent to the combination.
    @exclusivity(unchecked) @usableFromInline var received: UInt64 = 0

    @inlinable
    init() {}
}

/// Why a tuple could not be made: a source has no message yet.
@usableFromInline
struct _NoMessageYet: Error {
    @inlinable
    init() {}
}

/// Unwraps a slot's value for a tuple; typed, so that failing allocates nothing.
@inlinable @inline(__always)
func _required<Value>(_ slot: _LatestSlot<Value>) throws(_NoMessageYet) -> Value {
    guard let value = slot.value else { throw _NoMessageYet() }
    return value
}

/// A new slot, typed after `type`.
@inlinable
func _makeSlot<Value>(_ type: Value.Type) -> _LatestSlot<Value> { _LatestSlot() }

/// The latest messages of a combination's sources.
///
/// Inlinable, like ``_Outbox``: every message of a source goes through ``receive(_:in:author:isolation:)``,
/// which, specialized in the client's code, looks up no type metadata at run time.
@usableFromInline
final class _CombineState<each Value>: @unchecked Sendable {
    // The slots' contents and the outbox are guarded by `_lock`.
    @usableFromInline let _lock: _Lock
    @usableFromInline let slots: (repeat _LatestSlot<each Value>)
    @usableFromInline let _outbox: _Outbox<(repeat each Value)>
    /// The tuple of the latest messages, if every source has one. Call under the lock.
    @usableFromInline let _combined: () -> (repeat each Value)?

    /// A state whose tuples are made through the parameter pack, for any number of sources.
    @inlinable
    convenience init(core: _MessengerCore<(repeat each Value)>) {
        let slots = (repeat _makeSlot((each Value).self))
        self.init(core: core, slots: repeat each slots) {
            do throws(_NoMessageYet) {
                return (repeat try _required(each slots))
            } catch {
                return nil
            }
        }
    }

    /// A state with `slots`, whose tuples `combined` makes from them.
    ///
    /// A tuple made through the parameter pack works with type metadata at run time, even in
    /// specialized code (hundreds of instructions); `combineLatest` of two to four sources
    /// passes a closure that reads their slots by name.
    @inlinable
    init(
        core: _MessengerCore<(repeat each Value)>,
        slots: repeat _LatestSlot<each Value>,
        combined: @escaping () -> (repeat each Value)?
    ) {
        let lock = _Lock()
        _lock = lock
        _outbox = _Outbox(core: core, lock: lock)
        self.slots = (repeat each slots)
        _combined = combined
    }

    /// How many messages the source of `slot` sent.
    @inlinable
    func receivedCount<Slot>(of slot: _LatestSlot<Slot>) -> UInt64 {
        _lock.withLock { slot.received }
    }

    /// Stores a cache's latest message unless its source sent since `received`; sends nothing.
    @inlinable
    func seed<Slot>(_ latest: Slot, in slot: _LatestSlot<Slot>, ifReceivedCountIs received: UInt64) {
        var value: Slot? = latest
        _lock.withLock {
            if slot.received == received { swap(&value, &slot.value) }
        }
        withExtendedLifetime(value) {}  // the replaced message is released here, outside the lock
    }

}

extension _CombineState: _Combining {
    @inlinable
    func _postCombined(author: AnyObject) -> Bool {
        _combined().map { _outbox.post($0, author: author) } ?? false
    }

    @inlinable
    func _sendPosted(isolation: (any Actor)?) {
        _outbox.send(isolation: isolation)
    }
}

/// What the handler of a combination's source needs of its ``_CombineState``, without naming the
/// state's parameter pack: the compiler specializes a function generic over a pack and another
/// parameter less well than one generic over plain types.
@usableFromInline
protocol _Combining: AnyObject {
    var _lock: _Lock { get }
    /// Queues the tuple of the latest messages, if every source has one; `true` if the caller must
    /// then send. Call under the lock.
    func _postCombined(author: AnyObject) -> Bool
    /// Sends the queued tuples; call without the lock.
    func _sendPosted(isolation: (any Actor)?)
}

/// A ``_CombineState`` behind closures made in specialized code, for the handlers that
/// `CombinedLatest.init(_:)` makes through its parameter pack: see there.
@usableFromInline
final class _ErasedCombining: _Combining {
    @usableFromInline let _lock: _Lock
    @usableFromInline let _post: (AnyObject) -> Bool
    @usableFromInline let _send: ((any Actor)?) -> Void

    @inlinable
    init(_lock: _Lock, post: @escaping (AnyObject) -> Bool, send: @escaping ((any Actor)?) -> Void) {
        self._lock = _lock
        _post = post
        _send = send
    }

    @inlinable
    func _postCombined(author: AnyObject) -> Bool { _post(author) }

    @inlinable
    func _sendPosted(isolation: (any Actor)?) { _send(isolation) }
}

/// The handler of one source's messages: stores each in `slot` and sends the new tuple, if every
/// source has a message.
///
/// - Complexity: O(*n*) for *n* sources, and one send.
@inlinable
func _combinationHandler<State: _Combining, Slot>(
    _ state: State,
    _ slot: _LatestSlot<Slot>
) -> (Slot, AnyObject, (any Actor)?) -> Void {
    { message, author, isolation in
        var replaced: Slot? = message
        state._lock.lock()
        swap(&replaced, &slot.value)
        slot.received &+= 1
        let sends = state._postCombined(author: author)
        state._lock.unlock()
        withExtendedLifetime(replaced) {}  // released here, outside the lock
        if sends { state._sendPosted(isolation: isolation) }
    }
}
