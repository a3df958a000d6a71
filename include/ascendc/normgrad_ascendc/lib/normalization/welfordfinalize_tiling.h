// normgrad_ascendc/lib/normalization/welfordfinalize_tiling.h — the kernel-side
// parameter and configuration types of WelfordFinalize (the contract:
// docs/welfordfinalize.md) and the scratch-size rule the kernel checks and the
// host query reports, kept here so that both use the same one:
//   WelfordFinalizePara    the row's split and coefficients, passed to every
//                          call
//   WelfordFinalizeConfig  {isCorrection}, a template parameter (Ascend 950);
//                          WFFINALIZE_DEFAULT_CFG is {false}
// Visible as AscendC::… and, as Ascend C programs write them, unqualified at
// global scope.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields of WelfordFinalizePara in struct order (tiling_fields.h says
/// how the list is used).
#define NORMGRAD_WELFORDFINALIZE_PARA_FIELDS(X)                         \
  X(uint32_t, rnLength)  /* chunks the row was split into */            \
  X(uint32_t, abLength)  /* elements of a chunk: the inputs' length */  \
  X(uint32_t, headCount) /* count of the first headCountLength lanes */ \
  X(uint32_t, headCountLength)                                          \
  X(uint32_t, tailCount) /* count of the remaining lanes */             \
  X(uint32_t, tailCountLength)                                          \
  X(float, abRec)              /* 1 / abLength */                       \
  X(float, rRec)               /* 1 / (rnLength·abLength), or 1 / R */ \
  X(float, rRecWithCorrection) /* the corrected coefficient (Ascend 950) */

namespace AscendC {

struct WelfordFinalizePara {
  NORMGRAD_WELFORDFINALIZE_PARA_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};

struct WelfordFinalizeConfig {
  bool isCorrection = false;  ///< the variance uses rRecWithCorrection
};

inline constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

}  // namespace AscendC

using AscendC::WelfordFinalizeConfig;
using AscendC::WelfordFinalizePara;

namespace normgrad_ascendc {

/// The minimum scratch in bytes for inputs of ab_length floats: one float per
/// lane for the terms of the two sums, at least one 64-element vector repeat
/// of them (4·min(abLength, 64)).
inline constexpr uint64_t WelfordFinalizeMinTmpBytes(uint32_t ab_length) {
  return uint64_t{4} * (ab_length < 64 ? ab_length : 64);
}

}  // namespace normgrad_ascendc
