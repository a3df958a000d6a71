// normgrad_ascendc/lib/transform/transform_call.h — what the Tensor transform
// family's public templates share (the contract: docs/transform.md): the
// documented argument types PadParams and UnPadParams (TransposeType is the
// basic Transpose's enum, vector_layout.h), the element type of a call once
// T is erased, and the type-erased calls that src/ascendc/lib/transform/
// checks and runs. These APIs move bytes: an
// element is its bytes, whatever its type.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/lib/transform/transform_tiling.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_layout.h"

namespace AscendC {

/// Pad's columns: leftPad and rightPad columns of padValue around the data.
struct PadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

/// UnPad's columns: rightPad columns removed from the right of each row
/// (leftPad is reserved and must be 0).
struct UnPadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The element type of a call, erased from its template.
enum class TransformElem : uint8_t {
  kInt8,
  kUint8,
  kInt16,
  kUint16,
  kHalf,
  kBfloat16,
  kInt32,
  kUint32,
  kFloat,
  kInt64,
  kUint64,
  kOther,  ///< a type no API of the family takes
};

/// The TransformElem of T.
template <typename T>
constexpr TransformElem TransformElemOf() {
  if constexpr (std::is_same_v<T, int8_t>) return TransformElem::kInt8;
  if constexpr (std::is_same_v<T, uint8_t>) return TransformElem::kUint8;
  if constexpr (std::is_same_v<T, int16_t>) return TransformElem::kInt16;
  if constexpr (std::is_same_v<T, uint16_t>) return TransformElem::kUint16;
  if constexpr (std::is_same_v<T, half>) return TransformElem::kHalf;
  if constexpr (std::is_same_v<T, bfloat16_t>) return TransformElem::kBfloat16;
  if constexpr (std::is_same_v<T, int32_t>) return TransformElem::kInt32;
  if constexpr (std::is_same_v<T, uint32_t>) return TransformElem::kUint32;
  if constexpr (std::is_same_v<T, float>) return TransformElem::kFloat;
  if constexpr (std::is_same_v<T, int64_t>) return TransformElem::kInt64;
  if constexpr (std::is_same_v<T, uint64_t>) return TransformElem::kUint64;
  return TransformElem::kOther;
}

/// T is one of the types some API of the family takes on some profile;
/// which API and profile take which is checked when the kernel runs.
template <typename T>
inline constexpr bool kIsTransformElement =
    TransformElemOf<T>() != TransformElem::kOther;

/// Pad or UnPad with T erased.
struct PadArgs {
  bool unpad;  ///< UnPad, else Pad
  TransformElem type;
  TensorView dst;
  TensorView src;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  uint32_t left;
  uint32_t right;
  int32_t pad_value;                                 ///< Pad only
  const AscendC::tiling::PadTiling* pad_tiling;      ///< Pad
  const AscendC::tiling::UnPadTiling* unpad_tiling;  ///< UnPad
};

/// Checks and runs Pad or UnPad (src/ascendc/lib/transform/pad.cc).
void RunPad(const PadArgs& args);

/// Transpose with T erased.
struct TransposeArgs {
  TransformElem type;
  TensorView dst;
  TensorView src;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  AscendC::TransposeType transpose_type;
  const AscendC::tiling::ConfusionTransposeTiling* tiling;
};

/// Checks and runs Transpose (src/ascendc/lib/transform/transpose.cc).
void RunTranspose(const TransposeArgs& args);

/// Broadcast with T erased: `rank` dimensions of each shape.
struct BroadcastArgs {
  TransformElem type;
  TensorView dst;
  TensorView src;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  bool dynamic;  ///< the dynamic-shape form (BroadcastTiling), else dim/axis
  int32_t axis;  ///< the dim/axis form's axis
  uint32_t rank;
  const uint32_t* dst_shape;
  const uint32_t* src_shape;
  const AscendC::BroadcastTiling* tiling;  ///< the dynamic form's
};

/// Checks and runs Broadcast (src/ascendc/lib/transform/broadcast.cc).
void RunBroadcast(const BroadcastArgs& args);

/// GetBroadcastTilingInfo with T erased (broadcast.cc).
void MakeBroadcastTiling(TransformElem type, uint32_t rank,
                         const uint32_t* dst_shape, const uint32_t* src_shape,
                         bool src_inner_pad, AscendC::BroadcastTiling& tiling);

/// Fill with T erased: `count` elements of `bytes` bytes at `gm` set to the
/// bytes at `value`; `sized`/`size` and `base` are the GlobalTensor's
/// (src/ascendc/lib/transform/fill.cc).
void RunFill(TransformElem type, void* gm, const void* base, bool sized,
             uint64_t size, uint64_t count, const void* value);

}  // namespace normgrad_ascendc
