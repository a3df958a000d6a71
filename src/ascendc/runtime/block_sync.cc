// block_sync.cc — synchronization between the blocks of a launch
// (normgrad_ascendc/runtime/block_sync.h) on the launch's deadlock-detecting
// wait (launch_state.h), and the core-local mutex.
#include "normgrad_ascendc/runtime/block_sync.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

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

// SetWaitReturnHook's hook, or null (constant-initialized, so a hook
// registered by another object's static initializer is never lost).
std::atomic<WaitReturnHook> wait_return_hook{nullptr};

// The race check's acquire after a wait returned (race_check.h); for the
// sync check, a wait for other blocks orders every pipe of this one; then
// the registered hook (launch_state.h: the init check takes what a cube
// core wrote into this core's UB before it).
void AcquireAfterWait(Launch& launch, BlockState& self,
                      const std::string& channel) {
  if (launch.sync_check()) SyncPipeBarrier(PIPE_ALL);
  if (launch.race_check()) {
    const std::lock_guard<std::mutex> lock(launch.mutex());
    RaceAcquire(launch, self, channel);
  }
  if (const WaitReturnHook hook = wait_return_hook.load()) hook(launch, self);
}

// ---- CrossCoreSetFlag / CrossCoreWaitFlag ----------------------------------
//
// Each core keeps a counter per (modeId, flagId). A round of sets completes
// when every core the mode names has set the flag once more; each
// completed round adds 1 to the counters of the cores it releases, and a
// wait takes 1 (blocking while the counter is 0):
//   mode 0: the cores of one kind (all vector cores, or all cube cores)
//           release each other;
//   mode 1: the vector cores of one AI Core release each other;
//   mode 2: a cube core's set releases each of its vector cores; the sets
//           of all its vector cores release the cube core.

// The most a flag's counter holds.
constexpr uint64_t kMaxFlagCount = 15;

// The launch's blocks (indices) of the cube or vector side of AI Core
// `ai_core` (all AI Cores when ai_core is UINT32_MAX).
std::vector<uint32_t> CoresOf(Launch& launch, bool cube, uint32_t ai_core) {
  std::vector<uint32_t> cores;
  for (uint32_t i = 0; i < launch.num_blocks(); ++i) {
    const BlockState& b = launch.block(i);
    if (b.cube == cube && (ai_core == UINT32_MAX || b.ai_core == ai_core)) {
      cores.push_back(i);
    }
  }
  return cores;
}

// The cores whose sets release `self`'s waits in `mode`.
std::vector<uint32_t> Setters(Launch& launch, const BlockState& self,
                              uint8_t mode) {
  if (mode == 0) return CoresOf(launch, self.cube, UINT32_MAX);
  if (mode == 1) return CoresOf(launch, false, self.ai_core);
  return CoresOf(launch, !self.cube, self.ai_core);
}

// The cores that `self`'s sets in `mode` count towards.
std::vector<uint32_t> Receivers(Launch& launch, const BlockState& self,
                                uint8_t mode) {
  return Setters(launch, self, mode);  // each mode's relation is symmetric
}

// The completed rounds of sets that release `self` on (mode, flag_id).
uint64_t Granted(Launch& launch, const BlockState& self, uint8_t mode,
                 uint16_t flag_id) {
  uint64_t rounds = UINT64_MAX;
  for (const uint32_t i : Setters(launch, self, mode)) {
    const auto& sets = launch.block(i).cross_sets;
    const auto it = sets.find({mode, flag_id});
    rounds = std::min(rounds, it == sets.end() ? 0 : it->second);
  }
  return rounds == UINT64_MAX ? 0 : rounds;
}

// The race check's channel of a set (`set`) or of the wait it releases.
std::string FlagChannel(Launch& launch, const BlockState& self, uint8_t mode,
                        uint16_t flag_id, bool set) {
  std::string channel = "CrossCoreSetFlag " + std::to_string(flag_id) +
                        " mode " + std::to_string(mode);
  if (mode == 0) return channel + (self.cube ? " AIC" : " AIV");
  channel += " AI Core " + std::to_string(self.ai_core);
  if (mode == 1 || launch.mix_ratio() == 0) return channel;
  // Mode 2 carries the order from one side to the other.
  return channel + (self.cube == set ? " from AIC" : " from AIV");
}

// The documented rules of modeId and flagId for the calling core.
void CheckCrossCore(Launch& launch, const char* api, uint8_t mode,
                    uint16_t flag_id) {
  if (mode == 4) {
    Fail(
        "%s: modeId 4 (a cube core with one of its vector cores) exists on "
        "the Ascend 950 only, and normgrad does not emulate it yet; Atlas "
        "A2/A3 have modes 0, 1 and 2",
        api);
  }
  if (mode > 2) {
    Fail("%s: modeId %u is not a synchronization mode; use 0, 1 or 2", api,
         mode);
  }
  if (flag_id > 15) {
    Fail("%s: flagId %u is out of range; modes 0, 1 and 2 have flags 0..15",
         api, flag_id);
  }
  if (mode == 0) return;
  if (launch.mix_ratio() == 0) {
    Fail(
        "%s: modeId %u synchronizes the cores of one AI Core in a mixed "
        "kernel (KERNEL_TYPE_MIX_AIC_1_1 or _1_2, __mix__(1, 1) or (1, "
        "2)); this kernel runs on %s cores only",
        api, mode, CurrentCore().is_cube() ? "cube" : "vector");
  }
  if (mode == 1 && CurrentBlock().cube) {
    Fail(
        "%s: modeId 1 synchronizes the vector cores of one AI Core; a cube "
        "core takes no part (modeId 2 pairs it with its vector cores)",
        api);
  }
}

}  // namespace

void SetWaitReturnHook(WaitReturnHook hook) { wait_return_hook.store(hook); }

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
  launch.RequireSingleKind("SyncAll");
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
  launch.RequireSingleKind("IBSet");
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
  launch.RequireSingleKind("IBWait");
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
  Launch& launch = CurrentLaunch();
  CheckCrossCore(launch, api, mode, flag_id);
  launch.RequireConcurrent(api);
  BlockState& self = CurrentBlock();
  launch.Change([&] {
    ++self.cross_sets[{mode, flag_id}];
    for (const uint32_t r : Receivers(launch, self, mode)) {
      BlockState& receiver = launch.block(r);
      const uint64_t counter =
          Granted(launch, receiver, mode, flag_id) -
          std::min(Granted(launch, receiver, mode, flag_id),
                   receiver.cross_waits[{mode, flag_id}]);
      if (counter > kMaxFlagCount) {
        Fail(
            "%s: flagId %u (modeId %u) would count %llu on %s, which has not "
            "waited for them; a flag counts at most %llu (pair each "
            "CrossCoreSetFlag with a CrossCoreWaitFlag)",
            api, flag_id, mode, static_cast<unsigned long long>(counter),
            launch.CoreName(r).c_str(),
            static_cast<unsigned long long>(kMaxFlagCount));
      }
    }
    RaceRelease(launch, self, FlagChannel(launch, self, mode, flag_id, true));
  });
}

void CrossCoreWaitFlagImpl(uint8_t mode, uint16_t flag_id, const char* api) {
  Launch& launch = CurrentLaunch();
  CheckCrossCore(launch, api, mode, flag_id);
  launch.RequireConcurrent(api);
  BlockState& self = CurrentBlock();
  uint64_t n = 0;
  launch.Change([&] { n = ++self.cross_waits[{mode, flag_id}]; });
  std::string what = std::string(api) + "(flagId " + std::to_string(flag_id);
  if (mode != 0) what += ", modeId " + std::to_string(mode);
  launch.Wait(self, At(what + ", its " + Ordinal(n) + " wait)"),
              [&] { return Granted(launch, self, mode, flag_id) >= n; });
  AcquireAfterWait(launch, self,
                   FlagChannel(launch, self, mode, flag_id, false));
}

void WaitPreBlockImpl() {
  Launch& launch = CurrentLaunch();
  launch.RequireConcurrent("WaitPreBlock");
  launch.RequireSingleKind("WaitPreBlock");
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
  launch.RequireSingleKind("NotifyNextBlock");
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
  launch.RequireSingleKind("GroupBarrier::Arrive");
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
  launch.RequireSingleKind("GroupBarrier::Wait");
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
