// normgrad_ascendc/lib/activation/log_softmax_tiling.h — the kernel-side
// tiling struct of LogSoftMax: the fields of SoftMaxTiling (softmax_tiling.h,
// the same list and rule) in a type of its own, as the API names it. Visible
// as AscendC::tiling::LogSoftMaxTiling, AscendC::LogSoftMaxTiling and
// unqualified at global scope.
#pragma once

#include "normgrad_ascendc/lib/activation/softmax_tiling.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace AscendC {
namespace tiling {

struct LogSoftMaxTiling {
  NORMGRAD_SOFTMAX_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};

static_assert(sizeof(LogSoftMaxTiling) == sizeof(SoftMaxTiling),
              "LogSoftMaxTiling has SoftMaxTiling's sixteen words");

}  // namespace tiling
using tiling::LogSoftMaxTiling;
}  // namespace AscendC

using AscendC::tiling::LogSoftMaxTiling;

namespace normgrad_ascendc {

#define NORMGRAD_SOFTMAX_COPY_FIELD(type, name) to.name = from.name;

/// The SoftMaxTiling with the same fields.
inline AscendC::tiling::SoftMaxTiling AsSoftMaxTiling(
    const AscendC::tiling::LogSoftMaxTiling& from) {
  AscendC::tiling::SoftMaxTiling to;
  NORMGRAD_SOFTMAX_TILING_FIELDS(NORMGRAD_SOFTMAX_COPY_FIELD)
  return to;
}

/// The LogSoftMaxTiling with the same fields.
inline AscendC::tiling::LogSoftMaxTiling AsLogSoftMaxTiling(
    const AscendC::tiling::SoftMaxTiling& from) {
  AscendC::tiling::LogSoftMaxTiling to;
  NORMGRAD_SOFTMAX_TILING_FIELDS(NORMGRAD_SOFTMAX_COPY_FIELD)
  return to;
}

#undef NORMGRAD_SOFTMAX_COPY_FIELD

}  // namespace normgrad_ascendc
