// normgrad_ascendc/lib/normalization/groupnorm_host_tiling.h — the host-side
// tiling API of GroupNorm: the host class optiling::GroupNormTiling, the
// scratch-size query AscendC::GetGroupNormMaxMinTmpSize and the tiling function
// AscendC::GetGroupNormNDTilingInfo (filling the host class or the
// kernel-side struct), plus a by-name listing of the 30 fields for tools.
//
// Error policy (as for the other normalization APIs): these functions return
// void. On bad input they print one message on stderr that names the
// function, the argument, the value and the rule; the tiling functions then
// zero the whole tiling (the kernel refuses oneTmpSize == 0), the size query
// returns 0 and 0. Nothing throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/normalization/groupnorm_tiling.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace optiling {

/// The host tiling class: a setter and a getter per field of the kernel-side
/// struct AscendC::tiling::GroupNormTiling (same names, same order), and
/// SaveToBuffer, which writes the struct's 120 bytes. Usable as a nested
/// struct of a program's own tiling data (TILING_DATA_FIELD_DEF_STRUCT).
BEGIN_TILING_DATA_DEF(GroupNormTiling)
NORMGRAD_GROUPNORM_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Scratch sizes in bytes for GroupNorm on srcShape = {N, C, H, W} with
/// groupNum groups over C and elements of typeSize bytes (2 half, 4 float).
/// With n = 2 for float with isReuseSource, else 3, M = (C / groupNum)·H·W
/// elements per group and mv = 8·roundup(N·groupNum, 8) bytes for half (its
/// float means and variances), 0 for float:
///   maxValue = n·roundup32(4·N·C·H·W) + mv,  minValue = n·roundup32(4·M) + mv
/// maxValue saturates at 2^32-1 (it is only a reference value). The shape
/// rules are those of GetGroupNormNDTilingInfo; on bad input, or when
/// minValue does not fit in 32 bits: a message on stderr and 0 and 0.
void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape,
                               const uint32_t typeSize,
                               const bool isReuseSource,
                               const uint32_t groupNum, uint32_t& maxValue,
                               uint32_t& minValue);

/// Fills the host tiling for srcShape = {N, C, H, W}, a scratch buffer of
/// stackBufferSize BYTES, elements of typeSize bytes and groupNum groups.
/// Bad input — typeSize not 2 or 4, rank not 4, a dimension outside
/// [1, 2^32-1], groupNum 0 or not dividing C, N·C·H·W beyond 32 bits,
/// scratch too small for one group per chunk buffer (plus half's float means
/// and variances) — prints a message on stderr and zeroes the whole tiling.
void GetGroupNormNDTilingInfo(const ge::Shape& srcShape,
                              const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const uint32_t groupNum,
                              optiling::GroupNormTiling& tiling);

/// The same, filling the kernel-side struct directly.
void GetGroupNormNDTilingInfo(const ge::Shape& srcShape,
                              const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const uint32_t groupNum,
                              AscendC::tiling::GroupNormTiling& tiling);

}  // namespace AscendC

namespace normgrad_ascendc {

/// The number of fields of a GroupNormTiling (30).
inline constexpr size_t kGroupNormTilingFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_GROUPNORM_TILING_FIELDS);

/// The fields of a GroupNormTiling in struct order, named as the struct
/// members: 28 uint32_t fields, the float factor (Type::kFloat) and
/// smallShape as a uint32_t 0 or 1.
std::array<TilingField, kGroupNormTilingFieldCount> GroupNormTilingFields(
    const AscendC::tiling::GroupNormTiling& tiling);

}  // namespace normgrad_ascendc
