// block_sync.cc — synchronization between the blocks of a launch
// (normgrad_ascendc/runtime/block_sync.h) on the launch's deadlock-detecting
// wait (launch_state.h), and the core-local mutex.
#include "normgrad_ascendc/runtime/block_sync.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "ascendc/runtime/launch_state.h"

namespace normgrad_ascendc {

namespace {

std::string At(const std::string& what) {
  const std::string site = CallSiteText();
  return site.empty() ? what : what + " at " + site;
}

// The n-th of something, for messages: 1st, 2nd, 3rd, 4th.
std::string Ordinal(uint64_t n) {
  const char* suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    if (n % 10 == 1) suffix = "st";
    if (n % 10 == 2) suffix = "nd";
    if (n % 10 == 3) suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

void CheckMode0(const char* api, uint8_t mode, uint16_t flag_id) {
  if (mode != 0) {
    Fail(
        "%s: modeId %u synchronizes cube and vector cores (or the two vector "
        "cores of one AI core) of a mix kernel; normgrad emulates vector "
        "cores only and supports mode 0 (all vector cores)",
        api, mode);
  }
  if (flag_id > 15) {
    Fail("%s: flagId %u is out of range; mode 0 flags are 0..15", api, flag_id);
  }
}

}  // namespace

void CheckSyncWorkspaces(const char* api, uint64_t gm_bytes, uint64_t gm_needed,
                         uint64_t ub_bytes, uint64_t ub_needed) {
  if (gm_bytes != 0 && gm_bytes < gm_needed) {
    Fail("%s: gmWorkspace holds %llu bytes, fewer than the %llu it needs", api,
         static_cast<unsigned long long>(gm_bytes),
         static_cast<unsigned long long>(gm_needed));
  }
  if (ub_bytes < ub_needed) {
    Fail("%s: ubWorkspace holds %llu bytes, fewer than the %llu it needs", api,
         static_cast<unsigned long long>(ub_bytes),
         static_cast<unsigned long long>(ub_needed));
  }
}

void SyncAllImpl(uint32_t used_cores) {
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("SyncAll");
  BlockState& self = CurrentBlock();
  const uint32_t expected = used_cores == 0 ? launch.num_blocks() : used_cores;
  const uint64_t round = ++self.sync_all_calls;
  bool complete = false;
  launch.Change([&] {
    auto& [arrived, wanted] = launch.sync_rounds[round];
    if (arrived.empty()) wanted = expected;
    if (wanted != expected) {
      Fail(
          "SyncAll: usedCores %u differs from the %u of the blocks that "
          "reached this round first; every block of a round must pass the "
          "same usedCores",
          expected, wanted);
    }
    arrived.push_back(self.index);
    if (arrived.size() == wanted) {
      // Every participant waits here: apply their deferred atomic writes in
      // block order.
      std::sort(arrived.begin(), arrived.end());
      for (const uint32_t b : arrived) launch.FlushPending(b, b + 1);
      complete = true;
    }
  });
  if (complete) return;
  launch.Wait(self, At("SyncAll (its " + Ordinal(round) + " call)"), [&] {
    const auto& [arrived, wanted] = launch.sync_rounds[round];
    return arrived.size() >= wanted;
  });
}

void IBSetImpl(const void* gm, int32_t block_idx, int32_t event_id) {
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("IBSet");
  if (block_idx < 0 ||
      static_cast<uint32_t>(block_idx) >= launch.num_blocks()) {
    Fail("IBSet: blockIdx %d is out of range 0..%u (numBlocks - 1)", block_idx,
         launch.num_blocks() - 1);
  }
  launch.Change([&] {
    launch.ib_flags[std::make_tuple(gm, block_idx, event_id)] = true;
  });
}

void IBWaitImpl(const void* gm, int32_t block_idx, int32_t event_id) {
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("IBWait");
  if (block_idx < 0 ||
      static_cast<uint32_t>(block_idx) >= launch.num_blocks()) {
    Fail("IBWait: blockIdx %d is out of range 0..%u (numBlocks - 1)", block_idx,
         launch.num_blocks() - 1);
  }
  const auto key = std::make_tuple(gm, block_idx, event_id);
  launch.Wait(CurrentBlock(),
              At("IBWait(blockIdx " + std::to_string(block_idx) + ", eventID " +
                 std::to_string(event_id) + ")"),
              [&] { return launch.ib_flags.count(key) != 0; });
}

void CrossCoreSetFlagImpl(uint8_t mode, uint16_t flag_id) {
  CheckMode0("CrossCoreSetFlag", mode, flag_id);
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("CrossCoreSetFlag");
  launch.Change([&] { ++launch.cross_sets[flag_id]; });
}

void CrossCoreWaitFlagImpl(uint8_t mode, uint16_t flag_id) {
  CheckMode0("CrossCoreWaitFlag", mode, flag_id);
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("CrossCoreWaitFlag");
  BlockState& self = CurrentBlock();
  const uint64_t n = ++self.cross_wait_calls[flag_id];
  const uint64_t needed = n * launch.num_blocks();
  launch.Wait(self,
              At("CrossCoreWaitFlag(flagId " + std::to_string(flag_id) +
                 ", its " + Ordinal(n) + " wait)"),
              [&] { return launch.cross_sets[flag_id] >= needed; });
}

void WaitPreBlockImpl() {
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("WaitPreBlock");
  BlockState& self = CurrentBlock();
  const uint64_t round = ++self.wait_pre_calls;
  // Block 0 passes its first round at once and then follows the last
  // block's previous round; every other block follows the one before it.
  const bool first = self.index == 0;
  if (first && round == 1) return;
  const uint32_t previous = first ? launch.num_blocks() - 1 : self.index - 1;
  const uint64_t needed = first ? round - 1 : round;
  const BlockState& before = launch.block(previous);
  launch.Wait(self,
              At("WaitPreBlock (its " + Ordinal(round) + " call, for block " +
                 std::to_string(previous) + ")"),
              [&] { return before.notify_calls >= needed; });
}

void NotifyNextBlockImpl() {
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("NotifyNextBlock");
  BlockState& self = CurrentBlock();
  launch.Change([&] { ++self.notify_calls; });
}

// ---- The core-local mutex --------------------------------------------------

namespace {

constexpr uint8_t kMutexIds = 32;
constexpr uint8_t kAllocatableMutexIds = 28;  // 28..31 are the system's

void CheckMutexId(const char* api, uint8_t id) {
  if (id >= kMutexIds) {
    Fail("%s: MutexID %u is out of range 0..%u", api, id, kMutexIds - 1);
  }
}

}  // namespace

void MutexLockImpl(uint8_t id) {
  CheckMutexId("Mutex::Lock", id);
  BlockState& self = CurrentBlock();
  if ((self.mutex_locked >> id & 1u) != 0) {
    Fail(
        "Mutex::Lock: MutexID %u is already locked; Lock and Unlock of an ID "
        "must alternate (the device's behaviour is undefined otherwise)",
        id);
  }
  self.mutex_locked |= 1u << id;
}

void MutexUnlockImpl(uint8_t id) {
  CheckMutexId("Mutex::Unlock", id);
  BlockState& self = CurrentBlock();
  if ((self.mutex_locked >> id & 1u) == 0) {
    Fail(
        "Mutex::Unlock: MutexID %u is not locked; Lock and Unlock of an ID "
        "must alternate (the device's behaviour is undefined otherwise)",
        id);
  }
  self.mutex_locked &= ~(1u << id);
}

uint8_t AllocMutexIdImpl() {
  BlockState& self = CurrentBlock();
  for (uint8_t id = 0; id < kAllocatableMutexIds; ++id) {
    if ((self.mutex_ids >> id & 1u) == 0) {
      self.mutex_ids |= 1u << id;
      return id;
    }
  }
  Fail(
      "AllocMutexID: all %u MutexIDs are taken; release each with "
      "ReleaseMutexID when done",
      kAllocatableMutexIds);
}

void ReleaseMutexIdImpl(uint8_t id) {
  CheckMutexId("ReleaseMutexID", id);
  BlockState& self = CurrentBlock();
  if ((self.mutex_ids >> id & 1u) == 0) {
    Fail("ReleaseMutexID: MutexID %u was not taken with AllocMutexID", id);
  }
  self.mutex_ids &= ~(1u << id);
}

}  // namespace normgrad_ascendc
