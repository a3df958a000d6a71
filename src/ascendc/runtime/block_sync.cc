// block_sync.cc — synchronization between the blocks of a launch
// (normgrad_ascendc/runtime/block_sync.h) on the launch's deadlock-detecting
// wait (launch_state.h), and the core-local mutex.
#include "normgrad_ascendc/runtime/block_sync.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <tuple>

#include "ascendc/runtime/launch_state.h"
#include "normgrad_ascendc/runtime/sync.h"
#include "normgrad_ascendc/runtime/sync_check.h"

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

// The race check's acquire after a wait returned (race_check.h); for the
// sync check, a wait for other blocks orders every pipe of this one.
void AcquireAfterWait(Launch& launch, BlockState& self,
                      const std::string& channel) {
  if (launch.sync_check()) SyncPipeBarrier(PIPE_ALL);
  if (!launch.race_check()) return;
  const std::lock_guard<std::mutex> lock(launch.mutex());
  RaceAcquire(launch, self, channel);
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
  const std::string channel = "SyncAll " + std::to_string(round);
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
    RaceRelease(launch, self, channel);
    if (arrived.size() == wanted) {
      RaceAcquire(launch, self, channel);
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
  AcquireAfterWait(launch, self, channel);
}

namespace {

std::string IbChannel(const void* gm, int32_t block, int32_t event_id) {
  char text[96];
  std::snprintf(text, sizeof text, "IBSet %p %d %d", gm, block, event_id);
  return text;
}

}  // namespace

void IBSetImpl(const void* gm, int32_t block, int32_t event_id) {
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("IBSet");
  if (block < 0 || static_cast<uint32_t>(block) >= launch.num_blocks()) {
    Fail("IBSet: blockIdx %d is out of range 0..%u (numBlocks - 1)", block,
         launch.num_blocks() - 1);
  }
  launch.Change([&] {
    launch.ib_flags[std::make_tuple(gm, block, event_id)] = true;
    RaceRelease(launch, CurrentBlock(), IbChannel(gm, block, event_id));
  });
}

void IBWaitImpl(const void* gm, int32_t block, int32_t event_id) {
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("IBWait");
  if (block < 0 || static_cast<uint32_t>(block) >= launch.num_blocks()) {
    Fail("IBWait: blockIdx %d is out of range 0..%u (numBlocks - 1)", block,
         launch.num_blocks() - 1);
  }
  const auto key = std::make_tuple(gm, block, event_id);
  launch.Wait(CurrentBlock(),
              At("IBWait(blockIdx " + std::to_string(block) + ", eventID " +
                 std::to_string(event_id) + ")"),
              [&] { return launch.ib_flags.count(key) != 0; });
  AcquireAfterWait(launch, CurrentBlock(), IbChannel(gm, block, event_id));
}

void CrossCoreSetFlagImpl(uint8_t mode, uint16_t flag_id, const char* api) {
  CheckMode0(api, mode, flag_id);
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent(api);
  launch.Change([&] {
    ++launch.cross_sets[flag_id];
    RaceRelease(launch, CurrentBlock(),
                "CrossCoreSetFlag " + std::to_string(flag_id));
  });
}

void CrossCoreWaitFlagImpl(uint8_t mode, uint16_t flag_id, const char* api) {
  CheckMode0(api, mode, flag_id);
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent(api);
  BlockState& self = CurrentBlock();
  const uint64_t n = ++self.cross_wait_calls[flag_id];
  const uint64_t needed = n * launch.num_blocks();
  launch.Wait(self,
              At(std::string(api) + "(flagId " + std::to_string(flag_id) +
                 ", its " + Ordinal(n) + " wait)"),
              [&] { return launch.cross_sets[flag_id] >= needed; });
  AcquireAfterWait(launch, self, "CrossCoreSetFlag " + std::to_string(flag_id));
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
  AcquireAfterWait(launch, self, "NotifyNextBlock " + std::to_string(previous));
}

void NotifyNextBlockImpl() {
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("NotifyNextBlock");
  BlockState& self = CurrentBlock();
  launch.Change([&] {
    ++self.notify_calls;
    RaceRelease(launch, self, "NotifyNextBlock " + std::to_string(self.index));
  });
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

namespace {

std::string GroupBarrierChannel(const void* workspace) {
  char text[64];
  std::snprintf(text, sizeof text, "GroupBarrier %p", workspace);
  return text;
}

// The most Arrive or Wait calls one index of a GroupBarrier may make.
constexpr uint64_t kMaxGroupBarrierRounds = 1048575;

// The barrier's shared state, created by the first block that uses it; a
// block passing other sizes for the same workspace is an error.
GroupBarrierState& BarrierOf(Launch& launch, const char* api,
                             const void* workspace, uint32_t arrive_size,
                             uint32_t wait_size) {
  GroupBarrierState& state = launch.group_barriers[workspace];
  if (state.arrivals.empty()) {
    state.arrivals.assign(arrive_size, 0);
    state.waits.assign(wait_size, 0);
  } else if (state.arrivals.size() != arrive_size ||
             state.waits.size() != wait_size) {
    Fail(
        "%s: arriveSize %u and waitSize %u differ from the %zu and %zu "
        "another block created the barrier at the same workspace with; "
        "every block must pass the same",
        api, arrive_size, wait_size, state.arrivals.size(), state.waits.size());
  }
  return state;
}

}  // namespace

void CheckGroupBarrier(const void* workspace, uint32_t arrive_size,
                       uint32_t wait_size) {
  const ProfileInfo& info = CurrentCore().profile();
  if (info.profile == Profile::k310P) {
    Fail("GroupBarrier: not available on %s (Atlas A2/A3 and the 950 have it)",
         info.name);
  }
  if (workspace == nullptr) {
    Fail(
        "GroupBarrier: groupWorkspace is null; it must be GM the program "
        "owns");
  }
  if (reinterpret_cast<uintptr_t>(workspace) % 512 != 0) {
    Fail("GroupBarrier: groupWorkspace %p is not 512-byte aligned", workspace);
  }
  if (arrive_size == 0 || wait_size == 0) {
    Fail(
        "GroupBarrier: arriveSizeIn %u and waitSizeIn %u must both be at "
        "least 1",
        arrive_size, wait_size);
  }
}

void GroupBarrierArriveImpl(const void* workspace, uint32_t arrive_size,
                            uint32_t wait_size, uint32_t index) {
  if (index >= arrive_size) {
    Fail(
        "GroupBarrier::Arrive: arriveIndex %u is out of range 0..%u "
        "(arriveSize - 1)",
        index, arrive_size - 1);
  }
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("GroupBarrier::Arrive");
  launch.Change([&] {
    GroupBarrierState& state = BarrierOf(launch, "GroupBarrier::Arrive",
                                         workspace, arrive_size, wait_size);
    if (state.arrivals[index] == kMaxGroupBarrierRounds) {
      Fail(
          "GroupBarrier::Arrive: arriveIndex %u arrives more than %llu "
          "times; a barrier allows at most that many rounds",
          index, static_cast<unsigned long long>(kMaxGroupBarrierRounds));
    }
    ++state.arrivals[index];
    RaceRelease(launch, CurrentBlock(), GroupBarrierChannel(workspace));
  });
}

void GroupBarrierWaitImpl(const void* workspace, uint32_t arrive_size,
                          uint32_t wait_size, uint32_t index) {
  if (index >= wait_size) {
    Fail(
        "GroupBarrier::Wait: waitIndex %u is out of range 0..%u "
        "(waitSize - 1)",
        index, wait_size - 1);
  }
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("GroupBarrier::Wait");
  uint64_t round = 0;
  GroupBarrierState* state = nullptr;
  launch.Change([&] {
    state = &BarrierOf(launch, "GroupBarrier::Wait", workspace, arrive_size,
                       wait_size);
    if (state->waits[index] == kMaxGroupBarrierRounds) {
      Fail(
          "GroupBarrier::Wait: waitIndex %u waits more than %llu times; a "
          "barrier allows at most that many rounds",
          index, static_cast<unsigned long long>(kMaxGroupBarrierRounds));
    }
    round = ++state->waits[index];
  });
  launch.Wait(CurrentBlock(),
              At("GroupBarrier::Wait(waitIndex " + std::to_string(index) +
                 ", its " + Ordinal(round) + " wait)"),
              [&] {
                return std::all_of(
                    state->arrivals.begin(), state->arrivals.end(),
                    [&](uint64_t arrived) { return arrived >= round; });
              });
  AcquireAfterWait(launch, CurrentBlock(), GroupBarrierChannel(workspace));
}

}  // namespace normgrad_ascendc
