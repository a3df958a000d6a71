// c_api/vector_compute/vector_convert.h — the C API's conversions on Atlas
// A2/A3 (docs/capi.md, "Vector compute"), part of
// c_api/vector_compute/vector_compute.h as the pages place them: each a thin
// mapping onto the C++ instruction of the same meaning (vector_convert.h),
// with messages naming the asc_* function:
//   asc_<from>2<to>[_<mode>]   Cast from <from> to <to>, rounded by <mode>:
//                              _rn CAST_RINT, _rna CAST_ROUND, _rd
//                              CAST_FLOOR, _ru CAST_CEIL, _rz CAST_TRUNC, _ro
//                              CAST_ODD; no suffix CAST_NONE (CAST_RINT where
//                              the conversion can lose precision)
//   asc_deq_int322half         Cast int32_t → half by the DEQSCALE half scale
//   asc_deq_int162b8_h/_l      CastDequant int16_t → int8_t / uint8_t into the
//   asc_vdeq_int162b8_h/_l     upper (_h) or lower (_l) half of each
//                              destination block, with DEQSCALE's set (deq)
//                              or the 16 sets it points to (vdeq)
//   asc_set_deq_scale          SetDeqScale's three forms
//   asc_half2int4[_<mode>]     Cast half ↔ int4b_t (packed two a byte)
//   asc_int42half
// Each conversion has the count form, the high-dimension form (a repeat has
// the lanes of the wider type, under the mask register as it stands) and the
// _sync form, except asc_int642float, whose page gives the count forms only.
#pragma once

#include <cstdint>

// The shared forms (CapiRepeatForm, CapiUnaryStrides); that header includes
// this one at its end.
#include "c_api/vector_compute/vector_compute.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/vector/vector_convert.h"

/// The number of quantization sets asc_set_deq_scale's vector form takes.
#define ASC_VDEQ_SIZE 16

namespace normgrad_ascendc {

/// The LocalTensor of a conversion's UB operand; messages name the
/// function with its pair, as Cast's name theirs.
template <typename T>
AscendC::LocalTensor<T> CapiConvertOperand(const char* api, const char* pair,
                                           const char* which, const T* p) {
  return AscendC::LocalTensor<T>(UbPointerView(api, pair, which, p));
}

/// dst = src converted from S to D by kMode, as Cast.
template <AscendC::RoundMode kMode, typename D, typename S, typename Form>
void CapiCast(const char* api, D* dst, S* src, const Form& form) {
  const CapiCall call(api, form.site);
  const char* pair = CastTypeName<D, S>::value.data();
  const auto d = CapiConvertOperand(api, pair, "dst", dst);
  const auto s = CapiConvertOperand(api, pair, "src", src);
  ConvertParams params{kMode, 0};
  if constexpr (kIsInt4Cast<D, S>) {
    VecInstruction in = Int4CastInstruction(d, s, params);
    in.api = api;
    RunInt4Cast(in, d.GetSize(), s.GetSize(), form);
  } else {
    VecInstruction in = CastInstruction(d, s, params);
    in.api = api;
    RunFormFlat(in, form);
  }
}

/// dst = src · DEQSCALE's half scale rounded to half, as Cast int32_t →
/// half (CastDequant<half, int32_t>).
template <typename Form>
void CapiDeqHalf(const char* api, half* dst, int32_t* src, const Form& form) {
  const CapiCall call(api, form.site);
  const auto d = CapiConvertOperand(api, "half, int32_t", "dst", dst);
  const auto s = CapiConvertOperand(api, "half, int32_t", "src", src);
  ConvertParams params{AscendC::RoundMode::CAST_RINT, 0};
  RunForm(DequantInstruction(api, d, s, params), form);
}

/// int16_t → int8_t / uint8_t by DEQSCALE's quantization (vdeq: the 16 sets
/// it points to), into the upper or lower half of each destination block,
/// as CastDequant.
template <bool kVecDeq, bool kUpperHalf, typename D, typename Form>
void CapiDeqB8(const char* api, D* dst, int16_t* src, const Form& form) {
  const CapiCall call(api, form.site);
  const char* pair = CastTypeName<D, int16_t>::value.data();
  const auto d = CapiConvertOperand(api, pair, "dst", dst);
  const auto s = CapiConvertOperand(api, pair, "src", src);
  ConvertParams params{AscendC::RoundMode::CAST_RINT, 0};
  QuantParams quant;
  VecInstruction in =
      CastDequantInstruction(d, s, params, quant, kVecDeq, kUpperHalf);
  in.api = api;
  RunForm(in, form);
}

}  // namespace normgrad_ascendc

// The three forms of a conversion: `run` is its Capi* call, parenthesized,
// taking (api, dst, src, form); D and S the destination and source types.
#define NORMGRAD_CAPI_CONVERT(name, D, S, run)                              \
  inline void name(__ubuf__ D* dst, __ubuf__ S* src, uint32_t count,        \
                   normgrad_ascendc::CallSite site = {}) {                  \
    run(#name, dst, src, normgrad_ascendc::CountForm{count, site});         \
  }                                                                         \
  inline void name(__ubuf__ D* dst, __ubuf__ S* src, uint8_t repeat,        \
                   uint16_t dst_block_stride, uint16_t src_block_stride,    \
                   uint16_t dst_repeat_stride, uint16_t src_repeat_stride,  \
                   normgrad_ascendc::CallSite site = {}) {                  \
    run(#name, dst, src,                                                    \
        normgrad_ascendc::CapiRepeatForm(                                   \
            repeat,                                                         \
            normgrad_ascendc::CapiUnaryStrides{                             \
                dst_block_stride, src_block_stride, dst_repeat_stride,      \
                src_repeat_stride},                                         \
            site));                                                         \
  }                                                                         \
  inline void name##_sync(__ubuf__ D* dst, __ubuf__ S* src, uint32_t count, \
                          normgrad_ascendc::CallSite site = {}) {           \
    run(#name "_sync", dst, src, normgrad_ascendc::CountForm{count, site}); \
  }

// The count and _sync forms only (asc_int642float).
#define NORMGRAD_CAPI_CONVERT_COUNT(name, D, S, run)                        \
  inline void name(__ubuf__ D* dst, __ubuf__ S* src, uint32_t count,        \
                   normgrad_ascendc::CallSite site = {}) {                  \
    run(#name, dst, src, normgrad_ascendc::CountForm{count, site});         \
  }                                                                         \
  inline void name##_sync(__ubuf__ D* dst, __ubuf__ S* src, uint32_t count, \
                          normgrad_ascendc::CallSite site = {}) {           \
    run(#name "_sync", dst, src, normgrad_ascendc::CountForm{count, site}); \
  }

// Cast by one rounding mode, as a `run` of NORMGRAD_CAPI_CONVERT.
#define NORMGRAD_CAPI_CAST_BY(mode) \
  (normgrad_ascendc::CapiCast<AscendC::RoundMode::mode>)

// A conversion without a suffix (CAST_NONE).
#define NORMGRAD_CAPI_CAST_NONE(from, to, D, S)  \
  NORMGRAD_CAPI_CONVERT(asc_##from##2##to, D, S, \
                        NORMGRAD_CAPI_CAST_BY(CAST_NONE))

// A conversion's five rounding suffixes _rn _rna _rd _ru _rz, with `forms`
// NORMGRAD_CAPI_CONVERT or NORMGRAD_CAPI_CONVERT_COUNT.
#define NORMGRAD_CAPI_CAST_FIVE(forms, from, to, D, S)                         \
  forms(asc_##from##2##to##_rn, D, S, NORMGRAD_CAPI_CAST_BY(CAST_RINT)) forms( \
      asc_##from##2##to##_rna, D, S, NORMGRAD_CAPI_CAST_BY(CAST_ROUND))        \
      forms(asc_##from##2##to##_rd, D, S, NORMGRAD_CAPI_CAST_BY(CAST_FLOOR))   \
          forms(asc_##from##2##to##_ru, D, S,                                  \
                NORMGRAD_CAPI_CAST_BY(CAST_CEIL))                              \
              forms(asc_##from##2##to##_rz, D, S,                              \
                    NORMGRAD_CAPI_CAST_BY(CAST_TRUNC))

// The pairs of the pages, each with the suffixes its page lists.
NORMGRAD_CAPI_CAST_NONE(bfloat16, float, float, bfloat16_t)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, bfloat16, int32, int32_t,
                        bfloat16_t)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, float, bfloat16, bfloat16_t,
                        float)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, float, float, float, float)
NORMGRAD_CAPI_CAST_NONE(float, half, half, float)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, float, half, half, float)
NORMGRAD_CAPI_CONVERT(asc_float2half_ro, half, float,
                      NORMGRAD_CAPI_CAST_BY(CAST_ODD))
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, float, int16, int16_t, float)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, float, int32, int32_t, float)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, float, int64, int64_t, float)
NORMGRAD_CAPI_CAST_NONE(half, float, float, half)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, half, int16, int16_t, half)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, half, int32, int32_t, half)
NORMGRAD_CAPI_CAST_NONE(half, int8, int8_t, half)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, half, int8, int8_t, half)
NORMGRAD_CAPI_CAST_NONE(half, uint8, uint8_t, half)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, half, uint8, uint8_t, half)
NORMGRAD_CAPI_CAST_NONE(int16, float, float, int16_t)
NORMGRAD_CAPI_CAST_NONE(int16, half, half, int16_t)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, int16, half, half, int16_t)
NORMGRAD_CAPI_CAST_NONE(int32, float, float, int32_t)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, int32, float, float, int32_t)
NORMGRAD_CAPI_CAST_NONE(int32, int16, int16_t, int32_t)
NORMGRAD_CAPI_CAST_NONE(int32, int64, int64_t, int32_t)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT_COUNT, int64, float, float,
                        int64_t)
NORMGRAD_CAPI_CAST_NONE(int64, int32, int32_t, int64_t)
NORMGRAD_CAPI_CAST_NONE(int8, half, half, int8_t)
NORMGRAD_CAPI_CAST_NONE(uint8, half, half, uint8_t)
// int4b_t: the count is even, and the mask register selects both lanes of
// a byte or neither (Cast's int4b_t rules, vector_convert.h).
NORMGRAD_CAPI_CAST_NONE(half, int4, int4b_t, half)
NORMGRAD_CAPI_CAST_FIVE(NORMGRAD_CAPI_CONVERT, half, int4, int4b_t, half)
NORMGRAD_CAPI_CAST_NONE(int4, half, half, int4b_t)

/// dst[i] = src[i] · DEQSCALE's half scale (asc_set_deq_scale(half)),
/// rounded to half.
NORMGRAD_CAPI_CONVERT(asc_deq_int322half, half, int32_t,
                      (normgrad_ascendc::CapiDeqHalf))

// The int16_t → 8-bit quantizations, each for int8_t and uint8_t results.
#define NORMGRAD_CAPI_DEQ_B8(name, vec_deq, upper_half)                     \
  NORMGRAD_CAPI_CONVERT(name, int8_t, int16_t,                              \
                        (normgrad_ascendc::CapiDeqB8<vec_deq, upper_half>)) \
  NORMGRAD_CAPI_CONVERT(name, uint8_t, int16_t,                             \
                        (normgrad_ascendc::CapiDeqB8<vec_deq, upper_half>))

/// saturate(rint(src · scale + offset)) by DEQSCALE's set
/// (asc_set_deq_scale(float, int16_t, bool)), into the upper half of each
/// destination block.
NORMGRAD_CAPI_DEQ_B8(asc_deq_int162b8_h, false, true)
/// As asc_deq_int162b8_h, into the lower half of each destination block.
NORMGRAD_CAPI_DEQ_B8(asc_deq_int162b8_l, false, false)
/// As asc_deq_int162b8_h with set j of the 16 asc_set_deq_scale(tmp, ...)
/// wrote for lane j of each source block.
NORMGRAD_CAPI_DEQ_B8(asc_vdeq_int162b8_h, true, true)
/// As asc_vdeq_int162b8_h, into the lower half of each destination block.
NORMGRAD_CAPI_DEQ_B8(asc_vdeq_int162b8_l, true, false)

#undef NORMGRAD_CAPI_DEQ_B8
#undef NORMGRAD_CAPI_CAST_FIVE
#undef NORMGRAD_CAPI_CAST_NONE
#undef NORMGRAD_CAPI_CAST_BY
#undef NORMGRAD_CAPI_CONVERT_COUNT
#undef NORMGRAD_CAPI_CONVERT

/// Writes the 16 quantization sets into tmp (a UB buffer of 16 uint64_t)
/// and points DEQSCALE at it, for asc_vdeq_int162b8_h/_l.
inline void asc_set_deq_scale(__ubuf__ uint64_t* tmp,
                              float scale_arr[ASC_VDEQ_SIZE],
                              int16_t offset_arr[ASC_VDEQ_SIZE],
                              bool sign_mode_arr[ASC_VDEQ_SIZE],
                              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_set_deq_scale", site);
  const normgrad_ascendc::TensorView view =
      normgrad_ascendc::UbPointerView("asc_set_deq_scale", nullptr, "tmp", tmp);
  normgrad_ascendc::CheckUbBytes("asc_set_deq_scale", "tmp", view,
                                 ASC_VDEQ_SIZE * sizeof(uint64_t));
  normgrad_ascendc::SetVdeq(
      view, view.bytes,
      AscendC::VdeqInfo(scale_arr, offset_arr, sign_mode_arr));
}
/// DEQSCALE := one quantization set (scale, the low 9 bits of offset,
/// sign_mode), for asc_deq_int162b8_h/_l.
inline void asc_set_deq_scale(float scale, int16_t offset, bool sign_mode,
                              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_set_deq_scale", site);
  AscendC::SetDeqScale(scale, offset, sign_mode, site);
}
/// DEQSCALE := a half scale, for asc_deq_int322half.
inline void asc_set_deq_scale(half scale,
                              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_set_deq_scale", site);
  AscendC::SetDeqScale(scale, site);
}
