// The heap bytes in use, for the "bytes per live subscription" benchmarks.

#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H

#include <stddef.h>

/// The bytes the allocator has handed out and not taken back, or 0 where that is not available.
size_t heap_bytes_in_use(void);

#endif
