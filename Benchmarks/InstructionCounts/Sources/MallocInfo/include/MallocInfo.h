// The bytes the C allocator has handed out and not taken back, for the memory scenarios.
#pragma once
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
static inline size_t allocatedBytes(void) { return mallinfo2().uordblks; }
#else
static inline size_t allocatedBytes(void) { return 0; }
#endif
