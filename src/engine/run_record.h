// engine/run_record.h — what an engine call ran (summation order or pass,
// instruction set, threads, type, store kind): kept per thread for
// LastRunInfo() and LastLayerNormRunInfo(), and printed to stderr under
// NORMGRAD_VERBOSE, one line per change, so loops of calls (the Ascend C
// path makes thousands per launch) print once. Names are static strings: no
// allocation per call.
#pragma once

#include <cstddef>

#include "normgrad/layer_norm_grad_beta.h"
#include "normgrad/types.h"

namespace normgrad::engine {

struct Run {
  const char* kind;  ///< "blocked", "sequential" or "forward"
  const char* isa;   ///< the instruction set's name
  int threads;       ///< threads that worked
  DType dtype;
  const char* stores;  ///< "plain" or "streaming"; null for calls without row outputs
};

/// The record of one family of calls on one thread.
class RunLog {
 public:
  explicit RunLog(const char* kind) : last_{kind, "none", 0, DType::kF32, nullptr} {}
  /// Keeps `run` as the last one and prints
  /// "normgrad: <api> <type> <rows>x<cols> <kind>:<isa> threads=<n>[ stores=<s>]"
  /// when NORMGRAD_VERBOSE is set and it differs from the last printed.
  void Record(const char* api, const Run& run, size_t rows, size_t cols);
  /// "<kind>:<isa>" and threads of the last recorded run.
  RunInfo Last() const;

 private:
  Run last_;
  Run printed_{nullptr, nullptr, 0, DType::kF32, nullptr};
};

}  // namespace normgrad::engine
