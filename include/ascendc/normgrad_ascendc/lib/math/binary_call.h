// normgrad_ascendc/lib/math/binary_call.h — the call shape of the Math APIs
// that take more than one source or another element type than their output
// (the contract: docs/math.md, "Binary, logical and bitwise"): a dst tensor
// computed element by element from one to three operands, each a LocalTensor
// or a scalar (or one element of a LocalTensor standing for a scalar), with
// or without a scratch (a caller's sharedTmpBuffer or the framework
// scratch), over a count of elements or the whole first source.
//
// MathCallArgs is such a call with every type erased; RunMathCall
// (src/ascendc/lib/math/binary.cc) checks and runs it by the API's rule.
// The public headers (lib/math/clamp.h, bitwise_and.h, ...) write each
// documented overload as a static_assert of its types and one MathCall.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>

#include "normgrad_ascendc/lib/math/elementwise_call.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The APIs of this call shape (one rule each in src/ascendc/lib/math/).
enum class MathCallApi : uint8_t {
  kClamp,
  kClampMax,
  kClampMin,
  kIsFinite,
  kIsInf,
  kIsNan,
  kBitwiseAnd,
  kBitwiseOr,
  kBitwiseXor,
  kBitwiseNot,
  kLogicalAnd,
  kLogicalAnds,
  kLogicalOr,
  kLogicalOrs,
  kLogicalNot,
  kLogicalXor,
  kXor,
  kWhere,
  kFma,
  kFmod,
  kHypot,
  kAxpy,
  kPower,
};

/// An operand's element type, erased from its template.
enum class ValueType : uint8_t {
  kBool,
  kInt8,
  kUint8,
  kInt16,
  kUint16,
  kInt32,
  kUint32,
  kInt64,
  kUint64,
  kHalf,
  kBfloat16,
  kFloat,
};

/// The ValueType of T (float for any T the API's static_assert refuses
/// first).
template <typename T>
constexpr ValueType ValueTypeOf() {
  if constexpr (std::is_same_v<T, bool>) return ValueType::kBool;
  if constexpr (std::is_same_v<T, int8_t>) return ValueType::kInt8;
  if constexpr (std::is_same_v<T, uint8_t>) return ValueType::kUint8;
  if constexpr (std::is_same_v<T, int16_t>) return ValueType::kInt16;
  if constexpr (std::is_same_v<T, uint16_t>) return ValueType::kUint16;
  if constexpr (std::is_same_v<T, int32_t>) return ValueType::kInt32;
  if constexpr (std::is_same_v<T, uint32_t>) return ValueType::kUint32;
  if constexpr (std::is_same_v<T, int64_t>) return ValueType::kInt64;
  if constexpr (std::is_same_v<T, uint64_t>) return ValueType::kUint64;
  if constexpr (std::is_same_v<T, half>) return ValueType::kHalf;
  if constexpr (std::is_same_v<T, bfloat16_t>) return ValueType::kBfloat16;
  return ValueType::kFloat;
}

/// T is one of the eight integer types of the family.
template <typename T>
inline constexpr bool kIsMathInteger =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>;

/// T is half, bfloat16_t or float.
template <typename T>
inline constexpr bool kIsMathFloating =
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, float>;

/// T is an integer type or a floating one (Clamp's and Where's list less
/// bool).
template <typename T>
inline constexpr bool kIsMathNumber = kIsMathInteger<T> || kIsMathFloating<T>;

/// T is bool or a number (the Logical APIs' sources, Where's dst).
template <typename T>
inline constexpr bool kIsMathBoolOrNumber =
    std::is_same_v<T, bool> || kIsMathNumber<T>;

/// X is a LocalTensor; Element is its element type, else X itself.
template <typename X>
struct OperandTraits {
  static constexpr bool kIsTensor = false;
  using Element = X;
};
template <typename T>
struct OperandTraits<AscendC::LocalTensor<T>> {
  static constexpr bool kIsTensor = true;
  using Element = T;
};

/// The element type of an operand that is a LocalTensor or a scalar.
template <typename X>
using OperandElement = typename OperandTraits<X>::Element;

/// One source of a call: a tensor, one element of a tensor standing for a
/// scalar, or a scalar's bytes.
struct MathOperand {
  bool is_tensor = false;
  bool single_point = false;  ///< a tensor whose element 0 is the scalar
  ValueType type = ValueType::kFloat;
  TensorView view;      ///< the tensor (is_tensor)
  uint64_t scalar = 0;  ///< the scalar's bytes, zero-extended (!is_tensor)
};

/// The operand of `x`, a LocalTensor or a scalar; a tensor with
/// `single_point` stands for its element 0.
template <typename X>
MathOperand OperandOf(const X& x, bool single_point = false) {
  MathOperand op;
  op.type = ValueTypeOf<OperandElement<X>>();
  if constexpr (OperandTraits<X>::kIsTensor) {
    op.is_tensor = true;
    op.single_point = single_point;
    op.view = x.view();
  } else {
    static_assert(sizeof(X) <= sizeof op.scalar, "a scalar of 8 bytes at most");
    std::memcpy(&op.scalar, static_cast<const void*>(&x), sizeof(X));
  }
  return op;
}

/// One call with its types erased.
struct MathCallArgs {
  MathCallApi api;
  ValueType dst_type;
  TensorView dst;
  MathOperand inputs[3];
  uint32_t input_count;
  bool takes_scratch;            ///< the overload computes through a scratch
  const TensorView* shared_tmp;  ///< null: the framework scratch
  uint32_t count;                ///< count / calCount, or kWholeSource
  uint32_t mode = 0;  ///< Fmod's FmodConfig::algo, Power's PowerConfig::algo
};

/// Checks and runs one call (src/ascendc/lib/math/binary.cc).
void RunMathCall(const MathCallArgs& args);

/// The scratch of an overload: a caller's sharedTmpBuffer, the framework
/// scratch, or none (the overloads that take no scratch).
enum class MathScratch : uint8_t { kShared, kFramework, kNone };

/// The body of every overload: opens the call at the user's `site` and runs
/// it with the types erased.
template <typename D>
void MathCall(MathCallApi api, const CallSite& site,
              const AscendC::LocalTensor<D>& dst, MathScratch scratch,
              const AscendC::LocalTensor<uint8_t>* shared_tmp, uint32_t count,
              std::initializer_list<MathOperand> inputs, uint32_t mode = 0) {
  const ApiCall call(site);
  MathCallArgs args{};
  args.api = api;
  args.dst_type = ValueTypeOf<D>();
  args.dst = dst.view();
  args.input_count = 0;
  for (const MathOperand& op : inputs) args.inputs[args.input_count++] = op;
  args.takes_scratch = scratch != MathScratch::kNone;
  args.shared_tmp =
      scratch == MathScratch::kShared ? &shared_tmp->view() : nullptr;
  args.count = count;
  args.mode = mode;
  RunMathCall(args);
}

}  // namespace normgrad_ascendc

/// A config struct of the family whose only field, isReuseSource, the pages
/// reserve (it changes nothing), and its default `Default`.
#define NORMGRAD_MATH_RESERVED_CONFIG(Config, Default) \
  struct Config {                                      \
    bool isReuseSource;                                \
  };                                                   \
  inline constexpr Config Default = {false};

/// The two overloads of a Math API with a scratch, a dst of D and the source
/// list `params` (passed on as `operands`): sharedTmpBuffer, then the
/// framework scratch, each with `count_name`. `head` is the template head and
/// `check` the static_assert of the types, each in parentheses; `mode` is
/// MathCallArgs::mode.
#define NORMGRAD_MATH_SCRATCH_FORMS(Api, head, D, params, operands, check,     \
                                    count_name, mode)                          \
  NORMGRAD_MATH_UNPAREN head __aicore__ inline void Api(                       \
      const LocalTensor<D>& dst, NORMGRAD_MATH_UNPAREN params,                 \
      const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count_name,  \
      normgrad_ascendc::CallSite site = {}) {                                  \
    NORMGRAD_MATH_UNPAREN check;                                               \
    normgrad_ascendc::MathCall<D>(normgrad_ascendc::MathCallApi::k##Api, site, \
                                  dst, normgrad_ascendc::MathScratch::kShared, \
                                  &sharedTmpBuffer, count_name,                \
                                  {NORMGRAD_MATH_UNPAREN operands}, mode);     \
  }                                                                            \
  NORMGRAD_MATH_UNPAREN head __aicore__ inline void Api(                       \
      const LocalTensor<D>& dst, NORMGRAD_MATH_UNPAREN params,                 \
      const uint32_t count_name, normgrad_ascendc::CallSite site = {}) {       \
    NORMGRAD_MATH_UNPAREN check;                                               \
    normgrad_ascendc::MathCall<D>(                                             \
        normgrad_ascendc::MathCallApi::k##Api, site, dst,                      \
        normgrad_ascendc::MathScratch::kFramework, nullptr, count_name,        \
        {NORMGRAD_MATH_UNPAREN operands}, mode);                               \
  }

/// The two overloads without a count (every element of the first source),
/// as NORMGRAD_MATH_SCRATCH_FORMS.
#define NORMGRAD_MATH_SCRATCH_WHOLE_FORMS(Api, head, D, params, operands,      \
                                          check, mode)                         \
  NORMGRAD_MATH_UNPAREN head __aicore__ inline void Api(                       \
      const LocalTensor<D>& dst, NORMGRAD_MATH_UNPAREN params,                 \
      const LocalTensor<uint8_t>& sharedTmpBuffer,                             \
      normgrad_ascendc::CallSite site = {}) {                                  \
    NORMGRAD_MATH_UNPAREN check;                                               \
    normgrad_ascendc::MathCall<D>(normgrad_ascendc::MathCallApi::k##Api, site, \
                                  dst, normgrad_ascendc::MathScratch::kShared, \
                                  &sharedTmpBuffer,                            \
                                  normgrad_ascendc::kWholeSource,              \
                                  {NORMGRAD_MATH_UNPAREN operands}, mode);     \
  }                                                                            \
  NORMGRAD_MATH_UNPAREN head __aicore__ inline void Api(                       \
      const LocalTensor<D>& dst, NORMGRAD_MATH_UNPAREN params,                 \
      normgrad_ascendc::CallSite site = {}) {                                  \
    NORMGRAD_MATH_UNPAREN check;                                               \
    normgrad_ascendc::MathCall<D>(normgrad_ascendc::MathCallApi::k##Api, site, \
                                  dst,                                         \
                                  normgrad_ascendc::MathScratch::kFramework,   \
                                  nullptr, normgrad_ascendc::kWholeSource,     \
                                  {NORMGRAD_MATH_UNPAREN operands}, mode);     \
  }

/// The one overload of a Math API without a scratch (the Ascend 950 APIs
/// whose pages give no sharedTmpBuffer form), with `count_name`.
#define NORMGRAD_MATH_PLAIN_FORM(Api, head, D, params, operands, check,        \
                                 count_name)                                   \
  NORMGRAD_MATH_UNPAREN head __aicore__ inline void Api(                       \
      const LocalTensor<D>& dst, NORMGRAD_MATH_UNPAREN params,                 \
      const uint32_t count_name, normgrad_ascendc::CallSite site = {}) {       \
    NORMGRAD_MATH_UNPAREN check;                                               \
    normgrad_ascendc::MathCall<D>(normgrad_ascendc::MathCallApi::k##Api, site, \
                                  dst, normgrad_ascendc::MathScratch::kNone,   \
                                  nullptr, count_name,                         \
                                  {NORMGRAD_MATH_UNPAREN operands});           \
  }

#define NORMGRAD_MATH_UNPAREN(...) __VA_ARGS__
