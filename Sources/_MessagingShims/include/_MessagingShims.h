// The few C facilities Messaging needs and the Swift standard library does not offer on every
// supported system.
//
// 1. Atomic words: the "is this observation still active?" flag, and a messenger's count of ended
// observations. Swift's own
// `Synchronization.Atomic` needs macOS 15 / iOS 18; the library supports older
// systems, so it uses the C11 builtins instead. Every function is `static inline`, so the
// Swift compiler inlines them into the delivery loop: on x86-64 and arm64 an acquire load is
// a plain load.
//
// 2. A main-thread test, to run a `MainActor` handler at once when a message is sent on the main
// thread from code the compiler does not know to be main-actor isolated.

#ifndef MESSAGING_SHIMS_H
#define MESSAGING_SHIMS_H

#include <stdbool.h>
#include <stdint.h>
#if defined(__APPLE__)
#include <pthread.h>
#elif defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// Reads the flag with acquire ordering.
static inline bool _messaging_flag_is_set(const intptr_t *flag) {
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE) != 0;
}

/// Sets the flag with release ordering.
static inline void _messaging_flag_set(intptr_t *flag) {
    __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

/// Clears the flag; returns whether it was set, so exactly one caller wins.
static inline bool _messaging_flag_clear(intptr_t *flag) {
    return __atomic_exchange_n(flag, 0, __ATOMIC_ACQ_REL) != 0;
}

/// Reads a counter with acquire ordering.
static inline intptr_t _messaging_counter_load(const intptr_t *counter) {
    return __atomic_load_n(counter, __ATOMIC_ACQUIRE);
}

/// Adds one to a counter with release ordering.
static inline void _messaging_counter_increment(intptr_t *counter) {
    __atomic_fetch_add(counter, 1, __ATOMIC_ACQ_REL);
}

/// Whether the calling thread is the process's main thread (the one `MainActor` runs on).
static inline bool _messaging_is_main_thread(void) {
#if defined(__APPLE__)
    return pthread_main_np() != 0;
#elif defined(__linux__)
    return getpid() == (pid_t)syscall(SYS_gettid);
#else
    return false;
#endif
}

#endif
