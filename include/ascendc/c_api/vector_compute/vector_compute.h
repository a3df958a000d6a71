// c_api/vector_compute/vector_compute.h — the C API's vector instructions on
// Atlas A2/A3 (docs/capi.md, "Vector compute"), each a thin mapping onto the
// instruction the C++ API runs (normgrad_ascendc/vector/): the same element
// types, span function, executor and checks, with messages naming the asc_*
// function, e.g.
//   "asc_add<int8_t>: element type int8_t is not supported on profile Atlas
//    A2/A3 (asc_add takes int16_t, half, int32_t, float there)".
//
// Every instruction has three forms:
//   - the count form, asc_x(dst, src..., count): the first `count` elements
//     of each operand, contiguous; it neither reads nor changes the mask
//     register or its mode;
//   - the high-dimension form, asc_x(dst, src..., repeat, block strides,
//     repeat strides): `repeat` repeats of 8 blocks of 32 bytes under the
//     mask register as asc_set_vector_mask, asc_set_mask_norm and
//     asc_set_mask_count left it (the C++ level-0 form with isSetMask =
//     false);
//   - asc_x_sync(dst, src..., count): the count form, waiting for its end.
//     Every instruction has ended when its call returns (docs/capi.md,
//     "Pipes and _sync"), so it computes what the count form computes.
// The operands are UB pointers (asc_get_phy_buf_addr); each reaches from
// its address to the UB's end, so an instruction whose lanes run past the
// UB is reported as one past a LocalTensor of that length.
//
//   asc_add asc_sub asc_mul asc_div asc_max asc_min   dst = op(src0, src1)
//   asc_and asc_or                                    bitwise, 16-bit types
//   asc_add_scalar asc_sub_scalar asc_mul_scalar      dst = op(src, value)
//   asc_max_scalar asc_min_scalar
//   asc_exp asc_log asc_sqrt asc_rsqrt asc_rcp        dst = f(src)
//   asc_abs asc_relu asc_not
//   asc_duplicate                                     dst = value
//   asc_set_mask_count asc_set_mask_norm asc_set_vector_mask
//   asc_eq asc_ne asc_lt asc_le asc_gt asc_ge         bits of src0 rel src1,
//                                                     into dst or CMPMASK
//   asc_eq_scalar ... asc_ge_scalar                   bits of src rel value
//   asc_get_cmp_mask asc_set_cmp_mask                 the CMPMASK register
//   asc_select                                        CMPMASK bit ? src0 : src1
//   asc_shiftleft asc_shiftright asc_shiftright_round dst = src shifted
//   asc_copy                                          dst = src
//   asc_transpose                                     dst = srcᵀ, 16×16
//
// The comparisons have the high-dimension form only, as their pages give
// them: into dst, Compare's (Compares') level-0 form, every lane of
// `repeat` repeats with the results packed (the mask is reserved on this
// profile); into the CMPMASK register (no dst), Compare's register form: one
// repeat under the mask register, `repeat` not read. asc_select is Select
// in mode VSEL_CMPMASK_SPR: every repeat selects by the register's first
// lanes bits, which asc_set_cmp_mask (or a comparison) put there.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/vector/vector_instruction.h"
#include "normgrad_ascendc/vector/vector_layout.h"
#include "normgrad_ascendc/vector/vector_math.h"
#include "normgrad_ascendc/vector/vector_ops.h"
#include "normgrad_ascendc/vector/vector_select.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace normgrad_ascendc {

/// The strides of a one-source high-dimension form, in 32-byte blocks (the
/// C API passes them as 16-bit values, wider than UnaryRepeatParams'
/// repeat strides).
struct CapiUnaryStrides {
  uint32_t dst_block;
  uint32_t src_block;
  uint32_t dst_repeat;
  uint32_t src_repeat;
};
inline void SetStrides(VecInstruction& in, const CapiUnaryStrides& s) {
  in.operand[0].block_stride = s.dst_block;
  in.operand[1].block_stride = s.src_block;
  in.operand[0].repeat_stride = s.dst_repeat;
  in.operand[1].repeat_stride = s.src_repeat;
}
template <typename T>
constexpr bool HasDefaultStrides(const CapiUnaryStrides& s) {
  return LanesOf(sizeof(T)) * sizeof(T) == 256 && s.dst_block == 1 &&
         s.src_block == 1 && s.dst_repeat == 8 && s.src_repeat == 8;
}

/// A high-dimension form: the mask register as it stands.
template <typename Strides>
RepeatForm<false, uint64_t, Strides> CapiRepeatForm(uint8_t repeat,
                                                    const Strides& strides,
                                                    const CallSite& site) {
  return {AscendC::MASK_PLACEHOLDER, repeat, strides, site};
}

/// dst = op(src0, src1), as Add and its kin.
template <ElementOp kOp, const TypeRule& kRule, typename T, typename Form>
void CapiBinary(const char* api, T* dst, T* src0, T* src1, const Form& form) {
  const CapiCall call(api, form.site);
  BinaryCall<kOp, kRule>(api, UbTensor(api, "dst", dst),
                         UbTensor(api, "src0", src0),
                         UbTensor(api, "src1", src1), form);
}

/// dst = src0 / src1, as Div with its default configuration.
template <typename T, typename Form>
void CapiDiv(const char* api, T* dst, T* src0, T* src1, const Form& form) {
  const CapiCall call(api, form.site);
  const auto d = UbTensor(api, "dst", dst);
  const auto s0 = UbTensor(api, "src0", src0);
  const auto s1 = UbTensor(api, "src1", src1);
  const InstructionCall<T> instruction(api, kDivTypes, form);
  RunForm(BinaryInstruction<ElementOp::kDiv>(api, d, s0, s1), form);
}

/// dst = src0 & src1 or src0 | src1, as And and Or.
template <BitOp kOp, typename T, typename Form>
void CapiLogic(const char* api, T* dst, T* src0, T* src1, const Form& form) {
  const CapiCall call(api, form.site);
  LogicCall<kOp>(api, UbTensor(api, "dst", dst), UbTensor(api, "src0", src0),
                 UbTensor(api, "src1", src1), form);
}

/// dst = op(src, value), as Adds and its kin.
template <ElementOp kOp, const TypeRule& kRule, typename T, typename Form>
void CapiScalar(const char* api, T* dst, T* src, T value, const Form& form) {
  const CapiCall call(api, form.site);
  ScalarCall<kOp, kRule, false>(api, UbTensor(api, "dst", dst),
                                UbTensor(api, "src", src), value, form);
}

/// dst = f(src), as Abs, Relu and Not.
template <BitOp kOp, const TypeRule& kRule, typename T, typename Form>
void CapiExactUnary(const char* api, T* dst, T* src, const Form& form) {
  const CapiCall call(api, form.site);
  UnaryCall(api, kRule, UbTensor(api, "dst", dst), UbTensor(api, "src", src),
            &ExactUnarySpan<kOp, T>, nullptr, form);
}

/// dst = f(src), as Exp, Ln, Sqrt, Rsqrt and Reciprocal with their default
/// configuration `config`.
template <MathOp kOp, const TypeRule& kRule, const auto& config, typename T,
          typename Form>
void CapiMath(const char* api, T* dst, T* src, const Form& form) {
  const CapiCall call(api, form.site);
  MathCall<kOp, kRule>(api, config, UbTensor(api, "dst", dst),
                       UbTensor(api, "src", src), form);
}

/// dst = value, as Duplicate.
template <typename T, typename Form>
void CapiDuplicate(const char* api, T* dst, T value, const Form& form) {
  const CapiCall call(api, form.site);
  const auto d = UbTensor(api, "dst", dst);
  const InstructionCall<T> instruction(api, kDuplicateTypes, form);
  VecInstruction in = DuplicateInstruction(d, value);
  in.api = api;
  RunForm(in, form);
}

/// The bits of src0 kMode src1 into dst, as Compare (kScalar: of src kMode
/// value, as Compares).
template <AscendC::CMPMODE kMode, bool kScalar, typename T, typename Form>
void CapiCompare(const char* api, uint8_t* dst, T* src0, T* src1, T value,
                 const Form& form) {
  const CapiCall call(api, form.site);
  const auto d = UbTensor(api, "dst", dst);
  const auto s0 = UbTensor(api, kScalar ? "src" : "src0", src0);
  const auto s1 = kScalar ? s0 : UbTensor(api, "src1", src1);
  CompareCall<T, kScalar>(api, kCompareTypes, d.view(), s0,
                          kScalar ? nullptr : &s1, kMode, value, false, form);
}

/// The bits of one repeat of src0 kMode src1 into the CMPMASK register under
/// the mask register, as Compare's register form with isSetMask = false.
template <AscendC::CMPMODE kMode, typename T>
void CapiCompareToRegister(const char* api, T* src0, T* src1,
                           const AscendC::BinaryRepeatParams& strides,
                           const CallSite& site) {
  const CapiCall call(api, site);
  const auto s0 = UbTensor(api, "src0", src0);
  const auto s1 = UbTensor(api, "src1", src1);
  const InstructionCall<T> instruction(api, kCompareRegisterTypes,
                                       /*count_form=*/false, site);
  const CompareParams<T> params{kMode, T{}};
  const auto layout = CompareLayout(LanesOf(sizeof(T)));
  // src0's view stands in for the destination, which is not written.
  auto in =
      CompareInstruction<T, false>(api, s0.view(), s0, &s1, params, layout);
  SetStrides(in, strides);
  RunCompareToRegister(in);
}

/// dst = CMPMASK bit ? src0 : src1, as Select in mode VSEL_CMPMASK_SPR
/// without a selMask argument.
template <typename T, typename Form>
void CapiSelect(const char* api, T* dst, T* src0, T* src1, const Form& form) {
  const CapiCall call(api, form.site);
  const auto d = UbTensor(api, "dst", dst);
  const auto s0 = UbTensor(api, "src0", src0);
  const auto s1 = UbTensor(api, "src1", src1);
  const InstructionCall<T> instruction(api, kSelectTypes, form);
  const uint32_t lanes = LanesOf(sizeof(T));
  const SelectParams<T> params{
      SelectionFromRegister(TypeName<T>(), AscendC::SELMODE::VSEL_CMPMASK_SPR,
                            lanes, 0),
      T{}, false};
  VecInstruction in = SelectInstruction<T, false>(d, s0, "src0", &s1, params);
  in.api = api;
  RunForm(in, form);
}

/// The element types of asc_shiftright_round and asc_copy, as their pages
/// list them.
inline constexpr TypeRule kCapiShiftRoundTypes{kTypeInt16 | kTypeInt32,
                                               kTypeInt16 | kTypeInt32,
                                               kTypeInt16 | kTypeInt32, 0};
inline constexpr uint32_t kCapiCopyBits =
    kTypeInt16 | kTypeUint16 | kTypeInt32 | kTypeUint32;
inline constexpr TypeRule kCapiCopyTypes{kCapiCopyBits, kCapiCopyBits,
                                         kCapiCopyBits, 0};

/// dst = src shifted by `distance` bits, as ShiftLeft (kLeft) and
/// ShiftRight (with roundEn: kRound). The pages take 0 to the type's bits,
/// checked here under the argument's name (`arg`) before the distance
/// becomes the shift's T.
template <bool kLeft, bool kRound, typename T, typename Form>
void CapiShift(const char* api, const char* arg, T* dst, T* src,
               int64_t distance, const Form& form) {
  const CapiCall call(api, form.site);
  if constexpr (kRound) {
    CheckType<T>(api, kCapiShiftRoundTypes, Form::kCountForm);
  }
  constexpr int64_t kBits = sizeof(T) * 8;
  if (distance < 0 || distance > kBits) {
    Fail("%s<%s>: %s %lld is out of range (0..%lld, the bits of %s)", api,
         TypeName<T>(), arg, static_cast<long long>(distance),
         static_cast<long long>(kBits), TypeName<T>());
  }
  ShiftCall(api, UbTensor(api, "dst", dst), UbTensor(api, "src", src),
            static_cast<T>(distance), kLeft, kRound, form);
}

/// dst = src within the UB, as Copy; the count form copies the first
/// `count` elements.
template <typename T, typename Form>
void CapiCopy(const char* api, T* dst, T* src, const Form& form) {
  const CapiCall call(api, form.site);
  const auto d = UbTensor(api, "dst", dst);
  const auto s = UbTensor(api, "src", src);
  const InstructionCall<T> instruction(api, kCapiCopyTypes, form);
  AscendC::CopyRepeatParams strides;
  if constexpr (!Form::kCountForm) {
    const CapiUnaryStrides& st = form.strides;
    const uint32_t repeat_stride =
        st.dst_repeat > st.src_repeat ? st.dst_repeat : st.src_repeat;
    if (repeat_stride > 4095) {
      Fail("%s<%s>: %s %u is out of range (0..4095 blocks)", api, TypeName<T>(),
           st.dst_repeat > 4095 ? "dst_repeat_stride" : "src_repeat_stride",
           repeat_stride);
    }
  }
  VecInstruction in = CopyInstruction(d, s, strides);
  in.api = api;
  RunForm(in, form);
}

/// dst = srcᵀ for a 16×16 matrix of 2-byte integers, as Transpose.
inline constexpr TypeRule kCapiTransposeTypes{kTypeInt16 | kTypeUint16,
                                              kTypeInt16 | kTypeUint16,
                                              kTypeInt16 | kTypeUint16, 0};
template <typename T>
void CapiTranspose(const char* api, T* dst, T* src, const CallSite& site) {
  const CapiCall call(api, site);
  const auto d = UbTensor(api, "dst", dst);
  const auto s = UbTensor(api, "src", src);
  const InstructionCall<T> instruction(api, kCapiTransposeTypes,
                                       /*count_form=*/false, site);
  Transpose16Impl(api, TypeName<T>(), d.view(), s.view());
}

/// The CMPMASK register's operand: a UB address at a multiple of 16 bytes
/// with `bytes` bytes before the UB's end (GetCmpMask's and SetCmpMask's
/// rule).
inline TensorView CmpMaskOperand(const char* api, const char* which,
                                 const void* p, uint32_t bytes) {
  const TensorView view = UbPointerView(api, nullptr, which, p, 16);
  CheckUbBytes(api, which, view, bytes);
  return view;
}

}  // namespace normgrad_ascendc

// The three forms of a two-source instruction; `run` is its Capi* call,
// parenthesized.
#define NORMGRAD_CAPI_BINARY(name, run)                                     \
  template <typename T>                                                     \
  void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,            \
            uint32_t count, normgrad_ascendc::CallSite site = {}) {         \
    run(#name, dst, src0, src1, normgrad_ascendc::CountForm{count, site});  \
  }                                                                         \
  template <typename T>                                                     \
  void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,            \
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
  template <typename T>                                                     \
  void name##_sync(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,     \
                   uint32_t count, normgrad_ascendc::CallSite site = {}) {  \
    run(#name "_sync", dst, src0, src1,                                     \
        normgrad_ascendc::CountForm{count, site});                          \
  }

// The three forms of an instruction with a vector and a scalar source.
#define NORMGRAD_CAPI_SCALAR(name, run)                                    \
  template <typename T>                                                    \
  void name(__ubuf__ T* dst, __ubuf__ T* src,                              \
            typename normgrad_ascendc::NonDeduced<T>::type value,          \
            uint32_t count, normgrad_ascendc::CallSite site = {}) {        \
    run(#name, dst, src, value, normgrad_ascendc::CountForm{count, site}); \
  }                                                                        \
  template <typename T>                                                    \
  void name(__ubuf__ T* dst, __ubuf__ T* src,                              \
            typename normgrad_ascendc::NonDeduced<T>::type value,          \
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
  template <typename T>                                                    \
  void name##_sync(__ubuf__ T* dst, __ubuf__ T* src,                       \
                   typename normgrad_ascendc::NonDeduced<T>::type value,   \
                   uint32_t count, normgrad_ascendc::CallSite site = {}) { \
    run(#name "_sync", dst, src, value,                                    \
        normgrad_ascendc::CountForm{count, site});                         \
  }

// The three forms of a one-source instruction.
#define NORMGRAD_CAPI_UNARY(name, run)                                      \
  template <typename T>                                                     \
  void name(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count,               \
            normgrad_ascendc::CallSite site = {}) {                         \
    run(#name, dst, src, normgrad_ascendc::CountForm{count, site});         \
  }                                                                         \
  template <typename T>                                                     \
  void name(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat,               \
            uint16_t dst_block_stride, uint16_t src_block_stride,           \
            uint16_t dst_repeat_stride, uint16_t src_repeat_stride,         \
            normgrad_ascendc::CallSite site = {}) {                         \
    run(#name, dst, src,                                                    \
        normgrad_ascendc::CapiRepeatForm(                                   \
            repeat,                                                         \
            normgrad_ascendc::CapiUnaryStrides{                             \
                dst_block_stride, src_block_stride, dst_repeat_stride,      \
                src_repeat_stride},                                         \
            site));                                                         \
  }                                                                         \
  template <typename T>                                                     \
  void name##_sync(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count,        \
                   normgrad_ascendc::CallSite site = {}) {                  \
    run(#name "_sync", dst, src, normgrad_ascendc::CountForm{count, site}); \
  }

/// dst[i] = src0[i] + src1[i] (int16_t, half, int32_t, float).
NORMGRAD_CAPI_BINARY(
    asc_add, (normgrad_ascendc::CapiBinary<normgrad_ascendc::ElementOp::kAdd,
                                           normgrad_ascendc::kAddSubTypes>))
/// dst[i] = src0[i] − src1[i] (int16_t, half, int32_t, float).
NORMGRAD_CAPI_BINARY(
    asc_sub, (normgrad_ascendc::CapiBinary<normgrad_ascendc::ElementOp::kSub,
                                           normgrad_ascendc::kAddSubTypes>))
/// dst[i] = src0[i] · src1[i] (int16_t, half, int32_t, float).
NORMGRAD_CAPI_BINARY(
    asc_mul, (normgrad_ascendc::CapiBinary<normgrad_ascendc::ElementOp::kMul,
                                           normgrad_ascendc::kMulTypes>))
/// dst[i] = src0[i] / src1[i] (half, float; IEEE).
NORMGRAD_CAPI_BINARY(asc_div, (normgrad_ascendc::CapiDiv))
/// dst[i] = max(src0[i], src1[i]) (int16_t, half, int32_t, float).
NORMGRAD_CAPI_BINARY(
    asc_max, (normgrad_ascendc::CapiBinary<normgrad_ascendc::ElementOp::kMax,
                                           normgrad_ascendc::kMaxMinTypes>))
/// dst[i] = min(src0[i], src1[i]) (int16_t, half, int32_t, float).
NORMGRAD_CAPI_BINARY(
    asc_min, (normgrad_ascendc::CapiBinary<normgrad_ascendc::ElementOp::kMin,
                                           normgrad_ascendc::kMaxMinTypes>))
/// dst[i] = src0[i] & src1[i] (int16_t, uint16_t).
NORMGRAD_CAPI_BINARY(
    asc_and, (normgrad_ascendc::CapiLogic<normgrad_ascendc::BitOp::kAnd>))
/// dst[i] = src0[i] | src1[i] (int16_t, uint16_t).
NORMGRAD_CAPI_BINARY(
    asc_or, (normgrad_ascendc::CapiLogic<normgrad_ascendc::BitOp::kOr>))

/// dst[i] = src[i] + value (int16_t, half, int32_t, float).
NORMGRAD_CAPI_SCALAR(
    asc_add_scalar,
    (normgrad_ascendc::CapiScalar<normgrad_ascendc::ElementOp::kAdd,
                                  normgrad_ascendc::kScalarArithTypes>))
/// dst[i] = src[i] − value (int16_t, half, int32_t, float): the scalar
/// instruction of Adds and its kin by subtraction, which the C++ API names
/// Subs on the 950 only.
NORMGRAD_CAPI_SCALAR(
    asc_sub_scalar,
    (normgrad_ascendc::CapiScalar<normgrad_ascendc::ElementOp::kSub,
                                  normgrad_ascendc::kScalarArithTypes>))
/// dst[i] = src[i] · value (int16_t, half, int32_t, float).
NORMGRAD_CAPI_SCALAR(
    asc_mul_scalar,
    (normgrad_ascendc::CapiScalar<normgrad_ascendc::ElementOp::kMul,
                                  normgrad_ascendc::kMulsTypes>))
/// dst[i] = max(src[i], value) (int16_t, half, int32_t, float).
NORMGRAD_CAPI_SCALAR(
    asc_max_scalar,
    (normgrad_ascendc::CapiScalar<normgrad_ascendc::ElementOp::kMax,
                                  normgrad_ascendc::kScalarArithTypes>))
/// dst[i] = min(src[i], value) (int16_t, half, int32_t, float).
NORMGRAD_CAPI_SCALAR(
    asc_min_scalar,
    (normgrad_ascendc::CapiScalar<normgrad_ascendc::ElementOp::kMin,
                                  normgrad_ascendc::kScalarArithTypes>))

/// dst[i] = e^src[i] (half, float).
NORMGRAD_CAPI_UNARY(asc_exp,
                    (normgrad_ascendc::CapiMath<normgrad_ascendc::MathOp::kExp,
                                                normgrad_ascendc::kMathTypes,
                                                AscendC::DEFAULT_EXP_CONFIG>))
/// dst[i] = ln src[i] (half, float).
NORMGRAD_CAPI_UNARY(asc_log,
                    (normgrad_ascendc::CapiMath<normgrad_ascendc::MathOp::kLn,
                                                normgrad_ascendc::kMathTypes,
                                                AscendC::DEFAULT_LN_CONFIG>))
/// dst[i] = √src[i] (half, float).
NORMGRAD_CAPI_UNARY(asc_sqrt,
                    (normgrad_ascendc::CapiMath<normgrad_ascendc::MathOp::kSqrt,
                                                normgrad_ascendc::kMathTypes,
                                                AscendC::DEFAULT_SQRT_CONFIG>))
/// dst[i] = 1 / √src[i] (half, float).
NORMGRAD_CAPI_UNARY(
    asc_rsqrt, (normgrad_ascendc::CapiMath<normgrad_ascendc::MathOp::kRsqrt,
                                           normgrad_ascendc::kMathTypes,
                                           AscendC::DEFAULT_RSQRT_CONFIG>))
/// dst[i] = 1 / src[i] (half, float).
NORMGRAD_CAPI_UNARY(
    asc_rcp, (normgrad_ascendc::CapiMath<normgrad_ascendc::MathOp::kReciprocal,
                                         normgrad_ascendc::kReciprocalTypes,
                                         AscendC::DEFAULT_RECIPROCAL_CONFIG>))
/// dst[i] = |src[i]| (half, float).
NORMGRAD_CAPI_UNARY(
    asc_abs, (normgrad_ascendc::CapiExactUnary<normgrad_ascendc::BitOp::kAbs,
                                               normgrad_ascendc::kAbsTypes>))
/// dst[i] = max(0, src[i]) (half, float, int32_t).
NORMGRAD_CAPI_UNARY(
    asc_relu, (normgrad_ascendc::CapiExactUnary<normgrad_ascendc::BitOp::kRelu,
                                                normgrad_ascendc::kReluTypes>))
/// dst[i] = ~src[i] (int16_t, uint16_t).
NORMGRAD_CAPI_UNARY(
    asc_not, (normgrad_ascendc::CapiExactUnary<normgrad_ascendc::BitOp::kNot,
                                               normgrad_ascendc::kNotTypes>))

#undef NORMGRAD_CAPI_BINARY
#undef NORMGRAD_CAPI_SCALAR

/// dst[i] = value, i < count (2- and 4-byte types).
template <typename T>
void asc_duplicate(__ubuf__ T* dst,
                   typename normgrad_ascendc::NonDeduced<T>::type value,
                   uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiDuplicate("asc_duplicate", dst, value,
                                  normgrad_ascendc::CountForm{count, site});
}
/// value into `repeat` repeats of dst under the mask register.
template <typename T>
void asc_duplicate(__ubuf__ T* dst,
                   typename normgrad_ascendc::NonDeduced<T>::type value,
                   uint8_t repeat, uint16_t dst_block_stride,
                   uint16_t dst_repeat_stride,
                   normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiDuplicate(
      "asc_duplicate", dst, value,
      normgrad_ascendc::CapiRepeatForm(repeat,
                                       normgrad_ascendc::FirstOperandStrides{
                                           dst_block_stride, dst_repeat_stride},
                                       site));
}
/// asc_duplicate's count form, waiting for its end.
template <typename T>
void asc_duplicate_sync(__ubuf__ T* dst,
                        typename normgrad_ascendc::NonDeduced<T>::type value,
                        uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiDuplicate("asc_duplicate_sync", dst, value,
                                  normgrad_ascendc::CountForm{count, site});
}

/// Counter mode: the high-dimension forms take the mask register's low word
/// as the number of elements of the whole instruction.
inline void asc_set_mask_count(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_set_mask_count", site);
  AscendC::SetMaskCount();
}
/// Normal mode: the mask register holds a bit per lane of each repeat.
inline void asc_set_mask_norm(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_set_mask_norm", site);
  AscendC::SetMaskNorm();
}
/// Sets the mask register: in normal mode mask1 (lanes 64 … 127) and mask0
/// (lanes 0 … 63); in counter mode mask0 is the element count and mask1 is
/// not read.
inline void asc_set_vector_mask(uint64_t mask1, uint64_t mask0,
                                normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_set_vector_mask", site);
  const bool counter = normgrad_ascendc::CurrentCore().vector_mask().mode ==
                       AscendC::MaskMode::COUNTER;
  normgrad_ascendc::SetMaskBits(counter ? 0 : mask1, mask0);
}

// The four forms of a comparison: into the CMPMASK register and into dst,
// each with its _sync form.
#define NORMGRAD_CAPI_COMPARE(name, mode)                                     \
  template <typename T>                                                       \
  void name(__ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat,               \
            uint8_t dst_block_stride, uint8_t src0_block_stride,              \
            uint8_t src1_block_stride, uint8_t dst_repeat_stride,             \
            uint8_t src0_repeat_stride, uint8_t src1_repeat_stride,           \
            normgrad_ascendc::CallSite site = {}) {                           \
    static_cast<void>(repeat); /* the register takes one repeat */            \
    normgrad_ascendc::CapiCompareToRegister<AscendC::CMPMODE::mode>(          \
        #name, src0, src1,                                                    \
        AscendC::BinaryRepeatParams(dst_block_stride, src0_block_stride,      \
                                    src1_block_stride, dst_repeat_stride,     \
                                    src0_repeat_stride, src1_repeat_stride),  \
        site);                                                                \
  }                                                                           \
  template <typename T>                                                       \
  void name##_sync(__ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat,        \
                   uint8_t dst_block_stride, uint8_t src0_block_stride,       \
                   uint8_t src1_block_stride, uint8_t dst_repeat_stride,      \
                   uint8_t src0_repeat_stride, uint8_t src1_repeat_stride,    \
                   normgrad_ascendc::CallSite site = {}) {                    \
    static_cast<void>(repeat);                                                \
    normgrad_ascendc::CapiCompareToRegister<AscendC::CMPMODE::mode>(          \
        #name "_sync", src0, src1,                                            \
        AscendC::BinaryRepeatParams(dst_block_stride, src0_block_stride,      \
                                    src1_block_stride, dst_repeat_stride,     \
                                    src0_repeat_stride, src1_repeat_stride),  \
        site);                                                                \
  }                                                                           \
  template <typename T>                                                       \
  void name(__ubuf__ uint8_t* dst, __ubuf__ T* src0, __ubuf__ T* src1,        \
            uint8_t repeat, uint8_t dst_block_stride,                         \
            uint8_t src0_block_stride, uint8_t src1_block_stride,             \
            uint8_t dst_repeat_stride, uint8_t src0_repeat_stride,            \
            uint8_t src1_repeat_stride,                                       \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::CapiCompare<AscendC::CMPMODE::mode, false>(             \
        #name, dst, src0, src1, T{},                                          \
        normgrad_ascendc::CapiRepeatForm(                                     \
            repeat,                                                           \
            AscendC::BinaryRepeatParams(                                      \
                dst_block_stride, src0_block_stride, src1_block_stride,       \
                dst_repeat_stride, src0_repeat_stride, src1_repeat_stride),   \
            site));                                                           \
  }                                                                           \
  template <typename T>                                                       \
  void name##_sync(__ubuf__ uint8_t* dst, __ubuf__ T* src0, __ubuf__ T* src1, \
                   uint8_t repeat, uint8_t dst_block_stride,                  \
                   uint8_t src0_block_stride, uint8_t src1_block_stride,      \
                   uint8_t dst_repeat_stride, uint8_t src0_repeat_stride,     \
                   uint8_t src1_repeat_stride,                                \
                   normgrad_ascendc::CallSite site = {}) {                    \
    normgrad_ascendc::CapiCompare<AscendC::CMPMODE::mode, false>(             \
        #name "_sync", dst, src0, src1, T{},                                  \
        normgrad_ascendc::CapiRepeatForm(                                     \
            repeat,                                                           \
            AscendC::BinaryRepeatParams(                                      \
                dst_block_stride, src0_block_stride, src1_block_stride,       \
                dst_repeat_stride, src0_repeat_stride, src1_repeat_stride),   \
            site));                                                           \
  }

// The two forms of a comparison with a scalar, into dst.
#define NORMGRAD_CAPI_COMPARE_SCALAR(name, mode)                          \
  template <typename T>                                                   \
  void name(__ubuf__ uint8_t* dst, __ubuf__ T* src,                       \
            typename normgrad_ascendc::NonDeduced<T>::type value,         \
            uint8_t repeat, uint16_t dst_block_stride,                    \
            uint16_t src_block_stride, uint16_t dst_repeat_stride,        \
            uint16_t src_repeat_stride,                                   \
            normgrad_ascendc::CallSite site = {}) {                       \
    normgrad_ascendc::CapiCompare<AscendC::CMPMODE::mode, true>(          \
        #name, dst, src, src, value,                                      \
        normgrad_ascendc::CapiRepeatForm(                                 \
            repeat,                                                       \
            normgrad_ascendc::CapiUnaryStrides{                           \
                dst_block_stride, src_block_stride, dst_repeat_stride,    \
                src_repeat_stride},                                       \
            site));                                                       \
  }                                                                       \
  template <typename T>                                                   \
  void name##_sync(__ubuf__ uint8_t* dst, __ubuf__ T* src,                \
                   typename normgrad_ascendc::NonDeduced<T>::type value,  \
                   uint8_t repeat, uint16_t dst_block_stride,             \
                   uint16_t src_block_stride, uint16_t dst_repeat_stride, \
                   uint16_t src_repeat_stride,                            \
                   normgrad_ascendc::CallSite site = {}) {                \
    normgrad_ascendc::CapiCompare<AscendC::CMPMODE::mode, true>(          \
        #name "_sync", dst, src, src, value,                              \
        normgrad_ascendc::CapiRepeatForm(                                 \
            repeat,                                                       \
            normgrad_ascendc::CapiUnaryStrides{                           \
                dst_block_stride, src_block_stride, dst_repeat_stride,    \
                src_repeat_stride},                                       \
            site));                                                       \
  }

/// src0 == src1 (half, float; into dst also int32_t).
NORMGRAD_CAPI_COMPARE(asc_eq, EQ)
/// src0 != src1 (half, float).
NORMGRAD_CAPI_COMPARE(asc_ne, NE)
/// src0 < src1 (half, float).
NORMGRAD_CAPI_COMPARE(asc_lt, LT)
/// src0 <= src1 (half, float).
NORMGRAD_CAPI_COMPARE(asc_le, LE)
/// src0 > src1 (half, float).
NORMGRAD_CAPI_COMPARE(asc_gt, GT)
/// src0 >= src1 (half, float).
NORMGRAD_CAPI_COMPARE(asc_ge, GE)
/// src == value (half, int32_t, float).
NORMGRAD_CAPI_COMPARE_SCALAR(asc_eq_scalar, EQ)
/// src != value (half, float).
NORMGRAD_CAPI_COMPARE_SCALAR(asc_ne_scalar, NE)
/// src < value (half, float).
NORMGRAD_CAPI_COMPARE_SCALAR(asc_lt_scalar, LT)
/// src <= value (half, float).
NORMGRAD_CAPI_COMPARE_SCALAR(asc_le_scalar, LE)
/// src > value (half, float).
NORMGRAD_CAPI_COMPARE_SCALAR(asc_gt_scalar, GT)
/// src >= value (half, float).
NORMGRAD_CAPI_COMPARE_SCALAR(asc_ge_scalar, GE)

#undef NORMGRAD_CAPI_COMPARE
#undef NORMGRAD_CAPI_COMPARE_SCALAR

// The three forms of a shift by a scalar distance.
#define NORMGRAD_CAPI_SHIFT(name, arg, left, round)                        \
  template <typename T>                                                    \
  void name(__ubuf__ T* dst, __ubuf__ T* src, int64_t distance,            \
            uint32_t count, normgrad_ascendc::CallSite site = {}) {        \
    normgrad_ascendc::CapiShift<left, round>(                              \
        #name, arg, dst, src, distance,                                    \
        normgrad_ascendc::CountForm{count, site});                         \
  }                                                                        \
  template <typename T>                                                    \
  void name(__ubuf__ T* dst, __ubuf__ T* src, int64_t distance,            \
            uint8_t repeat, uint16_t dst_block_stride,                     \
            uint16_t src_block_stride, uint16_t dst_repeat_stride,         \
            uint16_t src_repeat_stride,                                    \
            normgrad_ascendc::CallSite site = {}) {                        \
    normgrad_ascendc::CapiShift<left, round>(                              \
        #name, arg, dst, src, distance,                                    \
        normgrad_ascendc::CapiRepeatForm(                                  \
            repeat,                                                        \
            normgrad_ascendc::CapiUnaryStrides{                            \
                dst_block_stride, src_block_stride, dst_repeat_stride,     \
                src_repeat_stride},                                        \
            site));                                                        \
  }                                                                        \
  template <typename T>                                                    \
  void name##_sync(__ubuf__ T* dst, __ubuf__ T* src, int64_t distance,     \
                   uint32_t count, normgrad_ascendc::CallSite site = {}) { \
    normgrad_ascendc::CapiShift<left, round>(                              \
        #name "_sync", arg, dst, src, distance,                            \
        normgrad_ascendc::CountForm{count, site});                         \
  }

/// dst[i] = src[i] << distance (int16_t, uint16_t, int32_t, uint32_t;
/// 0 ≤ distance ≤ the type's bits).
NORMGRAD_CAPI_SHIFT(asc_shiftleft, "distance", true, false)
/// dst[i] = src[i] >> value, arithmetic for signed T, logical for unsigned.
NORMGRAD_CAPI_SHIFT(asc_shiftright, "value", false, false)
/// asc_shiftright adding the last bit shifted out (int16_t, int32_t).
NORMGRAD_CAPI_SHIFT(asc_shiftright_round, "value", false, true)

#undef NORMGRAD_CAPI_SHIFT

/// dst[i] = src[i] within the UB (int16_t, uint16_t, int32_t, uint32_t):
/// count, high-dimension and _sync forms, as Copy.
NORMGRAD_CAPI_UNARY(asc_copy, (normgrad_ascendc::CapiCopy))

#undef NORMGRAD_CAPI_UNARY

/// dst = srcᵀ, a 16×16 matrix of int16_t or uint16_t.
template <typename T>
void asc_transpose(__ubuf__ T* dst, __ubuf__ T* src,
                   normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiTranspose("asc_transpose", dst, src, site);
}
/// asc_transpose, waiting for its end.
template <typename T>
void asc_transpose_sync(__ubuf__ T* dst, __ubuf__ T* src,
                        normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiTranspose("asc_transpose_sync", dst, src, site);
}

/// The CMPMASK register's 16 bytes into dst (16-byte aligned, 128 bytes
/// before the UB's end, as GetCmpMask's dst).
inline void asc_get_cmp_mask(__ubuf__ void* dst,
                             normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_cmp_mask", site);
  normgrad_ascendc::GetCmpMaskImpl(
      "uint8_t",
      normgrad_ascendc::CmpMaskOperand("asc_get_cmp_mask", "dst", dst, 128));
}
/// Loads the CMPMASK register with sel_mask's first 16 bytes (16-byte
/// aligned), for asc_select.
inline void asc_set_cmp_mask(__ubuf__ void* sel_mask,
                             normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_set_cmp_mask", site);
  normgrad_ascendc::SetCmpMaskImpl(
      "uint8_t", normgrad_ascendc::CmpMaskOperand("asc_set_cmp_mask",
                                                  "sel_mask", sel_mask, 16));
}

/// dst[i] = bit i % lanes of CMPMASK ? src0[i] : src1[i] (half, float):
/// count, high-dimension and _sync forms.
template <typename T>
void asc_select(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,
                uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSelect("asc_select", dst, src0, src1,
                               normgrad_ascendc::CountForm{count, site});
}
template <typename T>
void asc_select(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,
                uint8_t repeat, uint8_t dst_block_stride,
                uint8_t src0_block_stride, uint8_t src1_block_stride,
                uint8_t dst_repeat_stride, uint8_t src0_repeat_stride,
                uint8_t src1_repeat_stride,
                normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSelect(
      "asc_select", dst, src0, src1,
      normgrad_ascendc::CapiRepeatForm(
          repeat,
          AscendC::BinaryRepeatParams(dst_block_stride, src0_block_stride,
                                      src1_block_stride, dst_repeat_stride,
                                      src0_repeat_stride, src1_repeat_stride),
          site));
}
template <typename T>
void asc_select_sync(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1,
                     uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSelect("asc_select_sync", dst, src0, src1,
                               normgrad_ascendc::CountForm{count, site});
}

// The conversions, the reductions and the compounds, in this header as
// their pages place them.
#include "c_api/vector_compute/vector_compound.h"  // IWYU pragma: export
#include "c_api/vector_compute/vector_convert.h"   // IWYU pragma: export
#include "c_api/vector_compute/vector_layout.h"    // IWYU pragma: export
#include "c_api/vector_compute/vector_reduce.h"    // IWYU pragma: export
