// CRC-32C with the CPU's instruction: 8 bytes per instruction instead of eight table lookups.
// Swift cannot spell the intrinsics, hence C.
#include "CChecksum.h"
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <nmmintrin.h>

int cchecksum_crc32c_available(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  return (ecx & bit_SSE4_2) != 0;
}

__attribute__((target("sse4.2")))
uint32_t cchecksum_crc32c_update(uint32_t state, const void *bytes, size_t count) {
  const unsigned char *p = bytes;
  uint64_t crc = state;
  while (count >= 8) {
    uint64_t word;
    memcpy(&word, p, 8);  // unaligned loads are fine on x86-64
    crc = _mm_crc32_u64(crc, word);
    p += 8;
    count -= 8;
  }
  uint32_t small = (uint32_t)crc;
  while (count > 0) {
    small = _mm_crc32_u8(small, *p++);
    count--;
  }
  return small;
}

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>

int cchecksum_crc32c_available(void) { return 1; }

uint32_t cchecksum_crc32c_update(uint32_t state, const void *bytes, size_t count) {
  const unsigned char *p = bytes;
  uint32_t crc = state;
  while (count >= 8) {
    uint64_t word;
    memcpy(&word, p, 8);
    crc = __crc32cd(crc, word);
    p += 8;
    count -= 8;
  }
  while (count > 0) {
    crc = __crc32cb(crc, *p++);
    count--;
  }
  return crc;
}

#else

int cchecksum_crc32c_available(void) { return 0; }

uint32_t cchecksum_crc32c_update(uint32_t state, const void *bytes, size_t count) {
  (void)bytes;
  (void)count;
  return state;
}

#endif
