// normgrad_ascendc/lib/normalization/welfordupdate_tiling.h — the kernel-side
// parameter and configuration types of WelfordUpdate (the contract:
// docs/welfordupdate.md) and the scratch-size rule the kernel checks and the
// host query reports, kept here so that both use the same one:
//   WelfordUpdateParam    {rnLength, abLength, abComputeLength, nRec}, passed
//                         to every call
//   WelfordUpdateConfig   {isInplace}, a template parameter;
//                         WFUPDATE_DEFAULT_CFG is {false}
// Visible as AscendC::… and, as Ascend C programs write them, unqualified at
// global scope.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields of WelfordUpdateParam in struct order (tiling_fields.h says how
/// the list is used).
#define NORMGRAD_WELFORDUPDATE_PARAM_FIELDS(X)                        \
  X(uint32_t, rnLength)        /* rows: must be 1 */                  \
  X(uint32_t, abLength)        /* elements of a row (storage) */      \
  X(uint32_t, abComputeLength) /* elements updated, from the start */ \
  X(float, nRec)               /* 1 / i for the i-th call */

namespace AscendC {

struct WelfordUpdateParam {
  NORMGRAD_WELFORDUPDATE_PARAM_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};

struct WelfordUpdateConfig {
  bool isInplace = false;  ///< outputs beyond abComputeLength copy the inputs
};

inline constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

}  // namespace AscendC

using AscendC::WelfordUpdateConfig;
using AscendC::WelfordUpdateParam;

namespace normgrad_ascendc {

/// Floats of scratch per element WelfordUpdate keeps: the widened x and the
/// difference x − mean for half and bfloat16_t; the difference for float;
/// none for float with isReuseSource where the profile honours it (the
/// difference then goes over inputX).
inline constexpr uint32_t WelfordUpdateScratchFloats(uint32_t type_size_t,
                                                     bool reuse_source) {
  return type_size_t == 4 ? (reuse_source ? 0u : 1u) : 2u;
}

/// Elements of one vector repeat (256 bytes of floats): the smallest chunk
/// the kernel works in, so the minimum scratch holds one repeat per buffer.
inline constexpr uint32_t kWelfordUpdateMinChunk = 64;

/// The minimum scratch in bytes for a row of ab_length elements:
/// 4 · floats-per-element · min(abLength, 64).
inline constexpr uint64_t WelfordUpdateMinTmpBytes(uint32_t ab_length,
                                                   uint32_t type_size_t,
                                                   bool reuse_source) {
  return uint64_t{4} * WelfordUpdateScratchFloats(type_size_t, reuse_source) *
         (ab_length < kWelfordUpdateMinChunk ? ab_length
                                             : kWelfordUpdateMinChunk);
}

}  // namespace normgrad_ascendc
