// sys_var.cc — the C API's system variables that need more than a core
// query (c_api/sys_var/sys_var.h), and asc_sync_pipe's rule
// (c_api/sync/sync.h).
#include "c_api/sys_var/sys_var.h"

#include <chrono>
#include <cstdint>

#include "c_api/sync/sync.h"
#include "normgrad_ascendc/capi/capi_call.h"

using normgrad_ascendc::CallSite;

uint64_t asc_get_phy_buf_addr(uint64_t offset, CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_phy_buf_addr", site);
  normgrad_ascendc::Core& core = normgrad_ascendc::CurrentCore();
  if (offset > core.ub_size()) {
    normgrad_ascendc::Fail(
        "asc_get_phy_buf_addr: offset %llu is past the unified buffer's %u "
        "bytes (profile %s); it must be 0 to %u",
        static_cast<unsigned long long>(offset), core.ub_size(),
        core.profile().name, core.ub_size());
  }
  // The block may use any byte of its UB: all of it is zeroed after the
  // block.
  core.Touch(core.ub_size());
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(core.ub())) + offset;
}

int64_t asc_get_system_cycle(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_system_cycle", site);
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void asc_sync_pipe(pipe_t pipe, CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_sync_pipe", site);
  if (pipe == PIPE_S) {
    normgrad_ascendc::Fail(
        "asc_sync_pipe: pipe PIPE_S is not taken; the scalar pipe is "
        "ordered by the hardware (pass another pipe, or PIPE_ALL)");
  }
}
