// The functions are all `static inline` in the header; this file exists because a C target
// needs at least one source file.
#include "_MessagingShims.h"
