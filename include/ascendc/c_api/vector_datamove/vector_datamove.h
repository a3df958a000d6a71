// c_api/vector_datamove/vector_datamove.h — the C API's data movement
// between global memory (GM) and the unified buffer (UB), and UB to UB, on
// Atlas A2/A3 (docs/capi.md, "Data movement"): asc_copy_gm2ub,
// asc_copy_ub2gm and asc_copy_ub2ub, each as the first `size` bytes, as
// n_burst bursts of len_burst 32-byte blocks with gaps (in 32-byte blocks)
// between them, and as the _sync form. They run DataCopy's checks and copy
// (normgrad_ascendc/runtime/data_copy.h), with messages naming the asc_*
// function: a size that is not a multiple of 32 bytes (as DataCopy, unless
// NORMGRAD_DATACOPY=truncate), a UB pointer outside the UB or not 32-byte
// aligned, bursts past the UB's end or past a GM allocation. Every write to
// GM goes through the block's atomic mode (c_api/atomic/atomic.h).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/qualifiers.h"

/// GM → UB: the first `size` bytes (a multiple of 32).
void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint32_t size,
                    normgrad_ascendc::CallSite site = {});
/// GM → UB: n_burst bursts of len_burst 32-byte blocks; src_gap and dst_gap
/// 32-byte blocks from one burst's end to the next one's start.
void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint16_t n_burst,
                    uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap,
                    normgrad_ascendc::CallSite site = {});
/// asc_copy_gm2ub, waiting for the copy to end (every copy has ended when
/// its call returns: docs/capi.md, "Pipes and _sync").
void asc_copy_gm2ub_sync(__ubuf__ void* dst, __gm__ void* src, uint32_t size,
                         normgrad_ascendc::CallSite site = {});

/// UB → GM, as asc_copy_gm2ub.
void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint32_t size,
                    normgrad_ascendc::CallSite site = {});
void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint16_t n_burst,
                    uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap,
                    normgrad_ascendc::CallSite site = {});
void asc_copy_ub2gm_sync(__gm__ void* dst, __ubuf__ void* src, uint32_t size,
                         normgrad_ascendc::CallSite site = {});

/// UB → UB, as asc_copy_gm2ub.
void asc_copy_ub2ub(__ubuf__ void* dst, __ubuf__ void* src, uint32_t size,
                    normgrad_ascendc::CallSite site = {});
void asc_copy_ub2ub(__ubuf__ void* dst, __ubuf__ void* src, uint16_t n_burst,
                    uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap,
                    normgrad_ascendc::CallSite site = {});
void asc_copy_ub2ub_sync(__ubuf__ void* dst, __ubuf__ void* src, uint32_t size,
                         normgrad_ascendc::CallSite site = {});

/// The L2 cache policies of a GM → UB and a UB → GM copy. Only the 950's
/// copy forms take them (asc_copy_gm2ub_align and asc_ndim_copy_gm2ub
/// there); they are declared for programs that name them.
enum class asc_load_l2_cache_mode : uint8_t {
  NORMAL_FIRST_VICTIM = 0,
  NORMAL_LAST_VICTIM = 1,
  NORMAL_PERSISTENT = 2,
  NOTALLOC_KEEP = 4,
  NOTALLOC_CLEAN = 5,
  NOTALLOC_DROP = 6
};
enum class asc_store_l2_cache_mode : uint8_t {
  NORMAL_FIRST_VICTIM = 0,
  NORMAL_LAST_VICTIM = 1,
  NORMAL_PERSISTENT = 2,
  NOTALLOC_CLEAN = 4
};

/// The elements of padding on each side of each of the four dimensions of
/// a multi-dimensional copy (the 950's asc_ndim_copy_gm2ub), one byte each
/// from the low byte of `config`.
constexpr uint64_t ASC_DEFAULT_NDIM_PAD_COUNT_CONFIG_VALUE = 0;
union asc_ndim_pad_count_config {
  uint64_t config = ASC_DEFAULT_NDIM_PAD_COUNT_CONFIG_VALUE;
  __extension__ struct {
    uint8_t loop1_lp_count;
    uint8_t loop1_rp_count;
    uint8_t loop2_lp_count;
    uint8_t loop2_rp_count;
    uint8_t loop3_lp_count;
    uint8_t loop3_rp_count;
    uint8_t loop4_lp_count;
    uint8_t loop4_rp_count;
  };
};
