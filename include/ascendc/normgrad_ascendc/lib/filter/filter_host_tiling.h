// normgrad_ascendc/lib/filter/filter_host_tiling.h — the host-side
// scratch-size queries of the Filter family (docs/filter.md, "Scratch
// sizes"): GetSelect{Min,Max,MaxMin}TmpSize with their deprecated
// GetSelectWithBytesMask* names, GetDropOut{Min,Max,MaxMin}TmpSize, and the
// sizing rules the kernel side checks the scratch against.
//
// The rules (the pages give no formula; docs/decisions.md, "Filter, index,
// random and the Std utilities"): room for what the pages' algorithms hold per
// row. Select: a row's mask as half values plus its selection bits, and, when
// the mask is narrowed to the source's last axis without reusing it
// (isReuseMask false), a narrowed copy of the whole mask. DropOut: a row's
// scaled values plus its mask as one byte per element. minValue is one row,
// maxValue every row.
//
// Error policy: on bad input (a shape of no dimension or a dimension below
// 1, a type size the API does not take, Select's src and mask shapes that do
// not fit each other, a size past 32 bits) the functions print one message
// on stderr naming the function, the argument, the value and the rule, and
// return 0 or set their outputs to 0. Nothing throws.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/shape.h"

namespace normgrad_ascendc {

/// n bytes rounded up to whole 32-byte blocks.
constexpr uint64_t FilterRoundUp32(uint64_t n) { return (n + 31) / 32 * 32; }

/// Select's scratch for one row of k source elements: the row's mask as
/// halves and its selection bits.
constexpr uint64_t SelectRowTmpBytes(uint64_t k) {
  return FilterRoundUp32(k * 2) + FilterRoundUp32((k + 7) / 8);
}

/// The mask narrowed to m rows of k elements of mask_type_size bytes, kept
/// apart from the mask (isReuseMask false and a wider mask row), else 0.
constexpr uint64_t SelectCopyTmpBytes(uint64_t m, uint64_t k,
                                      uint64_t mask_last,
                                      uint32_t mask_type_size,
                                      bool reuse_mask) {
  return (reuse_mask || mask_last == k)
             ? 0
             : FilterRoundUp32(m * k * mask_type_size);
}

/// Select's minValue: one row and the narrowed copy.
constexpr uint64_t SelectMinTmpBytes(uint64_t m, uint64_t k, uint64_t mask_last,
                                     uint32_t mask_type_size, bool reuse_mask) {
  return SelectRowTmpBytes(k) +
         SelectCopyTmpBytes(m, k, mask_last, mask_type_size, reuse_mask);
}

/// DropOut's scratch for one row of k elements of type_size bytes.
constexpr uint64_t DropOutRowTmpBytes(uint64_t k, uint32_t type_size) {
  return FilterRoundUp32(k * type_size) + FilterRoundUp32(k);
}

}  // namespace normgrad_ascendc

namespace AscendC {

uint32_t GetSelectMinTmpSize(const ge::Shape& src0Shape,
                             const ge::Shape& src1Shape,
                             const uint32_t srcTypeSize,
                             const ge::Shape& maskShape,
                             const uint32_t maskTypeSize,
                             const bool isReuseMask);
uint32_t GetSelectMaxTmpSize(const ge::Shape& src0Shape,
                             const ge::Shape& src1Shape,
                             const uint32_t srcTypeSize,
                             const ge::Shape& maskShape,
                             const uint32_t maskTypeSize,
                             const bool isReuseMask);
void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape,
                            const ge::Shape& src1Shape,
                            const uint32_t srcTypeSize,
                            const ge::Shape& maskShape,
                            const uint32_t maskTypeSize, const bool isReuseMask,
                            uint32_t& maxValue, uint32_t& minValue);

/// The deprecated names of the three above (the page says to use those).
uint32_t GetSelectWithBytesMaskMinTmpSize(const ge::Shape& src0Shape,
                                          const ge::Shape& src1Shape,
                                          const uint32_t srcTypeSize,
                                          const ge::Shape& maskShape,
                                          const uint32_t maskTypeSize,
                                          const bool isReuseMask);
uint32_t GetSelectWithBytesMaskMaxTmpSize(const ge::Shape& src0Shape,
                                          const ge::Shape& src1Shape,
                                          const uint32_t srcTypeSize,
                                          const ge::Shape& maskShape,
                                          const uint32_t maskTypeSize,
                                          const bool isReuseMask);
void GetSelectWithBytesMaskMaxMinTmpSize(
    const ge::Shape& src0Shape, const ge::Shape& src1Shape,
    const uint32_t srcTypeSize, const ge::Shape& maskShape,
    const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
    uint32_t& minValue);

uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape,
                              const uint32_t typeSize,
                              const bool isReuseSource);
uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape,
                              const uint32_t typeSize,
                              const bool isReuseSource);
void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             const bool isReuseSource, uint32_t& maxValue,
                             uint32_t& minValue);

}  // namespace AscendC
