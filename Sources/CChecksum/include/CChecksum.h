#ifndef CCHECKSUM_H
#define CCHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has a CRC-32C instruction the functions below use (SSE 4.2 on x86-64, the
/// CRC extension on 64-bit ARM); 0 where they are not built.
int cchecksum_crc32c_available(void);

/// Feeds `count` bytes to a CRC-32C register `state` (no pre- or post-inversion: the caller
/// keeps the register as the table-driven code does). Only when `cchecksum_crc32c_available()`.
uint32_t cchecksum_crc32c_update(uint32_t state, const void *bytes, size_t count);

#endif
