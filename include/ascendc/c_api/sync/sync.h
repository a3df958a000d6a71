// c_api/sync/sync.h — the C API's synchronization inside a core on Atlas
// A2/A3 (docs/capi.md, "Pipes and _sync"): asc_sync_notify/asc_sync_wait
// (an event from one pipe to another), asc_sync_pipe, asc_sync,
// asc_sync_vec, asc_sync_mte2, asc_sync_mte3 and asc_sync_data_barrier.
// normgrad's emulated core runs every instruction to its end before the next
// one starts, in program order, as the C++ API's PipeBarrier and
// SetFlag/WaitFlag model it (normgrad_ascendc/runtime/sync.h): so each of
// these orders nothing that is not ordered already, and only their
// documented argument rules are checked.
//
// Between cores (docs/capi.md, "Sync between blocks"): each flag id 0..15
// has a counter that an arrive raises and a wait lowers, waiting while it is
// 0; a counter holds at most 15.
//   - asc_sync_inter_arrive/wait synchronize the groups (AI cores) of a
//     launch: the runtime's all-vector-core flags (CrossCoreSetFlag and
//     CrossCoreWaitFlag in mode 0): a block's n-th wait on a flag returns
//     once every block of the launch has arrived on it n times.
//   - asc_sync_block_* (the cores of one group) and asc_sync_subblock_* (the
//     vector cores of one group): normgrad runs each block as a group of one
//     vector core, so these counters are the calling core's own; a wait on a
//     counter at 0 can never end and is reported instead of hanging.
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

/// Raises the counter of `flag_id` (0..15) of the calling block's group.
void asc_sync_block_arrive(pipe_t pipe, int64_t flag_id,
                           normgrad_ascendc::CallSite site = {});
/// Waits for the counter of `flag_id` of the block's group and lowers it.
void asc_sync_block_wait(pipe_t pipe, int64_t flag_id,
                         normgrad_ascendc::CallSite site = {});
/// Raises the counter of `flag_id` between the groups of the launch.
void asc_sync_inter_arrive(pipe_t pipe, int64_t flag_id,
                           normgrad_ascendc::CallSite site = {});
/// Waits until every block of the launch has arrived on `flag_id` as often
/// as this block has waited on it (this wait included).
void asc_sync_inter_wait(pipe_t pipe, int64_t flag_id,
                         normgrad_ascendc::CallSite site = {});
/// Raises the counter of `flag_id` between the vector cores of the group.
void asc_sync_subblock_arrive(pipe_t pipe, int64_t flag_id,
                              normgrad_ascendc::CallSite site = {});
/// Waits for the counter of `flag_id` of the vector cores and lowers it.
void asc_sync_subblock_wait(pipe_t pipe, int64_t flag_id,
                            normgrad_ascendc::CallSite site = {});
