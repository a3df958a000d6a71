// quant_host_tiling.cc — the scratch-size queries of the Quantization family
// (normgrad_ascendc/lib/quant/quant_host_tiling.h states the rule and the
// error policy): one checked element count per query, then the family's
// working-value rule.
#include "normgrad_ascendc/lib/quant/quant_host_tiling.h"

#include <string>

#include "ascendc/lib/common/tiling_checks.h"

namespace normgrad_ascendc {
namespace {

using host_tiling::kU32Max;
using host_tiling::Report;

constexpr char kZero[] = "maxValue and minValue are 0";

// Sets both outputs to `bytes`, or reports and leaves them 0 past 32 bits.
void SetBoth(const char* fn, uint64_t bytes, uint32_t& max_value,
             uint32_t& min_value) {
  if (bytes > kU32Max) {
    Report(fn,
           "the scratch of " + std::to_string(bytes) +
               " bytes does not fit 32 bits",
           kZero);
    return;
  }
  max_value = static_cast<uint32_t>(bytes);
  min_value = max_value;
}

// The elements of an AscendAntiQuant or AntiQuantize srcShape (two
// dimensions), after the data types and scaleShape (two dimensions, or any
// rank for AntiQuantize, whose scale may be [1] per tensor) are checked; 0
// when reported. `float_out`: DT_FLOAT is an output type too.
uint64_t AntiQuantElements(const char* fn, const ge::Shape& src,
                           const ge::Shape& scale, ge::DataType in,
                           ge::DataType out, bool float_out,
                           const char* consequence) {
  // AscendAntiQuant (not float_out) also takes int4b_t sources; its scratch
  // holds the same per-element work.
  if (in != ge::DT_INT8 && (float_out || in != ge::DT_INT4)) {
    Report(fn,
           "inputDataType " + std::to_string(static_cast<int32_t>(in)) +
               " is not supported: it must be DT_INT8 (int8_t)" +
               (float_out ? "" : " or DT_INT4 (int4b_t)"),
           consequence);
    return 0;
  }
  if (out != ge::DT_FLOAT16 && out != ge::DT_BF16 &&
      !(float_out && out == ge::DT_FLOAT)) {
    Report(fn,
           "outputDataType " + std::to_string(static_cast<int32_t>(out)) +
               " is not supported: it must be DT_FLOAT16 (half)" +
               (float_out ? ", DT_BF16 (bfloat16_t) or DT_FLOAT (float)"
                          : " or DT_BF16 (bfloat16_t)"),
           consequence);
    return 0;
  }
  uint64_t src_dims[2];
  uint64_t scale_dims[2];
  uint64_t scale_elements = 0;
  if (!host_tiling::CheckDims(fn, "srcShape " + host_tiling::ShapeText(src),
                              src, {"rows", "cols"}, consequence, src_dims) ||
      !(float_out ? host_tiling::CountElements(fn, scale, "the scale count",
                                               consequence, &scale_elements)
                  : host_tiling::CheckDims(
                        fn, "scaleShape " + host_tiling::ShapeText(scale),
                        scale, {"rows", "cols"}, consequence, scale_dims))) {
    return 0;
  }
  uint64_t elements = 0;
  return host_tiling::CountElements(fn, src, "the element count", consequence,
                                    &elements)
             ? elements
             : 0;
}

// The checked elements of srcShape with a typeSize of 2 or 4 (`four_only`:
// 4 only); 0 when reported.
uint64_t TypedElements(const char* fn, const ge::Shape& shape,
                       uint32_t type_size, bool four_only) {
  if (four_only && type_size != 4) {
    Report(fn,
           "typeSize " + std::to_string(type_size) +
               " is not supported: it must be 4 (srcTensor is int32_t)",
           kZero);
    return 0;
  }
  if (!four_only &&
      !host_tiling::CheckTypeSize(fn, "typeSize", type_size, "half", kZero)) {
    return 0;
  }
  uint64_t elements = 0;
  return host_tiling::CountElements(fn, shape, "the element count", kZero,
                                    &elements)
             ? elements
             : 0;
}

// The queries of the quantizing APIs (AscendQuant, Quantize): srcShape's
// half or float elements, AscendQuantTmpBytes of them.
void QuantSizes(const char* fn, const ge::Shape& shape, uint32_t type_size,
                uint32_t& max_value, uint32_t& min_value) {
  max_value = 0;
  min_value = 0;
  const uint64_t elements = TypedElements(fn, shape, type_size, false);
  if (elements == 0) return;
  SetBoth(fn, AscendQuantTmpBytes(elements, type_size), max_value, min_value);
}

// The queries of the dequantizing APIs (AscendDequant, Dequantize): srcShape's
// int32_t elements, one float of work each.
void DequantSizes(const char* fn, const ge::Shape& shape, uint32_t type_size,
                  uint32_t& max_value, uint32_t& min_value) {
  max_value = 0;
  min_value = 0;
  const uint64_t elements = TypedElements(fn, shape, type_size, true);
  if (elements == 0) return;
  SetBoth(fn, FloatWorkTmpBytes(elements), max_value, min_value);
}

}  // namespace
}  // namespace normgrad_ascendc

namespace AscendC {

using normgrad_ascendc::host_tiling::Report;

void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape,
                                 const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
  normgrad_ascendc::QuantSizes("GetAscendQuantMaxMinTmpSize", srcShape,
                               typeSize, maxValue, minValue);
}

void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount,
                                       uint32_t& extraBuf) {
  maxLiveNodeCount = 1;
  extraBuf = 0;
}

void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape,
                                   const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue) {
  normgrad_ascendc::DequantSizes("GetAscendDequantMaxMinTmpSize", srcShape,
                                 typeSize, maxValue, minValue);
}

void GetAscendDequantTmpBufferFactorSize(const ge::Shape& /*srcShape*/,
                                         uint32_t& maxLiveNodeCount,
                                         uint32_t& extraBuf) {
  GetAscendDequantTmpBufferFactorSize(maxLiveNodeCount, extraBuf);
}

void GetAscendDequantTmpBufferFactorSize(uint32_t& maxLiveNodeCount,
                                         uint32_t& extraBuf) {
  maxLiveNodeCount = 1;
  extraBuf = 0;
}

void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape,
                                     const ge::Shape& scaleShape,
                                     bool /*isTranspose*/,
                                     ge::DataType inputDataType,
                                     ge::DataType outputDataType,
                                     uint32_t& maxValue, uint32_t& minValue) {
  constexpr char fn[] = "GetAscendAntiQuantMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  const uint64_t elements = normgrad_ascendc::AntiQuantElements(
      fn, srcShape, scaleShape, inputDataType, outputDataType, false,
      normgrad_ascendc::kZero);
  if (elements == 0) return;
  normgrad_ascendc::SetBoth(fn, normgrad_ascendc::FloatWorkTmpBytes(elements),
                            maxValue, minValue);
}

uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape,
                                      const ge::Shape& scaleShape,
                                      bool isTranspose,
                                      ge::DataType inputDataType,
                                      ge::DataType outputDataType) {
  uint32_t max_value = 0, min_value = 0;
  GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose,
                                  inputDataType, outputDataType, max_value,
                                  min_value);
  return max_value;
}

uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape,
                                      const ge::Shape& scaleShape,
                                      bool isTranspose,
                                      ge::DataType inputDataType,
                                      ge::DataType outputDataType) {
  uint32_t max_value = 0, min_value = 0;
  GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose,
                                  inputDataType, outputDataType, max_value,
                                  min_value);
  return min_value;
}

void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape,
                                           const ge::Shape& scaleShape,
                                           bool /*isTranspose*/,
                                           ge::DataType inputDataType,
                                           ge::DataType outputDataType,
                                           uint32_t& maxLiveNodeCount,
                                           uint32_t& extraBuf) {
  constexpr char fn[] = "GetAscendAntiQuantTmpBufferFactorSize";
  maxLiveNodeCount = 0;
  extraBuf = 0;
  if (normgrad_ascendc::AntiQuantElements(
          fn, srcShape, scaleShape, inputDataType, outputDataType, false,
          "maxLiveNodeCount and extraBuf are 0") == 0) {
    return;
  }
  maxLiveNodeCount = 4;  // a float for each 1-byte int8_t
}

void GetQuantizeMaxMinTmpSize(const ge::Shape& srcShape,
                              const uint32_t typeSize, uint32_t& maxValue,
                              uint32_t& minValue) {
  normgrad_ascendc::QuantSizes("GetQuantizeMaxMinTmpSize", srcShape, typeSize,
                               maxValue, minValue);
}

void GetQuantizeTmpBufferFactorSize(uint32_t& maxLiveNodeCount,
                                    uint32_t& extraBuf) {
  maxLiveNodeCount = 1;
  extraBuf = 0;
}

void GetDequantizeMaxMinTmpSize(const ge::Shape& srcShape,
                                const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
  normgrad_ascendc::DequantSizes("GetDequantizeMaxMinTmpSize", srcShape,
                                 typeSize, maxValue, minValue);
}

void GetDequantizeTmpBufferFactorSize(const ge::Shape& /*srcShape*/,
                                      uint32_t& maxLiveNodeCnt,
                                      uint32_t& extraBuf) {
  maxLiveNodeCnt = 1;
  extraBuf = 0;
}

void GetAntiQuantizeMaxMinTmpSize(const ge::Shape& srcShape,
                                  const ge::Shape& scaleShape, bool isTranspose,
                                  ge::DataType inputDataType,
                                  ge::DataType outputDataType,
                                  uint32_t& maxValue, uint32_t& minValue) {
  constexpr char fn[] = "GetAntiQuantizeMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  if (isTranspose) {
    Report(fn, "isTranspose is true: it is reserved and must be false",
           normgrad_ascendc::kZero);
    return;
  }
  const uint64_t elements = normgrad_ascendc::AntiQuantElements(
      fn, srcShape, scaleShape, inputDataType, outputDataType, true,
      normgrad_ascendc::kZero);
  if (elements == 0) return;
  normgrad_ascendc::SetBoth(fn, normgrad_ascendc::FloatWorkTmpBytes(elements),
                            maxValue, minValue);
}

void GetAntiQuantizeTmpBufferFactorSize(const ge::Shape& srcShape,
                                        const ge::Shape& scaleShape,
                                        ge::DataType inputDataType,
                                        ge::DataType outputDataType,
                                        uint32_t& maxLiveNodeCount,
                                        uint32_t& extraBuf) {
  constexpr char fn[] = "GetAntiQuantizeTmpBufferFactorSize";
  maxLiveNodeCount = 0;
  extraBuf = 0;
  if (normgrad_ascendc::AntiQuantElements(
          fn, srcShape, scaleShape, inputDataType, outputDataType, true,
          "maxLiveNodeCount and extraBuf are 0") == 0) {
    return;
  }
  maxLiveNodeCount = 4;  // a float for each 1-byte int8_t
}

}  // namespace AscendC
