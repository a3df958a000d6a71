// engine/run_record.cc — the run record and its NORMGRAD_VERBOSE line.
#include "engine/run_record.h"

#include <cstdio>
#include <string>

#include "engine/dispatch.h"

namespace normgrad::engine {

void RunLog::Record(const char* api, const Run& run, size_t rows, size_t cols) {
  last_ = run;
  if (!CurrentDispatch().verbose) return;
  if (run.kind == printed_.kind && run.isa == printed_.isa && run.threads == printed_.threads &&
      run.dtype == printed_.dtype && run.stores == printed_.stores) {
    return;
  }
  std::fprintf(stderr, "normgrad: %s %s %zux%zu %s:%s threads=%d%s%s\n", api, DTypeName(run.dtype),
               rows, cols, run.kind, run.isa, run.threads, run.stores != nullptr ? " stores=" : "",
               run.stores != nullptr ? run.stores : "");
  printed_ = run;
}

RunInfo RunLog::Last() const { return {std::string(last_.kind) + ":" + last_.isa, last_.threads}; }

}  // namespace normgrad::engine
