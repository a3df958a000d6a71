// sync_check.cc — the sync check: the pipes of one core and what orders them
// (sync_check.h; the rules and their pages are in docs/checks.md).
#include "ascendc/runtime/sync_check.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "ascendc/runtime/init_check.h"
#include "ascendc/runtime/launch_state.h"
#include "ascendc/runtime/race_check.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/sync.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

std::atomic<bool> g_sync_check_on{false};
thread_local int t_sync_paused = 0;

namespace {

constexpr uint32_t kUbBlock = 32;
constexpr size_t kS = static_cast<size_t>(SyncPipe::kS);

const char* PipeName(SyncPipe p) {
  switch (p) {
    case SyncPipe::kS:
      return "PIPE_S";
    case SyncPipe::kV:
      return "PIPE_V";
    case SyncPipe::kMte2:
      return "PIPE_MTE2";
    case SyncPipe::kMte3:
      return "PIPE_MTE3";
    default:
      return "?";
  }
}

// The pipe_t names, by value, and the pipes the check models.
constexpr const char* kPipeTNames[] = {"S",    "V",    "M",   "MTE1",
                                       "MTE2", "MTE3", "ALL", "FIX"};

SyncPipe FromPipeT(uint8_t pipe) {
  switch (pipe) {
    case PIPE_S:
      return SyncPipe::kS;
    case PIPE_V:
      return SyncPipe::kV;
    case PIPE_MTE2:
      return SyncPipe::kMte2;
    case PIPE_MTE3:
      return SyncPipe::kMte3;
    default:
      return SyncPipe::kNone;
  }
}

// HardEvent's names in the order of its values (sync.h).
constexpr const char* kHardEventNames[] = {
    "MTE2_MTE1", "MTE1_MTE2", "MTE1_M",    "M_MTE1",   "MTE2_V",   "V_MTE2",
    "MTE3_V",    "V_MTE3",    "M_V",       "V_M",      "V_V",      "MTE3_MTE1",
    "MTE1_MTE3", "MTE1_V",    "MTE2_M",    "M_MTE2",   "V_MTE1",   "M_FIX",
    "FIX_M",     "MTE3_MTE2", "MTE2_MTE3", "S_V",      "V_S",      "S_MTE2",
    "MTE2_S",    "S_MTE3",    "MTE3_S",    "MTE2_FIX", "FIX_MTE2", "FIX_S",
    "M_S",       "FIX_MTE3"};
static_assert(sizeof kHardEventNames / sizeof kHardEventNames[0] ==
                  static_cast<size_t>(AscendC::HardEvent::MAX),
              "one name per HardEvent");

// A HardEvent's pipes, as pipe_t values, from its name.
void EventPipes(uint8_t event, uint8_t* src, uint8_t* dst) {
  const std::string name = kHardEventNames[event];
  const size_t cut = name.find('_');
  *src = *dst = PIPE_ALL;
  for (uint8_t p = 0; p < 8; ++p) {
    if (name.compare(0, cut, kPipeTNames[p]) == 0) *src = p;
    if (name.compare(cut + 1, std::string::npos, kPipeTNames[p]) == 0) *dst = p;
  }
}

// The block's state when the calling thread runs a block of a launch that
// runs the sync check; else null.
SyncState* State() {
  Launch* launch = RunningLaunch();
  if (launch == nullptr || !launch->sync_check() || t_sync_paused > 0) {
    return nullptr;
  }
  SyncState& s = CurrentBlock().sync;
  if (!s.started) {
    s.started = true;
    for (size_t p = 0; p < kSyncPipes; ++p) s.clock[p][p] = 1;
  }
  return &s;
}

uint32_t SiteOf(SyncState& s, const char* api) {
  const CallSite* call = CurrentCallSite();
  const char* file = call != nullptr ? call->file : "";
  const unsigned line = call != nullptr ? call->line : 0;
  const std::string* name = &*s.api_names.insert(api).first;
  const auto [it, fresh] = s.site_index.try_emplace(
      std::make_tuple(name, file, line), static_cast<uint32_t>(s.sites.size()));
  if (fresh) s.sites.push_back(SyncSite{name, file, line});
  return it->second;
}

std::string SiteText(const SyncState& s, uint32_t site) {
  const SyncSite& c = s.sites[site];
  return *c.api + " at " + c.file + ":" + std::to_string(c.line);
}

void Advance(SyncState& s, size_t p) { ++s.clock[p][p]; }

// Pipe p waits for what `carried` says is done.
void Join(SyncState& s, size_t p, const PipeClock& carried) {
  for (size_t q = 0; q < kSyncPipes; ++q) {
    s.clock[p][q] = std::max(s.clock[p][q], carried[q]);
  }
  s.self_known[p] = std::max(s.self_known[p], carried[p]);
}

// Every pipe waits for what `carried` says is done: a wait of the scalar
// pipe, which issues every later instruction.
void JoinAll(SyncState& s, const PipeClock& carried) {
  for (size_t p = 0; p < kSyncPipes; ++p) Join(s, p, carried);
}

void AddFinding(SyncState& s, uint32_t first, uint32_t second, int kind,
                const std::string& text) {
  if (s.finding_keys
          .try_emplace(std::make_tuple(first, second, kind), s.findings.size())
          .second) {
    s.findings.push_back(text);
  }
}

// The kinds of findings (with the two calls, a finding's key).
enum Finding : int {
  kReadAfterWrite,
  kWriteAfterWrite,
  kWriteAfterRead,
  kGmReadAfterWrite,
  kGmWriteAfterWrite,
  kSetTwice,
  kWaitUnset,
  kSetUnwaited,
  kEventHeld,
};

struct Pending {
  uint32_t prev_site;
  SyncPipe prev_pipe;
  int kind;
  uint64_t begin, end;
};

void Note(Pending* found, size_t* count, uint32_t site, SyncPipe pipe, int kind,
          uint64_t begin, uint64_t end) {
  for (size_t i = 0; i < *count; ++i) {
    Pending& f = found[i];
    if (f.prev_site == site && f.prev_pipe == pipe && f.kind == kind) {
      f.begin = std::min(f.begin, begin);
      f.end = std::max(f.end, end);
      return;
    }
  }
  if (*count < 8) found[(*count)++] = Pending{site, pipe, kind, begin, end};
}

std::string ConflictText(const SyncState& s, uint32_t site, SyncPipe pipe,
                         const Pending& f, const char* memory) {
  const char* verb = f.kind == kReadAfterWrite ? "read" : "write";
  const char* done = f.kind == kWriteAfterRead ? "read" : "written";
  char range[64];
  std::snprintf(range, sizeof range, "%s bytes [%" PRIu64 ", %" PRIu64 ")",
                memory, f.begin, f.end);
  std::string text = SiteText(s, site) + " (" + PipeName(pipe) + ") may " +
                     verb + " " + range + " before " +
                     SiteText(s, f.prev_site) + " (" + PipeName(f.prev_pipe) +
                     ") has " + done + " them: ";
  if (f.prev_pipe == pipe) {
    text += std::string("copies on one pipe whose destinations overlap need ") +
            "PipeBarrier<" + PipeName(pipe) + "> between them";
  } else {
    // "PIPE_MTE2" and "PIPE_V" name the event MTE2_V.
    const std::string event = std::string(PipeName(f.prev_pipe)).substr(5) +
                              "_" + std::string(PipeName(pipe)).substr(5);
    text += std::string("nothing orders ") + PipeName(f.prev_pipe) +
            " before " + PipeName(pipe) +
            " between the two calls (a queue's EnQue/DeQue or "
            "FreeTensor/AllocTensor, SetFlag/WaitFlag<HardEvent::" +
            event + ">, PipeBarrier<PIPE_ALL>)";
  }
  return text;
}

// The kind of access CheckLocalMemoryIA's registers see in an access of
// `pipe`: the copies' pipes are MTE.
IaKind IaKindOf(SyncPipe pipe, bool write) {
  switch (pipe) {
    case SyncPipe::kS:
      return write ? kIaScalarWrite : kIaScalarRead;
    case SyncPipe::kV:
      return write ? kIaVectorWrite : kIaVectorRead;
    default:
      return write ? kIaMteWrite : kIaMteRead;
  }
}

}  // namespace

void NoteUbAccess(SyncPipe pipe, const char* api, uint64_t offset,
                  uint64_t bytes, bool write, bool exact) {
  if (bytes == 0 || pipe == SyncPipe::kNone) return;
  CheckLocalMemoryAccess(IaKindOf(pipe, write), api, offset, bytes);
  InitUbAccess(api, offset, bytes, write, exact);
  SyncState* state = State();
  if (state == nullptr) return;
  SyncState& s = *state;
  if (s.ub.empty()) s.ub.resize(kMaxUbBytes / kUbBlock);
  const uint64_t first = offset / kUbBlock;
  const uint64_t last =
      std::min<uint64_t>((offset + bytes - 1) / kUbBlock, s.ub.size() - 1);
  const size_t p = static_cast<size_t>(pipe);
  const uint32_t site = SiteOf(s, api);
  if (pipe == SyncPipe::kS) {
    // The compiler makes the scalar pipe wait for the pipe that last wrote
    // the bytes (or, for a write, read them): everything after follows it.
    for (uint64_t b = first; b <= last; ++b) {
      UbShadow& u = s.ub[b];
      if (u.write.time != 0 && u.write_pipe != SyncPipe::kS) {
        JoinAll(s, s.clock[static_cast<size_t>(u.write_pipe)]);
      }
      for (size_t q = 0; write && q < kSyncPipes; ++q) {
        if (q != kS && u.reads[q].time != 0) JoinAll(s, s.clock[q]);
      }
      if (write) {
        u.write = UbMark{s.clock[p][p], site};
        u.write_pipe = pipe;
        for (UbMark& r : u.reads) r = UbMark{};
      } else {
        u.reads[p] = UbMark{s.clock[p][p], site};
      }
    }
    return;
  }
  Pending found[8];
  size_t count = 0;
  const uint32_t own_order = std::max(s.barrier[p], s.self_known[p]);
  for (uint64_t b = first; b <= last; ++b) {
    UbShadow& u = s.ub[b];
    const uint64_t begin = std::max(offset, b * kUbBlock);
    const uint64_t end = std::min(offset + bytes, (b + 1) * kUbBlock);
    if (u.write.time != 0 && u.write_pipe != SyncPipe::kS) {
      const size_t x = static_cast<size_t>(u.write_pipe);
      if (x != p) {
        if (u.write.time > s.clock[p][x]) {
          Note(found, &count, u.write.site, u.write_pipe,
               write ? kWriteAfterWrite : kReadAfterWrite, begin, end);
        }
      } else if (write && pipe == SyncPipe::kMte2 && u.write.time > own_order) {
        Note(found, &count, u.write.site, pipe, kWriteAfterWrite, begin, end);
      }
    }
    if (write) {
      for (size_t x = 0; x < kSyncPipes; ++x) {
        if (x == p || x == kS || u.reads[x].time == 0) continue;
        if (u.reads[x].time > s.clock[p][x]) {
          Note(found, &count, u.reads[x].site, static_cast<SyncPipe>(x),
               kWriteAfterRead, begin, end);
        }
      }
      u.write = UbMark{s.clock[p][p], site};
      u.write_pipe = pipe;
      for (UbMark& r : u.reads) r = UbMark{};
    } else {
      u.reads[p] = UbMark{s.clock[p][p], site};
    }
  }
  for (size_t i = 0; i < count; ++i) {
    AddFinding(s, found[i].prev_site, site, found[i].kind,
               ConflictText(s, site, pipe, found[i], "UB"));
  }
}

void NoteTensorAccess(SyncPipe pipe, const char* api, const TensorView& tensor,
                      uint64_t from, uint64_t bytes, bool write, bool exact) {
  if (tensor.core == nullptr) return;
  NoteUbAccess(pipe, api, tensor.offset + from, bytes, write, exact);
}

void NoteGmCopy(SyncPipe pipe, const char* api, const void* p, uint64_t bytes) {
  if (bytes == 0) return;
  SyncState* state = State();
  if (state == nullptr) return;
  SyncState& s = *state;
  constexpr size_t m2 = static_cast<size_t>(SyncPipe::kMte2);
  constexpr size_t m3 = static_cast<size_t>(SyncPipe::kMte3);
  const uint32_t mte3_order = std::max(s.barrier[m3], s.self_known[m3]);
  // Writes both pipes are ordered after need no more looking at.
  const uint32_t done = std::min(s.clock[m2][m3], mte3_order);
  s.gm_writes.erase(
      std::remove_if(s.gm_writes.begin(), s.gm_writes.end(),
                     [&](const GmCopyWrite& w) { return w.time <= done; }),
      s.gm_writes.end());
  const auto begin = reinterpret_cast<uintptr_t>(p);
  const uintptr_t end = begin + bytes;
  const uint32_t site = SiteOf(s, api);
  const bool is_write = pipe == SyncPipe::kMte3;
  const uint32_t ordered = is_write ? mte3_order : s.clock[m2][m3];
  for (const GmCopyWrite& w : s.gm_writes) {
    if (w.end <= begin || end <= w.begin || w.time <= ordered) continue;
    const uintptr_t lo = std::max(begin, w.begin);
    const uintptr_t hi = std::min(end, w.end);
    const int kind = is_write ? kGmWriteAfterWrite : kGmReadAfterWrite;
    const std::string range = GmRangeText(lo, hi);
    std::string text = SiteText(s, site) + " (" + PipeName(pipe) + ") may " +
                       (is_write ? "write " : "read ") + "GM " + range +
                       " before " + SiteText(s, w.site) +
                       " (PIPE_MTE3) has written them: ";
    text += is_write ? "copies on one pipe whose destinations overlap need "
                       "PipeBarrier<PIPE_MTE3> between them"
                     : "nothing orders PIPE_MTE3 before PIPE_MTE2 between the "
                       "two calls (SetFlag/WaitFlag<HardEvent::MTE3_MTE2>, "
                       "PipeBarrier<PIPE_ALL>)";
    AddFinding(s, w.site, site, kind, text);
    break;
  }
  if (!is_write) return;
  if (!s.gm_writes.empty()) {
    GmCopyWrite& last = s.gm_writes.back();
    if (last.end == begin && last.time == s.clock[m3][m3] &&
        last.site == site) {
      last.end = end;
      return;
    }
  }
  s.gm_writes.push_back(GmCopyWrite{begin, end, s.clock[m3][m3], site});
}

void SyncPipeBarrier(uint8_t pipe) {
  SyncState* state = State();
  if (state == nullptr) return;
  SyncState& s = *state;
  if (pipe == PIPE_ALL) {
    PipeClock all{};
    for (size_t p = 0; p < kSyncPipes; ++p) {
      for (size_t q = 0; q < kSyncPipes; ++q) {
        all[q] = std::max(all[q], s.clock[p][q]);
      }
    }
    for (size_t p = 0; p < kSyncPipes; ++p) {
      s.clock[p] = all;
      s.barrier[p] = all[p];
      Advance(s, p);
    }
    return;
  }
  const SyncPipe modelled = FromPipeT(pipe);
  if (modelled == SyncPipe::kNone) return;
  const size_t p = static_cast<size_t>(modelled);
  s.barrier[p] = s.clock[p][p];
  Advance(s, p);
}

namespace {

void Flag(bool set, uint8_t src, uint8_t dst, int32_t id,
          const std::string& name) {
  SyncState* state = State();
  if (state == nullptr) return;
  SyncState& s = *state;
  const std::string call = name + "(" + std::to_string(id) + ")";
  const uint32_t site = SiteOf(s, call.c_str());
  FlagState& flag = s.flags[std::make_tuple(src, dst, id)];
  const SyncPipe from = FromPipeT(src);
  const SyncPipe to = FromPipeT(dst);
  if (set) {
    PipeClock carried{};
    if (from != SyncPipe::kNone) {
      carried = s.clock[static_cast<size_t>(from)];
      Advance(s, static_cast<size_t>(from));
    }
    if (flag.set) {
      AddFinding(s, flag.site, site, kSetTwice,
                 SiteText(s, site) + " sets a flag that " +
                     SiteText(s, flag.site) +
                     " set and no WaitFlag has taken yet: a second SetFlag "
                     "on the same pipes and event ID before the WaitFlag "
                     "leaves the device's behaviour undefined");
      for (size_t q = 0; q < kSyncPipes; ++q) {
        carried[q] = std::max(carried[q], flag.carried[q]);
      }
    }
    flag.set = true;
    flag.carried = carried;
    flag.site = site;
    return;
  }
  if (!flag.set) {
    AddFinding(s, site, site, kWaitUnset,
               SiteText(s, site) +
                   " waits for a flag that no SetFlag has set: the device "
                   "would wait for ever (a WaitFlag pairs with an earlier "
                   "SetFlag of the same pipes and event ID)");
    return;
  }
  flag.set = false;
  if (to == SyncPipe::kS) {
    JoinAll(s, flag.carried);
  } else if (to != SyncPipe::kNone) {
    Join(s, static_cast<size_t>(to), flag.carried);
  }
}

}  // namespace

void SyncFlag(bool set, uint8_t event, int32_t id) {
  if (event >= static_cast<uint8_t>(AscendC::HardEvent::MAX)) return;
  uint8_t src = 0, dst = 0;
  EventPipes(event, &src, &dst);
  Flag(set, src, dst, id,
       std::string(set ? "SetFlag" : "WaitFlag") +
           "<HardEvent::" + kHardEventNames[event] + ">");
}

void SyncQueSyncFlag(bool set, uint8_t src, uint8_t dst, int32_t id) {
  if (src >= 8 || dst >= 8) return;
  Flag(set, src, dst, id,
       std::string("TQueSync<PIPE_") + kPipeTNames[src] + ", PIPE_" +
           kPipeTNames[dst] + ">::" + (set ? "SetFlag" : "WaitFlag"));
}

void SyncAllocEventId(uint8_t event) {
  SyncState* state = State();
  if (state == nullptr ||
      event >= static_cast<uint8_t>(AscendC::HardEvent::MAX))
    return;
  auto& held = state->event_ids[event];
  if (held.first++ == 0) {
    held.second = SiteOf(*state, (std::string("AllocEventID<HardEvent::") +
                                  kHardEventNames[event] + ">")
                                     .c_str());
  }
}

void SyncReleaseEventId(uint8_t event) {
  SyncState* state = State();
  if (state == nullptr) return;
  const auto found = state->event_ids.find(event);
  if (found != state->event_ids.end() && found->second.first > 0) {
    --found->second.first;
  }
}

namespace {

// The pipe that fills a queue's buffers and the one that uses them, from
// its positions; kNone where the check does not model the position.
SyncPipe Producer(AscendC::TPosition src) {
  switch (src) {
    case AscendC::TPosition::GM:
    case AscendC::TPosition::VECIN:
      return SyncPipe::kMte2;
    case AscendC::TPosition::VECOUT:
    case AscendC::TPosition::VECCALC:
      return SyncPipe::kV;
    default:
      return SyncPipe::kNone;
  }
}
SyncPipe Consumer(AscendC::TPosition dst) {
  switch (dst) {
    case AscendC::TPosition::GM:
    case AscendC::TPosition::VECOUT:
      return SyncPipe::kMte3;
    case AscendC::TPosition::VECIN:
    case AscendC::TPosition::VECCALC:
      return SyncPipe::kV;
    default:
      return SyncPipe::kNone;
  }
}

// The clock `pipe` hands on (every pipe's, for a pipe not modelled), and
// the pipe moves on.
PipeClock Hand(SyncState& s, SyncPipe pipe) {
  if (pipe != SyncPipe::kNone) {
    const size_t p = static_cast<size_t>(pipe);
    const PipeClock carried = s.clock[p];
    Advance(s, p);
    return carried;
  }
  PipeClock all{};
  for (size_t p = 0; p < kSyncPipes; ++p) {
    for (size_t q = 0; q < kSyncPipes; ++q) {
      all[q] = std::max(all[q], s.clock[p][q]);
    }
    Advance(s, p);
  }
  return all;
}

void Take(SyncState& s, SyncPipe pipe, const PipeClock& carried) {
  if (pipe == SyncPipe::kNone) {
    JoinAll(s, carried);
  } else {
    Join(s, static_cast<size_t>(pipe), carried);
  }
}

}  // namespace

void SyncQueueEvent(QueueEvent event, uint8_t src, uint8_t dst,
                    uint32_t offset) {
  SyncState* state = State();
  if (state == nullptr) return;
  SyncState& s = *state;
  const auto from = static_cast<AscendC::TPosition>(src);
  const auto to = static_cast<AscendC::TPosition>(dst);
  // A TQue at VECIN is filled from GM and read by the vector unit; one at
  // VECOUT is written by the vector unit and read into GM.
  const SyncPipe producer = src == dst && from == AscendC::TPosition::VECOUT
                                ? SyncPipe::kV
                                : Producer(from);
  const SyncPipe consumer = src == dst && to == AscendC::TPosition::VECIN
                                ? SyncPipe::kV
                                : Consumer(to);
  switch (event) {
    case QueueEvent::kEnQue:
      s.enqueued[offset] = Hand(s, producer);
      break;
    case QueueEvent::kDeQue: {
      const auto found = s.enqueued.find(offset);
      if (found != s.enqueued.end()) Take(s, consumer, found->second);
      break;
    }
    case QueueEvent::kFree:
      s.freed[offset] = Hand(s, consumer);
      break;
    case QueueEvent::kAlloc: {
      const auto found = s.freed.find(offset);
      if (found != s.freed.end()) Take(s, producer, found->second);
      break;
    }
  }
}

void FinishSyncCheck(BlockState& self) {
  SyncState& s = self.sync;
  if (!s.started) return;
  for (const auto& [key, flag] : s.flags) {
    if (!flag.set) continue;
    AddFinding(s, flag.site, flag.site, kSetUnwaited,
               SiteText(s, flag.site) +
                   " sets a flag that no WaitFlag takes before the block "
                   "ends (SetFlag and WaitFlag pair up)");
  }
  for (const auto& [event, held] : s.event_ids) {
    if (held.first <= 0) continue;
    AddFinding(s, held.second, held.second, kEventHeld,
               SiteText(s, held.second) + " takes an event ID that no " +
                   "ReleaseEventID returns before the block ends (" +
                   std::to_string(held.first) + " held)");
  }
}

std::vector<std::string> BlockFindingReports(
    Launch& launch, size_t limit, const char* check,
    const std::vector<std::string>& (*findings)(const BlockState&)) {
  // A finding of several blocks is reported once, with its first block.
  std::vector<std::string> texts;
  std::map<std::string, std::pair<uint32_t, uint32_t>> blocks;  // first, count
  for (uint32_t i = 0; i < launch.num_blocks(); ++i) {
    for (const std::string& text : findings(launch.block(i))) {
      const auto [it, fresh] = blocks.try_emplace(text, i, 0);
      if (fresh) texts.push_back(text);
      ++it->second.second;
    }
  }
  std::vector<std::string> lines;
  for (const std::string& text : texts) {
    if (lines.size() == limit) {
      lines.push_back(std::to_string(texts.size() - limit) + " more " + check +
                      " findings");
      break;
    }
    const auto& [first, count] = blocks[text];
    std::string line =
        std::string(check) + ", block " + std::to_string(first) + ": " + text;
    if (count > 1) {
      line += " (and in " + std::to_string(count - 1) + " more block" +
              (count > 2 ? "s" : "") + ")";
    }
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> SyncReports(Launch& launch, size_t limit) {
  return BlockFindingReports(
      launch, limit, "sync check",
      [](const BlockState& b) -> const std::vector<std::string>& {
        return b.sync.findings;
      });
}

}  // namespace normgrad_ascendc
