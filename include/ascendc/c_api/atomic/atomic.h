// c_api/atomic/atomic.h — the C API's atomic mode of data moved into global
// memory on Atlas A2/A3 (docs/capi.md, "Atomics"): asc_set_atomic_add_*,
// asc_set_atomic_max_*, asc_set_atomic_min_* for int8, int16, int (int32),
// bfloat (bfloat16_t), float16 (half) and float, and asc_set_atomic_none.
// They set the block's atomic mode as SetAtomicAdd<T> and its kin do
// (normgrad_ascendc/runtime/atomic.h): every later write of asc_copy_ub2gm
// combines element by element with what GM holds, and a launch of several
// blocks applies the combined writes in block order.
// asc_set_store_atomic_config_v1 and asc_get_store_atomic_config set and
// read the same mode by its numbers (asc_store_atomic_config), as
// SetStoreAtomicConfig and GetStoreAtomicConfig do.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/atomic.h"

namespace normgrad_ascendc {

/// Sets the block's atomic mode for a C API function `api`.
inline void CapiAtomicMode(const char* api, AtomicModeOp op,
                           AscendC::AtomicDtype type, const CallSite& site) {
  const CapiCall call(api, site);
  SetAtomicMode(op, type);
}

}  // namespace normgrad_ascendc

// asc_set_atomic_<op>_<suffix>() for each element type.
#define NORMGRAD_CAPI_ATOMIC(op, kOp, suffix, kType)                      \
  inline void asc_set_atomic_##op##_##suffix(                             \
      normgrad_ascendc::CallSite site = {}) {                             \
    normgrad_ascendc::CapiAtomicMode("asc_set_atomic_" #op "_" #suffix,   \
                                     normgrad_ascendc::AtomicModeOp::kOp, \
                                     AscendC::AtomicDtype::kType, site);  \
  }
#define NORMGRAD_CAPI_ATOMIC_TYPES(op, kOp)          \
  NORMGRAD_CAPI_ATOMIC(op, kOp, int8, ATOMIC_S8)     \
  NORMGRAD_CAPI_ATOMIC(op, kOp, int16, ATOMIC_S16)   \
  NORMGRAD_CAPI_ATOMIC(op, kOp, int, ATOMIC_S32)     \
  NORMGRAD_CAPI_ATOMIC(op, kOp, bfloat, ATOMIC_BF16) \
  NORMGRAD_CAPI_ATOMIC(op, kOp, float16, ATOMIC_F16) \
  NORMGRAD_CAPI_ATOMIC(op, kOp, float, ATOMIC_F32)

/// Data moved into GM from now on is added to what is there.
NORMGRAD_CAPI_ATOMIC_TYPES(add, kAdd)
/// Data moved into GM from now on keeps the larger of it and what is there.
NORMGRAD_CAPI_ATOMIC_TYPES(max, kMax)
/// Data moved into GM from now on keeps the smaller of it and what is there.
NORMGRAD_CAPI_ATOMIC_TYPES(min, kMin)

#undef NORMGRAD_CAPI_ATOMIC_TYPES
#undef NORMGRAD_CAPI_ATOMIC

/// Data moved into GM from now on overwrites what is there.
inline void asc_set_atomic_none(normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiAtomicMode("asc_set_atomic_none",
                                   normgrad_ascendc::AtomicModeOp::kNone,
                                   AscendC::AtomicDtype::ATOMIC_NONE, site);
}

/// The atomic mode by its numbers: atomic_type 0 (none), 1 float, 2 half,
/// 3 int16_t, 4 int32_t, 5 int8_t, 6 bfloat16_t; atomic_op 0 (sum).
constexpr uint64_t ASC_STORE_ATOMIC_DEFAULT_VALUE = 0;
union asc_store_atomic_config {
  uint64_t config = ASC_STORE_ATOMIC_DEFAULT_VALUE;
  __extension__ struct {
    uint64_t atomic_type : 3;
    uint64_t atomic_op : 2;
    uint64_t reserved1 : 59;
  };
};

/// Sets the atomic mode: the sum (op 0) in element type `type` (1..6), or
/// none (type 0); no other value has a meaning.
void asc_set_store_atomic_config_v1(uint16_t type, uint16_t op,
                                    normgrad_ascendc::CallSite site = {});
/// The atomic mode as asc_set_store_atomic_config_v1 numbers it.
void asc_get_store_atomic_config(asc_store_atomic_config& config,
                                 normgrad_ascendc::CallSite site = {});
