import _MessagingShims

/// The one lock type of the Messaging layer: a one-word lock (`_messaging_lock_t`, see
/// `_MessagingShims.h`) in an allocation of its own.
///
/// Not `Synchronization.Mutex`: that needs macOS 15 / iOS 18 (the library supports macOS 13 /
/// iOS 16), and on Linux it is built on priority-inheritance futexes, which measured about 4× slower
/// than a plain futex mutex with two threads contending. Not `pthread_mutex_t` either: that is 40
/// bytes on Linux, must be initialised and destroyed, and is taken through two calls into the C
/// library; the one-word lock is 4 bytes, zero when free, and its uncontended path is one atomic
/// instruction inlined at the call site.
///
/// One allocation, the word being the buffer's header, whose address never moves. A messenger's
/// core does not use this type: it keeps its lock word in its own allocation (`_MessengerCore`).
///
/// Rule for every caller: no user code (handlers, `==`, a `deinit` that a release could trigger)
/// runs while the lock is held. Critical sections only move values in and out.
@usableFromInline
struct _Lock: @unchecked Sendable {  // `_buffer` holds only the lock word, used only atomically
    @usableFromInline let _buffer: _LockBuffer

    @usableFromInline
    init() {
        _buffer = unsafeDowncast(
            _LockBuffer.create(minimumCapacity: 0) { _ in _messaging_lock_t() },
            to: _LockBuffer.self
        )
    }

    @inlinable @inline(__always)
    func lock() { _messaging_lock_lock(_buffer._word) }

    @inlinable @inline(__always)
    func unlock() { _messaging_lock_unlock(_buffer._word) }

    @inlinable @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        _messaging_lock_lock(_buffer._word)
        defer { _messaging_lock_unlock(_buffer._word) }
        return try body()
    }
}

/// The storage of a ``_Lock``: the lock word as a `ManagedBuffer` header, so that it has a fixed
/// address and needs no second allocation.
@usableFromInline
final class _LockBuffer: ManagedBuffer<_messaging_lock_t, Void> {
    // Shared between threads although `ManagedBuffer` is not `Sendable` (``_Lock`` says so for it):
    // its only state is the lock word, which only the atomic operations of `_messaging_lock_lock`
    // and `_messaging_lock_unlock` read and write.

    @inlinable
    final var _word: UnsafeMutablePointer<_messaging_lock_t> {
        withUnsafeMutablePointerToHeader { $0 }
    }
}
