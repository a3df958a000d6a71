// src/ascendc/lib/activation/elementwise.h — the rule of an elementwise
// activation API (internal, not installed): what RunActivation
// (elementwise.cc) needs to know of each API beyond the call shape they share
// — its name and its arguments' names, its scratch-size query, whether dst
// may be the source itself, and its arithmetic. Each API's rule is one entry of
// the family's table (elementwise_rules.cc).
#pragma once

#include <cstddef>

#include "normgrad_ascendc/lib/activation/elementwise_call.h"

namespace normgrad_ascendc {
namespace activation {

struct Rule {
  const char* api;
  const char* dst_name;    ///< "dstTensor" or "dstLocal"
  const char* src0_name;   ///< "srcTensor", "srcLocal" or "srcTensor0"
  const char* src1_name;   ///< "srcTensor1", or null for one source
  const char* count_name;  ///< "calCount" or "dataSize"
  const char* query;       ///< the host query that sizes its scratch
  /// dst may be the source itself (same start), not overlap it partly;
  /// otherwise dst shares no memory with a source.
  bool dst_may_be_src;
  /// The arithmetic, in float, in place: values[i] becomes the result for
  /// values[i] (the source; a GLU's srcTensor0) and gate[i] (a GLU's
  /// srcTensor1, else null); beta is Swish's and SwiGLU's β.
  void (*apply)(float* values, const float* gate, size_t n, float beta);
};

/// The rule of `api` (elementwise_rules.cc).
const Rule& RuleOf(ActivationApi api);

}  // namespace activation
}  // namespace normgrad_ascendc
