// c_api/sync/sync.h — the C API's synchronization inside a core on Atlas
// A2/A3 (docs/capi.md, "Pipes and _sync"): asc_sync_notify/asc_sync_wait
// (an event from one pipe to another), asc_sync_pipe, asc_sync,
// asc_sync_vec, asc_sync_mte2, asc_sync_mte3 and asc_sync_data_barrier.
// normgrad's emulated core runs every instruction to its end before the next
// one starts, in program order, as the C++ API's PipeBarrier and
// SetFlag/WaitFlag model it (normgrad_ascendc/runtime/sync.h): so each of
// these orders nothing that is not ordered already, and only their
// documented argument rules are checked.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/sync.h"

/// The memory whose accesses asc_sync_data_barrier waits for.
enum mem_dsb_t : uint8_t { DSB_ALL, DSB_DDR, DSB_UB, DSB_SEQ };

/// `tpipe` waits for event `id` of `pipe`: the signal.
inline void asc_sync_notify(pipe_t pipe, pipe_t tpipe, event_t id,
                            normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_sync_notify", site);
  static_cast<void>(pipe), static_cast<void>(tpipe), static_cast<void>(id);
}
/// `tpipe` waits for event `id` of `pipe`: the wait.
inline void asc_sync_wait(pipe_t pipe, pipe_t tpipe, event_t id,
                          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_sync_wait", site);
  static_cast<void>(pipe), static_cast<void>(tpipe), static_cast<void>(id);
}

/// Waits until `pipe` (PIPE_ALL: every pipe) has finished; PIPE_S is not
/// taken (the scalar pipe orders itself).
void asc_sync_pipe(pipe_t pipe, normgrad_ascendc::CallSite site = {});

/// Waits until every pipe has finished.
inline void asc_sync(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_sync", site);
}
/// Synchronizes every pipe with the vector pipe.
inline void asc_sync_vec(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_sync_vec", site);
}
/// Waits until the GM → UB pipe (PIPE_MTE2) has finished (event `id`).
inline void asc_sync_mte2(int id, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_sync_mte2", site);
  static_cast<void>(id);
}
/// Waits until the UB → GM pipe (PIPE_MTE3) has finished (event `id`).
inline void asc_sync_mte3(int id, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_sync_mte3", site);
  static_cast<void>(id);
}
/// Waits until the core's accesses to the memory `arg` names have ended.
inline void asc_sync_data_barrier(mem_dsb_t arg,
                                  normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_sync_data_barrier", site);
  static_cast<void>(arg);
}
