// cache_flush.h — evicts byte ranges from every cache level, so that a timed
// call of a "from memory" benchmark row starts with its arrays in memory
// whatever ran before it: x86-64 writes each 64-byte line back and
// invalidates it (clflushopt where the CPU has it, else clflush), aarch64
// cleans and invalidates each line to the point of coherency (dc civac, the
// line size from CTR_EL0). FlushFence() waits until every flush is done.
// Shared by `normgrad bench` and bench/normgrad_flush.cc.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#elif !defined(__aarch64__)
#error "cache_flush.h: no cache-line flush for this architecture (x86-64 and aarch64 have one)"
#endif

namespace normgrad::bench {

#if defined(__x86_64__)

inline bool HasClflushopt() {
  unsigned eax, ebx, ecx, edx;
  return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (ebx & (1u << 23)) != 0;
}

__attribute__((target("clflushopt"))) inline void FlushLinesOpt(const char* begin,
                                                                const char* end) {
  for (const char* p = begin; p < end; p += 64) _mm_clflushopt(const_cast<char*>(p));
}

inline void FlushLines(const char* begin, const char* end) {
  for (const char* p = begin; p < end; p += 64) _mm_clflush(p);
}

/// Writes back and evicts every line of [p, p + bytes) from every cache.
inline void FlushFromCaches(const void* p, size_t bytes) {
  static const bool opt = HasClflushopt();
  const auto address = reinterpret_cast<uintptr_t>(p);
  const char* begin = reinterpret_cast<const char*>(address & ~uintptr_t{63});
  const char* end = static_cast<const char*>(p) + bytes;
  opt ? FlushLinesOpt(begin, end) : FlushLines(begin, end);
}

/// Orders the flushes before everything after it (clflushopt is weakly ordered).
inline void FlushFence() { _mm_mfence(); }

#else  // __aarch64__

/// Cleans and invalidates every line of [p, p + bytes) to the point of coherency.
inline void FlushFromCaches(const void* p, size_t bytes) {
  uint64_t ctr;
  asm volatile("mrs %0, ctr_el0" : "=r"(ctr));
  const uintptr_t line = uintptr_t{4} << ((ctr >> 16) & 15);  // DminLine: log2 of words
  const auto address = reinterpret_cast<uintptr_t>(p);
  for (uintptr_t a = address & ~(line - 1); a < address + bytes; a += line) {
    asm volatile("dc civac, %0" : : "r"(a) : "memory");
  }
}

/// Waits until every clean and invalidate is done.
inline void FlushFence() { asm volatile("dsb ish" : : : "memory"); }

#endif

}  // namespace normgrad::bench
