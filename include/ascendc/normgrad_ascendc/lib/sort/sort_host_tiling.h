// normgrad_ascendc/lib/sort/sort_host_tiling.h — the host side of the Sort
// family (docs/sort.md, "Scratch sizes" and "TopK tiling"): the host class
// optiling::TopkTiling; GetSortTmpSize and GetConcatTmpSize (Sort without
// SortConfig, Concat), GetSortMaxMinTmpSize (Sort with SortConfig),
// GetTopKMaxMinTmpSize (its merge-sort and its RADIX_SELECT forms) and
// TopKTilingFunc (filling the host class or the kernel-side struct).
//
// The platform is the process profile (tiling/platform/platform_ascendc.h):
// the Atlas inference series sizes Region Proposals, the others 8-byte
// pairs. The rules are the ones the kernel checks against (sort_call.h,
// topk_tiling.h); minValue = maxValue everywhere; isReuseSource and
// isLargest change nothing (the source is only read).
//
// Error policy: the functions keep their documented signatures. On bad input
// they print one message on stderr naming the function, the argument, the
// value and the rule; the size queries return (or set) 0, the bool ones
// return false, and TopKTilingFunc zeroes the tiling (the kernel refuses an
// empty one). Nothing throws.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/sort/sort_call.h"
#include "normgrad_ascendc/lib/sort/topk_tiling.h"
#include "normgrad_ascendc/runtime/data_type.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

/// The host tiling class: a setter and a getter per field of
/// AscendC::tiling::TopkTiling (same names, types and order); usable as a
/// nested struct of a program's tiling data (TILING_DATA_FIELD_DEF_STRUCT).
BEGIN_TILING_DATA_DEF(TopkTiling)
#define NORMGRAD_TOPK_DATA_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
NORMGRAD_TOPK_TILING_FIELDS(NORMGRAD_TOPK_DATA_FIELD)
#undef NORMGRAD_TOPK_DATA_FIELD
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Scratch bytes of Sort<T, isFullSort = true> over elemCount scores: a
/// second sorted region (elemCount structures). dataTypeSize 2 or 4.
uint32_t GetSortTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const uint32_t elemCount, const uint32_t dataTypeSize);

/// Scratch bytes of Concat: 0, as Concat copies without one. dataTypeSize 2
/// or 4.
uint32_t GetConcatTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const uint32_t elemCount, const uint32_t dataTypeSize);

/// Scratch bytes of Sort with SortConfig over the elements of srcShape
/// (SortConfigTmpBytes).
void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType,
                          ge::DataType indexType, bool isReuseSource,
                          const SortConfig& config, uint32_t& maxValue,
                          uint32_t& minValue);

/// Scratch bytes of a merge-sort TopK (TopKMergeTmpBytes).
bool GetTopKMaxMinTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const int32_t inner, const int32_t outter, const bool isReuseSource,
    const bool isInitIndex, enum TopKMode mode, const bool isLargest,
    const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue);

/// Scratch bytes of a RADIX_SELECT TopK (Ascend 950; TopKRadixTmpBytes).
bool GetTopKMaxMinTmpSize(const int32_t inner, const int32_t outter,
                          const int32_t k, const bool isReuseSource,
                          const bool isInitIndex, enum TopKMode mode,
                          const bool isLargest, ge::DataType dataType,
                          const TopKConfig& config, uint32_t& maxValue,
                          uint32_t& minValue);

/// The tiling of a merge-sort TopK (TopKFilledTiling).
bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                    const int32_t inner, const int32_t outter, const int32_t k,
                    const uint32_t dataTypeSize, const bool isInitIndex,
                    enum TopKMode mode, const bool isLargest,
                    optiling::TopkTiling& topKTiling);

/// The same, filling the kernel-side struct.
bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                    const int32_t inner, const int32_t outter, const int32_t k,
                    const uint32_t dataTypeSize, const bool isInitIndex,
                    enum TopKMode mode, const bool isLargest,
                    AscendC::tiling::TopkTiling& topKTiling);

}  // namespace AscendC
