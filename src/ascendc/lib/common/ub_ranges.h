// src/ascendc/lib/common/ub_ranges.h — the overlap rule of the normalization
// APIs (internal, not installed): a named byte range of one core's unified
// buffer, whether two overlap, the KernelError that says so, the check of
// what a call writes against what it writes and reads (with the API's
// exceptions), and the check of a call's operands for the APIs whose rule is
// only "what the call writes shares memory with no other operand". These
// checks are also how an advanced API declares what it reads and writes:
// once they pass, the sync check (NORMGRAD_CHECK=sync) learns of each range
// as read or written on PIPE_V.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/sync_check.h"
#include "normgrad_ascendc/runtime/tensor.h"

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

/// Tells the sync check that `api` reads or writes `range` on PIPE_V.
inline void NoteVectorRange(const char* api, const UbRange& range, bool write) {
  if (SyncCheckOn()) {
    NoteUbAccess(SyncPipe::kV, api, range.begin, range.end - range.begin,
                 write);
  }
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

/// Fails (KernelError naming `api`) when two of the ranges a call writes
/// overlap ("<api> writes both, so they must not share memory"), or when a
/// written range overlaps a read one and allowed(i, k) does not let written
/// range i share memory with read range k (`read_rule` ends that message).
/// Each written range is tested against those before it, then against every
/// read range, in order: with several overlaps, the first found is named.
template <typename Allowed>
void CheckWrittenAndRead(const char* api, const UbRange* written,
                         size_t written_count, const UbRange* read,
                         size_t read_count, const char* read_rule,
                         Allowed allowed) {
  const std::string both =
      std::string(api) + " writes both, so they must not share memory";
  for (size_t i = 0; i < written_count; ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (UbOverlap(written[j], written[i])) {
        FailUbOverlap(api, written[j], written[i], both.c_str());
      }
    }
    for (size_t k = 0; k < read_count; ++k) {
      if (!allowed(i, k) && UbOverlap(written[i], read[k])) {
        FailUbOverlap(api, written[i], read[k], read_rule);
      }
    }
  }
  for (size_t k = 0; k < read_count; ++k) NoteVectorRange(api, read[k], false);
  for (size_t i = 0; i < written_count; ++i) {
    NoteVectorRange(api, written[i], true);
  }
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
  for (size_t i = 0; i < count; ++i) {
    const UbOperand& o = ops[i];
    NoteVectorRange(api, UbRangeOf(o.name, *o.view, o.bytes), o.written);
  }
}

}  // namespace normgrad_ascendc
