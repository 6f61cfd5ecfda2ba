#ifndef LISTJOURNAL_CMEMORYHINTS_H
#define LISTJOURNAL_CMEMORYHINTS_H

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

// Cache hints Swift has no spelling for. Static inline, so the Swift optimizer inlines them into
// the hot loops that call them (a call per hint would cost more than the hint saves).

/// Starts loading the cache line holding `address` for reading. Only a hint: it never faults, so
/// an address the caller no longer owns (an array that grew since) costs a wasted load at most.
static inline void cmemoryhints_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

/// Asks the kernel to back the whole pages of [start, start + length) with writable memory now,
/// without reading or writing them (Linux 5.14 and later, `MADV_POPULATE_WRITE`): the page faults
/// a first write to fresh memory would take, taken ahead by a thread with time to spare. Only a
/// hint as well: it never changes what the memory holds (an untouched page reads as zeros either
/// way), and a range that is not (or no longer) mapped just fails. Returns madvise's result (-1
/// where there is no such request).
static inline int cmemoryhints_populate(void *start, unsigned long length) {
#if defined(__linux__)
  return madvise(start, length, 23 /* MADV_POPULATE_WRITE, missing from older headers */);
#else
  (void)start;
  (void)length;
  return -1;
#endif
}

/// The size of a memory page, which `cmemoryhints_populate` ranges are aligned to (4096 where
/// it cannot be asked).
static inline unsigned long cmemoryhints_page_size(void) {
#if defined(__linux__)
  long size = sysconf(_SC_PAGESIZE);
  return size > 0 ? (unsigned long)size : 4096;
#else
  return 4096;
#endif
}

#endif
