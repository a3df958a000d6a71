// src/ascendc/lib/filter/filter_checks.h — a rule Select and DropOut share
// (internal): the source and the destination may be the same tensor (the
// pages allow reusing one for the other), but not two tensors that
// partly overlap.
#pragma once

#include <cstdint>

#include "ascendc/lib/common/ub_ranges.h"

namespace normgrad_ascendc {

/// Fails unless dst and src share no byte or start at the same address.
inline void CheckSameOrApart(const char* api, const char* dst_name,
                             const TensorView& dst, const char* src_name,
                             const TensorView& src, uint64_t bytes) {
  const UbRange d = UbRangeOf(dst_name, dst, bytes);
  const UbRange s = UbRangeOf(src_name, src, bytes);
  if (UbOverlap(d, s) && dst.offset != src.offset) {
    FailUbOverlap(api, d, s,
                  "the destination may be the source itself (same address) "
                  "or apart from it, not partly over it");
  }
}

}  // namespace normgrad_ascendc
