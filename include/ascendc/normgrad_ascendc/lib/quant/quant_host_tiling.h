// normgrad_ascendc/lib/quant/quant_host_tiling.h — the host-side
// scratch-size queries of the Quantization family (docs/quant.md, "Scratch
// sizes"), and the sizing rule the kernel side checks the scratch against.
//
// The rule (the pages give no formula; docs/decisions.md, "Quantization"):
// the scratch holds the call's working values, one per element, rounded up
// to whole 32-byte blocks: AscendQuant and Quantize one value of the source
// type per element (typeSize bytes), the others one float per element.
// maxValue = minValue. The factor queries say the same: maxLiveNodeCount = 1
// (AscendQuant, Quantize, AscendDequant, Dequantize: typeSize bytes an
// element) or 4 (AscendAntiQuant, AntiQuantize: a float for each 1-byte
// int8_t), extraBuf = 0.
//
// Error policy: the functions return void (or the size), as documented. On
// bad input — a shape without dimensions or with a dimension below 1, a
// type size or data type the API does not take, a size past 32 bits — they
// print one message on stderr naming the function, the argument, the value
// and the rule, and set their outputs to 0. Nothing throws.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/data_type.h"
#include "normgrad_ascendc/tiling/shape.h"

namespace normgrad_ascendc {

/// n working values of `value_bytes`, rounded up to whole 32-byte blocks.
constexpr uint64_t QuantWorkBytes(uint64_t n, uint32_t value_bytes) {
  return (n * value_bytes + 31) / 32 * 32;
}

/// The scratch of AscendQuant over n elements of `type_size` bytes.
constexpr uint64_t AscendQuantTmpBytes(uint64_t n, uint32_t type_size) {
  return QuantWorkBytes(n, type_size);
}

/// The scratch of AscendDequant and AscendAntiQuant over n elements.
constexpr uint64_t FloatWorkTmpBytes(uint64_t n) {
  return QuantWorkBytes(n, 4);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// srcShape: the elements of srcTensor; typeSize 2 (half) or 4 (float).
void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape,
                                 const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue);
void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount,
                                       uint32_t& extraBuf);

/// srcShape {m, n} (any rank: its elements); typeSize 4 (int32_t).
void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape,
                                   const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue);
void GetAscendDequantTmpBufferFactorSize(const ge::Shape& srcShape,
                                         uint32_t& maxLiveNodeCount,
                                         uint32_t& extraBuf);
/// The form the page's example calls (without srcShape): the same values.
void GetAscendDequantTmpBufferFactorSize(uint32_t& maxLiveNodeCount,
                                         uint32_t& extraBuf);

/// srcShape [K, N] ([N, K] with isTranspose), scaleShape the scale's;
/// inputDataType DT_INT8, outputDataType DT_FLOAT16 or DT_BF16.
void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape,
                                     const ge::Shape& scaleShape,
                                     bool isTranspose,
                                     ge::DataType inputDataType,
                                     ge::DataType outputDataType,
                                     uint32_t& maxValue, uint32_t& minValue);
uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape,
                                      const ge::Shape& scaleShape,
                                      bool isTranspose,
                                      ge::DataType inputDataType,
                                      ge::DataType outputDataType);
uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape,
                                      const ge::Shape& scaleShape,
                                      bool isTranspose,
                                      ge::DataType inputDataType,
                                      ge::DataType outputDataType);
void GetAscendAntiQuantTmpBufferFactorSize(
    const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
    ge::DataType inputDataType, ge::DataType outputDataType,
    uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

// The Ascend 950's Quantize (typeSize 2 or 4), Dequantize (typeSize 4) and
// AntiQuantize (isTranspose reserved: false; inputDataType DT_INT8,
// outputDataType DT_FLOAT16, DT_BF16 or DT_FLOAT).
void GetQuantizeMaxMinTmpSize(const ge::Shape& srcShape,
                              const uint32_t typeSize, uint32_t& maxValue,
                              uint32_t& minValue);
void GetQuantizeTmpBufferFactorSize(uint32_t& maxLiveNodeCount,
                                    uint32_t& extraBuf);
void GetDequantizeMaxMinTmpSize(const ge::Shape& srcShape,
                                const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue);
void GetDequantizeTmpBufferFactorSize(const ge::Shape& srcShape,
                                      uint32_t& maxLiveNodeCnt,
                                      uint32_t& extraBuf);
void GetAntiQuantizeMaxMinTmpSize(const ge::Shape& srcShape,
                                  const ge::Shape& scaleShape, bool isTranspose,
                                  ge::DataType inputDataType,
                                  ge::DataType outputDataType,
                                  uint32_t& maxValue, uint32_t& minValue);
void GetAntiQuantizeTmpBufferFactorSize(const ge::Shape& srcShape,
                                        const ge::Shape& scaleShape,
                                        ge::DataType inputDataType,
                                        ge::DataType outputDataType,
                                        uint32_t& maxLiveNodeCount,
                                        uint32_t& extraBuf);

}  // namespace AscendC
