// normgrad_ascendc/lib/normalization/layernorm_host_tiling.h — the host-side
// tiling API of LayerNorm (the [A, R] form's overloads at the end of this
// file): the host class optiling::LayerNormTiling, the scratch-size query
// AscendC::GetLayerNormMaxMinTmpSize and the tiling function
// AscendC::GetLayerNormNDTilingInfo (filling the host class or the
// kernel-side struct), plus a by-name listing of the 26 fields for tools.
//
// Error policy (as for LayerNormGradBeta): these functions return void, as
// the vendor's do. On bad input they print one message on stderr that names
// the function, the argument, the value and the rule; the tiling functions
// then zero the whole tiling (the kernel refuses oneTmpSize == 0), the size
// query returns 0 and 0. Nothing throws. (The vendor only logs and leaves the
// tiling untouched, so a stale tiling would run; zeroing makes the mistake
// visible at the kernel.)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/normalization/layernorm_tiling.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace optiling {

/// The host tiling class, declared with the tiling-data macros: a setter and
/// a getter per field of the kernel-side struct AscendC::tiling::
/// LayerNormTiling (same names, same order, lastDimValueBack a float), and
/// SaveToBuffer, which writes exactly the kernel struct's 104 bytes
/// (GetDataSize() == 104). Usable as a nested struct of a program's own
/// tiling data (TILING_DATA_FIELD_DEF_STRUCT). sizeof is at least 512
/// (tiling_data.h says why).
BEGIN_TILING_DATA_DEF(LayerNormTiling)
NORMGRAD_LAYERNORM_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Scratch sizes in bytes for LayerNorm on srcShape = {B, S, H, originalH}
/// with elements of typeSize bytes (2 half, 4 float). With
/// mv = roundup32(4·B·S), in = roundup32(4·B·S·H), hd = roundup32(4·H):
///   maxValue = 3·in + 2·mv,  minValue = 3·hd + 2·mv
/// (2·in and 2·hd instead of 3· for float with isReuseSource). maxValue
/// saturates at 2^32-1 when it does not fit in 32 bits (it is only a
/// reference value). The shape rules are those of GetLayerNormNDTilingInfo;
/// on bad input, or when minValue itself does not fit in 32 bits: a message
/// on stderr and maxValue = minValue = 0.
void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                               bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue);

/// Fills the host tiling for srcShape = {B, S, H, originalH}, a scratch
/// buffer of stackBufferSize BYTES and elements of typeSize bytes.
/// isReuseSource with float makes two chunk buffers instead of three. Bad
/// input — typeSize not 2 or 4, rank not 4, a dimension outside
/// [1, 2^32-1] (H == 0 included), originalH != H, B*S or B*S*H beyond 32
/// bits, scratch smaller than half's float means and variances (the
/// tmpBufSize − mvTotal underflow), too little scratch for one row per chunk
/// buffer (oneTmpSize == 0) — prints a message on stderr and zeroes the whole
/// tiling.
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape,
                              uint32_t stackBufferSize, uint32_t typeSize,
                              bool isReuseSource,
                              optiling::LayerNormTiling& tiling);

/// The same, filling the kernel-side struct directly; its bytes equal those
/// the host overload's SaveToBuffer writes.
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape,
                              uint32_t stackBufferSize, uint32_t typeSize,
                              bool isReuseSource,
                              AscendC::tiling::LayerNormTiling& tiling);

}  // namespace AscendC

namespace normgrad_ascendc {

/// The number of fields of a LayerNormTiling (26).
inline constexpr size_t kLayerNormTilingFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_LAYERNORM_TILING_FIELDS);

/// The fields of a LayerNormTiling in struct order, named exactly as the
/// struct members ("bLength", ..., "bsCurLength", "lastDimValueBack"): 25
/// uint32_t fields, then the float lastDimValueBack (of Type::kFloat).
std::array<TilingField, kLayerNormTilingFieldCount> LayerNormTilingFields(
    const AscendC::tiling::LayerNormTiling& tiling);

}  // namespace normgrad_ascendc

// ---- LayerNorm's second form: [A, R] rows, mean and rstd (or variance) ----
// (docs/layernorm.md, "The [A, R] form"). These overloads return void, as the
// vendor's do; bad input prints one message on stderr and zeroes the outputs.

namespace optiling {

/// The host class of AscendC::tiling::LayerNormSeparateTiling (same fields,
/// same order; SaveToBuffer writes its 104 bytes).
BEGIN_TILING_DATA_DEF(LayerNormSeparateTiling)
NORMGRAD_LAYERNORM_SEPARATE_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Scratch sizes in bytes for the [A, R] form, srcShape = {A, R} (R the
/// 32-byte aligned row): maxValue = 2·roundup32(4·A·R), minValue =
/// 2·roundup32(4·R). isReuseSource is reserved and isComputeRstd selects
/// nothing here (both change no size); isOnlyOutput must be false. Bad
/// input (typeSize not 2 or 4, rank not 2, a dimension outside
/// [1, 2^32-1], R·typeSize not a multiple of 32, A·R beyond 32 bits,
/// isOnlyOutput): a message on stderr and 0, 0.
void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                               bool isReuseSource, bool isComputeRstd,
                               bool isOnlyOutput, uint32_t& maxValue,
                               uint32_t& minValue);

/// Fills the [A, R] form's tiling for a scratch of stackBufferSize BYTES.
/// Bad input — the shape rules above, or a scratch below two rows of R
/// floats — prints a message on stderr and zeroes the whole tiling.
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape,
                              uint32_t stackBufferSize, uint32_t typeSize,
                              bool isReuseSource, bool isComputeRstd,
                              optiling::LayerNormSeparateTiling& tiling);

/// The same, filling the kernel-side struct directly.
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape,
                              uint32_t stackBufferSize, uint32_t typeSize,
                              bool isReuseSource, bool isComputeRstd,
                              AscendC::tiling::LayerNormSeparateTiling& tiling);

}  // namespace AscendC

namespace normgrad_ascendc {

inline constexpr size_t kLayerNormSeparateTilingFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_LAYERNORM_SEPARATE_TILING_FIELDS);

/// The fields of a LayerNormSeparateTiling in struct order, named as the
/// struct members.
std::array<TilingField, kLayerNormSeparateTilingFieldCount>
LayerNormSeparateTilingFields(
    const AscendC::tiling::LayerNormSeparateTiling& tiling);

}  // namespace normgrad_ascendc
