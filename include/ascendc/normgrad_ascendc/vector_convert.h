// normgrad_ascendc/vector_convert.h — the conversion instructions of the
// vector unit (docs/runtime.md, "Conversions"): Cast between element types
// by RoundMode, Truncate (round to an integral value in the same type), the
// DEQSCALE register (SetDeqScale) and the instructions that read it: Cast
// int32_t → half, CastDequant int32_t → half and AddDeqRelu.
//
// Forms. Cast, CastDequant and AddDeqRelu have the count form (the first
// `count` elements) and the level-0 forms (a bit mask or a continuous mask,
// repeatTime, UnaryRepeatParams / BinaryRepeatParams, isSetMask; vector_unit.h).
// When the source and destination widths differ, a repeat has the lanes of
// the wider type (256 bytes of it): Cast half → int32_t runs 64 lanes, whose
// half sources fill 4 blocks and int32_t destinations 8. Truncate has the
// count form only.
//
// Pairs. Each profile converts the pairs its table in the Cast page lists,
// each with its rounding modes (kCastPairs in vector_convert.cc). A pair the
// profile does not list is a KernelError naming the pair, the profile and
// the pairs it converts from that source type; a mode the pair does not list
// is a KernelError naming the modes it takes. CAST_NONE is accepted for every
// pair: it rounds as CAST_RINT where the conversion can lose precision.
// int4b_t, the 8-bit float types, fp4, complex and double are not modelled.
//
// Numerics: every result is the exact source value rounded once by the mode
// (bit for bit):
//   CAST_RINT  nearest, ties to even    CAST_FLOOR toward −inf
//   CAST_ROUND nearest, ties away       CAST_CEIL  toward +inf
//   CAST_TRUNC toward zero              CAST_ODD   to odd (sticky last bit)
// Integer destinations saturate: a value beyond the range gives the nearest
// end (a negative value to an unsigned type gives 0), ±inf give the ends,
// NaN gives 0. Float destinations (half, bfloat16_t, float) keep IEEE
// overflow: beyond the largest finite value, modes rounding away from zero
// give ±inf and the others the largest finite value of that sign (CAST_ODD:
// the largest finite). Subnormal results are kept; NaN gives the type's
// quiet NaN; zeros keep their sign. Cast float → float and Truncate round to
// an integral value in the source type.
//
// DEQSCALE. A per-core 64-bit register, set by SetDeqScale and reset to the
// half value 1.0 when a block starts. Cast int32_t → half ignores its mode
// and computes src · scale (the half in bits 0..15) rounded once to half,
// nearest even — as do CastDequant<half, int32_t> and AddDeqRelu (after
// src0 + src1, wrapping modulo 2^32; then max(0, ·), zero positive).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/half.h"
#include "normgrad_ascendc/tensor.h"
#include "normgrad_ascendc/vector_ops.h"
#include "normgrad_ascendc/vector_unit.h"

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
void ConvertImpl(uint32_t dst_bit, void* dst, uint32_t src_bit,
                 const void* src, AscendC::RoundMode mode, uint32_t n);
/// dst[i] = src[i] · scale (half bits) rounded to half, nearest even.
void DequantImpl(uint16_t* dst, const int32_t* src, uint16_t scale,
                 uint32_t n);
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

/// Lanes of a repeat whose operands are `a`- and `b`-byte elements.
constexpr uint32_t WiderLanes(size_t a, size_t b) {
  return LanesOf(a > b ? a : b);
}

/// Cast as an instruction of the executor; `params` and `type` must outlive
/// it. Checks the pair and the mode on the current profile.
template <typename D, typename S>
VecInstruction CastInstruction(const AscendC::LocalTensor<D>& dst,
                               const AscendC::LocalTensor<S>& src,
                               ConvertParams& params, char (&type)[40]) {
  static_assert(!std::is_same_v<D, S> || std::is_same_v<D, float>,
                "Cast: the element types must differ (float → float rounds "
                "to an integral value)");
  std::snprintf(type, sizeof type, "%s, %s", TypeName<D>(), TypeName<S>());
  const bool deq =
      CheckCastPair(type, TypeBitOf<D>(), TypeBitOf<S>(), params.mode);
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

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = src[i] converted to T and rounded by `roundMode`, i < count.
template <typename T, typename U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const RoundMode& roundMode, const uint32_t count,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConvertParams params{roundMode, 0};
  char type[40];
  normgrad_ascendc::ExecuteCount(
      normgrad_ascendc::CastInstruction(dst, src, params, type), count);
}
/// Cast's repeat form with a bit mask; lanes are those of the wider type.
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const RoundMode& roundMode, const uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConvertParams params{roundMode, 0};
  char type[40];
  auto in = normgrad_ascendc::CastInstruction(dst, src, params, type);
  normgrad_ascendc::SetStrides(in, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}
/// Cast's repeat form with a continuous mask.
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const RoundMode& roundMode, const uint64_t mask,
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConvertParams params{roundMode, 0};
  char type[40];
  auto in = normgrad_ascendc::CastInstruction(dst, src, params, type);
  normgrad_ascendc::SetStrides(in, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}

/// dst[i] = src[i] rounded to an integral value of T by roundMode (CAST_RINT,
/// CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC), i < count; T is half,
/// float or bfloat16_t; on profile Ascend 950 only.
template <typename T, RoundMode roundMode>
void Truncate(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsFloatElement<T>,
                "Truncate: T must be half, float or bfloat16_t");
  static_assert(roundMode == RoundMode::CAST_RINT ||
                    roundMode == RoundMode::CAST_ROUND ||
                    roundMode == RoundMode::CAST_FLOOR ||
                    roundMode == RoundMode::CAST_CEIL ||
                    roundMode == RoundMode::CAST_TRUNC,
                "Truncate: roundMode must be CAST_RINT, CAST_ROUND, "
                "CAST_FLOOR, CAST_CEIL or CAST_TRUNC");
  normgrad_ascendc::CheckType<T>(
      "Truncate",
      normgrad_ascendc::TypeRule{
          0, 0,
          normgrad_ascendc::kTypeHalf | normgrad_ascendc::kTypeFloat |
              normgrad_ascendc::kTypeBfloat16,
          0},
      true);
  // Rounding to integral keeps the type: the span converts T to T.
  normgrad_ascendc::ConvertParams params{roundMode, 0};
  normgrad_ascendc::VecInstruction in{
      "Truncate",
      normgrad_ascendc::TypeName<T>(),
      normgrad_ascendc::LanesOf(sizeof(T)),
      {{"dst", &dst.view(), sizeof(T)}, {"src", &src.view(), sizeof(T)}},
      2,
      &normgrad_ascendc::CastSpan<T, T>};
  in.params = &params;
  normgrad_ascendc::ExecuteCount(in, count);
}

/// Sets DEQSCALE to a half scale (bits 0..15; the other bits zero): for
/// Cast int32_t → half, CastDequant<half, int32_t> and AddDeqRelu.
void SetDeqScale(half scale, normgrad_ascendc::CallSite site = {});
/// Sets DEQSCALE for CastDequant int16_t → 8-bit without vector
/// quantization: the float scale (bits 0..31), the low 9 bits of offset as a
/// signed integer (bits 37..45) and signMode (bit 46).
void SetDeqScale(float scale, int16_t offset, bool signMode,
                 normgrad_ascendc::CallSite site = {});

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

/// CastDequant's element types: half from int32_t, with the DEQSCALE half
/// scale (int16_t → 8-bit quantization is not modelled: a KernelError).
template <typename T, typename U>
VecInstruction CastDequantInstruction(const AscendC::LocalTensor<T>& dst,
                                      const AscendC::LocalTensor<U>& src,
                                      ConvertParams& params, bool isVecDeq) {
  constexpr bool kS32ToHalf =
      std::is_same_v<T, half> && std::is_same_v<U, int32_t>;
  constexpr bool kS16ToB8 =
      std::is_same_v<U, int16_t> &&
      (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>);
  static_assert(kS32ToHalf || kS16ToB8,
                "CastDequant: the types are half from int32_t, or int8_t / "
                "uint8_t from int16_t");
  if constexpr (kS16ToB8) {
    Fail("CastDequant<%s, int16_t>: quantizing int16_t to 8 bits "
         "(isVecDeq %d) is not modelled by normgrad",
         TypeName<T>(), isVecDeq ? 1 : 0);
  } else {
    (void)isVecDeq;  // the vector quantization is int16_t's only
    CheckDeqProfile("CastDequant", "half, int32_t", false);
    return DequantInstruction("CastDequant", dst, src, params);
  }
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = src[i] · DEQSCALE's half scale, rounded to half (nearest even),
/// i < count. T = half, U = int32_t.
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                 const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConvertParams params{RoundMode::CAST_RINT, 0};
  normgrad_ascendc::ExecuteCount(
      normgrad_ascendc::CastDequantInstruction(dst, src, params, isVecDeq),
      count);
}
/// CastDequant's repeat form with a bit mask (64 lanes: int32_t's).
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                 const uint64_t mask[], uint8_t repeatTime,
                 const UnaryRepeatParams& repeatParams,
                 normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConvertParams params{RoundMode::CAST_RINT, 0};
  auto in =
      normgrad_ascendc::CastDequantInstruction(dst, src, params, isVecDeq);
  normgrad_ascendc::SetStrides(in, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}
/// CastDequant's repeat form with a continuous mask.
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                 const int32_t mask, uint8_t repeatTime,
                 const UnaryRepeatParams& repeatParams,
                 normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConvertParams params{RoundMode::CAST_RINT, 0};
  auto in =
      normgrad_ascendc::CastDequantInstruction(dst, src, params, isVecDeq);
  normgrad_ascendc::SetStrides(in, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(
      in, static_cast<uint64_t>(mask < 0 ? 0 : mask), repeatTime);
}

/// dst[i] = max(0, (src0[i] + src1[i]) · DEQSCALE's half scale), rounded to
/// half, i < count.
inline void AddDeqRelu(const LocalTensor<half>& dst,
                       const LocalTensor<int32_t>& src0,
                       const LocalTensor<int32_t>& src1, const int32_t& count,
                       normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConvertParams params{RoundMode::CAST_RINT, 0};
  normgrad_ascendc::ExecuteCount(
      normgrad_ascendc::AddDeqReluInstruction(dst, src0, src1, params),
      count);
}
/// AddDeqRelu's repeat form with a bit mask (64 lanes: int32_t's).
template <bool isSetMask = true>
void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                const LocalTensor<int32_t>& src1, uint64_t mask[],
                const uint8_t repeatTime,
                const BinaryRepeatParams& repeatParams,
                normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConvertParams params{RoundMode::CAST_RINT, 0};
  auto in = normgrad_ascendc::AddDeqReluInstruction(dst, src0, src1, params);
  normgrad_ascendc::SetStrides(in, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}
/// AddDeqRelu's repeat form with a continuous mask.
template <bool isSetMask = true>
void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                const LocalTensor<int32_t>& src1, uint64_t mask,
                const uint8_t repeatTime,
                const BinaryRepeatParams& repeatParams,
                normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConvertParams params{RoundMode::CAST_RINT, 0};
  auto in = normgrad_ascendc::AddDeqReluInstruction(dst, src0, src1, params);
  normgrad_ascendc::SetStrides(in, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}

}  // namespace AscendC
