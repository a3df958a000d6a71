// normgrad_ascendc/lib/normalization/layernormgrad_host_tiling.h — the
// host-side tiling API of LayerNormGrad: the host class
// optiling::LayerNormGradTiling, the scratch-size query
// AscendC::GetLayerNormGradMaxMinTmpSize and the tiling function
// AscendC::GetLayerNormGradNDTilingInfo (filling the host class or the
// kernel-side struct), plus a by-name listing of the 30 fields for tools.
//
// Both functions depend on the product profile
// (normgrad_ascendc/runtime/profile.h: NORMGRAD_PROFILE, or SetProfile): the
// Ascend 950 profile has its own sizes and tiling.
//
// Error policy (as for LayerNormGradBeta): these functions return void, as
// the vendor's do. On bad input they print one message on stderr that names
// the function, the argument, the value and the rule; the tiling functions
// then zero the whole tiling (the kernel refuses oneCalSize == 0), the size
// query returns 0 and 0. Nothing throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/normalization/layernormgrad_tiling.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace optiling {

/// The host tiling class, declared with the tiling-data macros: a setter and
/// a getter per field of the kernel-side struct
/// AscendC::tiling::LayerNormGradTiling (same names, same order), and
/// SaveToBuffer, which writes exactly the kernel struct's 120 bytes
/// (GetDataSize() == 120). Usable as a nested struct of a program's own
/// tiling data (TILING_DATA_FIELD_DEF_STRUCT). sizeof is at least 512.
BEGIN_TILING_DATA_DEF(LayerNormGradTiling)
NORMGRAD_LAYERNORMGRAD_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Scratch sizes in bytes for LayerNormGrad on srcShape = {B, S, H,
/// originalH} with elements of typeSize bytes (2 half, 4 float). With
/// n = B*S*H, maxBase = max(n, H*H), minBase = min(n, H*H):
///   half:              maxValue = 9*maxBase*2, minValue = 9*minBase*2
///   float, reuse:      maxValue = 4*maxBase*4, minValue = 4*minBase*4
///   float, no reuse:   maxValue = 6*maxBase*4, minValue = 6*minBase*4
///   Ascend 950 profile: float with reuse 0 and 0; otherwise
///                      maxValue = minValue = 2*roundup(H, 8)*4.
/// Outside the 950 profile neither is less than nbuf*H*4 bytes, one row of H
/// floats in each of the tiling's nbuf regions (9 half, 4 float with reuse,
/// 6 float): that raises only half with B*S = 1, whose 9*H*2 the tiling
/// could not use (docs/decisions.md). maxValue saturates at 2^32-1 when it
/// does not fit in 32 bits (it is only a reference value). The shape rules
/// are those of
/// GetLayerNormGradNDTilingInfo; on bad input, or when minValue does not fit
/// in 32 bits: a message on stderr and maxValue = minValue = 0.
void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                                   bool isReuseSource, uint32_t& maxValue,
                                   uint32_t& minValue);

/// Fills the host tiling for srcShape = {B, S, H, originalH}, a scratch
/// buffer of stackBufferSize BYTES (stored as given, in bytes) and elements
/// of typeSize bytes: nbuf = 9 (half), 4 (float, reuse), 6 (float);
/// rows = stackBufferSize/4/nbuf/H, which must be at least 1; nohCalSize =
/// rows rounded up to a multiple of 8 (float) or 16 (half), clamped to B*S,
/// and — when nbuf chunks of that many rows would not fit in the scratch —
/// rows rounded down to that multiple, or rows itself when that is 0
/// (normgrad's rule: the layout never exceeds the scratch; docs/decisions.md).
/// On the Ascend 950 profile oneCalSize = nohCalSize = 1 and the scratch
/// size is not checked. Bad input — typeSize not 2 or 4, rank not 4, a
/// dimension outside [1, 2^32-1], originalH != H, B*S or B*S*H beyond 32
/// bits, too little scratch — prints a message on stderr and zeroes the
/// whole tiling.
void GetLayerNormGradNDTilingInfo(const ge::Shape& srcShape,
                                  uint32_t stackBufferSize, uint32_t typeSize,
                                  bool isReuseSource,
                                  optiling::LayerNormGradTiling& tiling);

/// The same, filling the kernel-side struct directly; its bytes equal those
/// the host overload's SaveToBuffer writes.
void GetLayerNormGradNDTilingInfo(const ge::Shape& srcShape,
                                  uint32_t stackBufferSize, uint32_t typeSize,
                                  bool isReuseSource,
                                  AscendC::tiling::LayerNormGradTiling& tiling);

}  // namespace AscendC

namespace normgrad_ascendc {

/// The number of fields of a LayerNormGradTiling (30).
inline constexpr size_t kLayerNormGradTilingFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_LAYERNORMGRAD_TILING_FIELDS);

/// The fields of a LayerNormGradTiling in struct order, named exactly as the
/// struct members ("stackBufferSize", "bLength", ...,
/// "lastDimValueBackMulTwo").
std::array<TilingField, kLayerNormGradTilingFieldCount>
LayerNormGradTilingFields(const AscendC::tiling::LayerNormGradTiling& tiling);

}  // namespace normgrad_ascendc
