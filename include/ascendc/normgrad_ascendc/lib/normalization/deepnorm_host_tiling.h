// normgrad_ascendc/lib/normalization/deepnorm_host_tiling.h — the host-side
// tiling API of DeepNorm: the host class optiling::DeepNormTiling, the
// scratch-size query AscendC::GetDeepNormMaxMinTmpSize and the tiling function
// AscendC::GetDeepNormTilingInfo (filling the host class or the kernel-side
// struct), plus a by-name listing of the 26 fields for tools.
//
// Error policy: both functions return false on bad input after one message on
// stderr that names the function, the argument, the value and the rule; the
// tiling function then zeroes the whole tiling (the kernel refuses
// oneTmpSize == 0), the size query sets 0 and 0. Nothing throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/normalization/deepnorm_tiling.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace optiling {

/// The host tiling class: a setter and a getter per field of the kernel-side
/// struct AscendC::tiling::DeepNormTiling (same names, same order,
/// lastDimValueBack a float), and SaveToBuffer, which writes exactly the
/// kernel struct's 104 bytes. Usable as a nested struct of a program's own
/// tiling data (TILING_DATA_FIELD_DEF_STRUCT).
BEGIN_TILING_DATA_DEF(DeepNormTiling)
NORMGRAD_DEEPNORM_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// The widest row DeepNorm takes, in elements.
inline constexpr uint32_t kDeepNormMaxH = 2040;

/// Scratch sizes in bytes for DeepNorm on srcShape = {B, S, H} with elements
/// of typeSize bytes (2 half, 4 float). With n = 2 chunk buffers for float
/// with isReuseSource (else 3), in = roundup32(4·B·S·H), hd = roundup32(4·H)
/// and, for half only, mv = 2·roundup32(4·B·S):
///   maxValue = n·in + mv,  minValue = n·hd + mv.
/// isBasicBlock adds the basic-block shape rules (H a multiple of 64, B·S a
/// multiple of 8) and changes no size. maxValue saturates at 2^32-1. Bad
/// input (typeSize not 2 or 4, rank not 3, a dimension outside [1, 2^32-1],
/// H > 2040, H·typeSize not a multiple of 32, B·S·H beyond 32 bits, a
/// basic-block rule, minValue beyond 32 bits): a message on stderr, 0 and 0,
/// false.
bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape,
                              const uint32_t typeSize, const bool isReuseSource,
                              const bool isBasicBlock, uint32_t& maxValue,
                              uint32_t& minValue);

/// Fills the tiling for srcShape = {B, S, H} (H the 32-byte aligned row),
/// originSrcShape = {B, S, originH} (originH in [1, H]; equal to H with
/// isBasicBlock), a scratch buffer of stackBufferSize BYTES and elements of
/// typeSize bytes. Bad input — the shape rules of GetDeepNormMaxMinTmpSize,
/// originSrcShape's B or S differing from srcShape's, originH outside
/// [1, H], scratch below half's float means and variances or below one row
/// per chunk buffer — prints a message on stderr, zeroes the whole tiling
/// and returns false.
bool GetDeepNormTilingInfo(const ge::Shape& srcShape,
                           const ge::Shape& originSrcShape,
                           const uint32_t stackBufferSize,
                           const uint32_t typeSize, const bool isReuseSource,
                           const bool isBasicBlock,
                           optiling::DeepNormTiling& tiling);

/// The same, filling the kernel-side struct directly; its bytes equal those
/// the host overload's SaveToBuffer writes.
bool GetDeepNormTilingInfo(const ge::Shape& srcShape,
                           const ge::Shape& originSrcShape,
                           const uint32_t stackBufferSize,
                           const uint32_t typeSize, const bool isReuseSource,
                           const bool isBasicBlock,
                           AscendC::tiling::DeepNormTiling& tiling);

}  // namespace AscendC

namespace normgrad_ascendc {

/// The number of fields of a DeepNormTiling (26).
inline constexpr size_t kDeepNormTilingFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_DEEPNORM_TILING_FIELDS);

/// The fields of a DeepNormTiling in struct order, named as the struct
/// members: 25 uint32_t fields, then the float lastDimValueBack.
std::array<TilingField, kDeepNormTilingFieldCount> DeepNormTilingFields(
    const AscendC::tiling::DeepNormTiling& tiling);

}  // namespace normgrad_ascendc
