// normgrad_ascendc/vector/vector_convert.h — the conversion instructions of the
// vector unit (docs/runtime.md, "Conversions"): Cast between element types
// by RoundMode, Truncate (round to an integral value in the same type), the
// DEQSCALE register (SetDeqScale) and the instructions that read it: Cast
// int32_t → half, CastDequant and AddDeqRelu; and the scalar Cast (float →
// half, int32_t) with its earlier name ScalarCast.
//
// Forms. Cast, CastDequant and AddDeqRelu have the count form (the first
// `count` elements) and the level-0 forms (a bit mask or a continuous mask,
// repeatTime, UnaryRepeatParams / BinaryRepeatParams, isSetMask;
// vector_unit.h). When the source and destination widths differ, a repeat has
// the lanes of the wider type (256 bytes of it): Cast half → int32_t runs 64
// lanes, whose half sources fill 4 blocks and int32_t destinations 8. Truncate
// has the count form only.
//
// Pairs. Each profile converts the pairs its table in the Cast page lists,
// each with its rounding modes (kA2Pairs, k310PPairs, k950Pairs in
// vector_convert.cc). A pair the profile does not list is a KernelError
// naming the pair, the profile and the types it converts that source to; a
// mode the pair does not list is a KernelError naming the modes it takes.
// CAST_NONE is accepted for every pair: it rounds as CAST_RINT where the
// conversion can lose precision. The 8-bit float types, fp4, complex and
// double are not modelled (Cast does not compile with them).
//
// int4b_t (runtime/int4.h). Cast converts half to int4b_t (A2/A3 and the
// 950: the five modes and CAST_NONE; the 310P: CAST_NONE) and int4b_t to
// half (A2/A3 and the 950: CAST_NONE), results saturating to [-8, 7]. A
// repeat has half's 128 lanes; the int4b_t operand's blocks hold 64
// elements, so a full repeat covers 2 of them. Two lanes share a byte, so
// they go together: the count is even, and the mask register (continuous,
// bits or counter mode) selects both lanes of a byte or neither — else a
// KernelError. normgrad runs these as 64 lanes of pairs (a half pair, 4
// bytes, and an int4b_t byte), so the executor's extent messages count
// pairs ("dst (int4b_t pairs)").
//
// Numerics: every result is the exact source value rounded once by the mode
// (bit for bit):
//   CAST_RINT  nearest, ties to even    CAST_FLOOR toward −inf
//   CAST_ROUND nearest, ties away       CAST_CEIL  toward +inf
//   CAST_TRUNC toward zero              CAST_ODD   to odd (sticky last bit)
// Integer destinations saturate: a value beyond the range gives the nearest
// end (a negative value to an unsigned type gives 0), ±inf give the ends,
// NaN gives 0. Float destinations (half, bfloat16_t, float) keep IEEE
// overflow: beyond the largest finite value CAST_RINT, CAST_ROUND and
// CAST_NONE give ±inf, CAST_TRUNC and CAST_ODD the largest finite value of
// the sign, CAST_FLOOR −inf or +max and CAST_CEIL +inf or −max. Subnormal
// results are kept; NaN gives a quiet NaN; zeros keep their sign. Cast
// float → float and Truncate round to an integral value in the source type.
//
// DEQSCALE. A per-core 64-bit register, set by SetDeqScale and reset to the
// half value 1.0 when a block starts. Cast int32_t → half ignores its mode
// and computes src · scale (the half in bits 0..15) rounded once to half,
// nearest even — as do CastDequant<half, int32_t> and AddDeqRelu (after
// src0 + src1, wrapping modulo 2^32; then max(0, ·), zero positive).
// CastDequant int16_t → int8_t / uint8_t reads a quantization set (a float
// scale read with 10 mantissa bits, a 9-bit offset, signMode) from DEQSCALE,
// or 16 of them from the UB where DEQSCALE points (isVecDeq), and writes each
// source block's 16 results into one half of the destination block; its
// destination is addressed in 2-byte slots (16 a block), so its extent
// messages count slots. A mask that selects a lane but not the slot its
// result byte falls in is a KernelError (normgrad writes whole slots).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/int4.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_instruction.h"
#include "normgrad_ascendc/vector/vector_ops.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace AscendC {

/// How Cast and Truncate round (see the file comment). CAST_HYBRID is the
/// stochastic mode of hifloat8_t results, which normgrad does not model.
enum class RoundMode : uint8_t {
  CAST_NONE = 0,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD,
  CAST_HYBRID,
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The scalars of a conversion's span: the mode and, for int32_t → half,
/// the DEQSCALE half value (its bits).
struct ConvertParams {
  AscendC::RoundMode mode;
  uint16_t deq_scale;
};

/// Converts n elements of type `src_bit` (a TypeBit) to `dst_bit` by
/// `mode` (vector_convert.cc).
void ConvertImpl(uint32_t dst_bit, void* dst, uint32_t src_bit, const void* src,
                 AscendC::RoundMode mode, uint32_t n);
/// ConvertImpl one element at a time in exact arithmetic (each value as
/// sign · m · 2^e rounded once): what the pairs without a loop run, and
/// the reference the loops are tested against.
void ConvertElements(uint32_t dst_bit, void* dst, uint32_t src_bit,
                     const void* src, AscendC::RoundMode mode, uint32_t n);
/// dst[i] = src[i] · scale (half bits) rounded to half, nearest even.
void DequantImpl(uint16_t* dst, const int32_t* src, uint16_t scale, uint32_t n);
/// dst[i] = max(0, (src0[i] + src1[i]) · scale) rounded to half.
void AddDeqReluImpl(uint16_t* dst, const int32_t* src0, const int32_t* src1,
                    uint16_t scale, uint32_t n);

/// Fails unless the current profile converts S to D by `mode`; returns
/// whether the pair is the DEQSCALE one (int32_t → half).
bool CheckCastPair(const char* type, uint32_t dst_bit, uint32_t src_bit,
                   AscendC::RoundMode mode);
/// Fails unless the current profile has `api` (AddDeqRelu, CastDequant and
/// SetDeqScale's forms: not on every profile).
void CheckDeqProfile(const char* api, const char* type, bool on_310p);

/// The DEQSCALE register of the current core.
uint64_t& DeqScaleRegister();

template <typename D, typename S>
void CastSpan(const SpanArgs& a) {
  const auto& p = *static_cast<const ConvertParams*>(a.params);
  ConvertImpl(TypeBitOf<D>(), a.operand[0], TypeBitOf<S>(), a.operand[1],
              p.mode, a.n);
}

inline void DequantSpan(const SpanArgs& a) {
  const auto& p = *static_cast<const ConvertParams*>(a.params);
  DequantImpl(static_cast<uint16_t*>(a.operand[0]),
              static_cast<const int32_t*>(a.operand[1]), p.deq_scale, a.n);
}

inline void AddDeqReluSpan(const SpanArgs& a) {
  const auto& p = *static_cast<const ConvertParams*>(a.params);
  AddDeqReluImpl(static_cast<uint16_t*>(a.operand[0]),
                 static_cast<const int32_t*>(a.operand[1]),
                 static_cast<const int32_t*>(a.operand[2]), p.deq_scale, a.n);
}

/// Truncate's element types (the 950 profile's count form).
inline constexpr TypeRule kTruncateTypes{
    0, 0, kTypeHalf | kTypeFloat | kTypeBfloat16, 0};

/// Lanes of a repeat whose operands are `a`- and `b`-byte elements.
constexpr uint32_t WiderLanes(size_t a, size_t b) {
  return LanesOf(a > b ? a : b);
}

/// "D, S" (e.g. "float, half"), as Cast's messages name its types; made at
/// compile time, since every call names them.
template <typename D, typename S>
struct CastTypeName {
  static constexpr std::array<char, 40> Make() {
    std::array<char, 40> out{};
    size_t at = 0;
    for (const char* c = TypeName<D>(); *c != '\0'; ++c) out[at++] = *c;
    out[at++] = ',';
    out[at++] = ' ';
    for (const char* c = TypeName<S>(); *c != '\0'; ++c) out[at++] = *c;
    return out;
  }
  static constexpr std::array<char, 40> value = Make();
};

/// Cast as an instruction of the executor; `params` must outlive it. Checks
/// the pair and the mode on the current profile.
template <typename D, typename S>
VecInstruction CastInstruction(const AscendC::LocalTensor<D>& dst,
                               const AscendC::LocalTensor<S>& src,
                               ConvertParams& params) {
  static_assert(!std::is_same_v<D, S> || std::is_same_v<D, float>,
                "Cast: the element types must differ (float → float rounds "
                "to an integral value)");
  const char* type = CastTypeName<D, S>::value.data();
  const bool deq =
      CheckCastPair(type, TypeBitOf<D>(), TypeBitOf<S>(), params.mode);
  // The register is read by the DEQSCALE pair only.
  if (deq)
    params.deq_scale = static_cast<uint16_t>(DeqScaleRegister() & 0xFFFFu);
  VecInstruction in{
      "Cast",
      type,
      WiderLanes(sizeof(D), sizeof(S)),
      {{"dst", &dst.view(), sizeof(D)}, {"src", &src.view(), sizeof(S)}},
      2,
      deq ? &DequantSpan : &CastSpan<D, S>};
  in.params = &params;
  return in;
}

// ---- int4b_t (see the file comment) ----

/// Cast's int4b_t pairs: half → int4b_t and int4b_t → half.
template <typename D, typename S>
inline constexpr bool kIsInt4Cast = (std::is_same_v<D, AscendC::int4b_t> &&
                                     std::is_same_v<S, half>) ||
                                    (std::is_same_v<D, half> &&
                                     std::is_same_v<S, AscendC::int4b_t>);

/// Fails unless the current profile converts half to int4b_t (`to_int4`) or
/// back by `mode` (vector_convert.cc).
void CheckInt4CastPair(const char* api, bool to_int4, AscendC::RoundMode mode);
/// The spans over n lane pairs: two halves (4 bytes) and one int4b_t byte.
void Int4FromHalfSpan(const SpanArgs& a);
void HalfFromInt4Span(const SpanArgs& a);
/// The count form's rules in elements: count even and at most each
/// operand's elements.
void CheckInt4Count(const VecInstruction& in, int64_t count, uint64_t dst_elems,
                    uint64_t src_elems);
/// ExecuteRepeats over lane pairs: the mask register, read as half's 128
/// lanes, must select both lanes of each pair or neither (counter mode: an
/// even count); the pairs it selects run, and the register is left as it
/// was.
void ExecuteInt4Repeats(const VecInstruction& in, int64_t repeat_time);

/// Cast half ↔ int4b_t as an instruction over 64 lane pairs a repeat.
template <typename D, typename S>
VecInstruction Int4CastInstruction(const AscendC::LocalTensor<D>& dst,
                                   const AscendC::LocalTensor<S>& src,
                                   ConvertParams& params) {
  constexpr bool kToInt4 = std::is_same_v<D, AscendC::int4b_t>;
  const char* type = CastTypeName<D, S>::value.data();
  CheckInt4CastPair(type, kToInt4, params.mode);
  VecInstruction in{"Cast",
                    type,
                    64,
                    {{kToInt4 ? "dst (int4b_t pairs)" : "dst (half pairs)",
                      &dst.view(), kToInt4 ? 1u : 4u},
                     {kToInt4 ? "src (half pairs)" : "src (int4b_t pairs)",
                      &src.view(), kToInt4 ? 4u : 1u}},
                    2,
                    kToInt4 ? &Int4FromHalfSpan : &HalfFromInt4Span};
  in.params = &params;
  return in;
}

/// Runs an int4b_t Cast in the count form (`count` elements).
inline void RunInt4Cast(const VecInstruction& in, uint64_t dst_elems,
                        uint64_t src_elems, const CountForm& form) {
  CheckInt4Count(in, form.count, dst_elems, src_elems);
  RunFormFlat(in, CountForm{form.count / 2, form.site});
}
/// Runs an int4b_t Cast in a level-0 form: the mask argument goes to the
/// register as half's 128 lanes (as the device leaves it), then the pairs.
template <bool isSetMask, typename Mask, typename Strides>
void RunInt4Cast(VecInstruction in, uint64_t, uint64_t,
                 const RepeatForm<isSetMask, Mask, Strides>& form) {
  SetStrides(in, form.strides);
  if (isSetMask) SetMaskArgument(form.mask, 128);
  ExecuteInt4Repeats(in, form.repeat_time);
}

/// Cast in any form (the count form on the flat path where its operands
/// allow). Its types are checked as a pair (CheckCastPair) as the
/// instruction is built.
template <typename D, typename S, typename Form>
void CastCall(const AscendC::LocalTensor<D>& dst,
              const AscendC::LocalTensor<S>& src, AscendC::RoundMode mode,
              const Form& form) {
  const ApiCall call(form.site);
  ConvertParams params{mode, 0};
  if constexpr (kIsInt4Cast<D, S>) {
    RunInt4Cast(Int4CastInstruction(dst, src, params), dst.GetSize(),
                src.GetSize(), form);
  } else {
    RunFormFlat(CastInstruction(dst, src, params), form);
  }
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = src[i] converted to T and rounded by `roundMode`, i < count.
template <typename T, typename U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const RoundMode& roundMode, const uint32_t count,
          normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CastCall(normgrad_ascendc::Plain(dst),
                             normgrad_ascendc::Plain(src), roundMode,
                             normgrad_ascendc::CountForm{count, site});
}
/// Cast's repeat form with a bit mask; lanes are those of the wider type.
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const RoundMode& roundMode, const uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CastCall(normgrad_ascendc::Plain(dst),
                             normgrad_ascendc::Plain(src), roundMode,
                             normgrad_ascendc::RepeatFormOf<isSetMask>(
                                 mask, repeatTime, repeatParams, site));
}
/// Cast's repeat form with a continuous mask.
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const RoundMode& roundMode, const uint64_t mask,
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CastCall(normgrad_ascendc::Plain(dst),
                             normgrad_ascendc::Plain(src), roundMode,
                             normgrad_ascendc::RepeatFormOf<isSetMask>(
                                 mask, repeatTime, repeatParams, site));
}

/// dst[i] = src[i] rounded to an integral value of T by roundMode (CAST_RINT,
/// CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC), i < count; T is half,
/// float or bfloat16_t; on profile Ascend 950 only.
template <typename T, RoundMode roundMode>
void Truncate(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsFloatElement<PrimT<T>>,
                "Truncate: T must be half, float or bfloat16_t");
  static_assert(roundMode == RoundMode::CAST_RINT ||
                    roundMode == RoundMode::CAST_ROUND ||
                    roundMode == RoundMode::CAST_FLOOR ||
                    roundMode == RoundMode::CAST_CEIL ||
                    roundMode == RoundMode::CAST_TRUNC,
                "Truncate: roundMode must be CAST_RINT, CAST_ROUND, "
                "CAST_FLOOR, CAST_CEIL or CAST_TRUNC");
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Truncate", normgrad_ascendc::kTruncateTypes, /*count_form=*/true, site);
  // Rounding to integral keeps the type: the span converts the element type
  // to itself.
  const normgrad_ascendc::ConvertParams params{roundMode, 0};
  normgrad_ascendc::ExecuteCount(
      normgrad_ascendc::UnaryOf("Truncate", normgrad_ascendc::Plain(dst),
                                normgrad_ascendc::Plain(src),
                                &normgrad_ascendc::CastSpan<PrimT<T>, PrimT<T>>,
                                &params),
      count);
}

/// The scalar Cast: valueIn (float) converted to U and rounded by
/// roundMode, as the vector Cast rounds and saturates one element. The
/// documented combinations are float → half by CAST_ODD and float → int32_t
/// by CAST_ROUND, CAST_CEIL, CAST_FLOOR or CAST_RINT; any other does not
/// compile. Every profile normgrad models has it.
template <typename T, typename U, RoundMode roundMode>
U Cast(T valueIn) {
  static_assert(std::is_same_v<T, float>, "Cast (scalar): valueIn is float");
  static_assert(
      (std::is_same_v<U, half> && roundMode == RoundMode::CAST_ODD) ||
          (std::is_same_v<U, int32_t> && (roundMode == RoundMode::CAST_ROUND ||
                                          roundMode == RoundMode::CAST_CEIL ||
                                          roundMode == RoundMode::CAST_FLOOR ||
                                          roundMode == RoundMode::CAST_RINT)),
      "Cast (scalar): the combinations are float -> half by CAST_ODD and "
      "float -> int32_t by CAST_ROUND, CAST_CEIL, CAST_FLOOR or CAST_RINT");
  U out{};
  normgrad_ascendc::ConvertElements(normgrad_ascendc::TypeBitOf<U>(), &out,
                                    normgrad_ascendc::kTypeFloat, &valueIn,
                                    roundMode, 1);
  return out;
}
/// ScalarCast: the scalar Cast's earlier name (the change notes map it onto
/// Cast with the same parameters).
template <typename T, typename U, RoundMode roundMode>
U ScalarCast(T valueIn) {
  return Cast<T, U, roundMode>(valueIn);
}

/// Sets DEQSCALE to a half scale (bits 0..15; the other bits zero): for
/// Cast int32_t → half, CastDequant<half, int32_t> and AddDeqRelu.
void SetDeqScale(half scale, normgrad_ascendc::CallSite site = {});
/// Sets DEQSCALE for CastDequant int16_t → 8-bit without vector
/// quantization: the float scale (bits 0..31), the low 9 bits of offset as a
/// signed integer (bits 37..45) and signMode (bit 46).
void SetDeqScale(float scale, int16_t offset, bool signMode,
                 normgrad_ascendc::CallSite site = {});

/// The 16 quantization sets of CastDequant's vector quantization.
struct VdeqInfo {
  static constexpr int32_t kSets = 16;
  VdeqInfo() {}
  VdeqInfo(const float vdeqScaleIn[kSets], const int16_t vdeqOffsetIn[kSets],
           const bool vdeqSignModeIn[kSets]) {
    for (int32_t i = 0; i < kSets; ++i) {
      vdeqScale[i] = vdeqScaleIn[i];
      vdeqOffset[i] = vdeqOffsetIn[i];
      vdeqSignMode[i] = vdeqSignModeIn[i];
    }
  }
  float vdeqScale[kSets] = {};
  int16_t vdeqOffset[kSets] = {};
  bool vdeqSignMode[kSets] = {};
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// One 64-bit quantization set: scale bits 0..31, the low 9 bits of offset
/// at 37..45, signMode at 46.
uint64_t QuantSet(float scale, int16_t offset, bool sign_mode);
/// Writes the 16 sets into `vdeq` (at least 128 bytes) and points DEQSCALE
/// at it (bits 0..13: its UB offset in 32-byte units).
void SetVdeq(const TensorView& vdeq, uint32_t bytes,
             const AscendC::VdeqInfo& info);

}  // namespace normgrad_ascendc

namespace AscendC {

/// Writes vdeqInfo's 16 sets into vdeq (T = uint64_t, 16 elements or more)
/// and points DEQSCALE at it: CastDequant with isVecDeq.
template <typename T>
void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo,
                 normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, uint64_t>,
                "SetDeqScale: the vdeq tensor holds uint64_t");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetVdeq(vdeq.view(), vdeq.GetSize() * sizeof(T), vdeqInfo);
}

}  // namespace AscendC

namespace normgrad_ascendc {

/// CastDequant<half, int32_t> and AddDeqRelu's instruction shapes.
inline VecInstruction DequantInstruction(
    const char* api, const AscendC::LocalTensor<half>& dst,
    const AscendC::LocalTensor<int32_t>& src, ConvertParams& params) {
  params.deq_scale = static_cast<uint16_t>(DeqScaleRegister() & 0xFFFFu);
  VecInstruction in{api,
                    "half, int32_t",
                    LanesOf(sizeof(int32_t)),
                    {{"dst", &dst.view(), sizeof(half)},
                     {"src", &src.view(), sizeof(int32_t)}},
                    2,
                    &DequantSpan};
  in.params = &params;
  return in;
}

inline VecInstruction AddDeqReluInstruction(
    const AscendC::LocalTensor<half>& dst,
    const AscendC::LocalTensor<int32_t>& src0,
    const AscendC::LocalTensor<int32_t>& src1, ConvertParams& params) {
  CheckDeqProfile("AddDeqRelu", "half, int32_t", true);
  params.deq_scale = static_cast<uint16_t>(DeqScaleRegister() & 0xFFFFu);
  VecInstruction in{"AddDeqRelu",
                    "half, int32_t",
                    LanesOf(sizeof(int32_t)),
                    {{"dst", &dst.view(), sizeof(half)},
                     {"src0", &src0.view(), sizeof(int32_t)},
                     {"src1", &src1.view(), sizeof(int32_t)}},
                    3,
                    &AddDeqReluSpan};
  in.params = &params;
  return in;
}

/// The quantization of int16_t to 8 bits: the 16 parameter sets (one per
/// lane of a block; all the same without vector quantization) and the half
/// of each destination block the results go to.
struct QuantParams {
  uint64_t entry[16];
  bool upper_half;
  bool is_signed;
};

/// int16_t → 8 bits: the destination is addressed in 2-byte slots (16 a
/// block, as the source) and keeps its old bytes (reads_dst); lane j of a
/// block writes byte j of the block's lower or upper half.
void QuantSpan(const SpanArgs& a);

/// Reads DEQSCALE (and, with isVecDeq, the 16 sets it points to in the UB)
/// into `params`; fails when a set's signMode disagrees with the
/// destination type.
void LoadQuantParams(const char* type, bool is_signed, bool vec_deq,
                     bool upper_half, QuantParams& params);

/// CastDequant's instruction: half from int32_t with the DEQSCALE half
/// scale, or int8_t / uint8_t from int16_t with DEQSCALE's quantization.
template <typename T, typename U>
VecInstruction CastDequantInstruction(const AscendC::LocalTensor<T>& dst,
                                      const AscendC::LocalTensor<U>& src,
                                      ConvertParams& params, QuantParams& quant,
                                      bool isVecDeq, bool halfBlock) {
  constexpr bool kS32ToHalf =
      std::is_same_v<T, half> && std::is_same_v<U, int32_t>;
  constexpr bool kS16ToB8 =
      std::is_same_v<U, int16_t> &&
      (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>);
  static_assert(kS32ToHalf || kS16ToB8,
                "CastDequant: the types are half from int32_t, or int8_t / "
                "uint8_t from int16_t");
  if constexpr (kS16ToB8) {
    constexpr const char* kType =
        std::is_same_v<T, int8_t> ? "int8_t, int16_t" : "uint8_t, int16_t";
    LoadQuantParams(kType, std::is_same_v<T, int8_t>, isVecDeq, halfBlock,
                    quant);
    VecInstruction in{"CastDequant",
                      kType,
                      LanesOf(sizeof(int16_t)),
                      {{"dst", &dst.view(), sizeof(int16_t)},
                       {"src", &src.view(), sizeof(int16_t)}},
                      2,
                      &QuantSpan};
    in.params = &quant;
    in.reads_dst = true;
    return in;
  } else {
    CheckDeqProfile("CastDequant", "half, int32_t", false);
    return DequantInstruction("CastDequant", dst, src, params);
  }
}

/// CastDequant in any form.
template <typename T, typename U, bool isVecDeq, bool halfBlock, typename Form>
void CastDequantCall(const AscendC::LocalTensor<T>& dst,
                     const AscendC::LocalTensor<U>& src, const Form& form) {
  const ApiCall call(form.site);
  ConvertParams params{AscendC::RoundMode::CAST_RINT, 0};
  QuantParams quant;
  RunForm(CastDequantInstruction(dst, src, params, quant, isVecDeq, halfBlock),
          form);
}

/// AddDeqRelu in any form.
template <typename Form>
void AddDeqReluCall(const AscendC::LocalTensor<half>& dst,
                    const AscendC::LocalTensor<int32_t>& src0,
                    const AscendC::LocalTensor<int32_t>& src1,
                    const Form& form) {
  const ApiCall call(form.site);
  ConvertParams params{AscendC::RoundMode::CAST_RINT, 0};
  RunForm(AddDeqReluInstruction(dst, src0, src1, params), form);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// T = half, U = int32_t: dst[i] = src[i] · DEQSCALE's half scale, rounded
/// to half (nearest even). T = int8_t / uint8_t, U = int16_t: the result of
/// source lane j of each 32-byte block (16 lanes) is
///   saturate(rint(src · scale + offset))
/// stored at byte j of the destination block's upper half (halfBlock) or
/// lower half; the other half keeps its bytes. scale, offset and signMode
/// come from DEQSCALE (SetDeqScale(float, int16_t, bool)) or, with
/// isVecDeq, set j of the 16 that SetDeqScale(vdeq, vdeqInfo) wrote.
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                 const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CastDequantCall<PrimT<T>, PrimT<U>, isVecDeq, halfBlock>(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
      normgrad_ascendc::CountForm{count, site});
}
/// CastDequant's repeat form with a bit mask (64 lanes: int32_t's).
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                 const uint64_t mask[], uint8_t repeatTime,
                 const UnaryRepeatParams& repeatParams,
                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CastDequantCall<PrimT<T>, PrimT<U>, isVecDeq, halfBlock>(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
      normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime, repeatParams,
                                                site));
}
/// CastDequant's repeat form with a continuous mask.
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                 const int32_t mask, uint8_t repeatTime,
                 const UnaryRepeatParams& repeatParams,
                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CastDequantCall<PrimT<T>, PrimT<U>, isVecDeq, halfBlock>(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
      normgrad_ascendc::RepeatFormOf<isSetMask>(
          static_cast<uint64_t>(mask < 0 ? 0 : mask), repeatTime, repeatParams,
          site));
}

/// dst[i] = max(0, (src0[i] + src1[i]) · DEQSCALE's half scale), rounded to
/// half, i < count.
inline void AddDeqRelu(const LocalTensor<half>& dst,
                       const LocalTensor<int32_t>& src0,
                       const LocalTensor<int32_t>& src1, const int32_t& count,
                       normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::AddDeqReluCall(dst, src0, src1,
                                   normgrad_ascendc::CountForm{count, site});
}
/// AddDeqRelu's repeat form with a bit mask (64 lanes: int32_t's).
template <bool isSetMask = true>
void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                const LocalTensor<int32_t>& src1, uint64_t mask[],
                const uint8_t repeatTime,
                const BinaryRepeatParams& repeatParams,
                normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::AddDeqReluCall(dst, src0, src1,
                                   normgrad_ascendc::RepeatFormOf<isSetMask>(
                                       mask, repeatTime, repeatParams, site));
}
/// AddDeqRelu's repeat form with a continuous mask.
template <bool isSetMask = true>
void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                const LocalTensor<int32_t>& src1, uint64_t mask,
                const uint8_t repeatTime,
                const BinaryRepeatParams& repeatParams,
                normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::AddDeqReluCall(dst, src0, src1,
                                   normgrad_ascendc::RepeatFormOf<isSetMask>(
                                       mask, repeatTime, repeatParams, site));
}

}  // namespace AscendC
