// race_check.h — the race check of global memory (NORMGRAD_CHECK=race;
// docs/checks.md), internal to src/ascendc.
//
// Every kernel access to GM (the data-movement APIs and GlobalTensor's
// scalar accesses: StoreToGm for writes, NoteGmRead for reads) is logged in
// its block with the block's logical time. The cross-block synchronizations
// (block_sync.cc) order blocks with vector clocks: the side that sets
// (SyncAll's arrival, NotifyNextBlock, IBSet, CrossCoreSetFlag,
// GroupBarrier::Arrive) releases the block's clock into a channel, the side
// that waits acquires it. When the launch ends, two accesses of different
// blocks to the same bytes, at least one a write, neither ordered before the
// other, and not both atomic writes, are a race.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace normgrad_ascendc {

class Launch;
struct BlockState;

/// One logged access: bytes [begin, end) of GM.
struct GmAccess {
  uintptr_t begin = 0;
  uintptr_t end = 0;
  uint32_t time = 0;  ///< the block's logical time (RaceClock)
  bool write = false;
  bool atomic = false;     ///< a write under an atomic mode
  const std::string* api;  ///< e.g. "DataCopy<float> UB->GM"
  const char* file = "";   ///< the user's call site
  unsigned line = 0;
};

/// A block's part of the check.
struct RaceClock {
  std::vector<GmAccess> accesses;
  std::set<std::string> api_names;  ///< what GmAccess::api points into
  /// The vector clock (empty until the block first synchronizes: a launch
  /// whose blocks never synchronize needs none). clock[i] is the last time
  /// of block i ordered before this block's present.
  std::vector<uint32_t> clock;
  /// history[t]: the clock while the block's time was t (from 1).
  std::vector<std::vector<uint32_t>> history;
  uint32_t time = 1;
};

/// Whether the calling thread runs a block of a launch that runs the race
/// or the init check (to skip formatting an API's name when none does).
bool GmChecksRun();

/// Logs an access of the calling thread's block, when its launch runs the
/// race check, and hands it to the init check when that runs (else returns
/// at once). `api` as messages name it.
void NoteGmAccess(const char* api, const void* p, uint64_t bytes, bool write,
                  bool atomic);
inline void NoteGmRead(const char* api, const void* p, uint64_t bytes) {
  NoteGmAccess(api, p, bytes, false, false);
}

/// The synchronization edges, under launch.mutex(): `channel` names what
/// carries the order ("SyncAll 3", "IBSet <addr> 2 0", …).
void RaceRelease(Launch& launch, BlockState& self, const std::string& channel);
void RaceAcquire(Launch& launch, BlockState& self, const std::string& channel);

/// "bytes [o, e) of the <n>-byte aclrtMalloc block at <p>" for GM bytes
/// [begin, end), or the absolute range for memory the registry does not
/// know (messages of the race and sync checks).
std::string GmRangeText(uintptr_t begin, uintptr_t end);

/// The races of a launch whose blocks have all ended, one report line each
/// (without "normgrad: kernel <name>: "), at most `limit` of them plus a
/// line counting the others.
std::vector<std::string> FindRaces(Launch& launch, size_t limit);

}  // namespace normgrad_ascendc
