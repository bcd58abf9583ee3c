#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The one lock type of the Messaging layer: a heap-allocated `pthread_mutex_t`.
///
/// Not `Synchronization.Mutex`: that needs macOS 15 / iOS 18 (the library supports macOS 13 /
/// iOS 16), and on Linux it is built on priority-inheritance futexes, which measured about 4× slower
/// than a plain pthread mutex with two threads contending. The mutex lives in its own allocation
/// because a `pthread_mutex_t` must not move once initialised.
///
/// Rule for every caller: no user code (handlers, `==`, a `deinit` that a release could trigger)
/// runs while the lock is held. Critical sections only move values in and out.
@usableFromInline
final class _Lock: @unchecked Sendable {  // the mutex is the synchronisation primitive itself
    @usableFromInline let _mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline
    init() {
        _mutex = .allocate(capacity: 1)
        _mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(_mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(_mutex)
        _mutex.deallocate()
    }

    @inlinable @inline(__always)
    func lock() { pthread_mutex_lock(_mutex) }

    @inlinable @inline(__always)
    func unlock() { pthread_mutex_unlock(_mutex) }

    @inlinable @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(_mutex)
        defer { pthread_mutex_unlock(_mutex) }
        return try body()
    }
}
