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

// The kernel-side patterns, template arguments of the Reduce family
// (docs/reduce.md): one empty type per ReducePattern enumerator, carrying
// it. The pages support AR and RA only; the family's headers refuse the
// others at compile time.
namespace AscendC {
namespace Pattern {
namespace Reduce {

struct AR {
  static constexpr ReducePattern kPattern = ReducePattern::AR;
};
struct RA {
  static constexpr ReducePattern kPattern = ReducePattern::RA;
};
struct R {
  static constexpr ReducePattern kPattern = ReducePattern::R;
};
struct ARA {
  static constexpr ReducePattern kPattern = ReducePattern::ARA;
};
struct ARAR {
  static constexpr ReducePattern kPattern = ReducePattern::ARAR;
};
struct ARARA {
  static constexpr ReducePattern kPattern = ReducePattern::ARARA;
};
struct ARARAR {
  static constexpr ReducePattern kPattern = ReducePattern::ARARAR;
};
struct ARARARA {
  static constexpr ReducePattern kPattern = ReducePattern::ARARARA;
};
struct ARARARAR {
  static constexpr ReducePattern kPattern = ReducePattern::ARARARAR;
};
struct ARARARARA {
  static constexpr ReducePattern kPattern = ReducePattern::ARARARARA;
};
struct RAR {
  static constexpr ReducePattern kPattern = ReducePattern::RAR;
};
struct RARA {
  static constexpr ReducePattern kPattern = ReducePattern::RARA;
};
struct RARAR {
  static constexpr ReducePattern kPattern = ReducePattern::RARAR;
};
struct RARARA {
  static constexpr ReducePattern kPattern = ReducePattern::RARARA;
};
struct RARARAR {
  static constexpr ReducePattern kPattern = ReducePattern::RARARAR;
};
struct RARARARA {
  static constexpr ReducePattern kPattern = ReducePattern::RARARARA;
};

}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC
