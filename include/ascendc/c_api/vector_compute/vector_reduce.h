// c_api/vector_compute/vector_reduce.h — the C API's reductions on Atlas
// A2/A3 (docs/capi.md, "Vector compute"), part of
// c_api/vector_compute/vector_compute.h as the pages place them: each a thin
// mapping onto the C++ reduction of the same meaning (vector_reduce.h), with
// messages naming the asc_* function:
//   asc_datablock_reduce_sum/max/min   one result per 32-byte block
//                                      (BlockReduceSum/Max/Min)
//   asc_repeat_reduce_sum              one sum per repeat (WholeReduceSum)
//   asc_repeat_reduce_max/min_<order>  the extreme of each repeat and its
//                                      lane: _value_index, _index_value,
//                                      _only_value, _only_index
//                                      (WholeReduceMax/Min by ReduceOrder)
//   asc_pair_reduce_sum                one sum per pair of neighbouring
//                                      lanes (PairReduceSum)
//   asc_get_reduce_max/min_cnt         the extreme of all repeats of the
//                                      last asc_repeat_reduce_max/min and
//                                      its position (the core's register
//                                      that WholeReduceMax/Min set)
// all on half and float. The high-dimension form is the C++ level-0 form
// under the mask register as it stands (isSetMask = false); the count form
// (where the page gives one) runs the same instruction in counter mode over
// the first `count` elements, with contiguous strides, and gives the mask
// register and its mode back as they were; the _sync form is the count form.
#pragma once

#include <cstdint>

// The shared forms (CapiCall, UbTensor); that header includes this one at
// its end.
#include "c_api/vector_compute/vector_compute.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/vector/vector_reduce.h"

namespace normgrad_ascendc {

/// The element types of the C API's reductions, as their pages list them.
inline constexpr TypeRule kCapiReduceTypes{
    kTypeHalf | kTypeFloat, kTypeHalf | kTypeFloat, kTypeHalf | kTypeFloat, 0};

/// The alignment of a reduction's dst: one result (a value, an index, or
/// both) for one per repeat, a block otherwise.
template <typename T>
constexpr uint32_t ReduceDstAlign(ReduceGroup group, AscendC::ReduceType op,
                                  AscendC::ReduceOrder order) {
  if (group != ReduceGroup::kRepeat) return 32;
  if (op == AscendC::ReduceType::SUM ||
      order == AscendC::ReduceOrder::ORDER_ONLY_VALUE) {
    return sizeof(T);
  }
  if (order == AscendC::ReduceOrder::ORDER_ONLY_INDEX) return 4;
  return 2 * sizeof(T);
}

/// A reduction of kGroup by kOp (kOrder for max and min), as the C++
/// level-0 reduction with isSetMask = false.
template <AscendC::ReduceType kOp, ReduceGroup kGroup,
          AscendC::ReduceOrder kOrder, typename T>
void CapiReduce(const char* api, T* dst, T* src, const ReduceRepeats& r,
                const CallSite& site) {
  const CapiCall call(api, site);
  const InstructionCall<T> instruction(api, kCapiReduceTypes,
                                       /*count_form=*/false, site);
  const AscendC::LocalTensor<T> d(UbPointerView(
      api, TypeName<T>(), "dst", dst, ReduceDstAlign<T>(kGroup, kOp, kOrder)));
  const auto s = UbTensor(api, "src", src);
  ReduceLevel0(MakeReduceCall(api, kOp, false, d, s), kGroup, r.repeat_time,
               r.dst_rep_stride, r.src_blk_stride, r.src_rep_stride, kOrder);
}

/// The count form: the reduction in counter mode over `count` elements,
/// contiguous, the mask register restored afterwards.
template <AscendC::ReduceType kOp, ReduceGroup kGroup,
          AscendC::ReduceOrder kOrder, typename T>
void CapiReduceCount(const char* api, T* dst, T* src, uint32_t count,
                     const CallSite& site) {
  VectorMask& reg = CurrentCore().vector_mask();
  const VectorMask saved = reg;
  reg.mode = AscendC::MaskMode::COUNTER;
  reg.low = count;
  reg.high = 0;
  try {
    CapiReduce<kOp, kGroup, kOrder>(api, dst, src, ReduceRepeats{1, 1, 1, 8},
                                    site);
  } catch (...) {
    reg = saved;
    throw;
  }
  reg = saved;
}

}  // namespace normgrad_ascendc

// The high-dimension form of a reduction.
#define NORMGRAD_CAPI_REDUCE_REPEATS(name, op, group, order)                  \
  template <typename T>                                                       \
  void name(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat,                 \
            uint16_t dst_repeat_stride, uint16_t src_block_stride,            \
            uint16_t src_repeat_stride,                                       \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::CapiReduce<AscendC::ReduceType::op,                     \
                                 normgrad_ascendc::ReduceGroup::group,        \
                                 AscendC::ReduceOrder::order>(                \
        #name, dst, src,                                                      \
        normgrad_ascendc::ReduceRepeats{repeat, dst_repeat_stride,            \
                                        src_block_stride, src_repeat_stride}, \
        site);                                                                \
  }

// The three forms of a reduction.
#define NORMGRAD_CAPI_REDUCE(name, op, group, order)                        \
  NORMGRAD_CAPI_REDUCE_REPEATS(name, op, group, order)                      \
  template <typename T>                                                     \
  void name(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count,               \
            normgrad_ascendc::CallSite site = {}) {                         \
    normgrad_ascendc::CapiReduceCount<AscendC::ReduceType::op,              \
                                      normgrad_ascendc::ReduceGroup::group, \
                                      AscendC::ReduceOrder::order>(         \
        #name, dst, src, count, site);                                      \
  }                                                                         \
  template <typename T>                                                     \
  void name##_sync(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count,        \
                   normgrad_ascendc::CallSite site = {}) {                  \
    normgrad_ascendc::CapiReduceCount<AscendC::ReduceType::op,              \
                                      normgrad_ascendc::ReduceGroup::group, \
                                      AscendC::ReduceOrder::order>(         \
        #name "_sync", dst, src, count, site);                              \
  }

// The four result orders of a max or min reduction.
#define NORMGRAD_CAPI_REDUCE_ORDERS(prefix, op)                              \
  NORMGRAD_CAPI_REDUCE(prefix##_value_index, op, kRepeat, ORDER_VALUE_INDEX) \
  NORMGRAD_CAPI_REDUCE(prefix##_index_value, op, kRepeat, ORDER_INDEX_VALUE) \
  NORMGRAD_CAPI_REDUCE(prefix##_only_value, op, kRepeat, ORDER_ONLY_VALUE)   \
  NORMGRAD_CAPI_REDUCE(prefix##_only_index, op, kRepeat, ORDER_ONLY_INDEX)

/// The sum of each 32-byte block (half, float).
NORMGRAD_CAPI_REDUCE(asc_datablock_reduce_sum, SUM, kDataBlock,
                     ORDER_ONLY_VALUE)
/// The maximum of each 32-byte block (half, float).
NORMGRAD_CAPI_REDUCE(asc_datablock_reduce_max, MAX, kDataBlock,
                     ORDER_ONLY_VALUE)
/// The minimum of each 32-byte block (half, float).
NORMGRAD_CAPI_REDUCE(asc_datablock_reduce_min, MIN, kDataBlock,
                     ORDER_ONLY_VALUE)
/// The sum of each repeat (half, float); its page gives the high-dimension
/// form only.
NORMGRAD_CAPI_REDUCE_REPEATS(asc_repeat_reduce_sum, SUM, kRepeat,
                             ORDER_ONLY_VALUE)
/// The maximum of each repeat with its lane, in the suffix's order.
NORMGRAD_CAPI_REDUCE_ORDERS(asc_repeat_reduce_max, MAX)
/// The minimum of each repeat with its lane, in the suffix's order.
NORMGRAD_CAPI_REDUCE_ORDERS(asc_repeat_reduce_min, MIN)
/// The sum of each pair of neighbouring lanes (half, float).
NORMGRAD_CAPI_REDUCE(asc_pair_reduce_sum, SUM, kPair, ORDER_ONLY_VALUE)

#undef NORMGRAD_CAPI_REDUCE_ORDERS
#undef NORMGRAD_CAPI_REDUCE
#undef NORMGRAD_CAPI_REDUCE_REPEATS

namespace normgrad_ascendc {

/// The extreme register (Core::reduce_extreme) as asc_get_reduce_max_cnt or
/// _min_cnt (`api`) reads it: `value` and `index` from the last
/// asc_repeat_reduce_max (min) of `value_bytes`-byte elements; fails when
/// the last whole-repeat max / min reduction of the block was another one,
/// on another type, or selected no element (vector_compute.cc).
void ReadReduceExtreme(const char* api, ReduceExtremeRegister::Op op,
                       uint32_t value_bytes, void* value, uint32_t& index);

}  // namespace normgrad_ascendc

/// The maximum of all repeats of the last asc_repeat_reduce_max (half or
/// float, as that reduction's) and the position of its first occurrence in
/// the reduction's lanes (repeat · lanes + lane).
inline void asc_get_reduce_max_cnt(half& val, uint32_t& index,
                                   normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_reduce_max_cnt", site);
  normgrad_ascendc::ReadReduceExtreme(
      "asc_get_reduce_max_cnt",
      normgrad_ascendc::ReduceExtremeRegister::Op::kMax, sizeof(half), &val,
      index);
}
inline void asc_get_reduce_max_cnt(float& val, uint32_t& index,
                                   normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_reduce_max_cnt", site);
  normgrad_ascendc::ReadReduceExtreme(
      "asc_get_reduce_max_cnt",
      normgrad_ascendc::ReduceExtremeRegister::Op::kMax, sizeof(float), &val,
      index);
}
/// The minimum of all repeats of the last asc_repeat_reduce_min and the
/// position of its first occurrence, as asc_get_reduce_max_cnt.
inline void asc_get_reduce_min_cnt(half& val, uint32_t& index,
                                   normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_reduce_min_cnt", site);
  normgrad_ascendc::ReadReduceExtreme(
      "asc_get_reduce_min_cnt",
      normgrad_ascendc::ReduceExtremeRegister::Op::kMin, sizeof(half), &val,
      index);
}
inline void asc_get_reduce_min_cnt(float& val, uint32_t& index,
                                   normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_reduce_min_cnt", site);
  normgrad_ascendc::ReadReduceExtreme(
      "asc_get_reduce_min_cnt",
      normgrad_ascendc::ReduceExtremeRegister::Op::kMin, sizeof(float), &val,
      index);
}
