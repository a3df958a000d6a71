// ub_tail.cc — the bytes kept at the end of a vector core's UB (ub_tail.h).
// A core runs on one host thread at a time, so each thread records the cores
// it keeps bytes of.
#include "ascendc/runtime/ub_tail.h"

#include <map>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/pipe.h"

namespace normgrad_ascendc {

namespace {

struct Kept {
  uint32_t bytes = 0;
  const char* api = "";
};

std::map<const Core*, Kept>& KeptOfThread() {
  thread_local std::map<const Core*, Kept> kept;
  return kept;
}

}  // namespace

void KeepUbTail(Core& core, uint32_t bytes, const char* api) {
  Kept& kept = KeptOfThread()[&core];
  if (bytes <= kept.bytes) return;
  const uint32_t end = core.scratch_end();
  const uint32_t used = core.pipe() != nullptr ? core.pipe()->used_bytes() : 0;
  if (used > end - bytes) {
    Fail(
        "%s: keeps the last %u bytes of the unified buffer (from byte %u), "
        "but the core's TPipe has handed out bytes up to %u already; make the "
        "group before the buffers, or leave its bytes free",
        api, bytes, end - bytes, used);
  }
  kept = {bytes, api};
}

uint32_t UbTailKept(const Core& core) {
  const auto& kept = KeptOfThread();
  const auto found = kept.find(&core);
  return found == kept.end() ? 0 : found->second.bytes;
}

const char* UbTailKeeper(const Core& core) {
  const auto& kept = KeptOfThread();
  const auto found = kept.find(&core);
  return found == kept.end() ? "" : found->second.api;
}

void ClearUbTail(const Core& core) { KeptOfThread().erase(&core); }

}  // namespace normgrad_ascendc
