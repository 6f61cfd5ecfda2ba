// Everything lives in include/CMemoryHints.h (static inline functions); SwiftPM wants a source file.
#include "CMemoryHints.h"
