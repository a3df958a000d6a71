// gm_store.cc — StoreToGm and CheckGmLoad (gm_store.h): writes of kernel data
// into global memory under the block's atomic mode, deferred in a launch of
// several blocks so that atomic results combine in block order.
#include "ascendc/runtime/gm_store.h"

#include <string>

#include "ascendc/runtime/launch_state.h"
#include "ascendc/runtime/race_check.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/ctrl_spr.h"

namespace normgrad_ascendc {

namespace {

bool Overlaps(const BlockState& block, uintptr_t begin, uintptr_t end) {
  return begin < block.pending_end && block.pending_begin < end;
}

void Log(BlockState& block, uint8_t* dst, const uint8_t* src, uint64_t bytes,
         AtomicMode mode) {
  block.pending.push_back(PendingWrite{
      dst, std::vector<uint8_t>(src, src + bytes), mode, CallSiteText()});
  const uintptr_t begin = reinterpret_cast<uintptr_t>(dst);
  block.pending_begin = std::min(block.pending_begin, begin);
  block.pending_end = std::max(block.pending_end, begin + bytes);
}

}  // namespace

void StoreToGm(const char* api, uint8_t* dst, const uint8_t* src,
               uint64_t bytes) {
  Launch& launch = CurrentLaunch();
  BlockState& block = CurrentBlock();
  AtomicMode mode = block.atomic;
  mode.saturate = mode.op != AtomicModeOp::kNone && FloatSaturationOn();
  NoteGmAccess(api, dst, bytes, true, mode.op != AtomicModeOp::kNone);
  if (mode.op != AtomicModeOp::kNone) {
    const uint32_t element = AtomicElementBytes(mode.type);
    if (bytes % element != 0) {
      Fail(
          "%s: a write of %llu bytes into global memory is not a whole number "
          "of %u-byte elements; an atomic write combines whole elements",
          AtomicModeName(mode).c_str(), static_cast<unsigned long long>(bytes),
          element);
    }
  }
  if (!launch.defers_atomics()) {
    ApplyWrite(dst, src, bytes, mode);
    return;
  }
  const uintptr_t begin = reinterpret_cast<uintptr_t>(dst);
  if (mode.op == AtomicModeOp::kNone) {
    CopyBytes(dst, src, bytes);
    // Replayed after the block's earlier atomic writes to the same bytes,
    // so that the last write in program order wins as on the device.
    if (Overlaps(block, begin, begin + bytes))
      Log(block, dst, src, bytes, mode);
    return;
  }
  Log(block, dst, src, bytes, mode);
}

namespace {

// The deferred atomic write of this block that [src, src + bytes) reads, or
// null.
const PendingWrite* PendingUnder(const uint8_t* src, uint64_t bytes) {
  const BlockState& block = CurrentBlock();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(src);
  const uintptr_t end = begin + bytes;
  if (!Overlaps(block, begin, end)) return nullptr;
  for (const PendingWrite& w : block.pending) {
    const uintptr_t w_begin = reinterpret_cast<uintptr_t>(w.dst);
    if (w.mode.op == AtomicModeOp::kNone || end <= w_begin ||
        w_begin + w.data.size() <= begin) {
      continue;
    }
    return &w;
  }
  return nullptr;
}

}  // namespace

bool GmLoadOk(const uint8_t* src, uint64_t bytes) {
  return PendingUnder(src, bytes) == nullptr;
}

void CheckGmLoad(const char* api, const uint8_t* src, uint64_t bytes) {
  const PendingWrite* w = PendingUnder(src, bytes);
  if (w == nullptr) return;
  Fail(
      "%s: reads global memory at %p (%llu bytes) that this block wrote under "
      "%s at %s: in a launch of several blocks, atomic writes become "
      "visible at the next SyncAll or when the launch ends (normgrad "
      "combines them in block order so that results are deterministic); "
      "synchronize with SyncAll before reading the result back",
      api, static_cast<const void*>(src),
      static_cast<unsigned long long>(bytes), AtomicModeName(w->mode).c_str(),
      w->site.c_str());
}

}  // namespace normgrad_ascendc
