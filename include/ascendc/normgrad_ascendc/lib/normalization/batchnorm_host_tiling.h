// normgrad_ascendc/lib/normalization/batchnorm_host_tiling.h — the host-side
// tiling API of BatchNorm: the host class optiling::BatchNormTiling, the
// scratch-size query AscendC::GetBatchNormMaxMinTmpSize and the tiling function
// AscendC::GetBatchNormNDTilingInfo (filling the host class or the
// kernel-side struct), plus a by-name listing of the 20 fields for tools.
//
// Error policy: both functions return true on success. On bad input they
// print one message on stderr that names the function, the argument, the
// value and the rule, zero their outputs (the whole tiling; maxValue and
// minValue) and return false. Nothing throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/normalization/batchnorm_tiling.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace optiling {

/// The host tiling class: a setter and a getter per field of the kernel-side
/// struct AscendC::tiling::BatchNormTiling (same names, same order), and
/// SaveToBuffer, which writes the struct's 80 bytes.
BEGIN_TILING_DATA_DEF(BatchNormTiling)
NORMGRAD_BATCHNORM_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Scratch sizes in bytes for BatchNorm on srcShape = {B, S, H} with
/// originSrcShape = {originB, originS, originH}: with u = 32 / typeSize
/// columns (64 with isBasicBlock), at most S·H, and c = 2 for half (its float
/// means and variances of a chunk), 0 for float:
///   minValue = 4·(3·originB + c)·u,  maxValue = 4·(3·originB + c)·S·H
/// (maxValue saturating at 2^32-1). isReuseSource is reserved and changes
/// nothing. The shape rules are those of GetBatchNormNDTilingInfo.
bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape,
                               const ge::Shape& originSrcShape,
                               const uint32_t typeSize,
                               const bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue,
                               const bool isBasicBlock = false);

/// Fills the host tiling for a scratch of stackBufferByteSize bytes. Bad
/// input — typeSize not 2 or 4, a shape not of rank 3, a dimension outside
/// [1, 2^32-1], S·H·typeSize not a multiple of 32, originB > B, originS > S
/// or originH > H, B·S·H beyond 32 bits, with isBasicBlock originB not a
/// multiple of 8 or S·H not a multiple of 64 below 2048, scratch too small
/// for one chunk of u columns — prints a message, zeroes the tiling and
/// returns false.
bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape,
                              const ge::Shape& originSrcShape,
                              const uint32_t stackBufferByteSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              optiling::BatchNormTiling& tilling,
                              const bool isBasicBlock = false);

/// The same, filling the kernel-side struct directly.
bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape,
                              const ge::Shape& originSrcShape,
                              const uint32_t stackBufferByteSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              AscendC::tiling::BatchNormTiling& tilling,
                              const bool isBasicBlock = false);

}  // namespace AscendC

namespace normgrad_ascendc {

/// The number of fields of a BatchNormTiling (20).
inline constexpr size_t kBatchNormTilingFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_BATCHNORM_TILING_FIELDS);

/// The fields of a BatchNormTiling in struct order, named as the members.
std::array<TilingField, kBatchNormTilingFieldCount> BatchNormTilingFields(
    const AscendC::tiling::BatchNormTiling& tiling);

}  // namespace normgrad_ascendc
