// src/ascendc/lib/math/binary.h — the rule of a Math API of the binary call
// shape (internal, not installed): what RunMathCall (binary.cc) needs to
// know of each API beyond the shape they share (binary_call.h) — its name
// and argument names, whether only Ascend 950 has it, and its arithmetic.
// Each API's rule is one entry of the table in compare_logic.cc; the
// helpers below (element access, the type switch) are what the arithmetic
// of every entry is written with.
#pragma once

#include <cstdint>
#include <cstring>

#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "normgrad_ascendc/lib/math/binary_call.h"

namespace normgrad_ascendc {

struct MathCallRule {
  const char* api;
  const char* dst_name;
  const char* input_names[3];
  const char* count_name;
  bool only_950;  ///< the page lists the API for Ascend 950 only
  /// dst[i] for i < count, from the operands (already checked).
  void (*compute)(const MathCallArgs& args, uint32_t count);
  /// The query whose minValue the scratch must hold
  /// ("GetClampMaxMinTmpSize"); null for an API without a scratch overload.
  const char* size_query;
};

/// The rule of `api` (compare_logic.cc).
const MathCallRule& RuleOf(MathCallApi api);

/// The arithmetic of the APIs that round (float_binary.cc), for their rules.
void FmaValues(const MathCallArgs& args, uint32_t count);
void FmodValues(const MathCallArgs& args, uint32_t count);
void HypotValues(const MathCallArgs& args, uint32_t count);
void AxpyValues(const MathCallArgs& args, uint32_t count);
void PowerValues(const MathCallArgs& args, uint32_t count);

/// The instruction set's loops of the calling core
/// (kernels::AdvancedKernels, src/kernels/vector/advanced_inl.h: the same
/// bits on every set), which compute the APIs whose operands are whole
/// tensors.
inline const normgrad::kernels::AdvancedKernels& Loops() {
  return normgrad::kernels::AdvancedKernelsOf(VectorLoops());
}

/// The bits of a floating type (half, bfloat16_t or float), for the loops.
normgrad::kernels::FloatFormat FormatOf(ValueType type);

/// Bytes of one element of `type`.
uint32_t ValueTypeBytes(ValueType type);

/// The type's name in messages ("half", "uint64_t", "bool").
const char* ValueTypeName(ValueType type);

// ---- Writing an API's arithmetic
// ---------------------------------------------

/// A type as a value, for the generic lambdas WithType calls.
template <typename T>
struct TypeTag {
  using Type = T;
};

/// Calls f(TypeTag<T>{}) with the T of `type`; bool is read and written as
/// its byte (uint8_t), so any nonzero byte is true.
template <typename F>
void WithType(ValueType type, F&& f) {
  switch (type) {
    case ValueType::kBool:
    case ValueType::kUint8:
      return f(TypeTag<uint8_t>{});
    case ValueType::kInt8:
      return f(TypeTag<int8_t>{});
    case ValueType::kInt16:
      return f(TypeTag<int16_t>{});
    case ValueType::kUint16:
      return f(TypeTag<uint16_t>{});
    case ValueType::kInt32:
      return f(TypeTag<int32_t>{});
    case ValueType::kUint32:
      return f(TypeTag<uint32_t>{});
    case ValueType::kInt64:
      return f(TypeTag<int64_t>{});
    case ValueType::kUint64:
      return f(TypeTag<uint64_t>{});
    case ValueType::kHalf:
      return f(TypeTag<half>{});
    case ValueType::kBfloat16:
      return f(TypeTag<bfloat16_t>{});
    case ValueType::kFloat:
      return f(TypeTag<float>{});
  }
}

/// Element i of an operand (element 0 of a single point, the scalar itself).
template <typename T>
T Load(const MathOperand& op, uint32_t i) {
  T v;
  const void* from = &op.scalar;
  if (op.is_tensor) {
    const uint32_t at = op.single_point ? 0 : i;
    from = op.view.data() + uint64_t{at} * sizeof(T);
  }
  std::memcpy(static_cast<void*>(&v), from, sizeof(T));
  return v;
}

template <typename T>
void Store(const TensorView& dst, uint32_t i, T v) {
  std::memcpy(dst.data() + uint64_t{i} * sizeof(T),
              static_cast<const void*>(&v), sizeof(T));
}

}  // namespace normgrad_ascendc
