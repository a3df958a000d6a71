// src/ascendc/ub_ranges.h — the overlap rule of the normalization APIs
// (internal, not installed): a named byte range of one core's unified
// buffer, whether two overlap, the KernelError that says so, and the check
// of a call's operands for the APIs whose rule is only "what the call writes
// shares memory with no other operand".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

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

/// Whether two ranges share a byte of the same core's unified buffer.
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

/// One operand of a call for CheckOverlaps: its memory, how many of its
/// bytes the call touches, and whether the call writes them.
struct UbOperand {
  const char* name;
  const TensorView* view;
  uint64_t bytes;
  bool written;
};

/// Fails (KernelError naming `api`) when two operands share unified-buffer
/// bytes and the call writes at least one of them. Operands only read may
/// share memory.
inline void CheckOverlaps(const char* api, const UbOperand* ops, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = i + 1; j < count; ++j) {
      const UbOperand& a = ops[i];
      const UbOperand& b = ops[j];
      if (!a.written && !b.written) continue;
      const UbRange ra = UbRangeOf(a.name, *a.view, a.bytes);
      const UbRange rb = UbRangeOf(b.name, *b.view, b.bytes);
      if (!UbOverlap(ra, rb)) continue;
      const std::string rule = std::string("the call writes ") +
                               (a.written ? a.name : b.name) +
                               ", so it must not share memory with another "
                               "operand";
      FailUbOverlap(api, ra, rb, rule.c_str());
    }
  }
}

}  // namespace normgrad_ascendc
