// normgrad_ascendc/vector/vector_select.h — the compare-and-select instructions
// of the vector unit (docs/runtime.md, "Compare and select"): Compare and
// Compares (also under its earlier name CompareScalar) into a bit tensor,
// Compare into the comparison-result register (CMPMASK, vector_mask.h) with
// GetCmpMask/SetCmpMask, Select in its three modes, and GatherMask.
//
// Compare's result. The destination is a uint8_t (or int8_t) tensor read as
// a little-endian bit string: bit k of byte k / 8 is lane k, 1 where the
// comparison holds. Repeat r's lanes/8 result bytes lie at byte r·lanes/8 —
// the results of all repeats are packed, and dst's strides are not read. A
// repeat writes all of its result bytes; a lane the mask leaves out gives 0.
// On the Atlas A2/A3 and inference profiles the mask of Compare and Compares
// is a reserved argument: the call reads neither it nor the mask register
// and compares every lane of repeatTime repeats. The count form compares the
// elements of the whole 256-byte units within `count` (the documented rule:
// the rest takes no part). Comparisons are those of IEEE: with a NaN operand
// only NE holds; −0 equals +0. half and bfloat16_t compare exactly (through
// float).
//
// Select. dst[i] = bit i of the selection ? src0[i] : src1[i] (src1 a
// tensor, or a scalar in mode VSEL_TENSOR_SCALAR_MODE). In mode
// VSEL_CMPMASK_SPR every repeat uses the same first lanes bits: those of the
// CMPMASK register, which the forms with a selMask argument load with its
// first bytes. In the other modes repeat r uses bits r·lanes .. r·lanes +
// lanes − 1 of selMask, whatever the strides. The forms without a selMask
// argument read the register: mode 0's bits, mode 1's scalar (its first
// sizeof(T) bytes) or mode 2's selMask address (its first 8 bytes, a
// pointer into the core's UB as GetPhyAddr gives it, or a UB byte offset).
//
// GatherMask. The source elements whose pattern bit is 1 are written packed
// from dst's first element, in order; rsvdCnt receives their number. A
// built-in pattern (1..7) is the same for every repeat; a user pattern
// tensor gives repeat r the bits from byte r·src1RepeatStride·32. Every
// source lane is read before dst is written, so dst may be src0. The call
// leaves the mask register in normal mode.
//
// Element types per profile are those each page lists (the tables below); a
// type the profile does not list is a KernelError naming the instruction,
// the type and the profile (vector_ops.h). Every call checks its operands as
// vector_unit.h says and takes a last, defaulted CallSite.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_instruction.h"
#include "normgrad_ascendc/vector/vector_ops.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace AscendC {

/// Compare's relation: src0 LT/GT/EQ/LE/GE/NE src1.
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

/// Select's modes (see the file comment).
enum class SELMODE : uint8_t {
  VSEL_CMPMASK_SPR = 0,
  VSEL_TENSOR_SCALAR_MODE,
  VSEL_TENSOR_TENSOR_MODE,
};

/// GatherMask's strides, in 32-byte blocks, and its repeats.
struct GatherMaskParams {
  GatherMaskParams() {}
  GatherMaskParams(uint8_t src0BlockStrideIn, uint16_t repeatTimesIn,
                   uint16_t src0RepeatStrideIn, uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

/// GatherMask's reserved template argument.
enum class GatherMaskMode : uint8_t { DEFAULT = 0 };
inline constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::DEFAULT;

}  // namespace AscendC

namespace normgrad_ascendc {

// The element types of each instruction, per profile, as documented.
inline constexpr uint32_t kTypes950Select =
    kTypeInt16 | kTypeUint16 | kTypeHalf | kTypeBfloat16 | kTypeInt32 |
    kTypeUint32 | kTypeFloat;
inline constexpr TypeRule kCompareTypes{
    kTypeHalf | kTypeFloat | kTypeInt32, kTypeHalf | kTypeFloat,
    kTypes950Select, kTypeInt8 | kTypeUint8 | kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kCompareRegisterTypes{
    kTypeHalf | kTypeFloat, kTypeHalf | kTypeFloat, kTypeHalf | kTypeFloat, 0};
inline constexpr TypeRule kCompareFlexTypes{
    0, 0, kTypes950Select, kTypeInt8 | kTypeUint8 | kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kSelectTypes{
    kTypeHalf | kTypeFloat, kTypeHalf | kTypeFloat, kTypes950Select,
    kTypeInt8 | kTypeUint8 | kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kSelectFlexTypes{
    0, 0, kTypes950Select, kTypeInt8 | kTypeUint8 | kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kGatherMaskTypes{
    kTypes950Select,
    kTypeInt16 | kTypeUint16 | kTypeHalf | kTypeInt32 | kTypeUint32 |
        kTypeFloat,
    kTypes950Select | kTypeInt8 | kTypeUint8, 0};

/// "LT", "GT", ...
const char* CmpModeName(AscendC::CMPMODE mode);

/// Fails unless the profile compares `type` (a bit of TypeBit) by `mode`:
/// int32_t on the Atlas A2/A3 profile compares by EQ only.
void CheckCmpMode(const char* api, const char* type, uint32_t bit,
                  AscendC::CMPMODE mode);

/// Whether the profile reads Compare's mask (the 950 profile); elsewhere the
/// mask is reserved.
bool CompareReadsMask();

/// Runs `in` as Compare's level-0 form: under the call's mask and the mask
/// register on the 950 profile, elsewhere over every lane of repeatTime
/// repeats with the mask register untouched (vector_select.cc).
void RunCompareRepeats(const VecInstruction& in, const uint64_t mask[],
                       bool is_set_mask, uint8_t repeat_time);
void RunCompareRepeats(const VecInstruction& in, uint64_t mask,
                       bool is_set_mask, uint8_t repeat_time);

/// relation(x, y) as IEEE defines it (floating types through float).
template <typename T>
bool Holds(AscendC::CMPMODE mode, T x, T y) {
  using V = std::conditional_t<kIsFloatElement<T>, float, T>;
  const V a = static_cast<V>(x);
  const V b = static_cast<V>(y);
  switch (mode) {
    case AscendC::CMPMODE::LT:
      return a < b;
    case AscendC::CMPMODE::GT:
      return a > b;
    case AscendC::CMPMODE::EQ:
      return a == b;
    case AscendC::CMPMODE::LE:
      return a <= b;
    case AscendC::CMPMODE::GE:
      return a >= b;
    case AscendC::CMPMODE::NE:
      return !(a == b);
  }
  return false;
}

/// The relation that holds for (y, x) exactly when `mode` holds for (x, y).
constexpr AscendC::CMPMODE Swapped(AscendC::CMPMODE mode) {
  switch (mode) {
    case AscendC::CMPMODE::LT:
      return AscendC::CMPMODE::GT;
    case AscendC::CMPMODE::GT:
      return AscendC::CMPMODE::LT;
    case AscendC::CMPMODE::LE:
      return AscendC::CMPMODE::GE;
    case AscendC::CMPMODE::GE:
      return AscendC::CMPMODE::LE;
    default:
      return mode;
  }
}

template <typename T>
struct CompareParams {
  AscendC::CMPMODE mode;
  T scalar;  ///< Compares: the right operand
};

/// Compares the first n / 64 · 64 lanes of float x with y (null: with
/// `scalar`) into bits, on the engine's loops (vector_select.cc); returns
/// the lanes done.
uint32_t CompareFloatImpl(AscendC::CMPMODE mode, uint8_t* bits, const float* x,
                          const float* y, float scalar, uint32_t n);

/// n lanes of src0 compared with src1 (or the scalar) into n/8 bytes of
/// bits; lanes outside `selected` give 0.
template <typename T, bool kScalar>
void CompareSpan(const SpanArgs& a) {
  const auto& p = *static_cast<const CompareParams<T>*>(a.params);
  uint8_t* d = static_cast<uint8_t*>(a.operand[0]);
  const T* x = static_cast<const T*>(a.operand[1]);
  const T* y = kScalar ? nullptr : static_cast<const T*>(a.operand[2]);
  uint32_t done = 0;
  if constexpr (std::is_same_v<T, float>) {
    // A float repeat is 64 lanes: all selected, one word of bits.
    if (a.every_lane || (a.n == 64 && a.selected[0] == ~uint64_t{0})) {
      done = CompareFloatImpl(p.mode, d, x, y, kScalar ? p.scalar : 0.0f, a.n);
    }
  }
  for (uint32_t i = done; i < a.n; i += 8) {
    uint32_t byte = 0;
    for (uint32_t j = 0; j < 8; ++j) {
      const uint32_t k = i + j;
      const bool on = a.Selected(k);
      if (on && Holds(p.mode, x[k], kScalar ? p.scalar : y[k])) {
        byte |= 1u << j;
      }
    }
    d[i / 8] = static_cast<uint8_t>(byte);
  }
}

/// Where Compare's results go: a byte per 8 lanes, packed across repeats.
inline ReduceLayout CompareLayout(uint32_t lanes) {
  ReduceLayout l{8, 1, lanes / 8, 32, true};
  l.flat = true;  // CompareSpan takes any whole number of bytes of bits
  return l;
}

/// Compare (src1 given) or Compares as an instruction of the executor,
/// its results into `dst`; `params` and `layout` must outlive it.
template <typename T, bool kScalar>
VecInstruction CompareInstruction(const char* api, const TensorView& dst,
                                  const AscendC::LocalTensor<T>& src0,
                                  const AscendC::LocalTensor<T>* src1,
                                  const CompareParams<T>& params,
                                  const ReduceLayout& layout) {
  VecInstruction in{api,
                    TypeName<T>(),
                    LanesOf(sizeof(T)),
                    {{"dst", &dst, 1}, {"src0", &src0.view(), sizeof(T)}},
                    2,
                    &CompareSpan<T, kScalar>};
  if (src1 != nullptr) {
    in.operand[2] = {"src1", &src1->view(), sizeof(T)};
    in.operands = 3;
  }
  in.params = &params;
  in.reduce = &layout;
  return in;
}

template <typename U>
constexpr bool kIsBitsElement =
    std::is_same_v<U, uint8_t> || std::is_same_v<U, int8_t>;

/// The count form's elements: those of the whole 256-byte units in count.
template <typename T>
int64_t CompareCount(uint32_t count) {
  const uint32_t unit = 256 / sizeof(T);
  return count / unit * unit;
}

/// Compare (src1 given) or Compares (kScalar) in any form: the bits of src
/// cmpMode src1, or src cmpMode `scalar`, into dst; with `scalar_first`
/// (the 950's flexible position), `scalar` cmpMode src, src being the
/// call's src1. The count form covers the whole 256-byte units of its count.
template <typename T, bool kScalar, typename Form>
void CompareCall(const char* api, const TypeRule& rule, const TensorView& dst,
                 const AscendC::LocalTensor<T>& src,
                 const AscendC::LocalTensor<T>* src1, AscendC::CMPMODE mode,
                 const T scalar, bool scalar_first, const Form& form) {
  const InstructionCall<T> call(api, rule, form);
  CheckCmpMode(api, TypeName<T>(), TypeBitOf<T>(), mode);
  const CompareParams<T> params{scalar_first ? Swapped(mode) : mode, scalar};
  const auto layout = CompareLayout(LanesOf(sizeof(T)));
  auto in = CompareInstruction<T, kScalar>(api, dst, src, src1, params, layout);
  if (scalar_first) in.operand[1].name = "src1";
  if constexpr (Form::kCountForm) {
    ExecuteCount(in, CompareCount<T>(static_cast<uint32_t>(form.count)));
  } else {
    SetStrides(in, form.strides);
    RunCompareRepeats(in, form.mask, Form::kSetMask, form.repeat_time);
  }
}

/// Compare's register form: one repeat (or, in counter mode, the first) of
/// src0 compared with src1 into the CMPMASK register; lanes the mask leaves
/// out, and bits past the repeat's lanes, become 0 (vector_select.cc).
void RunCompareToRegister(VecInstruction in);

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst bit i = src0[i] cmpMode src1[i], i < count rounded down to whole
/// 256-byte units.
template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
             const LocalTensor<T>& src1, CMPMODE cmpMode, uint32_t count,
             normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsBitsElement<PrimT<U>>,
                "Compare: dst holds bits as uint8_t or int8_t");
  normgrad_ascendc::CompareCall<PrimT<T>, false>(
      "Compare", normgrad_ascendc::kCompareTypes,
      normgrad_ascendc::Plain(dst).view(), normgrad_ascendc::Plain(src0),
      &normgrad_ascendc::Plain(src1), cmpMode, PrimT<T>{}, false,
      normgrad_ascendc::CountForm{count, site});
}
/// Compare's level-0 forms with a bit mask or a continuous mask (the mask
/// is read on the 950 profile only).
template <typename T, typename U, bool isSetMask = true, typename Mask>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
             const LocalTensor<T>& src1, CMPMODE cmpMode, const Mask& mask,
             uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
             normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsBitsElement<PrimT<U>>,
                "Compare: dst holds bits as uint8_t or int8_t");
  normgrad_ascendc::CompareCall<PrimT<T>, false>(
      "Compare", normgrad_ascendc::kCompareTypes,
      normgrad_ascendc::Plain(dst).view(), normgrad_ascendc::Plain(src0),
      &normgrad_ascendc::Plain(src1), cmpMode, PrimT<T>{}, false,
      normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime, repeatParams,
                                                site));
}

}  // namespace AscendC

// Compares' four forms under the name Name (Compares, and CompareScalar, its
// earlier name in the change notes, with the same parameters):
//   src0 cmpMode src1Scalar, count form and level-0 forms;
//   the flexible scalar position (the 950 profile): src0Scalar cmpMode
//   src1, count form and level-0 forms.
// The count form covers count rounded down to whole 256-byte units; the
// level-0 forms' mask is read on the 950 profile only.
#define NORMGRAD_COMPARES(Name)                                              \
  template <typename T, typename U>                                          \
  void Name(const LocalTensor<U>& dst, const LocalTensor<T>& src0,           \
            const typename normgrad_ascendc::NonDeduced<T>::type src1Scalar, \
            CMPMODE cmpMode, uint32_t count,                                 \
            normgrad_ascendc::CallSite site = {}) {                          \
    static_assert(std::is_same_v<PrimT<U>, uint8_t>,                         \
                  #Name ": dst is uint8_t");                                 \
    normgrad_ascendc::CompareCall<PrimT<T>, true>(                           \
        #Name, normgrad_ascendc::kCompareTypes,                              \
        normgrad_ascendc::Plain(dst).view(), normgrad_ascendc::Plain(src0),  \
        nullptr, cmpMode, src1Scalar, false,                                 \
        normgrad_ascendc::CountForm{count, site});                           \
  }                                                                          \
  template <typename T, typename U, bool isSetMask = true, typename Mask>    \
  void Name(const LocalTensor<U>& dst, const LocalTensor<T>& src0,           \
            const typename normgrad_ascendc::NonDeduced<T>::type src1Scalar, \
            CMPMODE cmpMode, const Mask& mask, uint8_t repeatTime,           \
            const UnaryRepeatParams& repeatParams,                           \
            normgrad_ascendc::CallSite site = {}) {                          \
    static_assert(std::is_same_v<PrimT<U>, uint8_t>,                         \
                  #Name ": dst is uint8_t");                                 \
    normgrad_ascendc::CompareCall<PrimT<T>, true>(                           \
        #Name, normgrad_ascendc::kCompareTypes,                              \
        normgrad_ascendc::Plain(dst).view(), normgrad_ascendc::Plain(src0),  \
        nullptr, cmpMode, src1Scalar, false,                                 \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,          \
                                                  repeatParams, site));      \
  }                                                                          \
  template <typename T, typename U>                                          \
  void Name(const LocalTensor<U>& dst,                                       \
            const typename normgrad_ascendc::NonDeduced<T>::type src0Scalar, \
            const LocalTensor<T>& src1, CMPMODE cmpMode, uint32_t count,     \
            normgrad_ascendc::CallSite site = {}) {                          \
    static_assert(std::is_same_v<PrimT<U>, uint8_t>,                         \
                  #Name ": dst is uint8_t");                                 \
    normgrad_ascendc::CompareCall<PrimT<T>, true>(                           \
        #Name, normgrad_ascendc::kCompareFlexTypes,                          \
        normgrad_ascendc::Plain(dst).view(), normgrad_ascendc::Plain(src1),  \
        nullptr, cmpMode, src0Scalar, true,                                  \
        normgrad_ascendc::CountForm{count, site});                           \
  }                                                                          \
  template <typename T, typename U, bool isSetMask = true, typename Mask>    \
  void Name(const LocalTensor<U>& dst,                                       \
            const typename normgrad_ascendc::NonDeduced<T>::type src0Scalar, \
            const LocalTensor<T>& src1, CMPMODE cmpMode, const Mask& mask,   \
            uint8_t repeatTime, const UnaryRepeatParams& repeatParams,       \
            normgrad_ascendc::CallSite site = {}) {                          \
    static_assert(std::is_same_v<PrimT<U>, uint8_t>,                         \
                  #Name ": dst is uint8_t");                                 \
    normgrad_ascendc::CompareCall<PrimT<T>, true>(                           \
        #Name, normgrad_ascendc::kCompareFlexTypes,                          \
        normgrad_ascendc::Plain(dst).view(), normgrad_ascendc::Plain(src1),  \
        nullptr, cmpMode, src0Scalar, true,                                  \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,          \
                                                  repeatParams, site));      \
  }

namespace AscendC {

NORMGRAD_COMPARES(Compares)
NORMGRAD_COMPARES(CompareScalar)

}  // namespace AscendC

#undef NORMGRAD_COMPARES

namespace AscendC {

/// Compare into the CMPMASK register: one repeat of src0 cmpMode src1 under
/// the mask (bit mask or continuous mask).
template <typename T, bool isSetMask = true, typename Mask>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, const Mask& mask,
             const BinaryRepeatParams& repeatParams,
             normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Compare", normgrad_ascendc::kCompareRegisterTypes, /*count_form=*/false,
      site);
  normgrad_ascendc::CheckCmpMode(
      "Compare", normgrad_ascendc::TypeName<PrimT<T>>(),
      normgrad_ascendc::TypeBitOf<PrimT<T>>(), cmpMode);
  const normgrad_ascendc::CompareParams<PrimT<T>> params{cmpMode, PrimT<T>{}};
  const uint32_t lanes = normgrad_ascendc::LanesOf(sizeof(PrimT<T>));
  const auto layout = normgrad_ascendc::CompareLayout(lanes);
  // The results go to the register: normgrad_ascendc::Plain(src0)'s view stands
  // in for the destination operand, which is not written.
  auto in = normgrad_ascendc::CompareInstruction<PrimT<T>, false>(
      "Compare", normgrad_ascendc::Plain(src0).view(),
      normgrad_ascendc::Plain(src0), &normgrad_ascendc::Plain(src1), params,
      layout);
  normgrad_ascendc::SetStrides(in, repeatParams);
  if (isSetMask) normgrad_ascendc::SetMaskArgument(mask, lanes);
  normgrad_ascendc::RunCompareToRegister(in);
}

}  // namespace AscendC

namespace normgrad_ascendc {

/// Where Select's selection bits come from: bit i of byte i / 8 of `bits`
/// for selection index i; an index past `bytes` bytes reads 0.
struct Selection {
  const uint8_t* bits;
  uint64_t bytes;
  uint32_t period;  ///< mode 0: a lane's index is taken modulo this; else 0
};

template <typename T>
struct SelectParams {
  Selection selection;
  T scalar;                   ///< mode 1
  bool scalar_first;          ///< the flexible position: the scalar is src0
  mutable uint64_t next = 0;  ///< the index of the next span's first lane
};

/// The engine's Select loop for the instruction set it picks, on n elements
/// of `bytes` (1, 2, 4 or 8) from selection bit 0 of `bits` (vector_select.cc).
void SelectLoop(uint32_t bytes, void* d, const void* x, const void* y,
                uint64_t scalar, bool invert, const uint8_t* bits, uint32_t n);

/// n lanes of bit ? src0 : src1 (or the scalar). The executor calls a span
/// for the lanes in order — once for all, or once per repeat — so the
/// selection index of lane k is `next` + k.
template <typename T, bool kScalar>
void SelectSpan(const SpanArgs& a) {
  const auto& p = *static_cast<const SelectParams<T>*>(a.params);
  T* d = static_cast<T*>(a.operand[0]);
  const T* x = static_cast<const T*>(a.operand[1]);
  const T* y = kScalar ? nullptr : static_cast<const T*>(a.operand[2]);
  const Selection& s = p.selection;
  // From a whole byte of the selection, every bit inside it: the engine's
  // loop (the same elements as the loop below).
  if (s.period == 0 && p.next % 8 == 0 && (p.next + a.n + 7) / 8 <= s.bytes) {
    uint64_t scalar = 0;
    if constexpr (kScalar) std::memcpy(&scalar, &p.scalar, sizeof(T));
    SelectLoop(sizeof(T), d, x, y, scalar, kScalar && p.scalar_first,
               s.bits + p.next / 8, a.n);
    p.next += a.n;
    return;
  }
  for (uint32_t k = 0; k < a.n; ++k) {
    uint64_t i = p.next + k;
    if (s.period != 0) i %= s.period;
    const bool bit = i / 8 < s.bytes && (s.bits[i / 8] >> (i % 8) & 1) != 0;
    if constexpr (kScalar) {
      d[k] = bit != p.scalar_first ? x[k] : p.scalar;
    } else {
      d[k] = bit ? x[k] : y[k];
    }
  }
  p.next += a.n;
}

/// Select as an instruction of the executor; `params` must outlive it.
template <typename T, bool kScalar>
VecInstruction SelectInstruction(const AscendC::LocalTensor<T>& dst,
                                 const AscendC::LocalTensor<T>& src,
                                 const char* src_name,
                                 const AscendC::LocalTensor<T>* src1,
                                 const SelectParams<T>& params) {
  VecInstruction in{
      "Select",
      TypeName<T>(),
      LanesOf(sizeof(T)),
      {{"dst", &dst.view(), sizeof(T)}, {src_name, &src.view(), sizeof(T)}},
      2,
      &SelectSpan<T, kScalar>};
  if (src1 != nullptr) {
    in.operand[2] = {"src1", &src1->view(), sizeof(T)};
    in.operands = 3;
  }
  in.params = &params;
  return in;
}

template <typename U>
constexpr bool kIsSelMaskElement =
    std::is_same_v<U, uint8_t> || std::is_same_v<U, uint16_t> ||
    std::is_same_v<U, uint32_t> || std::is_same_v<U, uint64_t>;

/// Fails unless `mode` goes with a scalar src1 (scalar_form) or a tensor.
void CheckSelMode(const char* type, AscendC::SELMODE mode, bool scalar_form);

/// The selection of a call with a selMask argument whose lanes reach
/// selection index needed_bits − 1: mode 0 loads the CMPMASK register with
/// selMask's first bytes and selects by it; modes 1 and 2 read selMask,
/// which must hold needed_bits bits (vector_select.cc).
Selection SelectionFromMask(const char* type, AscendC::SELMODE mode,
                            const TensorView& sel_mask, uint32_t lanes,
                            uint64_t needed_bits);
/// The selection of a call without a selMask argument: mode 0's bits in the
/// CMPMASK register, or mode 2's selMask at the address it holds.
Selection SelectionFromRegister(const char* type, AscendC::SELMODE mode,
                                uint32_t lanes, uint64_t needed_bits);
/// One past the selection index of the last lane the level-0 form selects
/// under the mask register in `repeat_time` repeats of `lanes`.
uint64_t LevelZeroLaneEnd(uint32_t lanes, int64_t repeat_time);
/// Mode 1's scalar from the CMPMASK register's first `bytes` bytes.
void ScalarFromRegister(void* scalar, uint32_t bytes);

/// Select with a selMask argument in any form: bit ? src : src1 (or the
/// scalar; with `scalar_first`, bit ? scalar : src, the tensor being src1).
template <typename T, bool kScalar, typename Form>
void SelectCall(const TensorView& sel_mask, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<T>* src1, const T scalar,
                bool scalar_first, AscendC::SELMODE mode, const TypeRule& rule,
                const Form& form) {
  const InstructionCall<T> call("Select", rule, form);
  CheckSelMode(TypeName<T>(), mode, kScalar);
  const uint32_t lanes = LanesOf(sizeof(T));
  // The selection bits the lanes reach: in a level-0 form, those of the
  // lanes the mask register selects, so the mask argument goes there first.
  uint64_t needed_bits;
  if constexpr (Form::kCountForm) {
    needed_bits = static_cast<uint64_t>(form.count);
  } else {
    if (Form::kSetMask) SetMaskArgument(form.mask, lanes);
    needed_bits = LevelZeroLaneEnd(lanes, form.repeat_time);
  }
  SelectParams<T> params{
      SelectionFromMask(TypeName<T>(), mode, sel_mask, lanes, needed_bits),
      scalar, scalar_first};
  RunForm(SelectInstruction<T, kScalar>(
              dst, src, scalar_first ? "src1" : "src0", src1, params),
          form, /*mask_set=*/true);
}

/// selMask's view, its element type checked.
template <typename U>
const TensorView& SelMaskView(const AscendC::LocalTensor<U>& sel_mask) {
  static_assert(kIsSelMaskElement<U>,
                "Select: selMask is uint8_t, uint16_t, uint32_t or uint64_t");
  return sel_mask.view();
}

/// GatherMask's arguments (vector_select.cc runs it).
struct GatherMaskArgs {
  const char* type;
  const TensorView* dst;
  const TensorView* src0;
  uint32_t elem_bytes;
  const TensorView* pattern;  ///< a user pattern, or null
  uint8_t builtin;            ///< the built-in pattern, without a tensor
  bool reduce_mode;
  uint32_t mask;
  AscendC::GatherMaskParams params;
  /// The caller and its argument names, for messages (the C API's
  /// asc_reduce passes its own).
  const char* api = "GatherMask";
  const char* pattern_name = "src1Pattern";
  const char* pattern_stride_name = "src1RepeatStride";
  const char* repeat_name = "gatherMaskParams.repeatTimes";
};
/// Runs GatherMask; returns rsvdCnt.
uint64_t RunGatherMask(const GatherMaskArgs& call);

/// GatherMask with a user pattern tensor or a built-in pattern; returns
/// rsvdCnt.
template <typename T>
uint64_t GatherMaskCall(const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<T>& src0,
                        const TensorView* pattern, uint8_t builtin,
                        bool reduce_mode, uint32_t mask,
                        const AscendC::GatherMaskParams& params,
                        const CallSite& site) {
  const InstructionCall<T> call("GatherMask", kGatherMaskTypes,
                                /*count_form=*/false, site);
  return RunGatherMask({TypeName<T>(), &dst.view(), &src0.view(), sizeof(T),
                        pattern, builtin, reduce_mode, mask, params});
}

/// GetCmpMask and SetCmpMask on a tensor of `type`.
void GetCmpMaskImpl(const char* type, const TensorView& dst);
void SetCmpMaskImpl(const char* type, const TensorView& src);

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = bit i of selMask ? src0[i] : src1[i], i < count, in mode
/// VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE.
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
            const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            SELMODE selMode, uint32_t count,
            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SelectCall<PrimT<T>, false>(
      normgrad_ascendc::SelMaskView(normgrad_ascendc::Plain(selMask)),
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),
      &normgrad_ascendc::Plain(src1), PrimT<T>{}, false, selMode,
      normgrad_ascendc::kSelectTypes, normgrad_ascendc::CountForm{count, site});
}
/// dst[i] = bit i of selMask ? src0[i] : src1, i < count, in mode
/// VSEL_TENSOR_SCALAR_MODE.
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
            const LocalTensor<T>& src0,
            const typename normgrad_ascendc::NonDeduced<T>::type src1,
            SELMODE selMode, uint32_t count,
            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SelectCall<PrimT<T>, true>(
      normgrad_ascendc::SelMaskView(normgrad_ascendc::Plain(selMask)),
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0), nullptr,
      src1, false, selMode, normgrad_ascendc::kSelectTypes,
      normgrad_ascendc::CountForm{count, site});
}
/// The flexible scalar position (the 950 profile, mode
/// VSEL_TENSOR_SCALAR_MODE): dst[i] = bit i ? src0 : src1[i], i < count.
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
            const typename normgrad_ascendc::NonDeduced<T>::type src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count,
            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SelectCall<PrimT<T>, true>(
      normgrad_ascendc::SelMaskView(normgrad_ascendc::Plain(selMask)),
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src1), nullptr,
      src0, true, selMode, normgrad_ascendc::kSelectFlexTypes,
      normgrad_ascendc::CountForm{count, site});
}

/// Select's level-0 forms in mode VSEL_CMPMASK_SPR or
/// VSEL_TENSOR_TENSOR_MODE, with a bit mask or a continuous mask.
template <typename T, typename U, bool isSetMask = true, typename Mask>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
            const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            SELMODE selMode, const Mask& mask, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams,
            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SelectCall<PrimT<T>, false>(
      normgrad_ascendc::SelMaskView(normgrad_ascendc::Plain(selMask)),
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),
      &normgrad_ascendc::Plain(src1), PrimT<T>{}, false, selMode,
      normgrad_ascendc::kSelectTypes,
      normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime, repeatParams,
                                                site));
}
/// Select's level-0 forms in mode VSEL_TENSOR_SCALAR_MODE.
template <typename T, typename U, bool isSetMask = true, typename Mask>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
            const LocalTensor<T>& src0,
            const typename normgrad_ascendc::NonDeduced<T>::type src1,
            SELMODE selMode, const Mask& mask, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams,
            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SelectCall<PrimT<T>, true>(
      normgrad_ascendc::SelMaskView(normgrad_ascendc::Plain(selMask)),
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0), nullptr,
      src1, false, selMode, normgrad_ascendc::kSelectTypes,
      normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime, repeatParams,
                                                site));
}
/// The flexible scalar position's level-0 forms (the 950 profile).
template <typename T, typename U, bool isSetMask = true, typename Mask>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
            const typename normgrad_ascendc::NonDeduced<T>::type src0,
            const LocalTensor<T>& src1, SELMODE selMode, const Mask& mask,
            uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
            normgrad_ascendc::CallSite site = {}) {
  BinaryRepeatParams rp =
      repeatParams;  // the tensor is normgrad_ascendc::Plain(src1)
  rp.src0BlkStride = repeatParams.src1BlkStride;
  rp.src0RepStride = repeatParams.src1RepStride;
  normgrad_ascendc::SelectCall<PrimT<T>, true>(
      normgrad_ascendc::SelMaskView(normgrad_ascendc::Plain(selMask)),
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src1), nullptr,
      src0, true, selMode, normgrad_ascendc::kSelectFlexTypes,
      normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime, rp, site));
}

/// Mode VSEL_TENSOR_SCALAR_MODE under the mask register, the scalar taken
/// from the CMPMASK register (SetCmpMask).
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
            const LocalTensor<T>& src0, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams,
            normgrad_ascendc::CallSite site = {}) {
  PrimT<T> scalar{};
  normgrad_ascendc::ScalarFromRegister(&scalar, sizeof(PrimT<T>));
  normgrad_ascendc::SelectCall<PrimT<T>, true>(
      normgrad_ascendc::SelMaskView(normgrad_ascendc::Plain(selMask)),
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0), nullptr,
      scalar, false, SELMODE::VSEL_TENSOR_SCALAR_MODE,
      normgrad_ascendc::kSelectTypes,
      normgrad_ascendc::RepeatFormOf<false>(MASK_PLACEHOLDER, repeatTime,
                                            repeatParams, site));
}
/// Mode VSEL_CMPMASK_SPR (the bits in the CMPMASK register) or
/// VSEL_TENSOR_TENSOR_MODE (selMask's address in it) under the mask
/// register.
template <typename T, SELMODE selMode>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams,
            normgrad_ascendc::CallSite site = {}) {
  static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE,
                "Select: mode VSEL_TENSOR_SCALAR_MODE takes a selMask");
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Select", normgrad_ascendc::kSelectTypes, /*count_form=*/false, site);
  const uint32_t lanes = normgrad_ascendc::LanesOf(sizeof(PrimT<T>));
  normgrad_ascendc::SelectParams<PrimT<T>> params{
      normgrad_ascendc::SelectionFromRegister(
          normgrad_ascendc::TypeName<PrimT<T>>(), selMode, lanes,
          normgrad_ascendc::LevelZeroLaneEnd(lanes, repeatTime)),
      PrimT<T>{}, false};
  auto in = normgrad_ascendc::SelectInstruction<PrimT<T>, false>(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0), "src0",
      &normgrad_ascendc::Plain(src1), params);
  normgrad_ascendc::SetStrides(in, repeatParams);
  normgrad_ascendc::ExecuteRepeats(in, repeatTime);
}

/// The CMPMASK register's 16 bytes into dst (16-byte aligned, at least 128
/// bytes as documented).
template <typename T>
void GetCmpMask(const LocalTensor<T>& dst,
                normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(sizeof(PrimT<T>) <= 4,
                "GetCmpMask: T is a b8, b16 or b32 type");
  normgrad_ascendc::GetCmpMaskImpl(normgrad_ascendc::TypeName<PrimT<T>>(),
                                   normgrad_ascendc::Plain(dst).view());
}
/// Loads the CMPMASK register with src's first 16 bytes (src 16-byte
/// aligned).
template <typename T>
void SetCmpMask(const LocalTensor<T>& src,
                normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(sizeof(PrimT<T>) <= 8, "SetCmpMask: T is a b8 to b64 type");
  normgrad_ascendc::SetCmpMaskImpl(normgrad_ascendc::TypeName<PrimT<T>>(),
                                   normgrad_ascendc::Plain(src).view());
}

/// Gathers the elements of src0 whose bit in the user pattern is 1 into dst,
/// packed; rsvdCnt receives their number.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<U>& src1Pattern, const bool reduceMode,
                const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt, normgrad_ascendc::CallSite site = {}) {
  static_assert(
      std::is_unsigned_v<PrimT<U>> && sizeof(PrimT<U>) == sizeof(PrimT<T>),
      "GatherMask: the pattern type is the unsigned integer of T's "
      "size");
  rsvdCnt = normgrad_ascendc::GatherMaskCall(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),
      &normgrad_ascendc::Plain(src1Pattern).view(), 0, reduceMode, mask,
      gatherMaskParams, site);
}
/// GatherMask with a built-in pattern (1..7, see the file comment).
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const uint8_t src1Pattern, const bool reduceMode,
                const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt, normgrad_ascendc::CallSite site = {}) {
  rsvdCnt = normgrad_ascendc::GatherMaskCall(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0), nullptr,
      src1Pattern, reduceMode, mask, gatherMaskParams, site);
}

}  // namespace AscendC
