// normgrad_ascendc/lib/common/reduce_pattern.h — AscendC::ReducePattern, the
// axis pattern of the reduction-shaped advanced APIs: one letter per dimension
// of the input, A a kept (normal) axis, R a reduced one. The enumerators and
// their values are part of the documented interface.
#pragma once

#include <cstdint>

namespace AscendC {

enum class ReducePattern : uint32_t {
  AR = 0,
  RA = 1,
  R,
  ARA,
  ARAR,
  ARARA,
  ARARAR,
  ARARARA,
  ARARARAR,
  ARARARARA,
  RAR,
  RARA,
  RARAR,
  RARARA,
  RARARAR,
  RARARARA,
};

}  // namespace AscendC
