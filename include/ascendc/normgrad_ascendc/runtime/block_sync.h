// normgrad_ascendc/runtime/block_sync.h — synchronization between the blocks of
// a launch (docs/runtime.md, "Synchronization"): SyncAll (hard and soft forms),
// IBSet/IBWait, CrossCoreSetFlag/CrossCoreWaitFlag (modes 0, 1 and 2),
// InitDetermineComputeWorkspace/WaitPreBlock/NotifyNextBlock; the task-level
// SetNextTaskStart/WaitPreTaskEnd; the core-local Mutex with
// AllocMutexID/ReleaseMutexID; and GroupBarrier (Arrive/Wait between a group
// of blocks that arrive and a group that waits).
//
// A launch that uses them may have at most as many blocks as the profile has
// vector cores (else a KernelError naming numBlocks, the count and the rule):
// those blocks run at once, each on its own host thread. A block waiting for
// a condition that can no longer come true (every running block waits, or it
// waits for blocks that already ended) fails with a message naming each
// block and what it waits in, instead of hanging. A SyncAll also makes the
// participating blocks' deferred atomic writes visible (atomic.h).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/sync.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The untyped parts of the APIs below (block_sync.cc). Workspace sizes are
/// in bytes; gm_bytes 0 means unknown (SetGlobalBuffer without a size).
void SyncAllImpl(uint32_t used_cores);
void CheckSyncWorkspaces(const char* api, uint64_t gm_bytes, uint64_t gm_needed,
                         uint64_t ub_bytes, uint64_t ub_needed);
void IBSetImpl(const void* gm, int32_t block, int32_t event_id);
void IBWaitImpl(const void* gm, int32_t block, int32_t event_id);
void CheckGroupBarrier(const void* workspace, uint32_t arrive_size,
                       uint32_t wait_size);
void GroupBarrierArriveImpl(const void* workspace, uint32_t arrive_size,
                            uint32_t wait_size, uint32_t index);
void GroupBarrierWaitImpl(const void* workspace, uint32_t arrive_size,
                          uint32_t wait_size, uint32_t index);
/// `api` names the caller in messages (the C API's asc_sync_inter_*).
void CrossCoreSetFlagImpl(uint8_t mode, uint16_t flag_id,
                          const char* api = "CrossCoreSetFlag");
void CrossCoreWaitFlagImpl(uint8_t mode, uint16_t flag_id,
                           const char* api = "CrossCoreWaitFlag");
void NotifyNextBlockImpl();
void WaitPreBlockImpl();
void MutexLockImpl(uint8_t id);
void MutexUnlockImpl(uint8_t id);
uint8_t AllocMutexIdImpl();
void ReleaseMutexIdImpl(uint8_t id);

}  // namespace normgrad_ascendc

namespace AscendC {

/// The pipes that signal and wait in a hard SyncAll (accepted; every pipe
/// of an emulated core has finished when its next instruction runs).
struct SyncAllConfig {
  pipe_t triggerPipe;
  pipe_t waitPipe;
};
inline constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};

/// Hard SyncAll: waits until every block of the launch has reached its
/// SyncAll of the same round.
template <bool isAIVOnly = true,
          const SyncAllConfig& config = DEFAULT_SYNC_ALL_CONFIG>
inline void SyncAll(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SyncAllImpl(0);
}

/// Soft SyncAll: the same over the first `usedCores` blocks that call it
/// (0: all). gmWorkspace needs GetBlockNum()·32 bytes set to zero and
/// ubWorkspace GetBlockNum()·32 bytes; on the 950 profile 32 bytes each, as
/// programs built for it pass and run there. normgrad keeps its own state
/// and writes neither.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace,
                    const LocalTensor<int32_t>& ubWorkspace,
                    const int32_t usedCores = 0,
                    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  const uint64_t needed = normgrad_ascendc::OnProfile950()
                              ? 32
                              : static_cast<uint64_t>(GetBlockNum()) * 32;
  normgrad_ascendc::CheckSyncWorkspaces(
      "SyncAll", gmWorkspace.GetSize() * sizeof(int32_t), needed,
      ubWorkspace.GetSize() * sizeof(int32_t), needed);
  if (usedCores < 0 || usedCores > GetBlockNum()) {
    normgrad_ascendc::Fail(
        "SyncAll: usedCores %d is out of range; it may be 0 (every block) up "
        "to numBlocks %lld",
        usedCores, static_cast<long long>(GetBlockNum()));
  }
  normgrad_ascendc::SyncAllImpl(static_cast<uint32_t>(usedCores));
}

/// Sets the flag (gmWorkspace, blockIdx, eventID) that IBWait with the same
/// arguments waits for. A flag stays set until the launch ends.
template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace,
                  const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                  int32_t eventID, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CheckSyncWorkspaces(
      "IBSet", gmWorkspace.GetSize() * sizeof(int32_t), 0,
      ubWorkspace.GetSize() * sizeof(int32_t), 32);
  normgrad_ascendc::IBSetImpl(gmWorkspace.GetPhyAddr(), blockIdx, eventID);
}

/// Waits until IBSet with the same gmWorkspace, blockIdx and eventID ran.
template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace,
                   const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                   int32_t eventID, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CheckSyncWorkspaces(
      "IBWait", gmWorkspace.GetSize() * sizeof(int32_t), 0,
      ubWorkspace.GetSize() * sizeof(int32_t), 32);
  normgrad_ascendc::IBWaitImpl(gmWorkspace.GetPhyAddr(), blockIdx, eventID);
}

/// Reports this core's arrival at flagId (0..15) in modeId: 0, every core
/// of its kind; 1, the vector cores of its AI Core; 2, its AI Core's cube
/// core and vector cores (modes 1 and 2 in mixed kernels only). A flag's
/// counter on a core holds at most 15 arrivals it has not waited for.
/// `pipe` is accepted: a core's earlier instructions have ended when it
/// runs.
template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId,
                             normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CrossCoreSetFlagImpl(modeId, flagId);
}

/// The core's n-th wait on (modeId, flagId) returns once the cores that
/// release it have each set it n times: mode 0, every core of its kind;
/// mode 1, the vector cores of its AI Core; mode 2, the cube core for a
/// vector core and all the vector cores for the cube core.
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId,
                              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CrossCoreWaitFlagImpl(modeId, flagId);
}

/// Prepares WaitPreBlock/NotifyNextBlock: gmWorkspace needs GetBlockNum()·32
/// bytes and ubWorkspace GetBlockNum()·32 + 32 (normgrad keeps its own
/// state).
inline void InitDetermineComputeWorkspace(
    GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace,
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  const uint64_t needed = static_cast<uint64_t>(GetBlockNum()) * 32;
  normgrad_ascendc::CheckSyncWorkspaces(
      "InitDetermineComputeWorkspace", gmWorkspace.GetSize() * sizeof(int32_t),
      needed, ubWorkspace.GetSize() * sizeof(int32_t), needed + 32);
}

/// Waits for the previous block's NotifyNextBlock of the same round (block
/// 0 from round 2 on: the last block's of the round before), so that the
/// blocks pass in ascending order.
inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace,
                         LocalTensor<int32_t>& ubWorkspace,
                         normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_cast<void>(gmWorkspace);
  static_cast<void>(ubWorkspace);
  normgrad_ascendc::WaitPreBlockImpl();
}

/// Lets the next block pass its WaitPreBlock of this round.
inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace,
                            LocalTensor<int32_t>& ubWorkspace,
                            normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_cast<void>(gmWorkspace);
  static_cast<void>(ubWorkspace);
  normgrad_ascendc::NotifyNextBlockImpl();
}

/// Task-level early start: launches run one after another on the CPU, so
/// these have nothing to do.
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX,
          bool FORCE = false>
inline void SetNextTaskStart() {}
template <bool FORCE = false>
inline void WaitPreTaskEnd() {}

/// A core-local lock identifier (0..27 for programs managing their own).
using MutexID = uint8_t;

/// A lock between the pipes of one core. An emulated core runs its
/// instructions in program order, so a lock never waits; normgrad checks
/// that Lock and Unlock pair up.
struct Mutex {
  template <pipe_t pipe>
  static void Lock(MutexID id, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::MutexLockImpl(id);
  }
  template <pipe_t pipe>
  static void Unlock(MutexID id, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::MutexUnlockImpl(id);
  }
};

/// Takes a free MutexID of the current core.
inline MutexID AllocMutexID(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::AllocMutexIdImpl();
}

/// Gives back an ID from AllocMutexID.
inline void ReleaseMutexID(MutexID id, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ReleaseMutexIdImpl(id);
}

/// The unit a GroupBarrier sends its messages with (only MTE3_MODE exists).
enum class PipeMode : uint8_t {
  SCALAR_MODE = 0,
  MTE3_MODE = 1,
  MAX,
};

/// A barrier between two groups of blocks: the arriveSize blocks of the
/// arrive group call Arrive(their index), the waitSize blocks of the wait
/// group Wait(their index). A block's n-th Wait returns once every index of
/// the arrive group has arrived n times, so both may be called in a loop (at
/// most 1,048,575 times). Every block names the barrier by its workspace
/// (GM, 512-byte aligned, GetWorkspaceLen() bytes the program zeroes; normgrad
/// keeps its own state and writes none of it) and must pass the same sizes.
/// Atlas A2/A3 and the 950; a wait that can never end is reported as a
/// deadlock, like SyncAll's.
template <PipeMode pipeMode>
class GroupBarrier {
 public:
  static_assert(pipeMode == PipeMode::MTE3_MODE,
                "GroupBarrier: pipeMode must be PipeMode::MTE3_MODE");

  GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn,
               uint32_t waitSizeIn, normgrad_ascendc::CallSite site = {})
      : workspace_(groupWorkspace),
        arrive_size_(arriveSizeIn),
        wait_size_(waitSizeIn) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::CheckGroupBarrier(workspace_, arrive_size_, wait_size_);
  }
  /// Tells the wait group that this block (arriveIndex of the arrive group)
  /// has done its part.
  void Arrive(uint32_t arriveIndex, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::GroupBarrierArriveImpl(workspace_, arrive_size_,
                                             wait_size_, arriveIndex);
  }
  /// Waits (as waitIndex of the wait group) for the arrive group.
  void Wait(uint32_t waitIndex, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::GroupBarrierWaitImpl(workspace_, arrive_size_, wait_size_,
                                           waitIndex);
  }
  /// The GM bytes the barrier uses: 512 per block of the larger group.
  uint64_t GetWorkspaceLen() const {
    return uint64_t{512} *
           (arrive_size_ > wait_size_ ? arrive_size_ : wait_size_);
  }

 private:
  GM_ADDR workspace_;
  uint32_t arrive_size_;
  uint32_t wait_size_;
};

}  // namespace AscendC
