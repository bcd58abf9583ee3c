// The contended paths of the lock in `_MessagingShims.h`; everything else there is `static inline`.
// On Apple platforms the lock is `os_unfair_lock` and this file compiles to nothing.

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // `syscall` in <unistd.h>
#endif

#include "_MessagingShims.h"

#if !defined(__APPLE__)

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/futex.h>)
#include <linux/futex.h>
#else  // Some C libraries ship without the kernel's headers; the values are the kernel's ABI.
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129
#endif
#if !defined(SYS_futex) && defined(SYS_futex_time64)
#define SYS_futex SYS_futex_time64  // 32-bit systems with a 64-bit `time_t`; no timeout is passed.
#endif
#else
#include <sched.h>
#endif

/// Lets the other hardware thread of the core run while this one spins.
static inline void _messaging_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

/// How many times a thread that finds the lock taken looks again before it sleeps. Critical
/// sections in Messaging are a few dozen instructions, so the holder usually releases the lock
/// within this many pauses (a few microseconds at most), and a system call is saved.
enum { messaging_lock_spins = 100 };

void _messaging_lock_wait(_messaging_lock_t *lock) {
    uint32_t *state = &lock->_state;
    for (int spin = 0; spin < messaging_lock_spins; spin++) {
        uint32_t seen = __atomic_load_n(state, __ATOMIC_RELAXED);
        if (seen == 0) {
            uint32_t expected = 0;
            if (__atomic_compare_exchange_n(state, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
                return;
            }
        } else if (seen == 2) {
            break;  // Others are already asleep: waiting behind them beats spinning.
        }
        _messaging_pause();
    }
    // From here on the lock is marked "maybe someone sleeps" (2), so that the holder wakes a
    // sleeper when it releases. A thread that takes the lock this way leaves the mark in place:
    // it cannot know whether others still sleep, and a spare wake-up only costs a system call.
    while (__atomic_exchange_n(state, 2, __ATOMIC_ACQUIRE) != 0) {
#if defined(__linux__)
        // Sleeps only if the word still reads 2; a release in between makes the call return.
        syscall(SYS_futex, state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
#else
        sched_yield();
#endif
    }
}

void _messaging_lock_wake(_messaging_lock_t *lock) {
#if defined(__linux__)
    syscall(SYS_futex, &lock->_state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
    (void)lock;  // Waiters yield instead of sleeping: there is nobody to wake.
#endif
}

#endif
