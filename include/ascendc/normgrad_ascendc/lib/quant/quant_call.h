// normgrad_ascendc/lib/quant/quant_call.h — what the Quantization family's
// public headers share (the contract: docs/quant.md): the documented
// parameter structs (AscendQuantConfig, DequantParams, DeQuantMode,
// AntiQuantShapeInfo), the element types of a call with T erased
// (QuantType), and one argument struct per API that RunAscendQuant,
// RunAscendDequant and RunAscendAntiQuant (src/ascendc/lib/quant/quant.cc)
// check and compute. Every overload of an API fills the same struct, with
// sharedTmpBuffer or null for the framework scratch.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/shape_info.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// AscendQuant's optional compile-time counts: a nonzero field is the value
/// the call uses for its runtime counterpart (calCount, offsetCount,
/// scaleCount, the bytes of sharedTmpBuffer it may use).
struct AscendQuantConfig {
  uint32_t calcCount = 0;
  uint32_t offsetCount = 0;
  uint32_t scaleCount = 0;
  uint32_t workLocalSize = 0;
};

constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

/// AscendDequant's shape: m rows of n int32_t, the first calCount of each
/// row dequantized.
struct DequantParams {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
};

/// How AscendDequant reads DequantParams {1, n, calCount}: SINGLE_ROW runs
/// it as {n / calCount, calCount, calCount} when calCount is a multiple of
/// 32 / sizeof(dstT) and divides n; MULTI_ROW always as one row.
enum class DeQuantMode : uint8_t {
  DEQUANT_WITH_SINGLE_ROW,
  DEQUANT_WITH_MULTI_ROW,
};

/// AscendAntiQuant's per-channel parameter shapes; zeros mean "take them
/// from the tensors' ShapeInfo".
struct AntiQuantShapeInfo {
  uint32_t offsetHeight{0};
  uint32_t offsetWidth{0};
  uint32_t scaleHeight{0};
  uint32_t scaleWidth{0};
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The element types the family's calls take, erased from their templates.
enum class QuantType : uint8_t {
  kInt8,
  kInt32,
  kUint64,
  kHalf,
  kBfloat16,
  kFloat,
};

template <typename T>
constexpr bool kIsQuantType =
    std::is_same_v<T, int8_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint64_t> || std::is_same_v<T, half> ||
    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>;

template <typename T>
constexpr QuantType QuantTypeOf() {
  static_assert(kIsQuantType<T>,
                "not an element type of the quantization APIs");
  if constexpr (std::is_same_v<T, int8_t>) return QuantType::kInt8;
  if constexpr (std::is_same_v<T, int32_t>) return QuantType::kInt32;
  if constexpr (std::is_same_v<T, uint64_t>) return QuantType::kUint64;
  if constexpr (std::is_same_v<T, half>) return QuantType::kHalf;
  if constexpr (std::is_same_v<T, bfloat16_t>) return QuantType::kBfloat16;
  return QuantType::kFloat;
}

// ---- AscendQuant ------------------------------------------------------------

/// An AscendQuant call: per tensor (scale_tensor null: `scale`, `offset`)
/// or per channel (scale_tensor set; offset_tensor or the scalar `offset`).
/// A count left out by the overload is `kWhole` (the whole tensor).
struct QuantArgs {
  static constexpr uint32_t kWhole = 0xFFFFFFFFu;
  TensorView dst;
  TensorView src;
  const TensorView* shared_tmp = nullptr;
  const TensorView* scale_tensor = nullptr;
  const TensorView* offset_tensor = nullptr;
  QuantType src_type = QuantType::kHalf;
  bool dst_generic = false;  ///< the dstT form (Ascend 950 only)
  float scale = 0;
  float offset = 0;
  uint32_t cal_count = kWhole;
  uint32_t scale_count = kWhole;
  uint32_t offset_count = kWhole;
  AscendC::AscendQuantConfig config{};
};

void RunAscendQuant(const QuantArgs& a);

// ---- AscendDequant ----------------------------------------------------------

/// An AscendDequant call: deqScale a tensor (scale_tensor set) or the scalar
/// `scale` (its value as a float). The forms the page no longer recommends
/// fill `params` as one row of the whole srcTensor.
struct DequantArgs {
  TensorView dst;
  TensorView src;
  const TensorView* shared_tmp = nullptr;
  const TensorView* scale_tensor = nullptr;
  QuantType dst_type = QuantType::kFloat;
  QuantType scale_type = QuantType::kFloat;
  float scale = 0;
  AscendC::DeQuantMode mode = AscendC::DeQuantMode::DEQUANT_WITH_SINGLE_ROW;
  AscendC::DequantParams params{};
};

void RunAscendDequant(const DequantArgs& a);

// ---- AscendAntiQuant --------------------------------------------------------

/// An AscendAntiQuant call: per channel (scale_tensor set; offset_tensor
/// null for the form without offset) or per tensor (`scale`, `offset`).
struct AntiQuantArgs {
  TensorView dst;
  TensorView src;
  const TensorView* shared_tmp = nullptr;
  const TensorView* scale_tensor = nullptr;
  const TensorView* offset_tensor = nullptr;
  AscendC::ShapeInfo scale_shape;   ///< the scale tensor's ShapeInfo
  AscendC::ShapeInfo offset_shape;  ///< the offset tensor's ShapeInfo
  QuantType dst_type = QuantType::kHalf;
  bool src_int4 = false;  ///< src is int4b_t, two a byte (else int8_t)
  bool transpose = false;
  bool has_offset = true;
  float scale = 0;
  float offset = 0;
  uint32_t k = 0;
  AscendC::AntiQuantShapeInfo shape_info{};
};

void RunAscendAntiQuant(const AntiQuantArgs& a);

}  // namespace normgrad_ascendc
