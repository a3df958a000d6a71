// normgrad_ascendc/vector/vector_compound.h — the compound instructions of the
// vector unit (docs/runtime.md, "Compound instructions"): an arithmetic step
// followed by another (a second arithmetic step, a Relu or a narrowing
// conversion) in one instruction, in the count form and, where documented,
// the level-0 forms (bit mask or continuous mask, repeatTime, repeat
// parameters; vector_unit.h).
//
//   Axpy         dst[i] = scalar · src[i] + dst[i]     (dst may be wider)
//   FusedMulAdd  dst[i] = src0[i] · dst[i] + src1[i]
//   MulAddDst    dst[i] = src0[i] · src1[i] + dst[i]   (dst may be wider)
//   MulAddRelu   dst[i] = Relu(src0[i] · dst[i] + src1[i])
//   AddRelu      dst[i] = Relu(src0[i] + src1[i])
//   SubRelu      dst[i] = Relu(src0[i] − src1[i])
//   AddReluCast  dst[i] = Cast(Relu(src0[i] + src1[i]))  (narrowing)
//   SubReluCast  dst[i] = Cast(Relu(src0[i] − src1[i]))  (narrowing)
//   MulCast      dst[i] = Cast(src0[i] · src1[i])        (narrowing)
//   AbsSub       dst[i] = |src0[i] − src1[i]|            (950, count form)
//   ExpSub       dst[i] = e^(src0[i] − src1[i])          (950, count form)
//   MulsCast     dst[i] = Cast(src[i] · scalar), the scalar in either
//                position or one element of a tensor   (950, count form)
//
// Types. Each instruction takes the element types (or, where dst and the
// sources differ, the pairs) its page lists for the profile in effect; any
// other is a KernelError naming the instruction, the types and the profile.
// A repeat processes 256 bytes of the widest operand: Axpy and MulAddDst
// from half into float take 64 lanes per repeat (the half sources fill 4
// blocks of a repeat), the narrowing casts from half 128 lanes (int8_t and
// uint8_t destinations fill 4 blocks).
//
// Numbers (docs/numerics.md, "The vector unit's compound instructions").
// Every step is rounded: a product is rounded to the destination's type
// before the addition (the multiply-adds round twice, not once — the pages'
// worked half examples of FusedMulAdd and MulAddRelu agree with two
// roundings on every element); from half into float the product is exact.
// Each rounding is to nearest even. Relu keeps NaN and gives +0 for −0.
// Integers wrap modulo 2^bits. The narrowing conversions round to nearest
// even (MulsCast: to nearest, ties away from zero) and saturate: a finite
// value beyond the destination's range becomes its largest or smallest
// value (float → half: ±65504); float → half keeps ±inf and NaN; NaN
// becomes 0 in an integer. ExpSub subtracts in float (half sources
// widened first), then rounds e^x, computed in double, to the destination.
//
// Operands. FusedMulAdd, MulAddRelu, MulAddDst and Axpy read dst; a source
// may be dst itself. From half into float (Axpy, MulAddDst) the operands
// may not overlap at all. The executor checks alignment, extents, overlap
// and repeatTime (vector_unit.h).
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_instruction.h"
#include "normgrad_ascendc/vector/vector_ops.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace normgrad_ascendc {

enum class Compound : uint8_t {
  kAxpy,
  kFusedMulAdd,
  kMulAddDst,
  kMulAddRelu,
  kAddRelu,
  kSubRelu,
  kAddReluCast,
  kSubReluCast,
  kMulCast,
  kAbsSub,
  kExpSub,
  kMulsCast,
};

/// Fails unless the current profile takes dst type `dst_bit` with source
/// type `src_bit` for `op` in this form; returns the span function of the
/// pair (vector_compound.cc).
SpanFn CompoundSpan(Compound op, const char* api, const char* type,
                    uint32_t dst_bit, uint32_t src_bit, bool count_form);

/// The span function of `op` from sources of `src_bit` into `dst_bit` when
/// every profile takes that pair in the count form, else null
/// (vector_compound.cc).
SpanFn CompoundSpanEverywhere(Compound op, uint32_t dst_bit, uint32_t src_bit);

/// Fails when dst and src, of different element sizes, share a byte: a
/// widening Axpy or MulAddDst takes no overlapping operands
/// (vector_compound.cc).
void CheckWideningDisjoint(const char* api, const char* type,
                           const TensorView& dst, const TensorView& src,
                           const char* src_name);

/// "half" when T and U are the same type, else "float, half" (dst, src):
/// written once per pair, as a call formatting it would cost more than a
/// short instruction's lanes.
template <typename T, typename U>
const char* CompoundTypeName() {
  if constexpr (std::is_same_v<T, U>) {
    return TypeName<T>();
  } else {
    static const char* const name = [] {
      static char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%s, %s", TypeName<T>(),
                    TypeName<U>());
      return buffer;
    }();
    return name;
  }
}

/// A compound instruction for the executor: dst (T), src0 (U) and, when
/// given, src1 (U); `params` (the scalar of Axpy and MulsCast) must outlive
/// it.
template <typename T, typename U>
VecInstruction CompoundInstruction(Compound op, const char* api,
                                   const AscendC::LocalTensor<T>& dst,
                                   const AscendC::LocalTensor<U>& src0,
                                   const AscendC::LocalTensor<U>* src1,
                                   const void* params, bool count_form) {
  const char* name = CompoundTypeName<T, U>();
  const SpanFn span =
      CompoundSpan(op, api, name, TypeBitOf<T>(), TypeBitOf<U>(), count_form);
  const bool one_source = src1 == nullptr;
  VecInstruction in{api,
                    name,
                    LanesOf(sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)),
                    {{"dst", &dst.view(), sizeof(T)},
                     {one_source ? "src" : "src0", &src0.view(), sizeof(U)},
                     {"src1", one_source ? nullptr : &src1->view(), sizeof(U)}},
                    one_source ? 2 : 3,
                    span};
  in.params = params;
  in.reads_dst = op == Compound::kAxpy || op == Compound::kFusedMulAdd ||
                 op == Compound::kMulAddDst || op == Compound::kMulAddRelu;
  in.dst_feeds_src1 = op == Compound::kAddRelu || op == Compound::kSubRelu;
  if (sizeof(T) != sizeof(U) &&
      (op == Compound::kAxpy || op == Compound::kMulAddDst)) {
    CheckWideningDisjoint(api, name, dst.view(), src0.view(),
                          in.operand[1].name);
    if (!one_source) {
      CheckWideningDisjoint(api, name, dst.view(), src1->view(), "src1");
    }
  }
  return in;
}

/// The count form of a compound of half or float operands over n lanes,
/// computed right here (no call site recorded, no instruction built, no
/// executor; vector_ops.h, "The flat path") when every profile takes the
/// pair in that form, so that no check can fail, and the operands meet the
/// flat run's conditions (FlatDst, FlatSrc; from half into float, as the
/// instruction requires, sharing no byte at all); the same lanes as the
/// executor's flat run. False (nothing done) otherwise.
template <Compound kOp, typename T, typename U>
bool FlatCompound(const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<U>& src0,
                  const AscendC::LocalTensor<U>* src1, const void* params,
                  int64_t n) {
  if constexpr (!kIsVectorFloat<T> || !kIsVectorFloat<U>) {
    return false;
  } else {
    static const SpanFn span =
        CompoundSpanEverywhere(kOp, TypeBitOf<T>(), TypeBitOf<U>());
    if (span == nullptr || !FlatCount(n)) return false;
    const uint64_t lanes = static_cast<uint64_t>(n);
    const TensorView& d = dst.view();
    const auto apart = [&](const TensorView& s) {
      if constexpr (sizeof(T) == sizeof(U)) {
        return FlatSrc(d, s, lanes * sizeof(U));
      } else {
        return s.IsUbOperand() && lanes * sizeof(U) <= s.bytes &&
               (s.core != d.core || uint64_t{s.offset} + s.bytes <= d.offset ||
                uint64_t{d.offset} + d.bytes <= s.offset);
      }
    };
    if (!FlatDst(d, lanes * sizeof(T)) || !apart(src0.view()) ||
        (src1 != nullptr && !apart(src1->view()))) {
      return false;
    }
    SpanArgs args;
    args.operand[0] = d.data();
    args.operand[1] = src0.view().data();
    args.operand[2] = src1 != nullptr ? src1->view().data() : nullptr;
    args.n = static_cast<uint32_t>(n);
    args.params = params;
    args.every_lane = true;
    span(args);
    return true;
  }
}

/// Where a compound's count form may skip the executor: nowhere, before its
/// call site is recorded (FlatCompound, for the pairs every profile takes),
/// or once its instruction is built (FlatRun).
enum class CompoundFlat : uint8_t { kNone, kBeforeCall, kAfterBuild };

/// A compound instruction `op` in any form: dst (T) from src0 and, when
/// given, src1 (U); `params` as CompoundInstruction's. Its types are checked
/// as the instruction is built (CompoundSpan), there being a TypeRule per
/// pair.
template <Compound kOp, CompoundFlat kFlat, typename T, typename U,
          typename Form>
void CompoundCall(const char* api, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<U>& src0,
                  const AscendC::LocalTensor<U>* src1, const void* params,
                  const Form& form) {
  if constexpr (Form::kCountForm && kFlat == CompoundFlat::kBeforeCall) {
    if (FlatCompound<kOp>(dst, src0, src1, params, form.count)) return;
  }
  const ApiCall call(form.site);
  const auto in =
      CompoundInstruction(kOp, api, dst, src0, src1, params, Form::kCountForm);
  if constexpr (kFlat == CompoundFlat::kAfterBuild) {
    RunFormFlat(in, form);
  } else {
    RunForm(in, form);
  }
}

/// Axpy in any form: its scalar, this call's copy, read by the span.
template <typename T, typename U, typename Form>
void AxpyCall(const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<U>& src, const U scalar,
              const Form& form) {
  CompoundCall<Compound::kAxpy, CompoundFlat::kBeforeCall, T, U>(
      "Axpy", dst, src, nullptr, &scalar, form);
}

}  // namespace normgrad_ascendc

// The three forms of a two-source compound instruction with dst type T and
// source type U: the first count elements, and level 0 with a bit mask or a
// continuous mask (BinaryRepeatParams); `kFlat` as CompoundCall's.
#define NORMGRAD_COMPOUND_PAIR_INSTRUCTION(Name, kOp, Count, kFlat)           \
  template <typename T, typename U>                                           \
  void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0,            \
            const LocalTensor<U>& src1, Count count,                          \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::CompoundCall<kOp, kFlat>(                               \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),   \
        &normgrad_ascendc::Plain(src1), nullptr,                              \
        normgrad_ascendc::CountForm{count, site});                            \
  }                                                                           \
  template <typename T, typename U, bool isSetMask = true, typename Mask>     \
  void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0,            \
            const LocalTensor<U>& src1, const Mask& mask,                     \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::CompoundCall<kOp, kFlat>(                               \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),   \
        &normgrad_ascendc::Plain(src1), nullptr,                              \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,           \
                                                  repeatParams, site));       \
  }

// The same for an instruction whose operands share one type T.
#define NORMGRAD_COMPOUND_INSTRUCTION(Name, kOp)                              \
  template <typename T>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const int32_t& count,                 \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::CompoundCall<                                           \
        kOp, normgrad_ascendc::CompoundFlat::kBeforeCall>(                    \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),   \
        &normgrad_ascendc::Plain(src1), nullptr,                              \
        normgrad_ascendc::CountForm{count, site});                            \
  }                                                                           \
  template <typename T, bool isSetMask = true, typename Mask>                 \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const Mask& mask,                     \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::CompoundCall<                                           \
        kOp, normgrad_ascendc::CompoundFlat::kBeforeCall>(                    \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),   \
        &normgrad_ascendc::Plain(src1), nullptr,                              \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,           \
                                                  repeatParams, site));       \
  }

namespace AscendC {

/// dst[i] = src0[i] · dst[i] + src1[i], the product rounded first.
NORMGRAD_COMPOUND_INSTRUCTION(FusedMulAdd,
                              normgrad_ascendc::Compound::kFusedMulAdd)
/// dst[i] = Relu(src0[i] · dst[i] + src1[i]).
NORMGRAD_COMPOUND_INSTRUCTION(MulAddRelu,
                              normgrad_ascendc::Compound::kMulAddRelu)
/// dst[i] = Relu(src0[i] + src1[i]).
NORMGRAD_COMPOUND_INSTRUCTION(AddRelu, normgrad_ascendc::Compound::kAddRelu)
/// dst[i] = Relu(src0[i] − src1[i]).
NORMGRAD_COMPOUND_INSTRUCTION(SubRelu, normgrad_ascendc::Compound::kSubRelu)
/// dst[i] = src0[i] · src1[i] + dst[i]; half sources into a float dst.
NORMGRAD_COMPOUND_PAIR_INSTRUCTION(MulAddDst,
                                   normgrad_ascendc::Compound::kMulAddDst,
                                   const int32_t&,
                                   normgrad_ascendc::CompoundFlat::kAfterBuild)
/// dst[i] = Cast(Relu(src0[i] + src1[i])), narrowing.
NORMGRAD_COMPOUND_PAIR_INSTRUCTION(AddReluCast,
                                   normgrad_ascendc::Compound::kAddReluCast,
                                   const uint32_t,
                                   normgrad_ascendc::CompoundFlat::kAfterBuild)
/// dst[i] = Cast(Relu(src0[i] − src1[i])), narrowing.
NORMGRAD_COMPOUND_PAIR_INSTRUCTION(SubReluCast,
                                   normgrad_ascendc::Compound::kSubReluCast,
                                   const uint32_t,
                                   normgrad_ascendc::CompoundFlat::kAfterBuild)
/// dst[i] = Cast(src0[i] · src1[i]), narrowing.
NORMGRAD_COMPOUND_PAIR_INSTRUCTION(MulCast,
                                   normgrad_ascendc::Compound::kMulCast,
                                   const uint32_t,
                                   normgrad_ascendc::CompoundFlat::kAfterBuild)

#undef NORMGRAD_COMPOUND_INSTRUCTION
#undef NORMGRAD_COMPOUND_PAIR_INSTRUCTION

/// dst[i] = scalarValue · src[i] + dst[i]; half src into a float dst too.
template <typename T, typename U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const typename normgrad_ascendc::NonDeduced<U>::type& scalarValue,
          const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::AxpyCall(dst, src, scalarValue,
                             normgrad_ascendc::CountForm{count, site});
}
/// Axpy's repeat forms (bit mask or continuous mask).
template <typename T, typename U, bool isSetMask = true, typename Mask>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const typename normgrad_ascendc::NonDeduced<U>::type& scalarValue,
          const Mask& mask, const uint8_t repeatTime,
          const UnaryRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::AxpyCall(dst, src, scalarValue,
                             normgrad_ascendc::RepeatFormOf<isSetMask>(
                                 mask, repeatTime, repeatParams, site));
}

/// dst[i] = |src0[i] − src1[i]| (the 950 profile's count form).
template <typename T>
void AbsSub(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, const uint32_t count,
            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CompoundCall<normgrad_ascendc::Compound::kAbsSub,
                                 normgrad_ascendc::CompoundFlat::kNone>(
      "AbsSub", normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),
      &normgrad_ascendc::Plain(src1), nullptr,
      normgrad_ascendc::CountForm{count, site});
}

/// dst[i] = e^(src0[i] − src1[i]), the difference taken in float (the 950
/// profile's count form).
template <typename T, typename U>
void ExpSub(const LocalTensor<T>& dst, const LocalTensor<U>& src0,
            const LocalTensor<U>& src1, const uint32_t count,
            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CompoundCall<normgrad_ascendc::Compound::kExpSub,
                                 normgrad_ascendc::CompoundFlat::kNone>(
      "ExpSub", normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),
      &normgrad_ascendc::Plain(src1), nullptr,
      normgrad_ascendc::CountForm{count, site});
}

/// The reserved type parameters of the flexible-scalar-position forms.
struct BinaryDefaultType {};

/// Which operand of a flexible-scalar-position call is the one-element
/// tensor that stands for the scalar: 0 the left, 1 the right.
struct BinaryConfig {
  int8_t scalarTensorIndex = 1;
};
inline constexpr BinaryConfig DEFAULT_BINARY_CONFIG = {1};

}  // namespace AscendC

namespace normgrad_ascendc {

/// MulsCast on `count` elements of `src` with the scalar `scalar`.
inline void RunMulsCast(const AscendC::LocalTensor<half>& dst,
                        const AscendC::LocalTensor<float>& src, float scalar,
                        uint32_t count) {
  ExecuteCount(
      CompoundInstruction<half, float>(Compound::kMulsCast, "MulsCast", dst,
                                       src, nullptr, &scalar, true),
      count);
}

/// The scalar a one-element tensor stands for: its first element.
float MulsCastScalar(const AscendC::LocalTensor<float>& point,
                     const char* name);

template <typename T>
inline constexpr bool kIsLocalTensor = false;
template <typename T>
inline constexpr bool kIsLocalTensor<AscendC::LocalTensor<T>> = true;

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = Cast(src0[i] · src1[i]) into half, rounded to nearest with ties
/// away from zero and saturated (the 950 profile's count form). One of src0
/// and src1 is a float scalar or, with two tensors, the one config names is
/// read as a scalar (its first element); the other is a float tensor.
template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType,
          const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename T2,
          typename T3, typename T4>
void MulsCast(const T2& dst, const T3& src0, const T4& src1,
              const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(std::is_same_v<T2, LocalTensor<half>>,
                "MulsCast: dst must be a LocalTensor<half>");
  constexpr bool kTensor0 = normgrad_ascendc::kIsLocalTensor<T3>;
  constexpr bool kTensor1 = normgrad_ascendc::kIsLocalTensor<T4>;
  static_assert(kTensor0 || kTensor1,
                "MulsCast: src0 or src1 must be a tensor (two scalars are "
                "not supported)");
  static_assert((!kTensor0 || std::is_same_v<T3, LocalTensor<float>>)&&(
                    !kTensor1 || std::is_same_v<T4, LocalTensor<float>>),
                "MulsCast: source tensors must be LocalTensor<float> (MulsCast "
                "converts float products into half)");
  if constexpr (kTensor0 && kTensor1) {
    static_assert(
        config.scalarTensorIndex == 0 || config.scalarTensorIndex == 1,
        "MulsCast: config.scalarTensorIndex must be 0 or 1");
    if constexpr (config.scalarTensorIndex == 0) {
      normgrad_ascendc::RunMulsCast(
          dst, src1, normgrad_ascendc::MulsCastScalar(src0, "src0"), count);
    } else {
      normgrad_ascendc::RunMulsCast(
          dst, src0, normgrad_ascendc::MulsCastScalar(src1, "src1"), count);
    }
  } else if constexpr (kTensor0) {
    normgrad_ascendc::RunMulsCast(dst, src0, static_cast<float>(src1), count);
  } else {
    normgrad_ascendc::RunMulsCast(dst, src1, static_cast<float>(src0), count);
  }
}

}  // namespace AscendC
