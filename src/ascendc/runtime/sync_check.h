// sync_check.h — the sync check's state per block and its reports
// (NORMGRAD_CHECK=sync; docs/checks.md), internal to src/ascendc. The hooks
// the APIs call are in normgrad_ascendc/runtime/sync_check.h.
//
// The model. The pipes S, V, MTE2 and MTE3 of a core each keep a vector
// clock: clock[p][q] is the last time of pipe q known to be done before
// what pipe p runs now (clock[p][p] is p's own time). What orders two
// pipes carries a clock from one to the other: SetFlag takes the source
// pipe's clock, WaitFlag joins it into the destination's; a queue's EnQue
// and FreeTensor take the producer's or consumer's, DeQue and AllocTensor
// join them; PipeBarrier<PIPE_ALL> and the block synchronizations join
// every pipe; the scalar pipe's accesses stand for the orders the compiler
// inserts (a scalar access waits for the pipe that last touched the bytes,
// and everything issued after it follows). Every UB block of 32 bytes
// remembers its last write (pipe, time, call) and the last read of each
// pipe since; an access of another pipe that is not ordered after a
// conflicting one is a finding. MTE3's GM writes are kept until MTE2 and
// MTE3 are both ordered after them, for the two GM rules.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "normgrad_ascendc/runtime/sync_check.h"

namespace normgrad_ascendc {

class Launch;
struct BlockState;

inline constexpr size_t kSyncPipes = static_cast<size_t>(SyncPipe::kCount);
using PipeClock = std::array<uint32_t, kSyncPipes>;

/// A call as findings name it.
struct SyncSite {
  const std::string* api;
  const char* file;
  unsigned line;
};

/// An access of a UB block: its pipe's time (0: none) and call (a SyncSite
/// index).
struct UbMark {
  uint32_t time = 0;
  uint32_t site = 0;
};

/// What the check remembers of one 32-byte block of the UB.
struct UbShadow {
  UbMark write;
  SyncPipe write_pipe = SyncPipe::kNone;
  UbMark reads[kSyncPipes];
};

/// An MTE3 copy's write of GM bytes [begin, end).
struct GmCopyWrite {
  uintptr_t begin;
  uintptr_t end;
  uint32_t time;
  uint32_t site;
};

/// A flag between two pipes (SetFlag/WaitFlag, TQueSync).
struct FlagState {
  bool set = false;
  PipeClock carried{};
  uint32_t site = 0;
  std::string name;  ///< "SetFlag<HardEvent::MTE2_V>(0)"
};

/// One of CheckLocalMemoryIA's exception registers of a core.
struct IaRegister {
  uint8_t kinds = 0;   ///< IaKind bits; 0 while the register is clear
  uint32_t start = 0;  ///< the range (start, end] in units of 32 bytes
  uint32_t end = 0;
};
inline constexpr uint32_t kIaRegisters = 4;

/// A block's part of the check, and its core's exception registers (a
/// fresh block starts with them clear).
struct SyncState {
  IaRegister ia[kIaRegisters];
  bool ia_armed = false;  ///< some register is armed
  bool started = false;
  PipeClock clock[kSyncPipes] = {};
  uint32_t barrier[kSyncPipes] = {};     ///< own time at the last PipeBarrier
  uint32_t self_known[kSyncPipes] = {};  ///< own time known through others
  std::vector<UbShadow> ub;              ///< per 32-byte block, at first use
  std::vector<SyncSite> sites;
  std::set<std::string> api_names;  ///< what SyncSite::api points into
  std::map<std::tuple<const std::string*, const char*, unsigned>, uint32_t>
      site_index;
  std::vector<GmCopyWrite> gm_writes;
  std::map<std::tuple<uint8_t, uint8_t, int32_t>, FlagState> flags;
  std::map<uint32_t, PipeClock> enqueued;  ///< by buffer offset
  std::map<uint32_t, PipeClock> freed;     ///< by buffer offset
  std::map<uint8_t, std::pair<int64_t, uint32_t>> event_ids;  ///< held, site
  /// Findings, in the order found, once per pair of calls and kind.
  std::map<std::tuple<uint32_t, uint32_t, int>, size_t> finding_keys;
  std::vector<std::string> findings;
};

/// The block ended without an error: flags set and never waited, and event
/// IDs never released, become findings.
void FinishSyncCheck(BlockState& self);

/// A check's findings of a launch whose blocks have ended, one line each
/// ("<check>, block <i>: <text>", without "normgrad: kernel <name>: "), a
/// finding of several blocks once ("(and in <n> more blocks)"), at most
/// `limit` of them plus a line counting the others.
std::vector<std::string> BlockFindingReports(
    Launch& launch, size_t limit, const char* check,
    const std::vector<std::string>& (*findings)(const BlockState&));

/// The findings of a launch whose blocks have ended, one line each (without
/// "normgrad: kernel <name>: "), a finding of several blocks once, at most
/// `limit` of them plus a line counting the others.
std::vector<std::string> SyncReports(Launch& launch, size_t limit);

}  // namespace normgrad_ascendc
