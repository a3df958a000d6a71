// init_check.cc — the init check: reads of bytes nothing wrote (init_check.h;
// the rules and what is not seen are in docs/checks.md).
#include "ascendc/runtime/init_check.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <mutex>

#include "ascendc/runtime/check.h"
#include "ascendc/runtime/launch_state.h"
#include "ascendc/runtime/race_check.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/sync_check.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

namespace {

// A UB byte's state.
enum : uint8_t { kUntracked = 0, kUnwritten = 1, kWritten = 2 };

// The calling block's state when it runs in a launch that runs the init
// check (and no C API call pauses the hooks); else null.
InitState* UbState() {
  Launch* launch = RunningLaunch();
  if (launch == nullptr || !launch->init_check() || t_sync_paused > 0) {
    return nullptr;
  }
  return &CurrentBlock().init;
}

std::string SiteText(const char* api) {
  const CallSite* call = CurrentCallSite();
  return std::string(api) + " at " + (call != nullptr ? call->file : "") + ":" +
         std::to_string(call != nullptr ? call->line : 0);
}

void AddFinding(InitState& s, const std::string& key, const std::string& text) {
  if (s.finding_keys.try_emplace(key, s.findings.size()).second) {
    s.findings.push_back(text);
  }
}

void MarkUbWritten(InitState& s, uint64_t offset, uint64_t bytes) {
  if (s.ub.empty()) return;
  const uint64_t end = std::min<uint64_t>(offset + bytes, s.ub.size());
  for (uint64_t b = offset; b < end; ++b) {
    if (s.ub[b] == kUnwritten) s.ub[b] = kWritten;
  }
}

}  // namespace

void NoteUbAllocation(uint32_t offset, uint64_t bytes, const char* owner,
                      const char* api) {
  InitState* state = UbState();
  if (state == nullptr || bytes == 0) return;
  InitState& s = *state;
  if (s.ub.empty()) s.ub.assign(kMaxUbBytes, kUntracked);
  const uint32_t end =
      static_cast<uint32_t>(std::min<uint64_t>(offset + bytes, s.ub.size()));
  // Earlier allocations this one overlaps are gone: their other bytes are
  // no longer followed (a report names the allocation of the bytes it reads).
  auto it = s.allocations.upper_bound(offset);
  if (it != s.allocations.begin()) --it;
  while (it != s.allocations.end() && it->first < end) {
    if (it->second.end <= offset) {
      ++it;
      continue;
    }
    std::fill(s.ub.begin() + it->first, s.ub.begin() + it->second.end,
              kUntracked);
    it = s.allocations.erase(it);
  }
  std::fill(s.ub.begin() + offset, s.ub.begin() + end, kUnwritten);
  s.allocations[offset] = UbAllocation{end, owner, SiteText(api)};
}

thread_local int t_ub_writes_declared = 0;

void NoteUbData(const TensorView& view) {
  if (view.core == nullptr || view.bytes == 0 || t_ub_writes_declared > 0) {
    return;
  }
  InitState* state = UbState();
  if (state == nullptr || view.core != &CurrentCore()) return;
  auto& touched = state->touched;
  const std::pair<uint32_t, uint32_t> range{view.offset, view.bytes};
  // An API takes the same pointers again and again.
  const size_t recent = std::min<size_t>(touched.size(), 4);
  if (std::find(touched.end() - recent, touched.end(), range) !=
      touched.end()) {
    return;
  }
  touched.push_back(range);
}

void FlushUbData() {
  InitState* state = UbState();
  if (state == nullptr || state->touched.empty()) return;
  for (const auto& [offset, bytes] : state->touched) {
    MarkUbWritten(*state, offset, bytes);
  }
  state->touched.clear();
}

void NoteCApiCall() {
  Launch* launch = RunningLaunch();
  if (launch != nullptr && launch->init_check()) {
    CurrentBlock().init.unknown = true;
  }
}

void InitUbAccess(const char* api, uint64_t offset, uint64_t bytes, bool write,
                  bool exact) {
  InitState* state = UbState();
  if (state == nullptr || state->ub.empty()) return;
  InitState& s = *state;
  if (write) {
    MarkUbWritten(s, offset, bytes);
    return;
  }
  // Only the user's own calls: an API that another calls works on memory
  // its caller may have written through pointers the check cannot see yet.
  if (!exact || s.unknown || ApiCallDepth() > 1) return;
  const uint64_t end = std::min<uint64_t>(offset + bytes, s.ub.size());
  uint64_t first = offset;
  while (first < end && s.ub[first] != kUnwritten) ++first;
  if (first >= end) return;
  auto alloc = s.allocations.upper_bound(static_cast<uint32_t>(first));
  --alloc;  // an unwritten byte lies in an allocation
  const uint64_t stop = std::min<uint64_t>(end, alloc->second.end);
  uint64_t last = first;
  for (uint64_t b = first; b < stop; ++b) {
    if (s.ub[b] == kUnwritten) last = b;
  }
  const std::string site = SiteText(api);
  char range[64];
  std::snprintf(range, sizeof range, "UB bytes [%" PRIu64 ", %" PRIu64 ")",
                first, last + 1);
  AddFinding(s, site + "|" + std::to_string(alloc->first),
             site + " reads " + range + " of " + alloc->second.owner +
                 ", which nothing wrote since " + alloc->second.by +
                 " handed them out");
}

// ---- aclrtMalloc memory ----------------------------------------------------

namespace {

// The fill of a followed block: a byte of its address, never 0 nor 0xFF
// (the values a host most often writes).
uint8_t Pattern(uintptr_t address) {
  const uint64_t mixed = uint64_t{address} * 0x9E3779B97F4A7C15ull;
  return static_cast<uint8_t>(0x81 + (mixed >> 56) % 0x7D);
}

struct GmFollowed {
  uint64_t size = 0;
  bool host_written = false;  ///< some unmarked byte lost the pattern
  std::map<uintptr_t, uintptr_t> written;  ///< marked ranges, begin -> end
};

struct GmInit {
  std::mutex mutex;
  std::map<uintptr_t, GmFollowed> blocks;  ///< by start
};

GmInit& Gm() {
  static GmInit* gm = new GmInit;  // used until the program ends
  return *gm;
}

// The followed block holding `p`, or null (under the mutex).
std::pair<const uintptr_t, GmFollowed>* FindFollowed(GmInit& gm, uintptr_t p) {
  auto it = gm.blocks.upper_bound(p);
  if (it == gm.blocks.begin()) return nullptr;
  --it;
  return p < it->first + it->second.size ? &*it : nullptr;
}

void MarkGm(GmFollowed& block, uintptr_t begin, uintptr_t end) {
  auto& w = block.written;
  auto it = w.upper_bound(begin);
  if (it != w.begin() && std::prev(it)->second >= begin) --it;
  while (it != w.end() && it->first <= end) {
    begin = std::min(begin, it->first);
    end = std::max(end, it->second);
    it = w.erase(it);
  }
  w.emplace(begin, end);
}

// Calls f(begin, end) for each unmarked run of [begin, end).
template <typename F>
void ForEachUnmarked(const GmFollowed& block, uintptr_t begin, uintptr_t end,
                     F f) {
  auto it = block.written.upper_bound(begin);
  if (it != block.written.begin()) --it;
  uintptr_t at = begin;
  for (; it != block.written.end() && it->first < end; ++it) {
    if (it->second <= at) continue;
    if (it->first > at) f(at, it->first);
    at = it->second;
  }
  if (at < end) f(at, end);
}

// The unmarked bytes of [begin, end) in `block` at `start` as one range
// (first to last), or an empty one when every byte is written or the host
// wrote the block.
std::pair<uintptr_t, uintptr_t> Unwritten(uintptr_t start, GmFollowed& block,
                                          uintptr_t begin, uintptr_t end) {
  end = std::min<uintptr_t>(end, start + block.size);  // not the rounding
  if (block.host_written || begin >= end) return {0, 0};
  uintptr_t lo = 0, hi = 0;
  ForEachUnmarked(block, begin, end, [&](uintptr_t b, uintptr_t e) {
    if (hi == 0) lo = b;
    hi = e;
  });
  if (hi == 0) return {0, 0};
  // Before reporting, has anything the check did not see written the block?
  ForEachUnmarked(block, start, start + block.size,
                  [&](uintptr_t b, uintptr_t e) {
                    for (uintptr_t a = b; a < e && !block.host_written; ++a) {
                      block.host_written =
                          *reinterpret_cast<const uint8_t*>(a) != Pattern(a);
                    }
                  });
  if (block.host_written) return {0, 0};
  return {lo, hi};
}

constexpr const char* kNothingWrote =
    ", which nothing wrote since aclrtMalloc (no aclrtMemcpy, aclrtMemset or "
    "kernel wrote them, nor the host through the pointer)";

}  // namespace

void InitGmAccess(const char* api, uintptr_t p, uint64_t bytes, bool write,
                  bool atomic) {
  Launch* launch = RunningLaunch();
  if (launch == nullptr || !launch->init_check() || bytes == 0) return;
  GmInit& gm = Gm();
  std::pair<uintptr_t, uintptr_t> unwritten{0, 0};
  {
    const std::lock_guard<std::mutex> lock(gm.mutex);
    auto* followed = FindFollowed(gm, p);
    if (followed == nullptr) return;
    if (!write || atomic) {
      unwritten = Unwritten(followed->first, followed->second, p, p + bytes);
    }
    if (write) MarkGm(followed->second, p, p + bytes);
  }
  if (unwritten.second == 0) return;
  const std::string site = SiteText(api);
  const std::string range = GmRangeText(unwritten.first, unwritten.second);
  AddFinding(CurrentBlock().init, site,
             site + (atomic ? " adds atomically onto GM " : " reads GM ") +
                 range + kNothingWrote);
}

void InitGmAllocated(void* p, uint64_t size) {
  std::string error;
  if ((EnabledChecks(&error) & kCheckInit) == 0) return;
  auto* bytes = static_cast<uint8_t*>(p);
  const auto start = reinterpret_cast<uintptr_t>(p);
  for (uint64_t i = 0; i < size; ++i) bytes[i] = Pattern(start + i);
  GmInit& gm = Gm();
  const std::lock_guard<std::mutex> lock(gm.mutex);
  gm.blocks[start] = GmFollowed{size, false, {}};
}

void InitGmReleased(const void* p) {
  GmInit& gm = Gm();
  const std::lock_guard<std::mutex> lock(gm.mutex);
  gm.blocks.erase(reinterpret_cast<uintptr_t>(p));
}

void InitGmHostWrite(void* p, uint64_t bytes) {
  if (bytes == 0) return;
  GmInit& gm = Gm();
  const std::lock_guard<std::mutex> lock(gm.mutex);
  const auto to = reinterpret_cast<uintptr_t>(p);
  if (auto* followed = FindFollowed(gm, to)) {
    MarkGm(followed->second, to, to + bytes);
  }
}

std::vector<std::string> InitReports(Launch& launch, size_t limit) {
  return BlockFindingReports(
      launch, limit, "init check",
      [](const BlockState& b) -> const std::vector<std::string>& {
        return b.init.findings;
      });
}

}  // namespace normgrad_ascendc
