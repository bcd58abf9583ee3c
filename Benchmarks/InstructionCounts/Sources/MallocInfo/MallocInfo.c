// Everything is in the header; a C target needs one source file.
#include "MallocInfo.h"
