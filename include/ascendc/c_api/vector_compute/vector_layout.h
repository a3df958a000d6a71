// c_api/vector_compute/vector_layout.h — the C API's instructions that move
// elements and blocks around on Atlas A2/A3 (docs/capi.md, "Vector
// compute"), part of c_api/vector_compute/vector_compute.h as the pages
// place them: each a thin mapping onto the C++ instruction of the same
// meaning, with messages naming the asc_* function:
//   asc_brcb              8 elements, each into a 32-byte block (Brcb)
//   asc_gather            dst[i] = src at byte src_offset[i] (Gather):
//                         count form, high-dimension form under the mask
//                         register, _sync
//   asc_gather_datablock  8 blocks of 32 bytes per repeat from src at the
//                         byte offsets src_offset (Gatherb)
//   asc_reduce            the elements of src0 a pattern keeps, packed
//                         (GatherMask): count form (a user pattern, in
//                         counter mode), high-dimension form (a user pattern
//                         or a built-in one), _sync
//   asc_get_rsvd_count    how many elements the last asc_reduce kept
//   asc_bitsort           32 scores a repeat sorted into (score, index)
//                         pairs (Sort32)
//   asc_mrgsort4          up to 4 sorted lists of pairs merged (MrgSort)
//   asc_get_vms4_sr       the pairs the last merge took from each list
//                         (GetMrgSortResult)
//   asc_set_va_reg        8 block addresses into an address register VAn
//   asc_transto5hd_b8/b16/b32
//                         the 16-block transposition of TransDataTo5HD, its
//                         lists in VAn and VAn+1 (the first 8 blocks, then
//                         the last 8)
// The _sync forms compute what the plain forms compute (docs/capi.md,
// "Pipes and _sync").
#pragma once

#include <algorithm>
#include <cstdint>

// The shared forms (CapiCall, UbTensor); that header includes this one at
// its end.
#include "c_api/vector_compute/vector_compute.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/vector/vector_layout.h"
#include "normgrad_ascendc/vector/vector_select.h"
#include "normgrad_ascendc/vector/vector_sort.h"

/// The number of lists of asc_mrgsort4 and asc_get_vms4_sr.
constexpr int ASC_C_API_MRGSORT_ELEMENT_LEN = 4;

/// The address registers of asc_set_va_reg and asc_transto5hd_b*.
enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

namespace normgrad_ascendc {

/// The element types of asc_brcb, asc_gather_datablock and asc_reduce, as
/// their pages list them.
inline constexpr TypeRule kCapiUint16And32Types{kTypeUint16 | kTypeUint32,
                                                kTypeUint16 | kTypeUint32,
                                                kTypeUint16 | kTypeUint32, 0};

/// asc_brcb as Brcb.
template <typename T>
void CapiBrcb(const char* api, T* dst, T* src, uint16_t dst_block_stride,
              uint16_t dst_repeat_stride, uint8_t repeat,
              const CallSite& site) {
  const CapiCall call(api, site);
  const auto d = UbTensor(api, "dst", dst);
  const auto s = UbTensor(api, "src", src);
  const InstructionCall<T> instruction(api, kCapiUint16And32Types,
                                       /*count_form=*/false, site);
  BrcbImpl(TypeName<T>(), d.view(), s.view(), sizeof(T), repeat,
           AscendC::BrcbRepeatParams(dst_block_stride, dst_repeat_stride), api);
}

/// A UB operand view cut to the `bytes` a call reaches, where they fit in
/// it. The gathers check that their operands do not overlap as whole
/// tensors; a C API operand reaches to the UB's end, so each is taken as
/// the bytes the call reads or writes (docs/capi.md, "Pointers and
/// memory"). Where they do not fit, the view stays whole and the
/// instruction's own check reports the operand that is too short.
inline TensorView Reach(TensorView view, uint64_t bytes) {
  if (bytes > 0 && bytes < view.bytes)
    view.bytes = static_cast<uint32_t>(bytes);
  return view;
}
/// The bytes from src that `n` byte offsets reach with `unit`-byte reads.
inline uint64_t OffsetReach(const uint32_t* offsets, uint64_t n,
                            uint32_t unit) {
  uint64_t reach = 0;
  for (uint64_t i = 0; i < n; ++i) {
    reach = std::max<uint64_t>(reach, uint64_t{offsets[i]} + unit);
  }
  return reach;
}

/// asc_gather as Gather, offsets from src's first byte: `lanes` lanes (the
/// count, or every lane of the repeats) with dst reaching dst_bytes.
template <typename T, typename Form>
void CapiGather(const char* api, T* dst, T* src, uint32_t* src_offset,
                uint64_t lanes, uint64_t dst_bytes, const Form& form) {
  const CapiCall call(api, form.site);
  const TensorView d = UbPointerView(api, TypeName<T>(), "dst", dst);
  const TensorView s = UbPointerView(api, TypeName<T>(), "src", src);
  const TensorView o =
      UbPointerView(api, TypeName<T>(), "src_offset", src_offset);
  const uint64_t offsets = std::min<uint64_t>(lanes, o.bytes / 4);
  IndexedCallAs<false>(
      api, "src_offset", AscendC::LocalTensor<T>(Reach(d, dst_bytes)),
      AscendC::LocalTensor<T>(
          Reach(s, OffsetReach(src_offset, offsets, sizeof(T)))),
      AscendC::LocalTensor<uint32_t>(Reach(o, lanes * 4)), 0, form);
}

/// asc_gather_datablock as Gatherb.
template <typename T>
void CapiGatherDatablock(const char* api, T* dst, T* src, uint32_t* src_offset,
                         uint16_t dst_repeat_stride, uint8_t dst_block_stride,
                         uint8_t repeat, const CallSite& site) {
  const CapiCall call(api, site);
  const TensorView d = UbPointerView(api, TypeName<T>(), "dst", dst);
  const TensorView s = UbPointerView(api, TypeName<T>(), "src", src);
  const TensorView o =
      UbPointerView(api, TypeName<T>(), "src_offset", src_offset);
  const uint64_t blocks = std::min<uint64_t>(uint64_t{8} * repeat, o.bytes / 4);
  const InstructionCall<T> instruction(api, kCapiUint16And32Types,
                                       /*count_form=*/false, site);
  GatherbImpl(TypeName<T>(), d, Reach(s, OffsetReach(src_offset, blocks, 32)),
              Reach(o, blocks * 4), repeat,
              AscendC::GatherRepeatParams(dst_block_stride, dst_repeat_stride),
              api);
}

/// asc_reduce's count form and high-dimension form as GatherMask; keeps
/// the count for asc_get_rsvd_count (vector_compute.cc).
void CapiReduceCountImpl(const char* api, const char* type, uint32_t elem_bytes,
                         const TensorView& dst, const TensorView& src0,
                         const TensorView& src1, uint32_t count);
void CapiReduceRepeatsImpl(const char* api, const char* type,
                           uint32_t elem_bytes, const TensorView& dst,
                           const TensorView& src0, const void* src1,
                           uint8_t pattern_mode,
                           const AscendC::GatherMaskParams& params);

template <typename T>
void CapiGatherMaskCount(const char* api, T* dst, T* src0, T* src1,
                         uint32_t count, const CallSite& site) {
  const CapiCall call(api, site);
  const auto d = UbTensor(api, "dst", dst);
  const auto s0 = UbTensor(api, "src0", src0);
  const auto s1 = UbTensor(api, "src1", src1);
  const InstructionCall<T> instruction(api, kCapiUint16And32Types,
                                       /*count_form=*/true, site);
  CapiReduceCountImpl(api, TypeName<T>(), sizeof(T), d.view(), s0.view(),
                      s1.view(), count);
}

/// asc_bitsort as Sort32.
template <typename T>
void CapiBitsort(const char* api, T* dst, T* src0, uint32_t* src1,
                 int32_t repeat, const CallSite& site) {
  const CapiCall call(api, site);
  const auto d = UbTensor(api, "dst", dst);
  const auto s0 = UbTensor(api, "src0", src0);
  const auto s1 = UbTensor(api, "src1", src1);
  const InstructionCall<T> instruction(api, kPairSortTypes,
                                       /*count_form=*/true, site);
  Sort32Impl(TypeName<T>(), sizeof(T), d.view(), s0.view(), s1.view(), repeat,
             api);
}

/// asc_mrgsort4 as MrgSort: the lists valid_bit names (bit i for list i)
/// are UB pointers; the others are not read.
template <typename T>
void CapiMrgsort4(const char* api, T* dst, T* const src[4], uint8_t repeat,
                  const uint16_t (&lengths)[4], bool if_exhausted_suspension,
                  uint8_t valid_bit, const CallSite& site) {
  static const char* const kNames[4] = {"src[0]", "src[1]", "src[2]", "src[3]"};
  const CapiCall call(api, site);
  const auto d = UbTensor(api, "dst", dst);
  TensorView lists[4];
  const TensorView* list_views[4];
  for (int i = 0; i < 4; ++i) {
    if ((valid_bit >> i & 1) != 0) {
      lists[i] = UbPointerView(api, TypeName<T>(), kNames[i], src[i], 8);
    }
    list_views[i] = &lists[i];
  }
  const InstructionCall<T> instruction(api, kPairSortTypes,
                                       /*count_form=*/true, site);
  MergeImpl(TypeName<T>(), sizeof(T), /*proposals=*/false, d.view(), list_views,
            AscendC::MrgSort4Info(lengths, if_exhausted_suspension, valid_bit,
                                  repeat),
            api);
}

/// The element types of asc_set_va_reg, as its page lists them.
inline constexpr TypeRule kCapiVaRegTypes{
    kTypeInt8 | kTypeUint8 | kTypeInt16 | kTypeUint16 | kTypeHalf | kTypeInt32 |
        kTypeUint32 | kTypeFloat,
    0, 0, 0};

/// Loads register `addr` with the 8 UB addresses at `addresses`, each a
/// 32-byte block (vector_compute.cc).
void SetVaRegister(const char* api, const char* type, ub_addr8_t addr,
                   void* const* addresses);
/// asc_transto5hd_b8/b16/b32 (`elem_bytes` 1, 2, 4) on TransDataTo5HD, its
/// lists in registers dst, dst + 1 and src, src + 1.
void CapiTransTo5hd(const char* api, uint32_t elem_bytes, ub_addr8_t dst,
                    ub_addr8_t src, const AscendC::TransDataTo5HDParams& params,
                    const CallSite& site);

}  // namespace normgrad_ascendc

/// Loads address register `addr` (VA0..VA7) with src_array[0..7], UB
/// addresses of 32-byte blocks.
template <typename T>
void asc_set_va_reg(ub_addr8_t addr, __ubuf__ T** src_array,
                    normgrad_ascendc::CallSite site = {}) {
  const char* api = "asc_set_va_reg";
  const normgrad_ascendc::CapiCall call(api, site);
  const normgrad_ascendc::InstructionCall<T> instruction(
      api, normgrad_ascendc::kCapiVaRegTypes, /*count_form=*/false, site);
  normgrad_ascendc::SetVaRegister(api, normgrad_ascendc::TypeName<T>(), addr,
                                  reinterpret_cast<void* const*>(src_array));
}

/// The transposition of TransDataTo5HD for 4-, 2- and 1-byte elements: the
/// 16 destination blocks in dst and the next register, the 16 source
/// blocks in src and the next one; `repeat` repeats, dst_stride and
/// src_stride blocks apart (with one repeat, the lists start one stride
/// in). The b8 form writes and reads the halves its flags name.
inline void asc_transto5hd_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat,
                               uint16_t dst_stride, uint16_t src_stride,
                               normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiTransTo5hd(
      "asc_transto5hd_b32", 4, dst, src,
      AscendC::TransDataTo5HDParams(false, false, repeat, dst_stride,
                                    src_stride),
      site);
}
inline void asc_transto5hd_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat,
                               uint16_t dst_stride, uint16_t src_stride,
                               normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiTransTo5hd(
      "asc_transto5hd_b16", 2, dst, src,
      AscendC::TransDataTo5HDParams(false, false, repeat, dst_stride,
                                    src_stride),
      site);
}
inline void asc_transto5hd_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat,
                              uint16_t dst_stride, uint16_t src_stride,
                              bool dst_high_half, bool src_high_half,
                              normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiTransTo5hd(
      "asc_transto5hd_b8", 1, dst, src,
      AscendC::TransDataTo5HDParams(dst_high_half, src_high_half, repeat,
                                    dst_stride, src_stride),
      site);
}
inline void asc_transto5hd_b32_sync(ub_addr8_t dst, ub_addr8_t src,
                                    uint8_t repeat, uint16_t dst_stride,
                                    uint16_t src_stride,
                                    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiTransTo5hd(
      "asc_transto5hd_b32_sync", 4, dst, src,
      AscendC::TransDataTo5HDParams(false, false, repeat, dst_stride,
                                    src_stride),
      site);
}
inline void asc_transto5hd_b16_sync(ub_addr8_t dst, ub_addr8_t src,
                                    uint8_t repeat, uint16_t dst_stride,
                                    uint16_t src_stride,
                                    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiTransTo5hd(
      "asc_transto5hd_b16_sync", 2, dst, src,
      AscendC::TransDataTo5HDParams(false, false, repeat, dst_stride,
                                    src_stride),
      site);
}
inline void asc_transto5hd_b8_sync(ub_addr8_t dst, ub_addr8_t src,
                                   uint8_t repeat, uint16_t dst_stride,
                                   uint16_t src_stride, bool dst_high_half,
                                   bool src_high_half,
                                   normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiTransTo5hd(
      "asc_transto5hd_b8_sync", 1, dst, src,
      AscendC::TransDataTo5HDParams(dst_high_half, src_high_half, repeat,
                                    dst_stride, src_stride),
      site);
}

/// Per repeat, each of 8 consecutive src elements fills one 32-byte block
/// of dst (uint16_t, uint32_t), blocks dst_block_stride apart, repeats
/// dst_repeat_stride blocks apart.
template <typename T>
void asc_brcb(__ubuf__ T* dst, __ubuf__ T* src, uint16_t dst_block_stride,
              uint16_t dst_repeat_stride, uint8_t repeat,
              normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiBrcb("asc_brcb", dst, src, dst_block_stride,
                             dst_repeat_stride, repeat, site);
}
template <typename T>
void asc_brcb_sync(__ubuf__ T* dst, __ubuf__ T* src, uint16_t dst_block_stride,
                   uint16_t dst_repeat_stride, uint8_t repeat,
                   normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiBrcb("asc_brcb_sync", dst, src, dst_block_stride,
                             dst_repeat_stride, repeat, site);
}

/// dst[i] = the element at byte src_offset[i] of src, i < count.
template <typename T>
void asc_gather(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ uint32_t* src_offset,
                uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiGather("asc_gather", dst, src, src_offset, count,
                               uint64_t{count} * sizeof(T),
                               normgrad_ascendc::CountForm{count, site});
}
/// `repeat` repeats under the mask register: repeat r writes dst from block
/// r · dst_repeat_stride and reads src_offset contiguously.
template <typename T>
void asc_gather(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ uint32_t* src_offset,
                uint16_t dst_repeat_stride, uint8_t repeat,
                normgrad_ascendc::CallSite site = {}) {
  const uint64_t lanes = normgrad_ascendc::LanesOf(sizeof(T));
  normgrad_ascendc::CapiGather(
      "asc_gather", dst, src, src_offset, lanes * repeat,
      repeat == 0 ? 0 : (uint64_t{repeat} - 1) * dst_repeat_stride * 32 + 256,
      normgrad_ascendc::CapiRepeatForm(
          repeat, normgrad_ascendc::FirstOperandStrides{1, dst_repeat_stride},
          site));
}
template <typename T>
void asc_gather_sync(__ubuf__ T* dst, __ubuf__ T* src,
                     __ubuf__ uint32_t* src_offset, uint32_t count,
                     normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiGather("asc_gather_sync", dst, src, src_offset, count,
                               uint64_t{count} * sizeof(T),
                               normgrad_ascendc::CountForm{count, site});
}

/// Per repeat, the 8 blocks of 32 bytes at src + src_offset[8r + j] into
/// dst (uint16_t, uint32_t), blocks dst_block_stride apart, repeats
/// dst_repeat_stride blocks apart.
template <typename T>
void asc_gather_datablock(__ubuf__ T* dst, __ubuf__ T* src,
                          __ubuf__ uint32_t* src_offset,
                          uint16_t dst_repeat_stride, uint8_t dst_block_stride,
                          uint8_t repeat,
                          normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiGatherDatablock("asc_gather_datablock", dst, src,
                                        src_offset, dst_repeat_stride,
                                        dst_block_stride, repeat, site);
}
template <typename T>
void asc_gather_datablock_sync(__ubuf__ T* dst, __ubuf__ T* src,
                               __ubuf__ uint32_t* src_offset,
                               uint16_t dst_repeat_stride,
                               uint8_t dst_block_stride, uint8_t repeat,
                               normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiGatherDatablock("asc_gather_datablock_sync", dst, src,
                                        src_offset, dst_repeat_stride,
                                        dst_block_stride, repeat, site);
}

/// The first `count` elements of src0 whose bit in src1 (bit k % 8 of byte
/// k / 8) is 1, packed into dst (uint16_t, uint32_t).
template <typename T>
void asc_reduce(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,
                uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiGatherMaskCount("asc_reduce", dst, src0, src1, count,
                                        site);
}
/// `repeat` repeats of 256 bytes of src0 (blocks src0_block_stride apart,
/// repeats src0_repeat_stride blocks apart), kept by the built-in pattern
/// pattern_mode 1..7 or, for 0, by src1 (repeat r's bits from block
/// r · src1_repeat_stride), packed into dst.
template <typename T>
void asc_reduce(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,
                uint16_t repeat, uint8_t src0_block_stride,
                uint8_t pattern_mode, uint16_t src0_repeat_stride,
                uint8_t src1_repeat_stride,
                normgrad_ascendc::CallSite site = {}) {
  const char* api = "asc_reduce";
  const normgrad_ascendc::CapiCall call(api, site);
  const auto d = normgrad_ascendc::UbTensor(api, "dst", dst);
  const auto s0 = normgrad_ascendc::UbTensor(api, "src0", src0);
  const normgrad_ascendc::InstructionCall<T> instruction(
      api, normgrad_ascendc::kCapiUint16And32Types, /*count_form=*/false, site);
  normgrad_ascendc::CapiReduceRepeatsImpl(
      api, normgrad_ascendc::TypeName<T>(), sizeof(T), d.view(), s0.view(),
      src1, pattern_mode,
      AscendC::GatherMaskParams(src0_block_stride, repeat, src0_repeat_stride,
                                src1_repeat_stride));
}
template <typename T>
void asc_reduce_sync(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,
                     uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiGatherMaskCount("asc_reduce_sync", dst, src0, src1,
                                        count, site);
}

/// How many elements the last asc_reduce of the block kept (0 before the
/// first).
int64_t asc_get_rsvd_count(normgrad_ascendc::CallSite site = {});

/// Sorts 32 scores (half, float) a repeat, highest first, into (score,
/// index) pairs with their indices from src1; `repeat` 0..255.
template <typename T>
void asc_bitsort(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ uint32_t* src1,
                 int32_t repeat, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiBitsort("asc_bitsort", dst, src0, src1, repeat, site);
}
template <typename T>
void asc_bitsort_sync(__ubuf__ T* dst, __ubuf__ T* src0,
                      __ubuf__ uint32_t* src1, int32_t repeat,
                      normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiBitsort("asc_bitsort_sync", dst, src0, src1, repeat,
                                site);
}

/// Merges the lists valid_bit names (3: src[0..1], 7: src[0..2], 15: all
/// four) of (score, index) pairs, each sorted highest first, into dst.
template <typename T>
void asc_mrgsort4(__ubuf__ T* dst,
                  __ubuf__ T* src[ASC_C_API_MRGSORT_ELEMENT_LEN],
                  uint8_t repeat, uint16_t element_length_0,
                  uint16_t element_length_1, uint16_t element_length_2,
                  uint16_t element_length_3, bool if_exhausted_suspension,
                  uint8_t valid_bit, normgrad_ascendc::CallSite site = {}) {
  const uint16_t lengths[4] = {element_length_0, element_length_1,
                               element_length_2, element_length_3};
  normgrad_ascendc::CapiMrgsort4("asc_mrgsort4", dst, src, repeat, lengths,
                                 if_exhausted_suspension, valid_bit, site);
}
template <typename T>
void asc_mrgsort4_sync(__ubuf__ T* dst,
                       __ubuf__ T* src[ASC_C_API_MRGSORT_ELEMENT_LEN],
                       uint8_t repeat, uint16_t element_length_0,
                       uint16_t element_length_1, uint16_t element_length_2,
                       uint16_t element_length_3, bool if_exhausted_suspension,
                       uint8_t valid_bit,
                       normgrad_ascendc::CallSite site = {}) {
  const uint16_t lengths[4] = {element_length_0, element_length_1,
                               element_length_2, element_length_3};
  normgrad_ascendc::CapiMrgsort4("asc_mrgsort4_sync", dst, src, repeat, lengths,
                                 if_exhausted_suspension, valid_bit, site);
}

/// The pairs the last merge of the block (asc_mrgsort4, run with
/// if_exhausted_suspension true) took from each list.
void asc_get_vms4_sr(uint16_t sorted_num[ASC_C_API_MRGSORT_ELEMENT_LEN],
                     normgrad_ascendc::CallSite site = {});
