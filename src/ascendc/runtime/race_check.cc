// race_check.cc — the race check of global memory (race_check.h).
#include "ascendc/runtime/race_check.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <tuple>

#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/init_check.h"
#include "ascendc/runtime/launch_state.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/sync.h"
#include "normgrad_ascendc/runtime/sync_check.h"

namespace normgrad_ascendc {

namespace {

// Gives the block a vector clock (at its first synchronization).
void StartClock(const Launch& launch, BlockState& self) {
  RaceClock& race = self.race;
  if (!race.clock.empty()) return;
  race.clock.assign(launch.num_blocks(), 0);
  race.clock[self.index] = race.time;
  race.history.assign(race.time + 1, race.clock);
}

// The block moves on to its next time, with `clock` as its knowledge.
void Advance(BlockState& self) {
  RaceClock& race = self.race;
  race.clock[self.index] = ++race.time;
  race.history.push_back(race.clock);
}

}  // namespace

bool GmChecksRun() {
  const Launch* launch = RunningLaunch();
  return launch != nullptr && (launch->race_check() || launch->init_check());
}

void NoteGmAccess(const char* api, const void* p, uint64_t bytes, bool write,
                  bool atomic) {
  if (bytes == 0) return;
  const Launch* launch = RunningLaunch();
  if (launch == nullptr) return;
  if (launch->init_check()) {
    InitGmAccess(api, reinterpret_cast<uintptr_t>(p), bytes, write, atomic);
  }
  if (!launch->race_check()) return;
  BlockState& self = CurrentBlock();
  RaceClock& race = self.race;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p);
  const CallSite* site = CurrentCallSite();
  // A loop calls one API many times: reuse the last name without a lookup.
  const std::string* name =
      race.accesses.empty() ? nullptr : race.accesses.back().api;
  if (name == nullptr || *name != api)
    name = &*race.api_names.insert(api).first;
  GmAccess access{begin,
                  begin + bytes,
                  race.time,
                  write,
                  atomic,
                  name,
                  site != nullptr ? site->file : "",
                  site != nullptr ? site->line : 0};
  // Consecutive runs of one call (a strided copy's bursts) in a row.
  if (!race.accesses.empty()) {
    GmAccess& last = race.accesses.back();
    if (last.end == access.begin && last.time == access.time &&
        last.write == access.write && last.atomic == access.atomic &&
        last.api == access.api && last.file == access.file &&
        last.line == access.line) {
      last.end = access.end;
      return;
    }
  }
  race.accesses.push_back(access);
}

void RaceRelease(Launch& launch, BlockState& self, const std::string& channel) {
  // A block synchronization waits for every pipe of the block.
  if (launch.sync_check()) SyncPipeBarrier(PIPE_ALL);
  if (!launch.race_check()) return;
  StartClock(launch, self);
  std::vector<uint32_t>& carried = launch.race_channels[channel];
  if (carried.empty()) carried.assign(launch.num_blocks(), 0);
  for (size_t i = 0; i < carried.size(); ++i) {
    carried[i] = std::max(carried[i], self.race.clock[i]);
  }
  Advance(self);
}

void RaceAcquire(Launch& launch, BlockState& self, const std::string& channel) {
  if (launch.sync_check()) SyncPipeBarrier(PIPE_ALL);
  if (!launch.race_check()) return;
  StartClock(launch, self);
  const auto found = launch.race_channels.find(channel);
  if (found != launch.race_channels.end()) {
    for (size_t i = 0; i < found->second.size(); ++i) {
      self.race.clock[i] = std::max(self.race.clock[i], found->second[i]);
    }
  }
  Advance(self);
}

namespace {

struct Logged {
  const GmAccess* access;
  uint32_t block;
};

// Whether `a` of block i comes before `b` of block j by the clocks.
bool Before(Launch& launch, const Logged& a, const Logged& b) {
  const RaceClock& later = launch.block(b.block).race;
  if (later.history.empty()) return false;
  return a.access->time <= later.history[b.access->time][a.block];
}

std::string Site(const GmAccess& a) {
  return *a.api + " at " + a.file + ":" + std::to_string(a.line);
}

// The races of one pair of call sites, reported once.
struct RaceGroup {
  uint32_t first_block, second_block;  // the first pair found
  const GmAccess* first;
  const GmAccess* second;
  uintptr_t begin, end;  // the hull of the first pair's overlaps
  uint64_t pairs = 0;    // overlapping access pairs of any blocks
  size_t order = 0;      // when it was found
};

}  // namespace

// "bytes [o, e) of the <n>-byte aclrtMalloc block at <p>", or the absolute
// range for memory the registry does not know.
std::string GmRangeText(uintptr_t begin, uintptr_t end) {
  char text[160];
  GmBlock block;
  if (FindGmBlock(reinterpret_cast<const void*>(begin), &block)) {
    std::snprintf(text, sizeof text,
                  "bytes [%" PRIuPTR ", %" PRIuPTR ") of the %" PRIu64
                  "-byte %s block at %p",
                  begin - block.start, end - block.start, block.size,
                  GmOwnerName(block.owner),
                  reinterpret_cast<const void*>(block.start));
  } else {
    std::snprintf(text, sizeof text, "bytes [%p, %p)",
                  reinterpret_cast<const void*>(begin),
                  reinterpret_cast<const void*>(end));
  }
  return text;
}

std::vector<std::string> FindRaces(Launch& launch, size_t limit) {
  std::vector<Logged> all;
  for (uint32_t i = 0; i < launch.num_blocks(); ++i) {
    std::vector<GmAccess>& log = launch.block(i).race.accesses;
    // A loop reading the same bytes between two synchronizations counts once.
    std::sort(log.begin(), log.end(), [](const GmAccess& x, const GmAccess& y) {
      return std::tie(x.begin, x.end, x.time, x.write, x.atomic) <
             std::tie(y.begin, y.end, y.time, y.write, y.atomic);
    });
    log.erase(std::unique(log.begin(), log.end(),
                          [](const GmAccess& x, const GmAccess& y) {
                            return x.begin == y.begin && x.end == y.end &&
                                   x.time == y.time && x.write == y.write &&
                                   x.atomic == y.atomic;
                          }),
              log.end());
    for (const GmAccess& a : log) all.push_back(Logged{&a, i});
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const Logged& x, const Logged& y) {
                     return x.access->begin < y.access->begin;
                   });
  // Blocks name an API with strings of their own: compare the text.
  using Key = std::tuple<std::string, std::string, unsigned, bool, std::string,
                         std::string, unsigned, bool>;
  std::map<Key, RaceGroup> groups;
  std::vector<Logged> active;
  for (const Logged& x : all) {
    active.erase(std::remove_if(active.begin(), active.end(),
                                [&](const Logged& y) {
                                  return y.access->end <= x.access->begin;
                                }),
                 active.end());
    for (const Logged& y : active) {
      const GmAccess& a = *y.access;
      const GmAccess& b = *x.access;
      if (y.block == x.block || !(a.write || b.write) ||
          (a.atomic && b.atomic)) {
        continue;
      }
      if (Before(launch, y, x) || Before(launch, x, y)) continue;
      // The lower block first.
      const Logged& lo = y.block < x.block ? y : x;
      const Logged& hi = y.block < x.block ? x : y;
      const GmAccess& l = *lo.access;
      const GmAccess& h = *hi.access;
      const Key key{*l.api, l.file, l.line, l.write,
                    *h.api, h.file, h.line, h.write};
      const uintptr_t begin = std::max(l.begin, h.begin);
      const uintptr_t end = std::min(l.end, h.end);
      auto [it, fresh] = groups.try_emplace(key);
      RaceGroup& g = it->second;
      if (fresh) {
        g = RaceGroup{lo.block, hi.block, &l, &h, begin, end, 0, groups.size()};
      } else if (g.first_block == lo.block && g.second_block == hi.block) {
        g.begin = std::min(g.begin, begin);
        g.end = std::max(g.end, end);
      }
      ++g.pairs;
    }
    active.push_back(x);
  }
  std::vector<const RaceGroup*> found;
  for (const auto& entry : groups) found.push_back(&entry.second);
  std::sort(found.begin(), found.end(),
            [](const RaceGroup* x, const RaceGroup* y) {
              return x->order < y->order;
            });
  std::vector<std::string> lines;
  for (const RaceGroup* g : found) {
    if (lines.size() == limit) {
      lines.push_back(std::to_string(found.size() - limit) +
                      " more races at other calls");
      break;
    }
    std::string line =
        "race on global memory: " + launch.CoreName(g->first_block) + " " +
        (g->first->write ? "writes " : "reads ") +
        GmRangeText(g->begin, g->end) + " in " + Site(*g->first) + ", " +
        launch.CoreName(g->second_block) + " " +
        (g->second->write ? "writes" : "reads") + " them in " +
        Site(*g->second) +
        ", and nothing orders the two (SyncAll, a "
        "block-order hand-off, or atomic writes on both sides)";
    if (g->pairs > 1) {
      line += "; " + std::to_string(g->pairs) +
              " overlapping pairs of accesses at these two calls";
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace normgrad_ascendc
