// The C facilities Messaging needs and the Swift standard library does not offer on every supported
// system: an atomic word, for a messenger's count of ended observations, and a one-word lock. Swift's own `Synchronization.Atomic` and `Mutex` need
// macOS 15 / iOS 18; the library supports older systems, so it uses the C11 builtins instead. Every
// function here is `static inline`, so the Swift compiler inlines them into its callers: on x86-64
// and arm64 an acquire load is a plain load, and taking a free lock is one compare-and-swap.

#ifndef MESSAGING_SHIMS_H
#define MESSAGING_SHIMS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#if defined(__APPLE__)
#include <os/lock.h>
#endif

/// Reads a counter with acquire ordering.
static inline intptr_t _messaging_counter_load(const intptr_t *counter) {
    return __atomic_load_n(counter, __ATOMIC_ACQUIRE);
}

/// Adds one to a counter with release ordering.
static inline void _messaging_counter_increment(intptr_t *counter) {
    __atomic_fetch_add(counter, 1, __ATOMIC_ACQ_REL);
}

// MARK: The calling thread

/// A number that tells the calling thread from every other thread running at the same time.
static inline uintptr_t _messaging_thread_id(void) {
    return (uintptr_t)pthread_self();
}

// MARK: Objects being deinitialized
//
// A message that must wait (queued behind a running delivery, or posted to an actor) keeps a strong
// reference to its author. If the author is running its `deinit` (an observable that sends from its
// `deinit`), that reference would outlive the object, and Swift stops the program when a `deinit`
// ends with references left. The Swift runtime answers the question in one atomic load of the
// object's reference count; it is exported by the runtime on every platform Swift supports.

/// The Swift runtime's own test (see the Swift runtime's `HeapObject.h`).
extern bool swift_isDeallocating(void *object);

/// Whether the Swift object at `object` has started its `deinit`.
static inline bool _messaging_is_deallocating(const void *object) {
    return swift_isDeallocating((void *)object);
}

// MARK: The lock
//
// A mutual-exclusion lock in one 32-bit word whose all-zero value is "unlocked", so that it can sit
// in the same allocation as the state it guards (a `pthread_mutex_t` is 40 bytes on Linux and
// needs `pthread_mutex_init`). The word must stay at one address while it is used: keep it in a
// `ManagedBuffer`'s header or elements, or in allocated memory, never in a Swift stored property
// passed with `&` (that may hand the function a temporary copy).
//
// - Apple platforms: `os_unfair_lock`, the system's own one-word lock (it also stops the program
//   when a thread takes a lock it already holds).
// - Linux and Android: the classic three-state futex mutex (Drepper, "Futexes Are Tricky"):
//   0 unlocked, 1 locked, 2 locked and someone may be sleeping. Taking a free lock is one acquire
//   compare-and-swap, releasing it one release exchange; only a contended lock calls into the
//   `.c` file, which spins briefly and then sleeps in the kernel, and only a release that finds 2
//   makes the wake-up system call. The thread sanitizer sees the acquire and release operations,
//   so it still orders the critical sections and reports races on the state the lock guards.
// - Elsewhere: the same word, with a contended lock yielding the processor instead of sleeping.
//
// Not reentrant, not fair; critical sections in Messaging are short and never call user code.

#if defined(__APPLE__)
typedef os_unfair_lock _messaging_lock_t;

/// Takes the lock, waiting while another thread holds it.
static inline void _messaging_lock_lock(_messaging_lock_t *lock) {
    os_unfair_lock_lock(lock);
}

/// Releases the lock, which the calling thread holds.
static inline void _messaging_lock_unlock(_messaging_lock_t *lock) {
    os_unfair_lock_unlock(lock);
}
#else
/// The lock word; zero-initialised means unlocked.
typedef struct {
    uint32_t _state;
} _messaging_lock_t;

/// The contended path of `_messaging_lock_lock` (in `_MessagingShims.c`).
void _messaging_lock_wait(_messaging_lock_t *lock);

/// Wakes one thread sleeping in `_messaging_lock_wait` (in `_MessagingShims.c`).
void _messaging_lock_wake(_messaging_lock_t *lock);

/// Takes the lock, waiting while another thread holds it.
static inline void _messaging_lock_lock(_messaging_lock_t *lock) {
    uint32_t expected = 0;
    if (__builtin_expect(
            __atomic_compare_exchange_n(&lock->_state, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED),
            1)) {
        return;
    }
    _messaging_lock_wait(lock);
}

/// Releases the lock, which the calling thread holds.
static inline void _messaging_lock_unlock(_messaging_lock_t *lock) {
    if (__builtin_expect(__atomic_exchange_n(&lock->_state, 0, __ATOMIC_RELEASE) == 2, 0)) {
        _messaging_lock_wake(lock);
    }
}
#endif

#endif
