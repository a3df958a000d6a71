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
//
// The _align copies move blocks of any byte length, as DataCopyPad
// (normgrad_ascendc/runtime/data_copy_pad.h): asc_copy_gm2ub_align writes
// each burst as a UB row of left_padding_num elements, the data,
// right_padding_num elements and filler up to the next 32 bytes, the
// padding taking the value of asc_set_copy_pad_val; asc_copy_ub2gm_align
// writes each row's data to GM. Both take `size` bytes (one burst) or
// n_burst bursts (1..4095) of len_burst bytes (1..2097151, whole elements)
// with src_gap and dst_gap 32-byte blocks between bursts, as their pages
// give the units. The element types are the nine their pages list.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

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

namespace normgrad_ascendc {

/// The element types of the _align copies and asc_set_copy_pad_val.
template <typename T>
inline constexpr bool kCapiAlignType =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, float>;

/// The bursts of an _align copy; `count_form`: one burst of `size` bytes.
struct AlignBursts {
  bool count_form;
  uint16_t n_burst;
  uint32_t len_burst;  ///< bytes
  uint8_t left_padding_num;
  uint8_t right_padding_num;
  uint32_t src_gap;  ///< 32-byte blocks
  uint32_t dst_gap;  ///< 32-byte blocks
};
/// The _align copies on DataCopyPad (vector_datamove.cc).
void CopyAlignIn(const char* api, const char* type, uint32_t elem_bytes,
                 void* dst, void* src, const AlignBursts& bursts,
                 const CallSite& site);
void CopyAlignOut(const char* api, const char* type, uint32_t elem_bytes,
                  void* dst, void* src, const AlignBursts& bursts,
                  const CallSite& site);
void SetCopyPadValue(const void* value, uint32_t bytes, const CallSite& site);

}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_ALIGN_TYPE(api)                              \
  static_assert(normgrad_ascendc::kCapiAlignType<T>, api           \
                ": T must be int8_t, uint8_t, int16_t, uint16_t, " \
                "half, bfloat16_t, int32_t, uint32_t or float")

/// GM → UB: `size` bytes (whole elements), padded to 32 bytes in the UB.
template <typename T>
void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint32_t size,
                          normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_CAPI_ALIGN_TYPE("asc_copy_gm2ub_align");
  normgrad_ascendc::CopyAlignIn("asc_copy_gm2ub_align",
                                normgrad_ascendc::TypeName<T>(), sizeof(T), dst,
                                src, {true, 1, size, 0, 0, 0, 0}, site);
}
/// GM → UB: n_burst bursts of len_burst bytes, each a UB row with its
/// paddings.
template <typename T>
void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint16_t n_burst,
                          uint32_t len_burst, uint8_t left_padding_num,
                          uint8_t right_padding_num, uint32_t src_gap,
                          uint32_t dst_gap,
                          normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_CAPI_ALIGN_TYPE("asc_copy_gm2ub_align");
  normgrad_ascendc::CopyAlignIn("asc_copy_gm2ub_align",
                                normgrad_ascendc::TypeName<T>(), sizeof(T), dst,
                                src,
                                {false, n_burst, len_burst, left_padding_num,
                                 right_padding_num, src_gap, dst_gap},
                                site);
}
template <typename T>
void asc_copy_gm2ub_align_sync(__ubuf__ T* dst, __gm__ T* src, uint32_t size,
                               normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_CAPI_ALIGN_TYPE("asc_copy_gm2ub_align_sync");
  normgrad_ascendc::CopyAlignIn("asc_copy_gm2ub_align_sync",
                                normgrad_ascendc::TypeName<T>(), sizeof(T), dst,
                                src, {true, 1, size, 0, 0, 0, 0}, site);
}

/// UB → GM: `size` bytes.
template <typename T>
void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint32_t size,
                          normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_CAPI_ALIGN_TYPE("asc_copy_ub2gm_align");
  normgrad_ascendc::CopyAlignOut("asc_copy_ub2gm_align",
                                 normgrad_ascendc::TypeName<T>(), sizeof(T),
                                 dst, src, {true, 1, size, 0, 0, 0, 0}, site);
}
/// UB → GM: n_burst rows of len_burst bytes (each row starting on 32
/// bytes); the paddings must be 0 (docs/capi.md).
template <typename T>
void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint16_t n_burst,
                          uint32_t len_burst, uint8_t left_padding_num,
                          uint8_t right_padding_num, uint32_t src_gap,
                          uint32_t dst_gap,
                          normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_CAPI_ALIGN_TYPE("asc_copy_ub2gm_align");
  normgrad_ascendc::CopyAlignOut("asc_copy_ub2gm_align",
                                 normgrad_ascendc::TypeName<T>(), sizeof(T),
                                 dst, src,
                                 {false, n_burst, len_burst, left_padding_num,
                                  right_padding_num, src_gap, dst_gap},
                                 site);
}
template <typename T>
void asc_copy_ub2gm_align_sync(__gm__ T* dst, __ubuf__ T* src, uint32_t size,
                               normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_CAPI_ALIGN_TYPE("asc_copy_ub2gm_align_sync");
  normgrad_ascendc::CopyAlignOut("asc_copy_ub2gm_align_sync",
                                 normgrad_ascendc::TypeName<T>(), sizeof(T),
                                 dst, src, {true, 1, size, 0, 0, 0, 0}, site);
}

/// The value the _align copies pad with (one of the nine types).
template <typename T>
void asc_set_copy_pad_val(T pad_value, normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_CAPI_ALIGN_TYPE("asc_set_copy_pad_val");
  normgrad_ascendc::SetCopyPadValue(&pad_value, sizeof(T), site);
}

#undef NORMGRAD_CAPI_ALIGN_TYPE

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
