// cube_ub_handover.cc — a cube core's writes into its vector cores' UBs and
// what the checks make of them (cube_ub_handover.h).
#include "ascendc/cube/cube_ub_handover.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ascendc/runtime/init_check.h"
#include "ascendc/runtime/launch_state.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

namespace {

// One write: UB bytes [begin, end) of block `target`, by cube block `cube`
// at its race-check time `time`.
struct CubeUbWrite {
  uint32_t cube;
  uint32_t target;
  uint64_t begin;
  uint64_t end;
  uint32_t time;
  std::string api;
  std::string site;
  bool taken = false;  // handed to the target's init check
};

// The writes of a launch (Launch::cube_ub_writes), under launch.mutex().
struct CubeUbLog {
  std::vector<CubeUbWrite> writes;
};

CubeUbLog& LogOf(Launch& launch) {
  if (!launch.cube_ub_writes) {
    launch.cube_ub_writes = std::make_shared<CubeUbLog>();
  }
  return *static_cast<CubeUbLog*>(launch.cube_ub_writes.get());
}

}  // namespace

void WriteVectorCoreUbs(const char* api,
                        const std::vector<uint32_t>& sub_blocks,
                        bool one_to_two, uint32_t ub_offset,
                        const std::vector<OutRun>& runs,
                        const std::vector<uint8_t>& data) {
  Launch& launch = CurrentLaunch();
  const uint32_t ratio = launch.mix_ratio();
  if (ratio == 0) {
    Fail(
        "%s: the destination is the UB of a vector core of this AI Core, "
        "but the kernel runs no vector cores beside its cube cores (launch "
        "it as a mixed kernel: KERNEL_TYPE_MIX_AIC_1_2 or __mix__(1, 2))",
        api);
  }
  if (one_to_two && ratio != 2) {
    Fail(
        "%s: the kernel runs %u vector core per AI Core (1:%u); the copy "
        "into a vector core's UB needs a 1:2 mixed kernel",
        api, ratio, ratio);
  }
  BlockState& self = CurrentBlock();
  std::vector<uint32_t> targets;
  for (const uint32_t sub : sub_blocks) {
    if (sub >= ratio) {
      Fail(
          "%s: the write goes to vector core %u of the AI Core (%s), but the "
          "kernel runs %u vector core%s per AI Core (1:%u)",
          api, sub,
          sub_blocks.size() > 1 ? "intriParams.dualDstCtrl"
                                : "intriParams.subBlockId",
          ratio, ratio == 1 ? "" : "s", ratio);
    }
    targets.push_back(launch.logical_blocks() + self.ai_core * ratio + sub);
  }
  const std::string site = CallSiteText();
  for (const uint32_t t : targets) {
    const BlockState& b = launch.block(t);
    launch.Wait(self,
                std::string(api) + " at " + site + ", for " +
                    launch.CoreName(t) + " to start",
                [&] { return b.running || b.ended; });
  }
  std::string ended;
  launch.Change([&] {
    for (const uint32_t t : targets) {
      if (launch.block(t).ended) ended = launch.CoreName(t);
    }
    if (!ended.empty()) return;
    CubeUbLog& log = LogOf(launch);
    for (const OutRun& r : runs) {
      const uint32_t t = targets[r.share];
      uint8_t* ub = launch.block(t).core->ub();
      std::memcpy(ub + ub_offset + r.offset, data.data() + r.data_at, r.bytes);
      const uint64_t begin = ub_offset + r.offset;
      CubeUbWrite* last = log.writes.empty() ? nullptr : &log.writes.back();
      if (last != nullptr && last->target == t && last->cube == self.index &&
          last->end == begin && last->time == self.race.time &&
          last->site == site) {
        last->end = begin + r.bytes;
        continue;
      }
      log.writes.push_back(
          {self.index, t, begin, begin + r.bytes, self.race.time, api, site});
    }
  });
  if (!ended.empty()) {
    Fail(
        "%s: %s has ended, and its UB with it; the vector core must wait "
        "for the cube core's flag (CrossCoreWaitFlag) before it reads what "
        "the Fixpipe writes",
        api, ended.c_str());
  }
}

namespace {

// The calling vector core returned from a wait for other cores: the bytes
// its cube core wrote into its UB count as written for the init check, if
// the wait orders the write before this core (under the race check's
// clocks), or else if the write was made before the wait returned.
void TakeCubeUbWrites(Launch& launch, BlockState& self) {
  if (!launch.init_check()) return;
  std::vector<CubeUbWrite> taken;
  {
    const std::lock_guard<std::mutex> lock(launch.mutex());
    if (!launch.cube_ub_writes) return;
    for (CubeUbWrite& w : LogOf(launch).writes) {
      if (w.target != self.index || w.taken) continue;
      // With the race check's clocks, only a write this core's waits have
      // ordered before it; without them, every write made so far.
      if (launch.race_check() &&
          (self.race.clock.empty() || self.race.clock[w.cube] < w.time)) {
        continue;
      }
      w.taken = true;
      taken.push_back(w);
    }
  }
  for (const CubeUbWrite& w : taken) {
    InitUbAccess(w.api.c_str(), w.begin, w.end - w.begin, true, true);
  }
}

// Registered as this object is loaded, which a program that calls
// WriteVectorCoreUbs always does (the library is static: an unused object
// is not linked, and then no write needs handing over).
[[maybe_unused]] const bool kHandOverRegistered =
    (SetWaitReturnHook(&TakeCubeUbWrites), true);

}  // namespace

}  // namespace normgrad_ascendc
