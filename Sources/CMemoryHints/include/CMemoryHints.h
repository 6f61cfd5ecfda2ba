#ifndef LISTJOURNAL_CMEMORYHINTS_H
#define LISTJOURNAL_CMEMORYHINTS_H

// Cache hints Swift has no spelling for. Static inline, so the Swift optimizer inlines them into
// the hot loops that call them (a call per hint would cost more than the hint saves).

/// Starts loading the cache line holding `address` for reading. Only a hint: it never faults, so
/// an address the caller no longer owns (an array that grew since) costs a wasted load at most.
static inline void cmemoryhints_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
