// local_memory_ia.cc — CheckLocalMemoryIA: the four UB exception registers
// of a core (docs/checks.md, "CheckLocalMemoryIA"). A register armed for
// some kinds of access (scalar, vector, MTE; read or write) and a range of
// 32-byte units (startAddr, endAddr] stops the kernel at the first such
// access that touches a unit of the range, as the device's exception does.
// The registers live in the block's SyncState, so each block starts with
// them clear; every access reaches them through NoteUbAccess.
#include <algorithm>
#include <cinttypes>

#include "ascendc/runtime/launch_state.h"
#include "ascendc/runtime/sync_check.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

namespace {

constexpr char kApi[] = "CheckLocalMemoryIA";
constexpr uint32_t kUnit = 32;           // bytes of an address unit
constexpr uint32_t kMaxAddress = 65535;  // the page's range of the addresses

// The kind's words in a message: "vector write (isVectorWrite)".
const char* KindText(IaKind kind) {
  switch (kind) {
    case kIaScalarRead:
      return "scalar read (isScalarRead)";
    case kIaScalarWrite:
      return "scalar write (isScalarWrite)";
    case kIaVectorRead:
      return "vector read (isVectorRead)";
    case kIaVectorWrite:
      return "vector write (isVectorWrite)";
    case kIaMteRead:
      return "MTE read (isMteRead)";
    case kIaMteWrite:
      break;
  }
  return "MTE write (isMteWrite)";
}

}  // namespace

void SetLocalMemoryIA(uint32_t reg, uint32_t start, uint32_t end, uint8_t kinds,
                      bool enable) {
  const ProfileInfo& p = CurrentCore().profile();
  if (p.profile == Profile::k950) {
    Fail(
        "%s: not available on profile %s (%s): its page lists the Atlas A2/A3 "
        "series, Atlas 200I/500 A2 and the inference series' AI Core",
        kApi, p.key, p.name);
  }
  if (reg >= kIaRegisters) {
    Fail(
        "%s: checkParams.enableBit is %u; it names one of the exception "
        "registers 0 to 3",
        kApi, reg);
  }
  if (start > kMaxAddress || end > kMaxAddress) {
    const bool bad_start = start > kMaxAddress;
    Fail("%s: checkParams.%s is %u; it must be in [0, %u] (units of 32 bytes)",
         kApi, bad_start ? "startAddr" : "endAddr", bad_start ? start : end,
         kMaxAddress);
  }
  if (start > end) {
    Fail(
        "%s: checkParams.startAddr %u is greater than checkParams.endAddr %u; "
        "the range (startAddr, endAddr] needs startAddr <= endAddr",
        kApi, start, end);
  }
  const uint32_t units = p.ub_bytes / kUnit;
  if (end > units) {
    Fail("%s: checkParams.endAddr is %u (UB byte %" PRIu64
         "), past the %u-byte unified buffer of profile %s; it must be at "
         "most %u (addresses count 32-byte units from the UB's start)",
         kApi, end, uint64_t{end} * kUnit, p.ub_bytes, p.key, units);
  }
  SyncState& s = CurrentBlock().sync;
  s.ia[reg] = enable ? IaRegister{kinds, start, end} : IaRegister{};
  s.ia_armed = false;
  for (const IaRegister& r : s.ia) s.ia_armed = s.ia_armed || r.kinds != 0;
  if (s.ia_armed) g_sync_check_on.store(true, std::memory_order_relaxed);
}

void CheckLocalMemoryAccess(IaKind kind, const char* api, uint64_t offset,
                            uint64_t bytes) {
  const SyncState& s = CurrentBlock().sync;
  if (!s.ia_armed || bytes == 0) return;
  const uint64_t first = offset / kUnit;
  const uint64_t last = (offset + bytes - 1) / kUnit;
  for (uint32_t i = 0; i < kIaRegisters; ++i) {
    const IaRegister& r = s.ia[i];
    if ((r.kinds & kind) == 0) continue;
    // The units (start, end]: the start unit is outside, the end unit in.
    const uint64_t lo = std::max<uint64_t>(first, uint64_t{r.start} + 1);
    const uint64_t hi = std::min<uint64_t>(last, r.end);
    if (lo > hi) continue;
    const uint64_t range_begin = (uint64_t{r.start} + 1) * kUnit;
    const uint64_t range_end = (uint64_t{r.end} + 1) * kUnit;
    Fail("%s: a %s of UB bytes [%" PRIu64 ", %" PRIu64
         ") falls in the range of CheckLocalMemoryIA's exception register %u "
         "(startAddr %u, endAddr %u: UB bytes [%" PRIu64 ", %" PRIu64
         ")), armed for this kind of access: on the device it raises an "
         "exception",
         api, KindText(kind), std::max(offset, lo * kUnit),
         std::min(offset + bytes, (hi + 1) * kUnit), i, r.start, r.end,
         range_begin, range_end);
  }
}

}  // namespace normgrad_ascendc
