// c_api/scalar_compute/scalar_compute.h — the C API's scalar bit operations
// on Atlas A2/A3 (docs/capi.md, "Scalar operations"): counting leading
// zeros, ones and zeros, finding the first set or clear bit, setting and
// clearing one bit, and counting the bits after the sign bit that equal it.
// Bit positions count from the least significant bit, 0 to 63.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/capi/capi_call.h"

namespace normgrad_ascendc {

/// Fails unless idx is a bit position of a 64-bit word (0 … 63).
inline void CheckBitIndex(const char* api, int64_t idx) {
  if (idx < 0 || idx > 63) {
    Fail("%s: idx %lld is out of range (0..63, a bit of a 64-bit word)", api,
         static_cast<long long>(idx));
  }
}

}  // namespace normgrad_ascendc

/// Zeros above the highest set bit (64 for 0).
inline int64_t asc_clz(uint64_t value_in) {
  return value_in == 0 ? 64 : __builtin_clzll(value_in);
}
/// Bits set.
inline int64_t asc_popc(uint64_t value) { return __builtin_popcountll(value); }
/// Bits clear.
inline int64_t asc_zero_bits_cnt(uint64_t value) {
  return 64 - __builtin_popcountll(value);
}
/// The position of the lowest set bit, −1 when none is.
inline int64_t asc_ffs(uint64_t value) {
  return value == 0 ? -1 : __builtin_ctzll(value);
}
/// The position of the lowest clear bit, −1 when none is.
inline int64_t asc_ffz(uint64_t value) {
  return ~value == 0 ? -1 : __builtin_ctzll(~value);
}
/// bits with bit idx set.
inline uint64_t asc_set_nthbit(uint64_t bits, int64_t idx,
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_set_nthbit", site);
  normgrad_ascendc::CheckBitIndex("asc_set_nthbit", idx);
  return bits | (uint64_t{1} << idx);
}
/// bits with bit idx clear.
inline uint64_t asc_clear_nthbit(uint64_t bits, int64_t idx,
                                 normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_clear_nthbit", site);
  normgrad_ascendc::CheckBitIndex("asc_clear_nthbit", idx);
  return bits & ~(uint64_t{1} << idx);
}
/// How many bits below the sign bit, from bit 62 down, equal the sign bit
/// before the first that differs; −1 for 0 and −1 (all bits alike).
inline int64_t asc_sflbits(int64_t value) {
  const auto bits = static_cast<uint64_t>(value);
  const uint64_t same = value < 0 ? ~bits : bits;  // sign-equal bits as 0
  if (same == 0) return -1;
  return __builtin_clzll(same) - 1;
}
