// c_api/vector_compute/vector_compound.h — the C API's compound
// instructions on Atlas A2/A3 (docs/capi.md, "Vector compute"), part of
// c_api/vector_compute/vector_compute.h as the pages place them: each a thin
// mapping onto the C++ compound of the same meaning (vector_compound.h,
// vector_math.h), with messages naming the asc_* function:
//   asc_add_relu, asc_sub_relu   dst = Relu(src0 ± src1): AddRelu / SubRelu,
//                                or AddReluCast / SubReluCast where dst is
//                                narrower (half ← float, int8_t ← half,
//                                int8_t ← int16_t)
//   asc_mul_add                  dst = src0 · dst + src1 (FusedMulAdd)
//   asc_mul_add_relu             dst = Relu(src0 · dst + src1) (MulAddRelu)
//   asc_fma                      dst = src0 · src1 + dst (MulAddDst; half
//                                sources into a float dst too)
//   asc_axpy                     dst = src · value + dst (Axpy)
//   asc_leakyrelu                dst = src > 0 ? src : value · src
//                                (LeakyRelu)
//   asc_mul_cast_half2int8/uint8 dst = Cast(src0 · src1) (MulCast)
// each in the count form, the high-dimension form (under the mask register
// as it stands; a repeat has the lanes of the widest operand) and the _sync
// form. The element types are those the C++ instruction takes on this
// profile, checked when the call runs.
#pragma once

#include <cstdint>
#include <type_traits>

// The shared forms (CapiRepeatForm, CapiUnaryStrides); that header includes
// this one at its end.
#include "c_api/vector_compute/vector_compute.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/vector/vector_compound.h"
#include "normgrad_ascendc/vector/vector_math.h"

namespace normgrad_ascendc {

/// An operand's block and repeat strides in a high-dimension form
/// (operand 0 is dst).
struct OperandStrides {
  uint32_t block;
  uint32_t repeat;
};
inline OperandStrides StridesOf(const AscendC::BinaryRepeatParams& p,
                                int operand) {
  if (operand == 0) return {p.dstBlkStride, p.dstRepStride};
  if (operand == 1) return {p.src0BlkStride, p.src0RepStride};
  return {p.src1BlkStride, p.src1RepStride};
}
inline OperandStrides StridesOf(const CapiUnaryStrides& s, int operand) {
  if (operand == 0) return {s.dst_block, s.dst_repeat};
  return {s.src_block, s.src_repeat};
}

/// The bytes from an operand's start that the lanes of a compound from
/// half into float reach: count elements, or the form's repeats of 64
/// lanes (in counter mode, as many as the register's count needs) with the
/// operand's strides.
template <typename T>
uint64_t WideningReach(const CountForm& form, int /*operand*/) {
  return static_cast<uint64_t>(form.count < 0 ? 0 : form.count) * sizeof(T);
}
template <typename T, typename Strides>
uint64_t WideningReach(const RepeatForm<false, uint64_t, Strides>& form,
                       int operand) {
  constexpr uint32_t kLanes = 64;
  const VectorMask& m = CurrentCore().vector_mask();
  const uint64_t repeats = m.mode == AscendC::MaskMode::COUNTER
                               ? (m.low + kLanes - 1) / kLanes
                               : form.repeat_time;
  if (repeats == 0) return 0;
  const OperandStrides st = StridesOf(form.strides, operand);
  const uint64_t blocks = kLanes * sizeof(T) / 32;
  return ((repeats - 1) * st.repeat + (blocks - 1) * st.block + 1) * 32;
}

/// A compound's UB operand. From half into float the C++ compound refuses
/// operands that share a byte; a C API operand reaches to the UB's end, so
/// there it ends where the instruction's lanes end instead.
template <bool kWidening, typename T, typename Form>
AscendC::LocalTensor<T> CompoundOperand(const char* api, const char* which,
                                        int operand, const T* p,
                                        const Form& form) {
  TensorView view = UbPointerView(api, TypeName<T>(), which, p);
  if constexpr (kWidening) {
    const uint64_t reach = WideningReach<T>(form, operand);
    if (reach >= sizeof(T) && reach < view.bytes) {
      view.bytes = static_cast<uint32_t>(reach);
    }
  }
  return AscendC::LocalTensor<T>(view);
}

/// dst (D) from src0 and src1 (S) by compound kSame where the types agree,
/// kNarrow where dst is another type, as the C++ compound.
template <Compound kSame, Compound kNarrow, typename D, typename S,
          typename Form>
void CapiCompound(const char* api, D* dst, S* src0, S* src1, const Form& form) {
  const CapiCall call(api, form.site);
  constexpr bool kWidening = sizeof(D) > sizeof(S);
  const auto d = CompoundOperand<kWidening>(api, "dst", 0, dst, form);
  const auto s0 = CompoundOperand<kWidening>(api, "src0", 1, src0, form);
  const auto s1 = CompoundOperand<kWidening>(api, "src1", 2, src1, form);
  constexpr Compound kOp = std::is_same_v<D, S> ? kSame : kNarrow;
  CompoundCall<kOp, CompoundFlat::kAfterBuild>(api, d, s0, &s1, nullptr, form);
}

/// Cast(src0 · src1) into D0 from half, as MulCast; the function's name
/// fixes both types.
template <typename D0, typename D, typename S, typename Form>
void CapiMulCast(const char* api, D* dst, S* src0, S* src1, const Form& form) {
  static_assert(std::is_same_v<D, D0> && std::is_same_v<S, half>,
                "asc_mul_cast_half2<b8>: the sources are half and dst is the "
                "function's 8-bit type");
  CapiCompound<Compound::kMulCast, Compound::kMulCast>(api, dst, src0, src1,
                                                       form);
}

/// dst = src · value + dst, as Axpy.
template <typename D, typename S, typename Form>
void CapiAxpy(const char* api, D* dst, S* src, S value, const Form& form) {
  const CapiCall call(api, form.site);
  constexpr bool kWidening = sizeof(D) > sizeof(S);
  const auto d = CompoundOperand<kWidening>(api, "dst", 0, dst, form);
  const auto s = CompoundOperand<kWidening>(api, "src", 1, src, form);
  CompoundCall<Compound::kAxpy, CompoundFlat::kAfterBuild, D, S>(
      api, d, s, nullptr, &value, form);
}

/// dst = src > 0 ? src : value · src, as LeakyRelu.
template <typename T, typename Form>
void CapiLeakyRelu(const char* api, T* dst, T* src, T value, const Form& form) {
  const CapiCall call(api, form.site);
  SpanFn span = nullptr;  // the type check refuses every other T first
  if constexpr (kIsVectorFloat<T>) span = &LeakyReluSpan<T>;
  UnaryScalarCall(api, kMathTypes, UbTensor(api, "dst", dst),
                  UbTensor(api, "src", src), span, value, form);
}

}  // namespace normgrad_ascendc

// The three forms of a two-source compound, dst of type D and the sources
// of type S; `run` is its Capi* call, parenthesized.
#define NORMGRAD_CAPI_COMPOUND(name, run)                                   \
  template <typename D, typename S>                                         \
  void name(__ubuf__ D* dst, __ubuf__ S* src0, __ubuf__ S* src1,            \
            uint32_t count, normgrad_ascendc::CallSite site = {}) {         \
    run(#name, dst, src0, src1, normgrad_ascendc::CountForm{count, site});  \
  }                                                                         \
  template <typename D, typename S>                                         \
  void name(__ubuf__ D* dst, __ubuf__ S* src0, __ubuf__ S* src1,            \
            uint8_t repeat, uint8_t dst_block_stride,                       \
            uint8_t src0_block_stride, uint8_t src1_block_stride,           \
            uint8_t dst_repeat_stride, uint8_t src0_repeat_stride,          \
            uint8_t src1_repeat_stride,                                     \
            normgrad_ascendc::CallSite site = {}) {                         \
    run(#name, dst, src0, src1,                                             \
        normgrad_ascendc::CapiRepeatForm(                                   \
            repeat,                                                         \
            AscendC::BinaryRepeatParams(                                    \
                dst_block_stride, src0_block_stride, src1_block_stride,     \
                dst_repeat_stride, src0_repeat_stride, src1_repeat_stride), \
            site));                                                         \
  }                                                                         \
  template <typename D, typename S>                                         \
  void name##_sync(__ubuf__ D* dst, __ubuf__ S* src0, __ubuf__ S* src1,     \
                   uint32_t count, normgrad_ascendc::CallSite site = {}) {  \
    run(#name "_sync", dst, src0, src1,                                     \
        normgrad_ascendc::CountForm{count, site});                          \
  }

// The three forms of a compound with a vector and a scalar source, dst of
// type D and src and value of type S.
#define NORMGRAD_CAPI_COMPOUND_SCALAR(name, run)                           \
  template <typename D, typename S>                                        \
  void name(__ubuf__ D* dst, __ubuf__ S* src,                              \
            typename normgrad_ascendc::NonDeduced<S>::type value,          \
            uint32_t count, normgrad_ascendc::CallSite site = {}) {        \
    run(#name, dst, src, value, normgrad_ascendc::CountForm{count, site}); \
  }                                                                        \
  template <typename D, typename S>                                        \
  void name(__ubuf__ D* dst, __ubuf__ S* src,                              \
            typename normgrad_ascendc::NonDeduced<S>::type value,          \
            uint8_t repeat, uint16_t dst_block_stride,                     \
            uint16_t src_block_stride, uint16_t dst_repeat_stride,         \
            uint16_t src_repeat_stride,                                    \
            normgrad_ascendc::CallSite site = {}) {                        \
    run(#name, dst, src, value,                                            \
        normgrad_ascendc::CapiRepeatForm(                                  \
            repeat,                                                        \
            normgrad_ascendc::CapiUnaryStrides{                            \
                dst_block_stride, src_block_stride, dst_repeat_stride,     \
                src_repeat_stride},                                        \
            site));                                                        \
  }                                                                        \
  template <typename D, typename S>                                        \
  void name##_sync(__ubuf__ D* dst, __ubuf__ S* src,                       \
                   typename normgrad_ascendc::NonDeduced<S>::type value,   \
                   uint32_t count, normgrad_ascendc::CallSite site = {}) { \
    run(#name "_sync", dst, src, value,                                    \
        normgrad_ascendc::CountForm{count, site});                         \
  }

/// Relu(src0 + src1): float, half, int16_t; half ← float, int8_t ← half,
/// int8_t ← int16_t.
NORMGRAD_CAPI_COMPOUND(
    asc_add_relu,
    (normgrad_ascendc::CapiCompound<normgrad_ascendc::Compound::kAddRelu,
                                    normgrad_ascendc::Compound::kAddReluCast>))
/// Relu(src0 − src1), with the types of asc_add_relu.
NORMGRAD_CAPI_COMPOUND(
    asc_sub_relu,
    (normgrad_ascendc::CapiCompound<normgrad_ascendc::Compound::kSubRelu,
                                    normgrad_ascendc::Compound::kSubReluCast>))
/// src0 · dst + src1 (half, float).
NORMGRAD_CAPI_COMPOUND(
    asc_mul_add,
    (normgrad_ascendc::CapiCompound<normgrad_ascendc::Compound::kFusedMulAdd,
                                    normgrad_ascendc::Compound::kFusedMulAdd>))
/// Relu(src0 · dst + src1) (half, float).
NORMGRAD_CAPI_COMPOUND(
    asc_mul_add_relu,
    (normgrad_ascendc::CapiCompound<normgrad_ascendc::Compound::kMulAddRelu,
                                    normgrad_ascendc::Compound::kMulAddRelu>))
/// src0 · src1 + dst (half, float; float ← half).
NORMGRAD_CAPI_COMPOUND(
    asc_fma,
    (normgrad_ascendc::CapiCompound<normgrad_ascendc::Compound::kMulAddDst,
                                    normgrad_ascendc::Compound::kMulAddDst>))
/// Cast(src0 · src1) to int8_t from half, nearest even, saturated.
NORMGRAD_CAPI_COMPOUND(asc_mul_cast_half2int8,
                       (normgrad_ascendc::CapiMulCast<int8_t>))
/// Cast(src0 · src1) to uint8_t from half, nearest even, saturated.
NORMGRAD_CAPI_COMPOUND(asc_mul_cast_half2uint8,
                       (normgrad_ascendc::CapiMulCast<uint8_t>))
/// src · value + dst (half, float; float ← half).
NORMGRAD_CAPI_COMPOUND_SCALAR(asc_axpy, (normgrad_ascendc::CapiAxpy))

#undef NORMGRAD_CAPI_COMPOUND
#undef NORMGRAD_CAPI_COMPOUND_SCALAR

/// src > 0 ? src : value · src (half, float): count, high-dimension and
/// _sync forms.
template <typename T>
void asc_leakyrelu(__ubuf__ T* dst, __ubuf__ T* src,
                   typename normgrad_ascendc::NonDeduced<T>::type value,
                   uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiLeakyRelu("asc_leakyrelu", dst, src, value,
                                  normgrad_ascendc::CountForm{count, site});
}
template <typename T>
void asc_leakyrelu(__ubuf__ T* dst, __ubuf__ T* src,
                   typename normgrad_ascendc::NonDeduced<T>::type value,
                   uint8_t repeat, uint16_t dst_block_stride,
                   uint16_t src_block_stride, uint16_t dst_repeat_stride,
                   uint16_t src_repeat_stride,
                   normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiLeakyRelu("asc_leakyrelu", dst, src, value,
                                  normgrad_ascendc::CapiRepeatForm(
                                      repeat,
                                      normgrad_ascendc::CapiUnaryStrides{
                                          dst_block_stride, src_block_stride,
                                          dst_repeat_stride, src_repeat_stride},
                                      site));
}
template <typename T>
void asc_leakyrelu_sync(__ubuf__ T* dst, __ubuf__ T* src,
                        typename normgrad_ascendc::NonDeduced<T>::type value,
                        uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiLeakyRelu("asc_leakyrelu_sync", dst, src, value,
                                  normgrad_ascendc::CountForm{count, site});
}
