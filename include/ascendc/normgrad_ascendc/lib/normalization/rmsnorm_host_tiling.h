// normgrad_ascendc/lib/normalization/rmsnorm_host_tiling.h — the host-side
// tiling API of RmsNorm: the host class optiling::RmsNormTiling, the
// scratch-size query AscendC::GetRmsNormMaxMinTmpSize and the tiling function
// AscendC::GetRmsNormTilingInfo (filling the host class or the kernel-side
// struct), plus a by-name listing of the 12 fields for tools.
//
// Error policy: both functions return bool, as documented. On bad input they
// print one message on stderr that names the function, the argument, the
// value and the rule, and return false; the size query then sets maxValue
// and minValue to 0 and the tiling function zeroes the whole tiling (the
// kernel refuses mainBsLength == 0). Nothing throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/normalization/rmsnorm_tiling.h"
#include "normgrad_ascendc/tiling/round_up.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace optiling {

/// The host tiling class: a setter and a getter per field of the kernel-side
/// struct AscendC::tiling::RmsNormTiling (same names, same order), and
/// SaveToBuffer, which writes exactly the kernel struct's 48 bytes. Usable as
/// a nested struct of a program's own tiling data
/// (TILING_DATA_FIELD_DEF_STRUCT).
BEGIN_TILING_DATA_DEF(RmsNormTiling)
NORMGRAD_RMSNORM_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Scratch sizes in bytes for RmsNorm on srcShape = {B, S, H} (H the
/// 32-byte aligned length) with elements of typeSize bytes (2 half, 4 float).
/// A chunk of r rows needs n·r·H + roundup(r, 8) floats, n = 1 for float
/// (the squares) and 2 for half (the widened input too):
///   maxValue = 4·(n·B·S·H + roundup(B·S, 8))   (every row in one chunk)
///   minValue = 4·(n·m·H + 8)                    (m = 1 row; 8 with
///   isBasicBlock)
/// maxValue saturates at 2^32-1 (it is only a reference value). Bad input —
/// typeSize not 2 or 4, rank not 3, a dimension outside [1, 2^32-1], H·typeSize
/// not a multiple of 32, B·S·H beyond 32 bits, with isBasicBlock H not a
/// multiple of 64 below 2048 or B·S not a multiple of 8, minValue beyond 32
/// bits — prints a message on stderr, sets both to 0 and returns false.
bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             uint32_t& maxValue, uint32_t& minValue,
                             const bool isBasicBlock = false);

/// Fills the tiling for srcShape = {B, S, H} (H 32-byte aligned),
/// originSrcShape = {B, S, originalH} (the same B and S, H the 32-byte
/// alignment of originalH; with isBasicBlock originalH == H), a scratch of
/// stackBufferByteSize bytes and elements of typeSize bytes: as many rows
/// per chunk as the scratch holds (a multiple of 8 with isBasicBlock), at
/// most B·S. Bad input, or a scratch below GetRmsNormMaxMinTmpSize's
/// minimum: a message on stderr, the tiling zeroed, false.
bool GetRmsNormTilingInfo(const ge::Shape& srcShape,
                          const ge::Shape& originSrcShape,
                          const uint32_t stackBufferByteSize,
                          const uint32_t typeSize,
                          optiling::RmsNormTiling& tiling,
                          const bool isBasicBlock = false);

/// The same, filling the kernel-side struct; its bytes equal those the host
/// overload's SaveToBuffer writes.
bool GetRmsNormTilingInfo(const ge::Shape& srcShape,
                          const ge::Shape& originSrcShape,
                          const uint32_t stackBufferByteSize,
                          const uint32_t typeSize,
                          AscendC::tiling::RmsNormTiling& tiling,
                          const bool isBasicBlock = false);

}  // namespace AscendC

namespace normgrad_ascendc {

/// The number of fields of an RmsNormTiling (12).
inline constexpr size_t kRmsNormTilingFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_RMSNORM_TILING_FIELDS);

/// The fields of an RmsNormTiling in struct order, named exactly as the
/// struct members; reciprocalOfHLength is of Type::kFloat.
std::array<TilingField, kRmsNormTilingFieldCount> RmsNormTilingFields(
    const AscendC::tiling::RmsNormTiling& tiling);

/// Floats of scratch a chunk of `rows` rows of h elements needs:
/// n·rows·h + roundup(rows, 8), n = 2 for half (type_size 2), else 1. The
/// host sizes and the kernel's scratch check both use it.
inline uint64_t RmsNormScratchFloats(uint64_t rows, uint64_t h,
                                     uint32_t type_size) {
  const uint64_t per_element = type_size == 2 ? 2 : 1;
  return per_element * rows * h + RoundUp(rows, 8);
}

}  // namespace normgrad_ascendc
