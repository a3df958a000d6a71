// normgrad_ascendc/lib/activation/elementwise_host_tiling.h — the host-side
// scratch-size queries of the elementwise activation APIs
// (docs/activation.md, "Scratch sizes"), and the sizing rule the kernel side
// checks the scratch against.
//
// The rule (docs/decisions.md, "Activation: elementwise"): a call computes in
// passes; a pass holds each of its elements' inputs in the scratch as floats
// (one for Sigmoid, Silu, Swish and the Gelu family, two for the GLUs) and
// covers at least 256 bytes of input. So minValue = one pass of 256 /
// typeSize elements, maxValue = one pass over every element of srcShape (at
// least minValue), maxLiveNodeCount = the floats' bytes / typeSize, extraBuf
// = 0.
//
// Error policy: the functions return void (GetGeluMaxTmpSize and
// GetGeluMinTmpSize their size), as documented. On bad input — a typeSize
// other than 2 or 4, a shape with no dimension, a dimension below 1, more
// than 2^32-1 elements — they print one message on stderr naming the
// function, the argument, the value and the rule, and give 0. Nothing
// throws.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/shape.h"

namespace normgrad_ascendc {

/// Elements of the smallest pass: 256 bytes of input.
constexpr uint32_t ActivationMinPassElements(uint32_t type_size) {
  return 256 / type_size;
}

/// Scratch bytes per element: a float per input (`inputs`: 1, or 2 for a
/// GLU).
constexpr uint32_t ActivationBytesPerElement(uint32_t inputs) {
  return 4 * inputs;
}

/// minValue: the scratch of the smallest pass, in bytes.
constexpr uint32_t ActivationMinTmpBytes(uint32_t type_size, uint32_t inputs) {
  return ActivationMinPassElements(type_size) *
         ActivationBytesPerElement(inputs);
}

/// maxValue before saturation: one pass over n elements, at least minValue.
constexpr uint64_t ActivationMaxTmpBytes(uint32_t type_size, uint32_t inputs,
                                         uint64_t n) {
  const uint64_t pass = n > ActivationMinPassElements(type_size)
                            ? n
                            : ActivationMinPassElements(type_size);
  return pass * ActivationBytesPerElement(inputs);
}

}  // namespace normgrad_ascendc

namespace AscendC {

// typeSize: 2 (half; bfloat16_t for ReGlu) or 4 (float).

void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             bool isReuseSource, uint32_t& maxValue,
                             uint32_t& minValue);

void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                    const bool isReuseSource, uint32_t& maxValue,
                    uint32_t& minValue);

void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                     const bool isReuseSource, uint32_t& maxValue,
                     uint32_t& minValue);

/// Gelu, FasterGelu and FasterGeluV2 share these.
uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);
uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);
void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          uint32_t& maxValue, uint32_t& minValue);

/// isReuseSource comes last here, as documented.
void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                            uint32_t& maxValue, uint32_t& minValue,
                            const bool isReuseSource);
void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize,
                                  uint32_t& maxLiveNodeCount,
                                  uint32_t& extraBuffer);

void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue,
                           uint32_t& minValue);
void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf);

void GetReGluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue,
                           uint32_t& minValue);

}  // namespace AscendC
