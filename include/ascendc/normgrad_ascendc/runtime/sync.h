// normgrad_ascendc/runtime/sync.h — synchronization between the pipes of one
// core (docs/runtime.md, "Synchronization"): the pipe and event enums,
// PipeBarrier, SetFlag and WaitFlag, DataSyncBarrier and TQueSync. An
// emulated core runs every instruction in program order, so none of these
// changes what a kernel computes; under NORMGRAD_CHECK=sync they tell the
// sync check how the pipes are ordered (sync_check.h). Synchronization
// between blocks is in block_sync.h.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/sync_check.h"

/// The instruction pipes of an AI core (global, as kernel code spells them).
enum pipe_t : uint8_t {
  PIPE_S,     ///< scalar
  PIPE_V,     ///< vector
  PIPE_M,     ///< matrix (cube)
  PIPE_MTE1,  ///< L1 → L0A/L0B
  PIPE_MTE2,  ///< GM → UB/L1
  PIPE_MTE3,  ///< UB → GM
  PIPE_ALL,   ///< every pipe
  PIPE_FIX,   ///< L0C → GM/L1
};

/// Event identifiers between pipes (global, as kernel code spells them).
enum event_t : uint8_t {
  EVENT_ID0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};

namespace AscendC {

/// A pair of pipes an event orders: the first pipe signals, the second waits.
enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MAX,
};

/// An event identifier as TPipe::FetchEventID returns it.
using TEventID = int8_t;

/// Waits until `pipe` has finished its queued instructions (the sync check
/// only).
template <pipe_t pipe>
inline void PipeBarrier(normgrad_ascendc::CallSite site = {}) {
  if (!normgrad_ascendc::SyncCheckOn()) return;
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SyncPipeBarrier(pipe);
}

/// Signals `event` from the first pipe of `evt` (the sync check only).
template <HardEvent evt>
inline void SetFlag(int32_t event, normgrad_ascendc::CallSite site = {}) {
  if (!normgrad_ascendc::SyncCheckOn()) return;
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SyncFlag(true, static_cast<uint8_t>(evt), event);
}

/// Makes the second pipe of `evt` wait for `event` (the sync check only).
template <HardEvent evt>
inline void WaitFlag(int32_t event, normgrad_ascendc::CallSite site = {}) {
  if (!normgrad_ascendc::SyncCheckOn()) return;
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SyncFlag(false, static_cast<uint8_t>(evt), event);
}

/// The memory whose accesses DataSyncBarrier waits for.
enum class MemDsbT : uint8_t { ALL, DDR, UB, SEQ };

/// Waits until the core's accesses to `arg0` have completed. No effect here.
template <MemDsbT arg0>
inline void DataSyncBarrier() {}

/// SetFlag/WaitFlag between a fixed pair of pipes (the sync check only).
template <pipe_t src, pipe_t dst>
class TQueSync {
 public:
  void SetFlag(TEventID id, normgrad_ascendc::CallSite site = {}) {
    if (!normgrad_ascendc::SyncCheckOn()) return;
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::SyncQueSyncFlag(true, src, dst, id);
  }
  void WaitFlag(TEventID id, normgrad_ascendc::CallSite site = {}) {
    if (!normgrad_ascendc::SyncCheckOn()) return;
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::SyncQueSyncFlag(false, src, dst, id);
  }
};

}  // namespace AscendC
