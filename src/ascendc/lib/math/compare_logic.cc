// compare_logic.cc — the rules of the Math APIs of the binary call shape
// (binary.h), in one table (Fma, Fmod, Hypot, Axpy and Power, whose results
// round, have their arithmetic in float_binary.cc), and the arithmetic of the
// exact ones: the clamps (Clamp, ClampMax, ClampMin), the predicates (IsFinite,
// IsInf, IsNan), the bit operations (BitwiseAnd, BitwiseOr, BitwiseXor,
// BitwiseNot, Xor), the logical ones (LogicalAnd, LogicalAnds, LogicalOr,
// LogicalOrs, LogicalNot, LogicalXor) and Where. Every result is exact: a
// comparison, a selection of one operand's bits, or a bit operation
// (docs/numerics.md, "Math: binary"). Whole tensors and the scalars of Where,
// LogicalAnds and LogicalOrs go through the instruction set's loops
// (kernels::AdvancedKernels: bits_u8, truths_u8, select_u8, select_scalar_u8,
// classify, clamp_to_scalar, clamp).
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendc/lib/math/binary.h"

namespace normgrad_ascendc {
namespace {

// A value is true when it is not zero: ±0 is false, NaN true; bool is read
// as its byte.
template <typename T>
bool Truth(T v) {
  if constexpr (kIsMathFloating<T>) {
    return static_cast<float>(v) != 0.0f;
  } else {
    return v != 0;
  }
}

// ---- Clamps -----------------------------------------------------------------

// NaN stays NaN; min above max gives max; else x held to [min, max]. A NaN
// bound compares false, so it holds nothing (docs/decisions.md). On the
// loops (clamp), a block at a time; a scalar bound (or a tensor's element
// 0) is repeated through a block once.
normgrad::kernels::ClampType ClampTypeOf(ValueType type) {
  using normgrad::kernels::ClampType;
  switch (type) {
    case ValueType::kInt8:
      return ClampType::kInt8;
    case ValueType::kInt16:
      return ClampType::kInt16;
    case ValueType::kUint16:
      return ClampType::kUint16;
    case ValueType::kInt32:
      return ClampType::kInt32;
    case ValueType::kUint32:
      return ClampType::kUint32;
    case ValueType::kInt64:
      return ClampType::kInt64;
    case ValueType::kUint64:
      return ClampType::kUint64;
    case ValueType::kHalf:
      return ClampType::kHalf;
    case ValueType::kBfloat16:
      return ClampType::kBfloat16;
    case ValueType::kFloat:
      return ClampType::kFloat;
    default:  // uint8_t (bool is not a Clamp type)
      return ClampType::kUint8;
  }
}

void ClampValues(const MathCallArgs& a, uint32_t n) {
  constexpr uint32_t kBlock = 512;
  const uint32_t bytes = ValueTypeBytes(a.dst_type);
  uint64_t repeated[2][kBlock];  // a scalar bound through a block
  const uint8_t* bounds[2] = {};
  bool tensor[2] = {};
  for (uint32_t k = 0; k < 2; ++k) {
    const MathOperand& op = a.inputs[k + 1];
    tensor[k] = op.is_tensor && !op.single_point;
    if (tensor[k]) continue;
    auto* fill = reinterpret_cast<uint8_t*>(repeated[k]);
    const void* value = op.is_tensor ? static_cast<const void*>(op.view.data())
                                     : static_cast<const void*>(&op.scalar);
    for (uint32_t i = 0; i < kBlock; ++i) {
      std::memcpy(fill + i * bytes, value, bytes);
    }
    bounds[k] = fill;
  }
  const normgrad::kernels::ClampType type = ClampTypeOf(a.dst_type);
  for (uint32_t start = 0; start < n; start += kBlock) {
    const uint32_t m = std::min(kBlock, n - start);
    const uint64_t at = uint64_t{start} * bytes;
    const uint8_t* lo = tensor[0] ? a.inputs[1].view.data() + at : bounds[0];
    const uint8_t* hi = tensor[1] ? a.inputs[2].view.data() + at : bounds[1];
    Loops().clamp(a.dst.data() + at, a.inputs[0].view.data() + at, lo, hi, m,
                  type);
  }
}

// ClampMax: above the scalar becomes the scalar. ClampMin: below it. T is
// half or float (the API's rule), compared by value on the loops.
template <bool kIsMax>
void ClampToScalar(const MathCallArgs& a, uint32_t n) {
  const normgrad::kernels::FloatFormat format = FormatOf(a.dst_type);
  uint32_t scalar = 0;
  std::memcpy(&scalar, &a.inputs[1].scalar, format.bytes);
  Loops().clamp_to_scalar(a.dst.data(), a.inputs[0].view.data(), n, format,
                          scalar, kIsMax);
}

// ---- Predicates -------------------------------------------------------------

// dst is true / 1 where the predicate holds, false / 0 elsewhere; a
// floating dst has src's type.
template <normgrad::kernels::ClassStep kStep>
void Classify(const MathCallArgs& a, uint32_t n) {
  Loops().classify[static_cast<int>(kStep)](
      a.dst.data(), a.inputs[0].view.data(), n, FormatOf(a.inputs[0].type),
      a.dst_type == ValueType::kBool);
}

// ---- Bit operations ---------------------------------------------------------

using normgrad::kernels::BitStep;

// Every integer type at once: the loops act on the bytes.
template <BitStep kStep>
void Bitwise(const MathCallArgs& a, uint32_t n) {
  const uint8_t* second =
      kStep == BitStep::kNot ? nullptr : a.inputs[1].view.data();
  Loops().bits_u8[static_cast<int>(kStep)](
      a.dst.data(), a.inputs[0].view.data(), second,
      size_t{n} * ValueTypeBytes(a.dst_type));
}

// ---- Logical operations -----------------------------------------------------

// The truth of each of the n elements an operand gives (the opposite with
// `negate`): a whole tensor's on the loops, a scalar's once for all and
// filled in (a byte fill, which the C library does in vectors).
std::vector<uint8_t> Truths(const MathOperand& op, uint32_t n,
                            bool negate = false) {
  std::vector<uint8_t> t(n);
  const bool floating = op.type == ValueType::kHalf ||
                        op.type == ValueType::kBfloat16 ||
                        op.type == ValueType::kFloat;
  if (op.is_tensor && !op.single_point) {
    Loops().truths_u8(t.data(), op.view.data(), n, ValueTypeBytes(op.type),
                      floating, negate);
    return t;
  }
  WithType(op.type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    std::fill(t.begin(), t.end(), Truth(Load<T>(op, 0)) != negate ? 1 : 0);
  });
  return t;
}

// dst (bool) from the truths of two operands: tensors, or a tensor and a
// scalar (a single point or a value) in either place. The truths are 0 or
// 1, so their bit operation is the logical one.
template <BitStep kStep>
void Logical(const MathCallArgs& a, uint32_t n) {
  const std::vector<uint8_t> x = Truths(a.inputs[0], n);
  const std::vector<uint8_t> y = Truths(a.inputs[1], n);
  Loops().bits_u8[static_cast<int>(kStep)](a.dst.data(), x.data(), y.data(), n);
}

void LogicalNotValues(const MathCallArgs& a, uint32_t n) {
  const std::vector<uint8_t> x = Truths(a.inputs[0], n, true);
  std::memcpy(a.dst.data(), x.data(), n);
}

// ---- Where ------------------------------------------------------------------

bool IsWholeTensor(const MathOperand& op) {
  return op.is_tensor && !op.single_point;
}

// The bytes of a scalar operand (a value, or a tensor's element 0), as the
// low `bytes` bytes of the result.
uint64_t ScalarBits(const MathOperand& op, uint32_t bytes) {
  if (!op.is_tensor) return op.scalar;
  uint64_t bits = 0;
  std::memcpy(&bits, op.view.data(), bytes);
  return bits;
}

// src0's element where condition is true, src1's elsewhere, bit for bit, on
// the loops: two whole tensors in one selection; a scalar put where its
// side of the condition holds (two scalars: src0's, then src1's over it).
void WhereValues(const MathCallArgs& a, uint32_t n) {
  const std::vector<uint8_t> condition = Truths(a.inputs[2], n);
  const MathOperand& x = a.inputs[0];
  const MathOperand& y = a.inputs[1];
  const uint32_t bytes = ValueTypeBytes(a.dst_type);
  if (IsWholeTensor(x) && IsWholeTensor(y)) {
    Loops().select_u8(a.dst.data(), x.view.data(), y.view.data(),
                      condition.data(), n, bytes);
    return;
  }
  if (IsWholeTensor(x)) {
    Loops().select_scalar_u8(a.dst.data(), x.view.data(), ScalarBits(y, bytes),
                             condition.data(), n, bytes, false);
    return;
  }
  // Both scalars' bytes are read before dst is written.
  const uint64_t x_bits = ScalarBits(x, bytes);
  if (IsWholeTensor(y)) {
    Loops().select_scalar_u8(a.dst.data(), y.view.data(), x_bits,
                             condition.data(), n, bytes, true);
    return;
  }
  const uint64_t y_bits = ScalarBits(y, bytes);
  Loops().select_scalar_u8(a.dst.data(), a.dst.data(), x_bits, condition.data(),
                           n, bytes, true);
  Loops().select_scalar_u8(a.dst.data(), a.dst.data(), y_bits, condition.data(),
                           n, bytes, false);
}

constexpr char kDst[] = "dst";
constexpr char kSrc[] = "src";
constexpr char kSrc0[] = "src0";
constexpr char kSrc1[] = "src1";
constexpr char kCount[] = "count";

// Indexed by MathCallApi.
constexpr MathCallRule kRules[] = {
    {"Clamp", kDst, {kSrc, "min", "max"}, kCount, true, ClampValues, nullptr},
    {"ClampMax",
     "dstTensor",
     {"srcTensor", "scalar", nullptr},
     "calCount",
     false,
     ClampToScalar<true>,
     "GetClampMaxMinTmpSize"},
    {"ClampMin",
     "dstTensor",
     {"srcTensor", "scalar", nullptr},
     "calCount",
     false,
     ClampToScalar<false>,
     "GetClampMaxMinTmpSize"},
    {"IsFinite",
     kDst,
     {kSrc},
     "calCount",
     true,
     Classify<normgrad::kernels::ClassStep::kFinite>,
     nullptr},
    {"IsInf",
     kDst,
     {kSrc},
     kCount,
     true,
     Classify<normgrad::kernels::ClassStep::kInf>,
     "GetIsInfMaxMinTmpSize"},
    {"IsNan",
     kDst,
     {kSrc},
     kCount,
     true,
     Classify<normgrad::kernels::ClassStep::kNan>,
     "GetIsNanMaxMinTmpSize"},
    {"BitwiseAnd",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Bitwise<BitStep::kAnd>,
     nullptr},
    {"BitwiseOr",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Bitwise<BitStep::kOr>,
     nullptr},
    {"BitwiseXor",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Bitwise<BitStep::kXor>,
     nullptr},
    {"BitwiseNot", kDst, {kSrc}, kCount, true, Bitwise<BitStep::kNot>, nullptr},
    {"LogicalAnd",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Logical<BitStep::kAnd>,
     nullptr},
    {"LogicalAnds",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Logical<BitStep::kAnd>,
     nullptr},
    {"LogicalOr",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Logical<BitStep::kOr>,
     nullptr},
    {"LogicalOrs",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Logical<BitStep::kOr>,
     nullptr},
    {"LogicalNot", kDst, {kSrc}, kCount, true, LogicalNotValues, nullptr},
    {"LogicalXor",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Logical<BitStep::kXor>,
     nullptr},
    {"Xor",
     "dstTensor",
     {"src0Tensor", "src1Tensor", nullptr},
     "calCount",
     false,
     Bitwise<BitStep::kXor>,
     "GetXorMaxMinTmpSize"},
    {"Where",
     kDst,
     {kSrc0, kSrc1, "condition"},
     kCount,
     true,
     WhereValues,
     nullptr},
    {"Fma",
     kDst,
     {kSrc0, kSrc1, "src2"},
     kCount,
     true,
     FmaValues,
     "GetFmaMaxMinTmpSize"},
    {"Fmod",
     "dstTensor",
     {"src0Tensor", "src1Tensor", nullptr},
     "calCount",
     false,
     FmodValues,
     "GetFmodMaxMinTmpSize"},
    {"Hypot",
     "dstTensor",
     {"src0Tensor", "src1Tensor", nullptr},
     "calCount",
     true,
     HypotValues,
     "GetHypotMaxMinTmpSize"},
    {"Axpy",
     "dstTensor",
     {"srcTensor", "scalarValue", nullptr},
     "calCount",
     false,
     AxpyValues,
     "GetAxpyMaxMinTmpSize"},
    {"Power",
     "dstTensor",
     {"src0Tensor", "src1Tensor", nullptr},
     "calCount",
     false,
     PowerValues,
     "GetPowerMaxMinTmpSize"},
};

static_assert(sizeof kRules / sizeof kRules[0] ==
                  static_cast<size_t>(MathCallApi::kPower) + 1,
              "one rule per MathCallApi, in its order");

}  // namespace

const MathCallRule& RuleOf(MathCallApi api) {
  return kRules[static_cast<size_t>(api)];
}

}  // namespace normgrad_ascendc
