// normgrad_ascendc/lib/normalization/welfordupdate_host_tiling.h — the
// host-side tiling API of WelfordUpdate (docs/welfordupdate.md, "Host tiling"):
// the scratch-size query AscendC::GetWelfordUpdateMaxMinTmpSize, and a by-name
// listing of WelfordUpdateParam's fields for tools. WelfordUpdate has no tiling
// struct: each call takes its WelfordUpdateParam.
//
// Error policy: the query returns void, as the vendor's does. On bad input it
// prints one message on stderr naming the function, the argument, the value
// and the rule, and returns 0 and 0. Nothing throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/normalization/welfordupdate_tiling.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace AscendC {

/// Scratch sizes in bytes for WelfordUpdate on srcShape = {rnLength,
/// abLength}, inputX elements of typeSizeT bytes (2 half or bfloat16_t, 4
/// float) and mean/variance elements of typeSizeU bytes (4: float):
///   per element f floats: 2 (half, bfloat16_t), 1 (float), 0 (float with
///   isReuseSource, except on the Atlas inference series, which ignores it)
///   maxValue = 4·f·rnLength·abLength, minValue = 4·f·min(abLength, 64)
/// (saturating at 2^32-1). isInplace does not change the sizes. Bad input —
/// typeSizeT not 2 or 4, typeSizeU not 4, rank not 2, a dimension outside
/// [1, 2^32-1], abLength not a multiple of 32/typeSizeT — prints a message
/// on stderr and gives 0 and 0.
void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape,
                                   uint32_t typeSizeT, uint32_t typeSizeU,
                                   bool isReuseSource, bool isInplace,
                                   uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC

namespace normgrad_ascendc {

/// The number of fields of a WelfordUpdateParam (4).
inline constexpr size_t kWelfordUpdateParamFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_WELFORDUPDATE_PARAM_FIELDS);

/// The fields of a WelfordUpdateParam in struct order, named as the members.
std::array<TilingField, kWelfordUpdateParamFieldCount> WelfordUpdateParamFields(
    const AscendC::WelfordUpdateParam& tiling);

}  // namespace normgrad_ascendc
