#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

#if canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android)

/// Releases the waiters of promises that die unfulfilled one after another, instead of one
/// inside the other.
///
/// The waiters of an abandoned promise hold the promises composed from it, whose waiters hold the
/// next ones, and so on: released by nested `deinit`s, a chain of many thousand promises that is
/// never fulfilled would overflow the stack when freed. The first dying promise on a thread
/// releases its waiters in a loop; a promise that dies during that loop (on the same thread) hands
/// its waiters to the loop instead of releasing them itself. The loop's list is found through a
/// thread-local key: only the thread that runs the loop ever touches it.
final class _PromiseBurial {
    /// Waiters handed over during the loop, each a promise's whole list.
    private var pending: [Any] = []

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Messaging: no thread-local key for releasing promises (error \(status))")
        return key
    }()

    /// Releases `waiters`, and the waiters of every promise whose death that causes, without
    /// nesting; or, inside such a release on this thread, leaves them to it.
    ///
    /// - Complexity: O(1) stack depth per promise freed.
    static func bury(_ waiters: consuming Any) {
        if let running = pthread_getspecific(key) {
            Unmanaged<_PromiseBurial>.fromOpaque(running).takeUnretainedValue().pending.append(waiters)
            return
        }
        let burial = _PromiseBurial()
        pthread_setspecific(key, Unmanaged.passUnretained(burial).toOpaque())
        var batch: Any? = consume waiters
        while batch != nil {
            batch = nil  // may free promises, which append their waiters to `pending`
            batch = burial.pending.popLast()
        }
        pthread_setspecific(key, nil)
        withExtendedLifetime(burial) {}
    }
}
#else
/// Releases the waiters of a promise that dies unfulfilled. Without POSIX thread-local keys, they
/// are released at once: freeing a chain of many thousand unfulfilled promises nests that deep.
enum _PromiseBurial {
    static func bury(_ waiters: consuming Any) {
        _ = consume waiters
    }
}
#endif
