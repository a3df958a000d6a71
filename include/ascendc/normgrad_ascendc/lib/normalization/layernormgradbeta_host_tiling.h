// normgrad_ascendc/lib/normalization/layernormgradbeta_host_tiling.h — the
// host-side tiling API of LayerNormGradBeta: the host class
// optiling::LayerNormGradBetaTiling, the scratch-size query
// AscendC::GetLayerNormGradBetaMaxMinTmpSize and the tiling function
// AscendC::GetLayerNormGradBetaNDTilingInfo (filling the host class or the
// kernel-side struct), plus a by-name listing of the 20 fields for tools.
//
// Error policy: these functions return void, as the vendor's do. On bad input
// they print one message on stderr that names the function, the argument,
// the value and the rule; the tiling functions then zero the whole tiling
// (the kernel refuses oneCalSize == 0), the size query returns 0 and 0.
// Nothing throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/normalization/layernormgradbeta_tiling.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace optiling {

/// The host tiling class, declared with the tiling-data macros: a setter and
/// a getter per field of the kernel-side struct
/// AscendC::tiling::LayerNormGradBetaTiling (same names, same order), and
/// SaveToBuffer, which writes exactly the kernel struct's 80 bytes
/// (GetDataSize() == 80). Usable as a nested struct of a program's own
/// tiling data (TILING_DATA_FIELD_DEF_STRUCT). sizeof is at least 512
/// (tiling_data.h says why).
BEGIN_TILING_DATA_DEF(LayerNormGradBetaTiling)
NORMGRAD_LAYERNORMGRADBETA_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Scratch sizes in bytes for LayerNormGradBeta on srcShape = {B, S, H,
/// originalH} with elements of typeSize bytes (2 half, 4 float):
///   half:  maxValue = 16*B*S*H, minValue = 16*H
///   float: maxValue =  8*B*S*H, minValue =  8*H
/// maxValue saturates at 2^32-1 when it does not fit in 32 bits (it is only a
/// reference value). isReuseSource is ignored. The shape rules are those of
/// GetLayerNormGradBetaNDTilingInfo (including originalH == H, since no tiling
/// exists for other shapes); on bad input: a message on stderr and
/// maxValue = minValue = 0, also when minValue itself does not fit in 32 bits.
void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape,
                                       uint32_t typeSize, bool isReuseSource,
                                       uint32_t& maxValue, uint32_t& minValue);

/// Fills the host tiling for srcShape = {B, S, H, originalH}, a scratch
/// buffer of stackBufferSize BYTES and elements of typeSize bytes.
/// isReuseSource does not change the tiling. Bad input — typeSize not 2 or
/// 4, rank not 4, a dimension outside [1, 2^32-1], originalH != H, B*S or
/// B*S*H beyond 32 bits, too little scratch — prints a message on stderr and
/// zeroes the whole tiling.
void GetLayerNormGradBetaNDTilingInfo(
    const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
    bool isReuseSource, optiling::LayerNormGradBetaTiling& tiling);

/// The same, filling the kernel-side struct directly; its bytes equal those
/// the host overload's SaveToBuffer writes.
void GetLayerNormGradBetaNDTilingInfo(
    const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
    bool isReuseSource, AscendC::tiling::LayerNormGradBetaTiling& tiling);

}  // namespace AscendC

namespace normgrad_ascendc {

/// The number of fields of a LayerNormGradBetaTiling (20).
inline constexpr size_t kLayerNormGradBetaTilingFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_LAYERNORMGRADBETA_TILING_FIELDS);

/// The fields of a LayerNormGradBetaTiling in struct order, named exactly as
/// the struct members ("stackBufferSize", "bLength", ..., "reserved").
std::array<TilingField, kLayerNormGradBetaTilingFieldCount>
LayerNormGradBetaTilingFields(
    const AscendC::tiling::LayerNormGradBetaTiling& tiling);

}  // namespace normgrad_ascendc
