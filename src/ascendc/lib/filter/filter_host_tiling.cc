// filter_host_tiling.cc — the Filter family's scratch-size queries
// (normgrad_ascendc/lib/filter/filter_host_tiling.h says the rules and the
// error policy).
#include "normgrad_ascendc/lib/filter/filter_host_tiling.h"

#include <string>

#include "ascendc/lib/common/tiling_checks.h"

namespace normgrad_ascendc {
namespace {

using host_tiling::kU32Max;
using host_tiling::Report;
using host_tiling::ShapeText;

constexpr char kZero[] = "maxValue and minValue are 0";

// A shape read as rows of its last dimension: *rows the product of the
// others (1 for one dimension), *last the last. Reports and returns false
// when the shape has no dimension, a dimension below 1 or more than 2^32-1
// elements.
bool RowsAndLast(const char* fn, const char* name, const ge::Shape& shape,
                 uint64_t* rows, uint64_t* last) {
  const std::string text = std::string(name) + " " + ShapeText(shape);
  const size_t n = shape.GetDimNum();
  if (n == 0) {
    Report(fn, text + " has no dimension: it must have at least one", kZero);
    return false;
  }
  uint64_t elements = 1;
  for (size_t i = 0; i < n; ++i) {
    const int64_t d = shape.GetDim(i);
    if (d < 1 || static_cast<uint64_t>(d) > kU32Max ||
        elements * static_cast<uint64_t>(d) > kU32Max) {
      Report(fn,
             text + " has dimension " + std::to_string(i) + " = " +
                 std::to_string(d) +
                 ": every dimension must be at least 1 and the elements at "
                 "most 4294967295",
             kZero);
      return false;
    }
    elements *= static_cast<uint64_t>(d);
  }
  *last = static_cast<uint64_t>(shape.GetDim(n - 1));
  *rows = elements / *last;
  return true;
}

bool IsScalarShape(const ge::Shape& s) {
  return s.GetDimNum() == 1 && s.GetDim(0) == 1;
}

// Stores the sizes when both fit in 32 bits; else reports.
bool Store(const char* fn, uint64_t max, uint64_t min, uint32_t* max_value,
           uint32_t* min_value) {
  if (max > kU32Max) {
    Report(fn,
           "the scratch of " + std::to_string(max) +
               " bytes does not fit uint32_t",
           kZero);
    return false;
  }
  *max_value = static_cast<uint32_t>(max);
  *min_value = static_cast<uint32_t>(min);
  return true;
}

void SelectSizes(const char* fn, const ge::Shape& src0, const ge::Shape& src1,
                 uint32_t src_type_size, const ge::Shape& mask,
                 uint32_t mask_type_size, bool reuse_mask, uint32_t* max_value,
                 uint32_t* min_value) {
  *max_value = 0;
  *min_value = 0;
  if (!host_tiling::CheckTypeSize(fn, "srcTypeSize", src_type_size, "half",
                                  kZero)) {
    return;
  }
  if (mask_type_size != 1 && mask_type_size != 2 && mask_type_size != 4) {
    Report(fn,
           "maskTypeSize " + std::to_string(mask_type_size) +
               " is not supported: it must be 1 (bool, int8_t, uint8_t), 2 "
               "(int16_t, uint16_t) or 4 (int32_t, uint32_t)",
           kZero);
    return;
  }
  if (IsScalarShape(src0) == IsScalarShape(src1)) {
    Report(fn,
           "src0Shape " + ShapeText(src0) + " and src1Shape " +
               ShapeText(src1) +
               ": exactly one of them must be the scalar's shape {1}",
           kZero);
    return;
  }
  const bool scalar_first = IsScalarShape(src0);
  uint64_t m, k, mask_rows, mask_last;
  if (!RowsAndLast(fn, scalar_first ? "src1Shape" : "src0Shape",
                   scalar_first ? src1 : src0, &m, &k) ||
      !RowsAndLast(fn, "maskShape", mask, &mask_rows, &mask_last)) {
    return;
  }
  if (mask_rows != m || mask_last < k) {
    Report(fn,
           "maskShape " + ShapeText(mask) + " does not fit the source's " +
               std::to_string(m) + " rows of " + std::to_string(k) +
               ": the mask must have as many rows and a last axis at least "
               "as long",
           kZero);
    return;
  }
  const uint64_t copy =
      SelectCopyTmpBytes(m, k, mask_last, mask_type_size, reuse_mask);
  Store(fn, m * SelectRowTmpBytes(k) + copy, SelectRowTmpBytes(k) + copy,
        max_value, min_value);
}

void DropOutSizes(const char* fn, const ge::Shape& src, uint32_t type_size,
                  uint32_t* max_value, uint32_t* min_value) {
  *max_value = 0;
  *min_value = 0;
  uint64_t m, k;
  if (!host_tiling::CheckTypeSize(fn, "typeSize", type_size, "half, bfloat16_t",
                                  kZero) ||
      !RowsAndLast(fn, "srcShape", src, &m, &k)) {
    return;
  }
  const uint64_t row = DropOutRowTmpBytes(k, type_size);
  Store(fn, m * row, row, max_value, min_value);
}

}  // namespace
}  // namespace normgrad_ascendc

namespace AscendC {

void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape,
                            const ge::Shape& src1Shape,
                            const uint32_t srcTypeSize,
                            const ge::Shape& maskShape,
                            const uint32_t maskTypeSize, const bool isReuseMask,
                            uint32_t& maxValue, uint32_t& minValue) {
  normgrad_ascendc::SelectSizes("GetSelectMaxMinTmpSize", src0Shape, src1Shape,
                                srcTypeSize, maskShape, maskTypeSize,
                                isReuseMask, &maxValue, &minValue);
}

uint32_t GetSelectMinTmpSize(const ge::Shape& src0Shape,
                             const ge::Shape& src1Shape,
                             const uint32_t srcTypeSize,
                             const ge::Shape& maskShape,
                             const uint32_t maskTypeSize,
                             const bool isReuseMask) {
  uint32_t max_value, min_value;
  normgrad_ascendc::SelectSizes("GetSelectMinTmpSize", src0Shape, src1Shape,
                                srcTypeSize, maskShape, maskTypeSize,
                                isReuseMask, &max_value, &min_value);
  return min_value;
}

uint32_t GetSelectMaxTmpSize(const ge::Shape& src0Shape,
                             const ge::Shape& src1Shape,
                             const uint32_t srcTypeSize,
                             const ge::Shape& maskShape,
                             const uint32_t maskTypeSize,
                             const bool isReuseMask) {
  uint32_t max_value, min_value;
  normgrad_ascendc::SelectSizes("GetSelectMaxTmpSize", src0Shape, src1Shape,
                                srcTypeSize, maskShape, maskTypeSize,
                                isReuseMask, &max_value, &min_value);
  return max_value;
}

void GetSelectWithBytesMaskMaxMinTmpSize(
    const ge::Shape& src0Shape, const ge::Shape& src1Shape,
    const uint32_t srcTypeSize, const ge::Shape& maskShape,
    const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
    uint32_t& minValue) {
  normgrad_ascendc::SelectSizes(
      "GetSelectWithBytesMaskMaxMinTmpSize", src0Shape, src1Shape, srcTypeSize,
      maskShape, maskTypeSize, isReuseMask, &maxValue, &minValue);
}

uint32_t GetSelectWithBytesMaskMinTmpSize(const ge::Shape& src0Shape,
                                          const ge::Shape& src1Shape,
                                          const uint32_t srcTypeSize,
                                          const ge::Shape& maskShape,
                                          const uint32_t maskTypeSize,
                                          const bool isReuseMask) {
  uint32_t max_value, min_value;
  normgrad_ascendc::SelectSizes("GetSelectWithBytesMaskMinTmpSize", src0Shape,
                                src1Shape, srcTypeSize, maskShape, maskTypeSize,
                                isReuseMask, &max_value, &min_value);
  return min_value;
}

uint32_t GetSelectWithBytesMaskMaxTmpSize(const ge::Shape& src0Shape,
                                          const ge::Shape& src1Shape,
                                          const uint32_t srcTypeSize,
                                          const ge::Shape& maskShape,
                                          const uint32_t maskTypeSize,
                                          const bool isReuseMask) {
  uint32_t max_value, min_value;
  normgrad_ascendc::SelectSizes("GetSelectWithBytesMaskMaxTmpSize", src0Shape,
                                src1Shape, srcTypeSize, maskShape, maskTypeSize,
                                isReuseMask, &max_value, &min_value);
  return max_value;
}

void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             const bool /*isReuseSource*/, uint32_t& maxValue,
                             uint32_t& minValue) {
  normgrad_ascendc::DropOutSizes("GetDropOutMaxMinTmpSize", srcShape, typeSize,
                                 &maxValue, &minValue);
}

uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape,
                              const uint32_t typeSize,
                              const bool /*isReuseSource*/) {
  uint32_t max_value, min_value;
  normgrad_ascendc::DropOutSizes("GetDropOutMaxTmpSize", srcShape, typeSize,
                                 &max_value, &min_value);
  return max_value;
}

uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape,
                              const uint32_t typeSize,
                              const bool /*isReuseSource*/) {
  uint32_t max_value, min_value;
  normgrad_ascendc::DropOutSizes("GetDropOutMinTmpSize", srcShape, typeSize,
                                 &max_value, &min_value);
  return min_value;
}

}  // namespace AscendC
