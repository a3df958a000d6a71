// transform_host_tiling.cc — the host tiling functions and scratch-size
// queries of the Tensor transform family
// (normgrad_ascendc/lib/transform/transform_host_tiling.h states them and
// the error policy). Each tiling function fills the kernel-side struct once;
// the host-class overloads copy it field by field. The host has no profile,
// so a Transpose scenario of Ascend 950 is taken here and checked by the
// kernel.
#include "normgrad_ascendc/lib/transform/transform_host_tiling.h"

#include <algorithm>
#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "ascendc/lib/transform/transform_rules.h"

namespace normgrad_ascendc {
namespace {

using host_tiling::Report;
using host_tiling::ShapeText;

constexpr char kZeroSizes[] = "maxValue and minValue are 0";
constexpr char kZeroTiling[] = "the tiling is zeroed";

// A shape of one dimension per name, each in [1, 2^32-1]: dims[].
bool TwoDims(const char* fn, const char* argument, const ge::Shape& shape,
             const char* consequence, uint64_t* dims) {
  return host_tiling::CheckDims(fn,
                                std::string(argument) + " " + ShapeText(shape),
                                shape, {"height", "width"}, consequence, dims);
}

bool PadTiling(const ge::Shape& src_shape, const ge::Shape& ori_shape,
               uint32_t stack_buffer_size, uint32_t type_size,
               AscendC::tiling::PadTiling& t) {
  const char* fn = "PadTilingFunc";
  t = {};
  uint64_t src[2];
  uint64_t ori[2];
  if (!host_tiling::CheckTypeSize(fn, "typeSize", type_size,
                                  "int16_t, uint16_t or half", kZeroTiling) ||
      !TwoDims(fn, "srcShape", src_shape, kZeroTiling, src) ||
      !TwoDims(fn, "oriSrcShape", ori_shape, kZeroTiling, ori)) {
    return false;
  }
  if (ori[0] != src[0] || ori[1] > src[1]) {
    Report(fn,
           "oriSrcShape " + ShapeText(ori_shape) + " does not fit srcShape " +
               ShapeText(src_shape) +
               ": it must have the same height and at most its width",
           kZeroTiling);
    return false;
  }
  const uint64_t aligned = (src[1] * type_size + 31) / 32 * 32 / type_size;
  if (aligned == src[1] && ori[1] == src[1]) {
    Report(fn,
           "srcShape " + ShapeText(src_shape) +
               " is 32-byte aligned and every column is data: there is "
               "nothing to pad",
           kZeroTiling);
    return false;
  }
  if (src[0] * src[1] * type_size % 32 != 0) {
    Report(fn,
           "srcShape " + ShapeText(src_shape) + " holds " +
               std::to_string(src[0] * src[1] * type_size) +
               " bytes: the source's size must be a multiple of 32 bytes",
           kZeroTiling);
    return false;
  }
  if (src[0] * aligned > host_tiling::kU32Max) {
    Report(fn,
           "srcShape " + ShapeText(src_shape) +
               " pads to more than 4294967295 elements",
           kZeroTiling);
    return false;
  }
  t.srcHeight = static_cast<uint32_t>(src[0]);
  t.srcWidth = static_cast<uint32_t>(src[1]);
  t.srcOriWidth = static_cast<uint32_t>(ori[1]);
  t.alignedWidth = static_cast<uint32_t>(aligned);
  t.typeSize = type_size;
  t.stackBufferSize = stack_buffer_size;
  return true;
}

bool UnPadTiling(const ge::Shape& src_shape, uint32_t stack_buffer_size,
                 uint32_t type_size, AscendC::tiling::UnPadTiling& t) {
  const char* fn = "UnPadTilingFunc";
  t = {};
  uint64_t src[2];
  if (!host_tiling::CheckTypeSize(fn, "typeSize", type_size,
                                  "int16_t, uint16_t or half", kZeroTiling) ||
      !TwoDims(fn, "srcShape", src_shape, kZeroTiling, src)) {
    return false;
  }
  if (src[1] * type_size % 32 != 0) {
    Report(fn,
           "srcShape " + ShapeText(src_shape) + " has width " +
               std::to_string(src[1]) + " (" +
               std::to_string(src[1] * type_size) +
               " bytes): UnPad takes rows of whole 32-byte blocks",
           kZeroTiling);
    return false;
  }
  if (src[0] * src[1] > host_tiling::kU32Max) {
    Report(fn,
           "srcShape " + ShapeText(src_shape) +
               " holds more than 4294967295 elements",
           kZeroTiling);
    return false;
  }
  t.srcHeight = static_cast<uint32_t>(src[0]);
  t.srcWidth = static_cast<uint32_t>(src[1]);
  t.typeSize = type_size;
  t.elementsPerBlock = 32 / type_size;
  t.srcSize = t.srcHeight * t.srcWidth;
  t.stackBufferSize = stack_buffer_size;
  return true;
}

// The scenario, the type size and the shape of a Transpose call; on success
// *shape holds it.
bool TransposeInputs(const char* fn, const ge::Shape& src_shape,
                     uint32_t type_size, uint32_t type, const char* consequence,
                     TransposeShape* shape) {
  if (!IsTransposeScenario(type)) {
    Report(fn,
           "transposeTypeIn " + std::to_string(type) +
               " is not supported: it must be in [1, 7] or [13, 16]",
           consequence);
    return false;
  }
  TransformTypes sizes_of = TransposeTypes(type);
  bool size_ok = false;
  std::string sizes;
  for (uint32_t size : {1u, 2u, 4u}) {
    bool taken = false;
    for (uint32_t e = 0; e < static_cast<uint32_t>(TransformElem::kOther);
         ++e) {
      if ((sizes_of & (TransformTypes{1} << e)) != 0 &&
          ElemBytes(static_cast<TransformElem>(e)) == size) {
        taken = true;
      }
    }
    if (!taken) continue;
    if (!sizes.empty()) sizes += " or ";
    sizes += std::to_string(size);
    if (size == type_size) size_ok = true;
  }
  if (!size_ok) {
    Report(fn,
           "typeSize " + std::to_string(type_size) +
               " is not supported: scenario " + std::to_string(type) +
               " takes " + sizes + " (" + TransformTypesText(sizes_of) + ")",
           consequence);
    return false;
  }
  shape->type = type;
  shape->rank = static_cast<uint32_t>(src_shape.GetDimNum());
  if (shape->rank > 4) shape->rank = 5;  // reported as a wrong rank below
  for (uint32_t i = 0; i < 4; ++i) {
    const int64_t d = src_shape.GetDim(i);
    shape->dims[i] = d < 0 ? 0 : static_cast<uint64_t>(d);
  }
  const std::string problem = TransposeShapeProblem(*shape);
  if (!problem.empty()) {
    Report(fn, problem + " (srcShape " + ShapeText(src_shape) + ")",
           consequence);
    return false;
  }
  return true;
}

void TransposeTiling(const char* fn, const ge::Shape& src_shape,
                     uint32_t type_size, uint32_t type,
                     AscendC::tiling::ConfusionTransposeTiling& t) {
  t = {};
  TransposeShape shape{};
  if (!TransposeInputs(fn, src_shape, type_size, type, kZeroTiling, &shape)) {
    return;
  }
  t.transposeType = type;
  t.typeSize = type_size;
  uint32_t* fields[4] = {&t.shapeDim0, &t.shapeDim1, &t.shapeDim2,
                         &t.shapeDim3};
  for (uint32_t i = 0; i < shape.rank; ++i) {
    *fields[i] = static_cast<uint32_t>(shape.dims[i]);
  }
}

void TransposeSizes(const char* fn, const ge::Shape& src_shape,
                    uint32_t type_size, uint32_t type, uint32_t& max_value,
                    uint32_t& min_value) {
  max_value = 0;
  min_value = 0;
  TransposeShape shape{};
  TransposeInputs(fn, src_shape, type_size, type, kZeroSizes, &shape);
}

template <typename HostTiling>
void CopyPad(const AscendC::tiling::PadTiling& kernel, HostTiling& host) {
  NORMGRAD_PAD_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
}
template <typename HostTiling>
void CopyUnPad(const AscendC::tiling::UnPadTiling& kernel, HostTiling& host) {
  NORMGRAD_UNPAD_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
}
template <typename HostTiling>
void CopyTranspose(const AscendC::tiling::ConfusionTransposeTiling& kernel,
                   HostTiling& host) {
  NORMGRAD_CONFUSION_TRANSPOSE_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
}

}  // namespace
}  // namespace normgrad_ascendc

namespace AscendC {

using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                         uint32_t& maxValue, uint32_t& minValue) {
  const char* fn = "GetPadMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  uint64_t dims[2];
  if (normgrad_ascendc::host_tiling::CheckTypeSize(
          fn, "typeSize", typeSize, "int16_t, uint16_t or half",
          normgrad_ascendc::kZeroSizes)) {
    normgrad_ascendc::TwoDims(fn, "srcShape", srcShape,
                              normgrad_ascendc::kZeroSizes, dims);
  }
}

void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   AscendC::tiling::PadTiling& tiling) {
  normgrad_ascendc::PadTiling(srcShape, oriSrcShape, stackBufferSize, typeSize,
                              tiling);
}

void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   optiling::PadTiling& tiling) {
  AscendC::tiling::PadTiling kernel;
  normgrad_ascendc::PadTiling(srcShape, oriSrcShape, stackBufferSize, typeSize,
                              kernel);
  normgrad_ascendc::CopyPad(kernel, tiling);
}

void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC&,
                           const ge::Shape& srcShape, const uint32_t typeSize,
                           uint32_t& maxValue, uint32_t& minValue) {
  const char* fn = "GetUnPadMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  uint64_t dims[2];
  if (normgrad_ascendc::host_tiling::CheckTypeSize(
          fn, "typeSize", typeSize, "int16_t, uint16_t or half",
          normgrad_ascendc::kZeroSizes)) {
    normgrad_ascendc::TwoDims(fn, "srcShape", srcShape,
                              normgrad_ascendc::kZeroSizes, dims);
  }
}

void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize,
                     AscendC::tiling::UnPadTiling& tiling) {
  normgrad_ascendc::UnPadTiling(srcShape, stackBufferSize, typeSize, tiling);
}

void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, optiling::UnPadTiling& tiling) {
  AscendC::tiling::UnPadTiling kernel;
  normgrad_ascendc::UnPadTiling(srcShape, stackBufferSize, typeSize, kernel);
  normgrad_ascendc::CopyUnPad(kernel, tiling);
}

void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape,
                               const uint32_t typeSize,
                               const uint32_t transposeTypeIn,
                               uint32_t& maxValue, uint32_t& minValue) {
  normgrad_ascendc::TransposeSizes("GetTransposeMaxMinTmpSize", srcShape,
                                   typeSize, transposeTypeIn, maxValue,
                                   minValue);
}

void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape,
                                        const uint32_t typeSize,
                                        const uint32_t transposeTypeIn,
                                        uint32_t& maxValue,
                                        uint32_t& minValue) {
  normgrad_ascendc::TransposeSizes("GetConfusionTransposeMaxMinTmpSize",
                                   srcShape, typeSize, transposeTypeIn,
                                   maxValue, minValue);
}

void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t,
                            const uint32_t typeSize,
                            const uint32_t transposeTypeIn,
                            AscendC::tiling::ConfusionTransposeTiling& tiling) {
  normgrad_ascendc::TransposeTiling("GetTransposeTilingInfo", srcShape,
                                    typeSize, transposeTypeIn, tiling);
}

void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t,
                            const uint32_t typeSize,
                            const uint32_t transposeTypeIn,
                            optiling::ConfusionTransposeTiling& tiling) {
  AscendC::tiling::ConfusionTransposeTiling kernel;
  normgrad_ascendc::TransposeTiling("GetTransposeTilingInfo", srcShape,
                                    typeSize, transposeTypeIn, kernel);
  normgrad_ascendc::CopyTranspose(kernel, tiling);
}

void GetConfusionTransposeTilingInfo(
    const ge::Shape& srcShape, const uint32_t, const uint32_t typeSize,
    const uint32_t transposeTypeIn,
    AscendC::tiling::ConfusionTransposeTiling& tiling) {
  normgrad_ascendc::TransposeTiling("GetConfusionTransposeTilingInfo", srcShape,
                                    typeSize, transposeTypeIn, tiling);
}

void GetConfusionTransposeTilingInfo(
    const ge::Shape& srcShape, const uint32_t, const uint32_t typeSize,
    const uint32_t transposeTypeIn,
    optiling::ConfusionTransposeTiling& tiling) {
  AscendC::tiling::ConfusionTransposeTiling kernel;
  normgrad_ascendc::TransposeTiling("GetConfusionTransposeTilingInfo", srcShape,
                                    typeSize, transposeTypeIn, kernel);
  normgrad_ascendc::CopyTranspose(kernel, tiling);
}

void GetConfusionTransposeOnlyTilingInfo(
    const ge::Shape& srcShape, const uint32_t, const uint32_t typeSize,
    AscendC::tiling::ConfusionTransposeTiling& tiling) {
  normgrad_ascendc::TransposeTiling("GetConfusionTransposeOnlyTilingInfo",
                                    srcShape, typeSize, 7, tiling);
}

void GetConfusionTransposeOnlyTilingInfo(
    const ge::Shape& srcShape, const uint32_t, const uint32_t typeSize,
    optiling::ConfusionTransposeTiling& tiling) {
  AscendC::tiling::ConfusionTransposeTiling kernel;
  normgrad_ascendc::TransposeTiling("GetConfusionTransposeOnlyTilingInfo",
                                    srcShape, typeSize, 7, kernel);
  normgrad_ascendc::CopyTranspose(kernel, tiling);
}

void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC&,
                               const ge::Shape& srcShape,
                               const ge::Shape& dstShape, uint32_t typeSize,
                               const bool, uint32_t& maxValue,
                               uint32_t& minValue) {
  const char* fn = "GetBroadCastMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  if (typeSize != 1 && typeSize != 2 && typeSize != 4 && typeSize != 8) {
    Report(fn,
           "typeSize " + std::to_string(typeSize) +
               " is not supported: it must be 1, 2, 4 or 8",
           normgrad_ascendc::kZeroSizes);
    return;
  }
  const size_t rank = srcShape.GetDimNum();
  if (rank < 1 || rank > AscendC::kBroadcastMaxRank ||
      dstShape.GetDimNum() != rank) {
    Report(fn,
           "srcShape " + ShapeText(srcShape) + " and dstShape " +
               ShapeText(dstShape) +
               " must have the same number of dimensions, 1 to 9",
           normgrad_ascendc::kZeroSizes);
    return;
  }
  for (size_t i = 0; i < rank; ++i) {
    const int64_t s = srcShape.GetDim(i);
    const int64_t d = dstShape.GetDim(i);
    if (s < 1 || d < 1 || (s != d && s != 1)) {
      Report(fn,
             "srcShape " + ShapeText(srcShape) + " does not broadcast to " +
                 ShapeText(dstShape) + " at dimension " + std::to_string(i) +
                 ": each source dimension must equal the destination's "
                 "(at least 1) or be 1",
             normgrad_ascendc::kZeroSizes);
      return;
    }
  }
}

bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC&,
                               const ge::Shape& srcShape,
                               const ge::Shape& dstShape,
                               const ge::DataType dataType,
                               const TransDataConfig& config,
                               uint32_t& maxValue, uint32_t& minValue) {
  const char* fn = "GetTransDataMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  if (!normgrad_ascendc::IsTransDataConversion(config.srcFormat,
                                               config.dstFormat)) {
    Report(fn,
           "config {" + std::to_string(static_cast<int>(config.srcFormat)) +
               ", " + std::to_string(static_cast<int>(config.dstFormat)) +
               "} is not supported: it must be NCDHW -> NDC1HWC0, NDC1HWC0 "
               "-> NCDHW, NCDHW -> FRACTAL_Z_3D or FRACTAL_Z_3D -> NCDHW",
           normgrad_ascendc::kZeroSizes);
    return false;
  }
  if (dataType != ge::DT_FLOAT16 && dataType != ge::DT_BF16 &&
      dataType != ge::DT_INT16 && dataType != ge::DT_UINT16) {
    Report(fn,
           "dataType " + std::to_string(static_cast<int>(dataType)) +
               " is not supported: TransData takes int16_t, uint16_t, half "
               "and bfloat16_t",
           normgrad_ascendc::kZeroSizes);
    return false;
  }
  const uint32_t src_rank = normgrad_ascendc::TransDataRank(config.srcFormat);
  const uint32_t dst_rank = normgrad_ascendc::TransDataRank(config.dstFormat);
  if (srcShape.GetDimNum() != src_rank || dstShape.GetDimNum() != dst_rank) {
    Report(fn,
           "srcShape " + ShapeText(srcShape) + " and dstShape " +
               ShapeText(dstShape) + " must have " + std::to_string(src_rank) +
               " and " + std::to_string(dst_rank) +
               " dimensions (the formats of config)",
           normgrad_ascendc::kZeroSizes);
    return false;
  }
  uint64_t src[7] = {};
  uint64_t dst[7] = {};
  for (uint32_t i = 0; i < src_rank; ++i) {
    src[i] = static_cast<uint64_t>(std::max<int64_t>(srcShape.GetDim(i), 0));
  }
  for (uint32_t i = 0; i < dst_rank; ++i) {
    dst[i] = static_cast<uint64_t>(std::max<int64_t>(dstShape.GetDim(i), 0));
  }
  normgrad_ascendc::TransDataShape shape{};
  const std::string problem = normgrad_ascendc::TransDataShapeProblem(
      config.srcFormat, config.dstFormat, src, dst, "srcShape", "dstShape",
      &shape);
  if (!problem.empty()) {
    Report(fn, problem, normgrad_ascendc::kZeroSizes);
    return false;
  }
  return true;
}

}  // namespace AscendC
