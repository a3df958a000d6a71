// src/ascendc/ub_ranges.h — byte ranges of one core's unified buffer, for
// the overlap rules of the normalization APIs (internal, not installed): a
// named range, whether two overlap, and the KernelError that says so.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/tensor.h"

namespace normgrad_ascendc {

/// Bytes [begin, end) of one core's unified buffer, named for messages.
struct UbRange {
  const char* name;
  const Core* core;
  uint64_t begin;
  uint64_t end;
};

/// The first `bytes` bytes of a tensor.
inline UbRange UbRangeOf(const char* name, const TensorView& tensor,
                         uint64_t bytes) {
  return {name, tensor.core, tensor.offset, tensor.offset + bytes};
}

inline bool UbOverlap(const UbRange& a, const UbRange& b) {
  return a.core == b.core && a.begin < b.end && b.begin < a.end;
}

/// "<api>: <a> (UB bytes [..)) and <b> (UB bytes [..)) overlap; <rule>".
[[noreturn]] inline void FailUbOverlap(const char* api, const UbRange& a,
                                       const UbRange& b, const char* rule) {
  Fail(
      "%s: %s (UB bytes [%llu, %llu)) and %s (UB bytes [%llu, %llu)) "
      "overlap; %s",
      api, a.name, static_cast<unsigned long long>(a.begin),
      static_cast<unsigned long long>(a.end), b.name,
      static_cast<unsigned long long>(b.begin),
      static_cast<unsigned long long>(b.end), rule);
}

}  // namespace normgrad_ascendc
