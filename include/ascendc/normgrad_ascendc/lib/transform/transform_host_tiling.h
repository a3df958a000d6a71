// normgrad_ascendc/lib/transform/transform_host_tiling.h — the host-side
// tiling API of the Tensor transform family: the host classes
// optiling::PadTiling, optiling::UnPadTiling and
// optiling::ConfusionTransposeTiling; the scratch-size queries
// GetPadMaxMinTmpSize, GetUnPadMaxMinTmpSize, GetTransposeMaxMinTmpSize (and
// its old name GetConfusionTransposeMaxMinTmpSize), GetBroadCastMaxMinTmpSize
// and GetTransDataMaxMinTmpSize; and the tiling functions PadTilingFunc,
// UnPadTilingFunc, GetTransposeTilingInfo and the old names
// GetConfusionTransposeTilingInfo and GetConfusionTransposeOnlyTilingInfo,
// each filling the host class or the kernel-side struct.
//
// Scratch: these APIs move bytes and normgrad's kernels use no scratch, so
// every query gives maxValue = minValue = 0 (the pages allow 0: no scratch
// needed); a kernel still checks the placement of a sharedTmpBuffer it gets.
//
// Error policy: the functions keep their documented signatures. On bad input
// they print one message on stderr that names the function, the argument,
// the value and the rule; a size query then sets 0 and a tiling function
// zeroes the whole tiling (the kernel refuses an empty tiling). Nothing
// throws.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/transform/transdata_config.h"
#include "normgrad_ascendc/lib/transform/transform_tiling.h"
#include "normgrad_ascendc/runtime/data_type.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

/// Pad's host tiling class: the fields of AscendC::tiling::PadTiling, same
/// names, same order, same bytes.
BEGIN_TILING_DATA_DEF(PadTiling)
NORMGRAD_PAD_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

/// UnPad's host tiling class.
BEGIN_TILING_DATA_DEF(UnPadTiling)
NORMGRAD_UNPAD_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

/// Transpose's host tiling class.
BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
NORMGRAD_CONFUSION_TRANSPOSE_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Pad's scratch for a two-dimensional srcShape: 0 and 0.
void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                         uint32_t& maxValue, uint32_t& minValue);

/// Fills Pad's tiling: srcShape [height, width] (data and redundant
/// columns), oriSrcShape [height, oriWidth] (the data); typeSize 2 or 4.
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   optiling::PadTiling& tiling);
/// The same, filling the kernel-side struct.
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   AscendC::tiling::PadTiling& tiling);

/// UnPad's scratch for a two-dimensional srcShape: 0 and 0.
void GetUnPadMaxMinTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
    uint32_t& minValue);

/// Fills UnPad's tiling: srcShape [height, width], width * typeSize a
/// multiple of 32; typeSize 2 or 4.
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, optiling::UnPadTiling& tiling);
/// The same, filling the kernel-side struct.
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize,
                     AscendC::tiling::UnPadTiling& tiling);

/// Transpose's scratch for scenario transposeTypeIn (1-7, 13-16): 0 and 0.
void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape,
                               const uint32_t typeSize,
                               const uint32_t transposeTypeIn,
                               uint32_t& maxValue, uint32_t& minValue);
/// The old name of GetTransposeMaxMinTmpSize.
void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape,
                                        const uint32_t typeSize,
                                        const uint32_t transposeTypeIn,
                                        uint32_t& maxValue, uint32_t& minValue);

/// Fills Transpose's tiling for scenario transposeTypeIn and srcShape in the
/// scenario's form (docs/transform.md: [B, N, S, H/N], [H, W] or
/// [N, H, W]).
void GetTransposeTilingInfo(const ge::Shape& srcShape,
                            const uint32_t stackBufferSize,
                            const uint32_t typeSize,
                            const uint32_t transposeTypeIn,
                            optiling::ConfusionTransposeTiling& tiling);
/// The same, filling the kernel-side struct.
void GetTransposeTilingInfo(const ge::Shape& srcShape,
                            const uint32_t stackBufferSize,
                            const uint32_t typeSize,
                            const uint32_t transposeTypeIn,
                            AscendC::tiling::ConfusionTransposeTiling& tiling);

/// The old name of GetTransposeTilingInfo.
void GetConfusionTransposeTilingInfo(
    const ge::Shape& srcShape, const uint32_t stackBufferSize,
    const uint32_t typeSize, const uint32_t transposeTypeIn,
    optiling::ConfusionTransposeTiling& tiling);
void GetConfusionTransposeTilingInfo(
    const ge::Shape& srcShape, const uint32_t stackBufferSize,
    const uint32_t typeSize, const uint32_t transposeTypeIn,
    AscendC::tiling::ConfusionTransposeTiling& tiling);

/// The old tiling of the two-dimensional transpose alone: scenario 7
/// (TRANSPOSE_ND2ND_ONLY) for srcShape [H, W].
void GetConfusionTransposeOnlyTilingInfo(
    const ge::Shape& srcShape, const uint32_t stackBufferSize,
    const uint32_t typeSize, optiling::ConfusionTransposeTiling& tiling);
void GetConfusionTransposeOnlyTilingInfo(
    const ge::Shape& srcShape, const uint32_t stackBufferSize,
    const uint32_t typeSize, AscendC::tiling::ConfusionTransposeTiling& tiling);

/// Broadcast's scratch: 0 and 0, for shapes of 1 to 9 equal dimensions each
/// equal or 1 in srcShape.
void GetBroadCastMaxMinTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const ge::Shape& srcShape, const ge::Shape& dstShape, uint32_t typeSize,
    const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);

/// TransData's scratch for the conversion `config` between srcShape and
/// dstShape (the layouts' shapes) of dataType (a 16-bit type): true with 0
/// and 0; on bad input a message, 0 and 0, and false.
bool GetTransDataMaxMinTmpSize(
    const platform_ascendc::PlatformAscendC& platform,
    const ge::Shape& srcShape, const ge::Shape& dstShape,
    const ge::DataType dataType, const TransDataConfig& config,
    uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC
