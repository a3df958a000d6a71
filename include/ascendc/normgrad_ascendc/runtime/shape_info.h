// normgrad_ascendc/runtime/shape_info.h — ShapeInfo and DataFormat
// (docs/runtime.md, "Positions and tensors"): the kernel-side description of a
// tensor's shape. DataFormat is defined here once for kernel and host code.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"

namespace AscendC {

/// The most dimensions a shape (ShapeInfo) or a slice copy (SliceInfo arrays,
/// data_copy.h) has.
inline constexpr int32_t K_MAX_DIM = 8;

enum class DataFormat : uint8_t {
  ND = 0,
  NZ,
  NCHW,
  NC1HWC0,
  NHWC,
  NCDHW,
  NDC1HWC0,
  FRACTAL_Z_3D,
};

/// A shape (up to 8 dimensions), its original shape and its format.
struct ShapeInfo {
  static constexpr uint8_t kMaxDims = K_MAX_DIM;

  /// No dimensions, format ND.
  ShapeInfo() = default;
  /// Shape and original shape given separately.
  ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[],
            uint8_t inputOriginalShapeDim, const uint32_t inputOriginalShape[],
            DataFormat inputFormat)
      : shapeDim(CheckedDim("shapeDim", inputShapeDim)),
        originalShapeDim(CheckedDim("originalShapeDim", inputOriginalShapeDim)),
        dataFormat(inputFormat) {
    for (uint8_t i = 0; i < shapeDim; ++i) shape[i] = inputShape[i];
    for (uint8_t i = 0; i < originalShapeDim; ++i) {
      originalShape[i] = inputOriginalShape[i];
    }
  }
  /// The original shape equals the shape.
  ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[],
            DataFormat inputFormat)
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape,
                  inputFormat) {}
  /// The original shape equals the shape; format ND.
  ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[])
      : ShapeInfo(inputShapeDim, inputShape, DataFormat::ND) {}

  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[kMaxDims] = {};
  uint32_t originalShape[kMaxDims] = {};
  DataFormat dataFormat = DataFormat::ND;

 private:
  static uint8_t CheckedDim(const char* argument, uint8_t dim) {
    if (dim > kMaxDims) {
      normgrad_ascendc::Fail(
          "ShapeInfo: %s %u exceeds the maximum of %u dimensions", argument,
          dim, kMaxDims);
    }
    return dim;
  }
};

}  // namespace AscendC
