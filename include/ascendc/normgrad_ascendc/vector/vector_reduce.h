// normgrad_ascendc/vector/vector_reduce.h — the reduction instructions of the
// vector unit (docs/runtime.md, "Reductions"):
//
//   ReduceRepeat<op>     one result per repeat: the sum, or the max/min with
//                        its lane within the repeat (ReduceOrder says which
//                        and in what order)
//   ReduceDataBlock<op>  one result per 32-byte block of a repeat, 8 a repeat
//   ReducePairElem<SUM>  one result per pair of neighbouring lanes
//   ReduceSum            one result of all the input (count form and level-0
//   ReduceMax, ReduceMin forms), with the index for calIndex = true
//
// and the earlier names the documentation's change notes map onto these:
// WholeReduceSum/Max/Min (ReduceRepeat's parameters), BlockReduceSum/Max/Min
// and PairReduceSum (ReduceDataBlock's and ReducePairElem's, with repeatTime
// before mask), RepeatReduceSum (ReduceRepeat<SUM> with repeatTime before
// mask and an unread dstBlkStride).
//
// Sums add in a binary tree within a repeat: level by level, neighbours
// 2i and 2i+1 are added (a block's lanes first, then the blocks' sums); a
// lane the mask leaves out takes no part (its neighbour passes up alone).
// half sums round to half after every addition. ReduceSum combines the
// repeats' sums as the profile documents (docs/numerics.md, "The vector
// unit's reductions"). Max and min: a NaN is the extreme (the first NaN
// wins), and among equal values the smallest index wins (-0 equals +0).
// An index is stored in the bits of the result type (uint16_t in a half,
// uint32_t in a float), except ORDER_ONLY_INDEX: a uint32_t.
//
// The reductions' registers. Every ReduceSum of half or float leaves its sum
// for GetReduceRepeatSumSpr (Atlas A2/A3, 950); every ReduceMax/ReduceMin of
// half or float its extreme (and, with calIndex, the index it wrote; else 0)
// and every ReduceRepeat<MAX/MIN> the extreme of all its selected lanes with
// its element index (repeat · lanes + lane; core.h's extreme register, which
// the C API reads too) for GetReduceRepeatMaxMinSpr (the value and index on
// Atlas A2/A3, the value alone on the inference series). A block starts with 0
// in them.
//
// The types and ReduceOrder values each profile supports are checked at run
// time (a KernelError naming the profile), as are the strides' ranges, the
// destination's documented alignment and extent, and sharedTmpBuffer's
// documented size where the profile uses it. Each takes a last, defaulted
// CallSite.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace AscendC {

/// What a reduction computes.
enum class ReduceType : uint8_t { SUM, MAX, MIN };

/// Which of a max/min reduction's value and index are stored, in what order.
enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX,
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The element types of the reductions.
enum class ReduceElem : uint8_t {
  kHalf,
  kFloat,
  kInt16,
  kUint16,
  kInt32,
  kUint32,
  kInt64,
  kUint64,
};

template <typename T>
constexpr ReduceElem ReduceElemOf() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> ||
                    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                    std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>,
                "reductions take half, float or a 16/32/64-bit integer");
  if constexpr (std::is_same_v<T, half>) return ReduceElem::kHalf;
  if constexpr (std::is_same_v<T, float>) return ReduceElem::kFloat;
  if constexpr (std::is_same_v<T, int16_t>) return ReduceElem::kInt16;
  if constexpr (std::is_same_v<T, uint16_t>) return ReduceElem::kUint16;
  if constexpr (std::is_same_v<T, int32_t>) return ReduceElem::kInt32;
  if constexpr (std::is_same_v<T, uint32_t>) return ReduceElem::kUint32;
  if constexpr (std::is_same_v<T, int64_t>) return ReduceElem::kInt64;
  return ReduceElem::kUint64;
}

/// One call of a reduction: what it computes, the element types, the
/// tensors, and its name for messages.
struct ReduceCall {
  const char* api;  ///< "ReduceRepeat"
  AscendC::ReduceType op;
  bool with_op;  ///< the name shows the operation: "ReduceRepeat<SUM, half>"
  ReduceElem dst_type;
  ReduceElem src_type;
  const char* dst_type_name;  ///< "half"
  const char* src_type_name;
  const TensorView* dst;
  const TensorView* src;
  // The joined names, made when a message first needs them.
  mutable char name_text[64] = "";
  mutable char type_text[48] = "";

  /// "ReduceRepeat<SUM, half>", "ReduceSum<float>", or "api<OP, T, U>" when
  /// the types differ.
  const char* name() const;
  /// What name() shows between the angle brackets: "SUM, half", "float".
  const char* type() const;
};

template <typename D, typename S>
ReduceCall MakeReduceCall(const char* api, AscendC::ReduceType op, bool with_op,
                          const AscendC::LocalTensor<D>& dst,
                          const AscendC::LocalTensor<S>& src) {
  return {api,
          op,
          with_op,
          ReduceElemOf<D>(),
          ReduceElemOf<S>(),
          TypeName<D>(),
          TypeName<S>(),
          &dst.view(),
          &src.view()};
}

/// The mask argument of a reduction with isSetMask: bit words, or the first
/// `mask` lanes (normal mode) / `mask` elements (counter mode).
void SetReduceMask(const ReduceCall& call, const uint64_t mask[]);
void SetReduceMask(const ReduceCall& call, int32_t mask);

/// What a level-0 reduction reduces into one result.
enum class ReduceGroup : uint8_t { kRepeat, kDataBlock, kPair };

/// ReduceRepeat, ReduceDataBlock, ReducePairElem under the mask register.
void ReduceLevel0(const ReduceCall& call, ReduceGroup group,
                  int32_t repeat_time, int32_t dst_rep_stride,
                  int32_t src_blk_stride, int32_t src_rep_stride,
                  AscendC::ReduceOrder order);

/// ReduceSum, ReduceMax, ReduceMin over the first `count` elements; with
/// count_from_mask (isSetMask = false), the count the mask register holds
/// in counter mode.
void ReduceAllCount(const ReduceCall& call, const TensorView& tmp,
                    int32_t count, bool cal_index, bool count_from_mask);
/// ReduceSum's count form of half (is_half) or float computed in place —
/// over one repeat or less (count ≤ 256 / element size) on every profile,
/// the repeat's tree, the same in every profile's order; over more on the
/// A2 profile, whose order is the repeats' trees added one after another —
/// when every check of the general path passes: dst a live, non-empty
/// tensor starting at a multiple of the element size and holding one, src a
/// UB operand holding count elements, and for one repeat sharedTmpBuffer a
/// UB operand of at least 32 bytes (what the profiles that read it need).
/// Then writes the sum and returns true; else returns false having done
/// nothing, and the general path checks and runs.
bool ReduceSumDirect(const TensorView& dst, const TensorView& src,
                     const TensorView& tmp, int32_t count, bool is_half);
/// ReduceSum, ReduceMax, ReduceMin over `repeat_time` repeats under the mask
/// register, repeats src_rep_stride blocks apart.
void ReduceAllRepeats(const ReduceCall& call, const TensorView& tmp,
                      int32_t repeat_time, int32_t src_rep_stride,
                      bool cal_index);

/// The registers of GetReduceRepeatSumSpr and GetReduceRepeatMaxMinSpr
/// (core.h's ReduceSpr and extreme register), each checking its profile: the
/// sum's bits; the extreme's and (with_index) its index's bits.
uint64_t ReduceSumSpr();
void ReduceMaxMinSpr(bool with_index, uint64_t* value, uint64_t* index);

/// A register's bits as a half or float.
template <typename T>
T FromSprBits(uint64_t bits) {
  if constexpr (std::is_same_v<T, half>) {
    return half::FromBits(static_cast<uint16_t>(bits));
  } else {
    const uint32_t b = static_cast<uint32_t>(bits);
    T out;
    std::memcpy(&out, &b, sizeof out);
    return out;
  }
}

/// The level-0 arguments a reduction's overloads share after its mask.
struct ReduceRepeats {
  int32_t repeat_time;
  int32_t dst_rep_stride;
  int32_t src_blk_stride;
  int32_t src_rep_stride;
};

/// A ReduceRepeat, ReduceDataBlock or ReducePairElem (`group`) call, under
/// any of its names: the call site recorded, the mask argument put in the
/// register (isSetMask), then the reduction.
template <bool isSetMask, typename T, typename U, typename Mask>
void ReduceLevel0Call(const char* api, AscendC::ReduceType op, bool with_op,
                      ReduceGroup group, const AscendC::LocalTensor<T>& dst,
                      const AscendC::LocalTensor<U>& src, const Mask mask,
                      const ReduceRepeats& r, AscendC::ReduceOrder order,
                      const CallSite& site) {
  const ApiCall call(site);
  const auto c = MakeReduceCall(api, op, with_op, dst, src);
  if (isSetMask) SetReduceMask(c, mask);
  ReduceLevel0(c, group, r.repeat_time, r.dst_rep_stride, r.src_blk_stride,
               r.src_rep_stride, order);
}

/// ReduceSum, ReduceMax or ReduceMin over `repeat_time` repeats: the call
/// site recorded, the mask argument put in the register, then the
/// reduction.
template <typename T, typename Mask>
void ReduceAllRepeatsCall(const char* api, AscendC::ReduceType op,
                          const AscendC::LocalTensor<T>& dst,
                          const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<T>& tmp, const Mask mask,
                          int32_t repeat_time, int32_t src_rep_stride,
                          bool cal_index, const CallSite& site) {
  const ApiCall call(site);
  const auto c = MakeReduceCall(api, op, false, dst, src);
  SetReduceMask(c, mask);
  ReduceAllRepeats(c, tmp.view(), repeat_time, src_rep_stride, cal_index);
}

/// ReduceSum, ReduceMax or ReduceMin over the first `count` elements
/// (count_from_mask: the count in the mask register).
template <typename T>
void ReduceAllCountCall(const char* api, AscendC::ReduceType op,
                        const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<T>& tmp, int32_t count,
                        bool cal_index, bool count_from_mask,
                        const CallSite& site) {
  const ApiCall call(site);
  const auto c = MakeReduceCall(api, op, false, dst, src);
  ReduceAllCount(c, tmp.view(), count, cal_index, count_from_mask);
}

}  // namespace normgrad_ascendc

// ReduceRepeat, ReduceDataBlock and ReducePairElem with one mask form:
// Name(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
// srcRepStride[, order]).
#define NORMGRAD_REDUCE_LEVEL0(MaskType)                                       \
  template <ReduceType reduceType, typename T, typename U,                     \
            bool isSetMask = true>                                             \
  void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src,      \
                    MaskType mask, const int32_t repeatTime,                   \
                    const int32_t dstRepStride, const int32_t srcBlkStride,    \
                    const int32_t srcRepStride,                                \
                    ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,        \
                    normgrad_ascendc::CallSite site = {}) {                    \
    normgrad_ascendc::ReduceLevel0Call<isSetMask>(                             \
        "ReduceRepeat", reduceType, true,                                      \
        normgrad_ascendc::ReduceGroup::kRepeat, normgrad_ascendc::Plain(dst),  \
        normgrad_ascendc::Plain(src), mask,                                    \
        {repeatTime, dstRepStride, srcBlkStride, srcRepStride}, order, site);  \
  }                                                                            \
  template <ReduceType reduceType, typename T, typename U,                     \
            bool isSetMask = true>                                             \
  void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src,   \
                       MaskType mask, const int32_t repeatTime,                \
                       const int32_t dstRepStride, const int32_t srcBlkStride, \
                       const int32_t srcRepStride,                             \
                       normgrad_ascendc::CallSite site = {}) {                 \
    normgrad_ascendc::ReduceLevel0Call<isSetMask>(                             \
        "ReduceDataBlock", reduceType, true,                                   \
        normgrad_ascendc::ReduceGroup::kDataBlock,                             \
        normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src), mask,      \
        {repeatTime, dstRepStride, srcBlkStride, srcRepStride},                \
        ReduceOrder::ORDER_ONLY_VALUE, site);                                  \
  }                                                                            \
  template <ReduceType reduceType, typename T, typename U,                     \
            bool isSetMask = true>                                             \
  void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src,    \
                      MaskType mask, const int32_t repeatTime,                 \
                      const int32_t dstRepStride, const int32_t srcBlkStride,  \
                      const int32_t srcRepStride,                              \
                      normgrad_ascendc::CallSite site = {}) {                  \
    normgrad_ascendc::ReduceLevel0Call<isSetMask>(                             \
        "ReducePairElem", reduceType, true,                                    \
        normgrad_ascendc::ReduceGroup::kPair, normgrad_ascendc::Plain(dst),    \
        normgrad_ascendc::Plain(src), mask,                                    \
        {repeatTime, dstRepStride, srcBlkStride, srcRepStride},                \
        ReduceOrder::ORDER_ONLY_VALUE, site);                                  \
  }

// BlockReduceSum/Max/Min and PairReduceSum with one mask form: the new
// instruction of Group with reduceType kOp, repeatTime before the mask.
#define NORMGRAD_REDUCE_OLD_NAME(Name, kOp, Group, MaskType)        \
  template <typename T, bool isSetMask = true>                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,   \
            const int32_t repeatTime, MaskType mask,                \
            const int32_t dstRepStride, const int32_t srcBlkStride, \
            const int32_t srcRepStride,                             \
            normgrad_ascendc::CallSite site = {}) {                 \
    normgrad_ascendc::ReduceLevel0Call<isSetMask>(                  \
        #Name, kOp, false, Group, normgrad_ascendc::Plain(dst),     \
        normgrad_ascendc::Plain(src), mask,                         \
        {repeatTime, dstRepStride, srcBlkStride, srcRepStride},     \
        ReduceOrder::ORDER_ONLY_VALUE, site);                       \
  }

// WholeReduceSum/Max/Min: ReduceRepeat's parameter order.
#define NORMGRAD_REDUCE_WHOLE(Name, kOp, MaskType)                            \
  template <typename T, bool isSetMask = true>                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,             \
            MaskType mask, const int32_t repeatTime,                          \
            const int32_t dstRepStride, const int32_t srcBlkStride,           \
            const int32_t srcRepStride,                                       \
            ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,               \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::ReduceLevel0Call<isSetMask>(                            \
        #Name, kOp, false, normgrad_ascendc::ReduceGroup::kRepeat,            \
        normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src), mask,     \
        {repeatTime, dstRepStride, srcBlkStride, srcRepStride}, order, site); \
  }

// RepeatReduceSum: ReduceRepeat<SUM> with repeatTime before the mask and,
// before the three strides ReduceRepeat keeps, the dstBlkStride the change
// notes removed as having no effect: it is taken and not read. The four
// strides stand in the order of every level-0 stride list (dst then src
// block strides, then dst then src repeat strides; docs/decisions.md).
#define NORMGRAD_REDUCE_REPEAT_SUM(MaskType)                                   \
  template <typename T, bool isSetMask = true>                                 \
  void RepeatReduceSum(                                                        \
      const LocalTensor<T>& dst, const LocalTensor<T>& src,                    \
      const int32_t repeatTime, MaskType mask, const int32_t /*dstBlkStride*/, \
      const int32_t srcBlkStride, const int32_t dstRepStride,                  \
      const int32_t srcRepStride, normgrad_ascendc::CallSite site = {}) {      \
    normgrad_ascendc::ReduceLevel0Call<isSetMask>(                             \
        "RepeatReduceSum", ReduceType::SUM, false,                             \
        normgrad_ascendc::ReduceGroup::kRepeat, dst, src, mask,                \
        {repeatTime, dstRepStride, srcBlkStride, srcRepStride},                \
        ReduceOrder::ORDER_VALUE_INDEX, site);                                 \
  }

// The two level-0 forms of ReduceSum (no index), ReduceMax and ReduceMin.
#define NORMGRAD_REDUCE_ALL(Name, kOp, MaskType)                          \
  template <typename T>                                                   \
  void Name(                                                              \
      const LocalTensor<T>& dst, const LocalTensor<T>& src,               \
      const LocalTensor<T>& sharedTmpBuffer, MaskType mask,               \
      const int32_t repeatTime, const int32_t srcRepStride,               \
      NORMGRAD_REDUCE_INDEX_PARAM normgrad_ascendc::CallSite site = {}) { \
    normgrad_ascendc::ReduceAllRepeatsCall(                               \
        #Name, kOp, normgrad_ascendc::Plain(dst),                         \
        normgrad_ascendc::Plain(src),                                     \
        normgrad_ascendc::Plain(sharedTmpBuffer), mask, repeatTime,       \
        srcRepStride, NORMGRAD_REDUCE_INDEX, site);                       \
  }

namespace AscendC {

NORMGRAD_REDUCE_LEVEL0(const uint64_t*)
NORMGRAD_REDUCE_LEVEL0(const int32_t)

NORMGRAD_REDUCE_WHOLE(WholeReduceSum, ReduceType::SUM, const uint64_t*)
NORMGRAD_REDUCE_WHOLE(WholeReduceSum, ReduceType::SUM, const int32_t)
NORMGRAD_REDUCE_WHOLE(WholeReduceMax, ReduceType::MAX, const uint64_t*)
NORMGRAD_REDUCE_WHOLE(WholeReduceMax, ReduceType::MAX, const int32_t)
NORMGRAD_REDUCE_WHOLE(WholeReduceMin, ReduceType::MIN, const uint64_t*)
NORMGRAD_REDUCE_WHOLE(WholeReduceMin, ReduceType::MIN, const int32_t)

#define NORMGRAD_REDUCE_OLD_BOTH(Name, kOp, Group)            \
  NORMGRAD_REDUCE_OLD_NAME(Name, kOp, Group, const uint64_t*) \
  NORMGRAD_REDUCE_OLD_NAME(Name, kOp, Group, const int32_t)
NORMGRAD_REDUCE_OLD_BOTH(BlockReduceSum, ReduceType::SUM,
                         normgrad_ascendc::ReduceGroup::kDataBlock)
NORMGRAD_REDUCE_OLD_BOTH(BlockReduceMax, ReduceType::MAX,
                         normgrad_ascendc::ReduceGroup::kDataBlock)
NORMGRAD_REDUCE_OLD_BOTH(BlockReduceMin, ReduceType::MIN,
                         normgrad_ascendc::ReduceGroup::kDataBlock)
NORMGRAD_REDUCE_OLD_BOTH(PairReduceSum, ReduceType::SUM,
                         normgrad_ascendc::ReduceGroup::kPair)
#undef NORMGRAD_REDUCE_OLD_BOTH
NORMGRAD_REDUCE_REPEAT_SUM(const uint64_t*)
NORMGRAD_REDUCE_REPEAT_SUM(const int32_t)

#define NORMGRAD_REDUCE_INDEX_PARAM
#define NORMGRAD_REDUCE_INDEX false
NORMGRAD_REDUCE_ALL(ReduceSum, ReduceType::SUM, const uint64_t*)
NORMGRAD_REDUCE_ALL(ReduceSum, ReduceType::SUM, const int32_t)
#undef NORMGRAD_REDUCE_INDEX_PARAM
#undef NORMGRAD_REDUCE_INDEX
#define NORMGRAD_REDUCE_INDEX_PARAM bool calIndex = 0,
#define NORMGRAD_REDUCE_INDEX calIndex
NORMGRAD_REDUCE_ALL(ReduceMax, ReduceType::MAX, const uint64_t*)
NORMGRAD_REDUCE_ALL(ReduceMax, ReduceType::MAX, const int32_t)
NORMGRAD_REDUCE_ALL(ReduceMin, ReduceType::MIN, const uint64_t*)
NORMGRAD_REDUCE_ALL(ReduceMin, ReduceType::MIN, const int32_t)
#undef NORMGRAD_REDUCE_INDEX_PARAM
#undef NORMGRAD_REDUCE_INDEX

/// ReduceSum over the first `count` elements; with isSetMask = false the
/// count is the one SetVectorMask put in the mask register (counter mode)
/// on the profiles where isSetMask takes effect.
template <typename T, bool isSetMask = true>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& sharedTmpBuffer, const int32_t count,
               normgrad_ascendc::CallSite site = {}) {
  if constexpr (isSetMask && (std::is_same_v<PrimT<T>, half> ||
                              std::is_same_v<PrimT<T>, float>)) {
    if (normgrad_ascendc::ReduceSumDirect(
            normgrad_ascendc::Plain(dst).view(),
            normgrad_ascendc::Plain(src).view(),
            normgrad_ascendc::Plain(sharedTmpBuffer).view(), count,
            std::is_same_v<PrimT<T>, half>)) {
      return;
    }
  }
  normgrad_ascendc::ReduceAllCountCall(
      "ReduceSum", ReduceType::SUM, normgrad_ascendc::Plain(dst),
      normgrad_ascendc::Plain(src), normgrad_ascendc::Plain(sharedTmpBuffer),
      count, false, !isSetMask, site);
}
/// ReduceMax over the first `count` elements, with its index for calIndex.
template <typename T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& sharedTmpBuffer, const int32_t count,
               bool calIndex = 0, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::ReduceAllCountCall(
      "ReduceMax", ReduceType::MAX, normgrad_ascendc::Plain(dst),
      normgrad_ascendc::Plain(src), normgrad_ascendc::Plain(sharedTmpBuffer),
      count, calIndex, false, site);
}
/// ReduceMin over the first `count` elements, with its index for calIndex.
template <typename T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& sharedTmpBuffer, const int32_t count,
               bool calIndex = 0, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::ReduceAllCountCall(
      "ReduceMin", ReduceType::MIN, normgrad_ascendc::Plain(dst),
      normgrad_ascendc::Plain(src), normgrad_ascendc::Plain(sharedTmpBuffer),
      count, calIndex, false, site);
}

/// The sum the last ReduceSum count form left (half or float; Atlas A2/A3
/// and the 950).
template <typename T>
T GetReduceRepeatSumSpr(normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GetReduceRepeatSumSpr: T must be half or float");
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::FromSprBits<T>(normgrad_ascendc::ReduceSumSpr());
}

/// The extreme the last ReduceRepeat<MAX/MIN>, ReduceMax or ReduceMin left,
/// and its index in the bits of T (Atlas A2/A3).
template <typename T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex,
                              normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GetReduceRepeatMaxMinSpr: T must be half or float");
  const normgrad_ascendc::ApiCall call(site);
  uint64_t value = 0, index = 0;
  normgrad_ascendc::ReduceMaxMinSpr(true, &value, &index);
  maxMinValue = normgrad_ascendc::FromSprBits<T>(value);
  maxMinIndex = normgrad_ascendc::FromSprBits<T>(index);
}

/// The extreme alone (the Atlas inference series).
template <typename T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue,
                              normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GetReduceRepeatMaxMinSpr: T must be half or float");
  const normgrad_ascendc::ApiCall call(site);
  uint64_t value = 0;
  normgrad_ascendc::ReduceMaxMinSpr(false, &value, nullptr);
  maxMinValue = normgrad_ascendc::FromSprBits<T>(value);
}

}  // namespace AscendC

#undef NORMGRAD_REDUCE_LEVEL0
#undef NORMGRAD_REDUCE_OLD_NAME
#undef NORMGRAD_REDUCE_WHOLE
#undef NORMGRAD_REDUCE_REPEAT_SUM
#undef NORMGRAD_REDUCE_ALL
