// src/ascendc/lib/math/elementwise.h — the rule of an elementwise Math API
// (internal, not installed): what RunElementwiseMath (elementwise.cc) needs
// to know of each API beyond the call shape they share — its name and
// argument names, the profiles and types it has, whether dst may be src,
// Atlas inference AI Core's input range, and its arithmetic. Each API's rule
// is one entry of the family's table (rounding.cc).
#pragma once

#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace normgrad_ascendc {

/// Whether dst may share memory with src.
enum class DstOnSrc : uint8_t {
  kNever,         ///< the page refuses any overlap
  kSameTensorOk,  ///< dst may be src itself (same start), not overlap partly
};

struct ElementwiseRule {
  const char* api;
  const char* dst_name;    ///< "dstTensor" (Rint: "dst")
  const char* src_name;    ///< "srcTensor" (Rint: "src")
  const char* count_name;  ///< "calCount" (Rint: "count")
  bool only_950;           ///< the page lists the API for Ascend 950 only
  bool int64_on_950;       ///< T = int64_t on Ascend 950 (Sign)
  DstOnSrc dst_on_src;
  /// Atlas inference AI Core (310p) takes inputs in [-2147483647,
  /// 2147483647] only.
  bool range_on_310p;
  /// The arithmetic, in place: on floats (half widened) and, where the API
  /// takes int64_t, on int64_t values (else null).
  void (*on_floats)(float* values, size_t n);
  void (*on_int64)(int64_t* values, size_t n);
};

/// The rule of `api` (rounding.cc).
const ElementwiseRule& RuleOf(MathApi api);

}  // namespace normgrad_ascendc
