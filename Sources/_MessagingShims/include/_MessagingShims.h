// The one C facility Messaging needs and the Swift standard library does not offer on every
// supported system: atomic words, for the "is this observation still active?" flag and a
// messenger's count of ended observations. Swift's own `Synchronization.Atomic` needs macOS 15 /
// iOS 18; the library supports older systems, so it uses the C11 builtins instead. Every function
// is `static inline`, so the Swift compiler inlines them into the delivery loop: on x86-64 and
// arm64 an acquire load is a plain load.

#ifndef MESSAGING_SHIMS_H
#define MESSAGING_SHIMS_H

#include <stdbool.h>
#include <stdint.h>

/// Reads the flag with acquire ordering.
static inline bool _messaging_flag_is_set(const intptr_t *flag) {
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE) != 0;
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

#endif
