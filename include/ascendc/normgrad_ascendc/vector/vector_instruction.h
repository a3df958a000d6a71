// normgrad_ascendc/vector/vector_instruction.h — the skeleton every public
// vector instruction is built on, written once:
//   - its element types per profile (TypeRule, checked by CheckType);
//   - the prologue of its call (InstructionCall: the user's call site
//     recorded for the call's duration, then the type checked);
//   - its forms, as values gathered from the public overload's trailing
//     arguments: the count form (CountForm: the first `count` elements) and
//     the level-0 forms (RepeatForm: a bit mask or a continuous mask,
//     repeatTime and the strides; vector_unit.h);
//   - RunForm, which runs an instruction of the executor (VecInstruction)
//     in either form, and RunFormFlat, which takes the flat path first.
// An instruction is then its name, its TypeRule, its span function and one
// body written for every form (a template over the form, starting with
// InstructionCall); each public overload only gathers its form and calls
// the body, and a header-local macro writes the overloads of a family whose
// members differ only in name and element rule. Abs, for example, is
//   NORMGRAD_UNARY_INSTRUCTION(Abs, normgrad_ascendc::kAbsTypes,
//                              normgrad_ascendc::BitOp::kAbs)
// in vector_math.h: kAbsTypes its TypeRule, ExactUnary<kAbs> its element
// rule, UnaryCall the body of its three forms.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace normgrad_ascendc {

/// T itself, in a context where it is not deduced (scalars take the
/// tensors' type: Adds(halfTensor, halfTensor, 2.0f, n) converts 2.0f); for
/// a TensorTrait, its element type.
template <typename T>
struct NonDeduced {
  using type = AscendC::PrimT<T>;
};

/// The element types of the vector instructions, one bit each: a TypeRule
/// says per profile which an instruction takes.
enum TypeBit : uint32_t {
  kTypeInt8 = 1u << 0,
  kTypeUint8 = 1u << 1,
  kTypeInt16 = 1u << 2,
  kTypeUint16 = 1u << 3,
  kTypeInt32 = 1u << 4,
  kTypeUint32 = 1u << 5,
  kTypeInt64 = 1u << 6,
  kTypeUint64 = 1u << 7,
  kTypeHalf = 1u << 8,
  kTypeBfloat16 = 1u << 9,
  kTypeFloat = 1u << 10,
};

template <typename T>
constexpr uint32_t TypeBitOf() {
  if constexpr (std::is_same_v<T, int8_t>)
    return kTypeInt8;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return kTypeUint8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return kTypeInt16;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return kTypeUint16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return kTypeInt32;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return kTypeUint32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return kTypeInt64;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return kTypeUint64;
  else if constexpr (std::is_same_v<T, half>)
    return kTypeHalf;
  else if constexpr (std::is_same_v<T, bfloat16_t>)
    return kTypeBfloat16;
  else {
    static_assert(std::is_same_v<T, float>,
                  "vector instructions take 8- to 64-bit integers, half, "
                  "bfloat16_t or float elements");
    return kTypeFloat;
  }
}

/// The element types an instruction takes on each profile, as its page
/// lists them. A profile with no types does not have the instruction.
struct TypeRule {
  uint32_t a2;          ///< Atlas A2/A3: every form
  uint32_t p310;        ///< Atlas inference series AI Core: every form
  uint32_t p950;        ///< Ascend 950: every form
  uint32_t p950_count;  ///< Ascend 950: the count form only
};

/// Fails unless the current profile's rule takes `bit` in this form
/// (vector_ops.cc).
void CheckTypeRule(const char* api, const char* type, uint32_t bit,
                   const TypeRule& rule, bool count_form);

template <typename T>
void CheckType(const char* api, const TypeRule& rule, bool count_form) {
  CheckTypeRule(api, TypeName<T>(), TypeBitOf<T>(), rule, count_form);
}

/// Elements of one repeat of an instruction whose widest operand has
/// `bytes`-byte elements: 256 bytes, but at most the 128 lanes of the mask
/// register. 1-byte types run only in the count form, where the repeat
/// shape is not visible.
constexpr uint32_t LanesOf(size_t bytes) {
  return bytes == 1 ? 128u : static_cast<uint32_t>(256 / bytes);
}

/// An instruction of the executor over dst and one source of T, its lanes
/// computed by `span` with `params` (null, or what must outlive the call).
template <typename T>
VecInstruction UnaryOf(const char* api, const AscendC::LocalTensor<T>& dst,
                       const AscendC::LocalTensor<T>& src, SpanFn span,
                       const void* params) {
  VecInstruction in{
      api,
      TypeName<T>(),
      LanesOf(sizeof(T)),
      {{"dst", &dst.view(), sizeof(T)}, {"src", &src.view(), sizeof(T)}},
      2,
      span};
  in.params = params;
  return in;
}

/// An instruction of the executor over dst and two sources of T.
template <typename T>
VecInstruction BinaryOf(const char* api, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<T>& src0,
                        const AscendC::LocalTensor<T>& src1, SpanFn span) {
  return {api,
          TypeName<T>(),
          LanesOf(sizeof(T)),
          {{"dst", &dst.view(), sizeof(T)},
           {"src0", &src0.view(), sizeof(T)},
           {"src1", &src1.view(), sizeof(T)}},
          3,
          span};
}

// ---- The forms of a call ----

/// The count form's trailing arguments: the first `count` elements of each
/// operand, and the user's call site.
struct CountForm {
  static constexpr bool kCountForm = true;
  int64_t count;
  CallSite site;
};

/// A level-0 form's trailing arguments: the mask argument (Mask: a pointer
/// to the bit words, or the continuous mask's integer), repeatTime, the
/// strides (Strides: BinaryRepeatParams, UnaryRepeatParams, ... — whatever
/// SetStrides takes), whether the mask argument is put in the register
/// (isSetMask), and the user's call site.
template <bool isSetMask, typename Mask, typename Strides>
struct RepeatForm {
  static constexpr bool kCountForm = false;
  static constexpr bool kSetMask = isSetMask;
  Mask mask;
  uint8_t repeat_time;
  Strides strides;
  CallSite site;
};

/// The RepeatForm of a public overload's arguments; a bit-mask array is
/// kept as a pointer to its words.
template <bool isSetMask, typename Mask, typename Strides>
RepeatForm<isSetMask, std::decay_t<const Mask>, Strides> RepeatFormOf(
    const Mask& mask, uint8_t repeat_time, const Strides& strides,
    const CallSite& site) {
  return {mask, repeat_time, strides, site};
}

/// The prologue of a public vector instruction's call, the first thing its
/// body does: records the user's call site for the call's duration
/// (ApiCall), then fails unless the profile takes T for `api` in this form
/// (CheckType).
template <typename T>
class InstructionCall {
 public:
  InstructionCall(const char* api, const TypeRule& rule, bool count_form,
                  const CallSite& site)
      : call_(site) {
    CheckType<T>(api, rule, count_form);
  }
  template <typename Form>
  InstructionCall(const char* api, const TypeRule& rule, const Form& form)
      : InstructionCall(api, rule, Form::kCountForm, form.site) {}

 private:
  ApiCall call_;
};

/// The mask argument of a level-0 call with isSetMask: bit words (mask[1]
/// is the high word, read for 16-bit lanes) or, in counter mode, the count.
inline void SetMaskArgument(const uint64_t mask[], uint32_t lanes) {
  SetMaskBits(MaskHighWord(mask, lanes), mask[0]);
}
/// The "continuous" mask argument: the first `mask` lanes of each repeat,
/// or, in counter mode, the count.
inline void SetMaskArgument(uint64_t mask, uint32_t lanes) {
  SetMaskLength(mask, lanes, CurrentCore().vector_mask().mode);
}

/// Sets an instruction's level-0 strides from BinaryRepeatParams.
inline void SetStrides(VecInstruction& in,
                       const AscendC::BinaryRepeatParams& p) {
  in.operand[0].block_stride = p.dstBlkStride;
  in.operand[1].block_stride = p.src0BlkStride;
  in.operand[2].block_stride = p.src1BlkStride;
  in.operand[0].repeat_stride = p.dstRepStride;
  in.operand[1].repeat_stride = p.src0RepStride;
  in.operand[2].repeat_stride = p.src1RepStride;
}
/// Sets an instruction's level-0 strides from UnaryRepeatParams.
inline void SetStrides(VecInstruction& in,
                       const AscendC::UnaryRepeatParams& p) {
  in.operand[0].block_stride = p.dstBlkStride;
  in.operand[1].block_stride = p.srcBlkStride;
  in.operand[0].repeat_stride = p.dstRepStride;
  in.operand[1].repeat_stride = p.srcRepStride;
}

/// The strides of a level-0 form whose arguments give the first operand's
/// strides only (Duplicate, CreateVecIndex, Gather, Scatter); the other
/// operands keep the instruction's.
struct FirstOperandStrides {
  uint32_t block_stride;
  uint32_t repeat_stride;
};
inline void SetStrides(VecInstruction& in, const FirstOperandStrides& s) {
  in.operand[0].block_stride = s.block_stride;
  in.operand[0].repeat_stride = s.repeat_stride;
}

/// Runs `in` in the count form, over the first count elements. `mask_set`
/// is the level-0 forms' (below), taken here so that a body runs every form
/// with the same call.
inline void RunForm(const VecInstruction& in, const CountForm& form,
                    bool /*mask_set*/ = false) {
  ExecuteCount(in, form.count);
}
/// Runs `in` in a level-0 form: its strides set, the mask argument put in
/// the register (isSetMask, unless `mask_set`: a flat path tried first has
/// put it there), then the repeats.
template <bool isSetMask, typename Mask, typename Strides>
void RunForm(VecInstruction in,
             const RepeatForm<isSetMask, Mask, Strides>& form,
             bool mask_set = false) {
  SetStrides(in, form.strides);
  if (isSetMask && !mask_set) SetMaskArgument(form.mask, in.lanes);
  ExecuteRepeats(in, form.repeat_time);
}

// ---- The flat path ----
//
// An elementwise instruction's count form whose operands meet the flat
// run's conditions (FlatDst, FlatSrc: vector_unit.h) passes every check of
// the executor; its lanes are computed right here, as the executor's flat
// run computes them, in the same order.

/// Whether n lanes can be a flat call's: at least one, and no more than a
/// unified buffer holds (so that their bytes are counted without overflow).
inline bool FlatCount(int64_t n) {
  return n > 0 && static_cast<uint64_t>(n) <= kMaxUbBytes;
}

/// The count form of an elementwise instruction on the flat path, after the
/// caller's checks of its types (which can fail where a profile lacks them):
/// the span over the first n lanes when the flat conditions hold — each
/// source of the destination's element size as FlatSrc, each of another
/// sharing no byte with it — as the executor's flat run; false (nothing
/// done) otherwise, or when FlatCount(n) does not.
inline bool FlatRun(const VecInstruction& in, int64_t n) {
  if (in.reduce != nullptr || !FlatCount(n)) return false;
  const uint64_t lanes = static_cast<uint64_t>(n);
  const TensorView& d = *in.operand[0].view;
  const uint64_t dst_bytes = lanes * in.operand[0].elem_bytes;
  if (!FlatDst(d, dst_bytes)) return false;
  for (int i = 1; i < in.operands; ++i) {
    const TensorView& s = *in.operand[i].view;
    const uint64_t bytes = lanes * in.operand[i].elem_bytes;
    const bool apart =
        in.operand[i].elem_bytes == in.operand[0].elem_bytes
            ? FlatSrc(d, s, bytes)
            : s.IsUbOperand() && bytes <= s.bytes &&
                  (s.core != d.core || s.offset + bytes <= d.offset ||
                   d.offset + dst_bytes <= s.offset);
    if (!apart) return false;
  }
  SpanArgs args;
  for (int i = 0; i < in.operands; ++i)
    args.operand[i] = in.operand[i].view->data();
  args.n = static_cast<uint32_t>(n);
  args.params = in.params;
  args.every_lane = true;
  in.span(args);
  return true;
}

/// RunForm, the count form on the flat path (FlatRun) where its operands
/// allow.
inline void RunFormFlat(const VecInstruction& in, const CountForm& form) {
  if (!FlatRun(in, form.count)) ExecuteCount(in, form.count);
}
template <bool isSetMask, typename Mask, typename Strides>
void RunFormFlat(const VecInstruction& in,
                 const RepeatForm<isSetMask, Mask, Strides>& form) {
  RunForm(in, form);
}

}  // namespace normgrad_ascendc
