// data_copy.cc — DataCopy's checks, the NORMGRAD_DATACOPY mode and the copy
// itself (normgrad_ascendc/data_copy.h).
//
// The copy is most of a streaming kernel's time: tiles of tens of KiB,
// thousands of DataCopy calls per launch. One memmove of a tile reads global
// memory as a single stream, which a core's hardware prefetcher follows one
// page at a time, so it reads tiles the caches do not hold at about three
// quarters of the bandwidth two streams reach. Copying a tile as four
// interleaved parts (the engine's loop, for the instruction set it picks)
// gives the prefetcher four streams and the copy the full bandwidth. Short
// copies, and overlapping ones (UB → UB may overlap), stay with memmove.
#include "normgrad_ascendc/data_copy.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "engine/dispatch.h"
#include "env_setting.h"
#include "gm_store.h"
#include "normgrad_ascendc/core.h"

namespace normgrad_ascendc {

namespace {

DataCopyMode ParseMode(const char* value) {
  if (value == nullptr || *value == '\0' || std::strcmp(value, "check") == 0) {
    return DataCopyMode::kCheck;
  }
  if (std::strcmp(value, "truncate") == 0) return DataCopyMode::kTruncate;
  Fail(
      "NORMGRAD_DATACOPY: unknown value \"%s\"; valid: check (default), "
      "truncate",
      value);
}

EnvSetting<DataCopyMode> g_mode{"NORMGRAD_DATACOPY", ParseMode};

// Copies of at least this many bytes go as interleaved streams.
constexpr uint64_t kStreamedCopyBytes = 16 * 1024;

const char* Side(const CopyEnd& end) { return end.ub != nullptr ? "UB" : "GM"; }

// An end must have memory, and a UB end must start at a 32-byte boundary.
void CheckEnd(const char* type_name, const CopyEnd& dst, const CopyEnd& src,
              const char* which, const CopyEnd& end) {
  if (end.ub != nullptr) {
    if (end.ub->core == nullptr) {
      Fail(
          "DataCopy<%s> %s->%s: %s LocalTensor is empty (no unified-buffer "
          "memory)",
          type_name, Side(src), Side(dst), which);
    }
    if (end.ub->offset % 32 != 0) {
      Fail(
          "DataCopy<%s> %s->%s: %s LocalTensor starts at UB offset %u, "
          "which is not 32-byte aligned (UB addresses must be multiples of "
          "32)",
          type_name, Side(src), Side(dst), which, end.ub->offset);
    }
  } else if (end.data == nullptr) {
    Fail(
        "DataCopy<%s> %s->%s: %s GlobalTensor has no buffer (call "
        "SetGlobalBuffer first)",
        type_name, Side(src), Side(dst), which);
  }
}

void CheckRange(const char* type_name, const CopyEnd& dst, const CopyEnd& src,
                const char* which, const CopyEnd& end, uint32_t count,
                uint32_t asked) {
  if (!end.sized || count <= end.elems) return;
  char counted[64] = "";
  if (count != asked) {
    std::snprintf(counted, sizeof counted, " (%u rounded down to %u)", asked,
                  count);
  }
  Fail(
      "DataCopy<%s> %s->%s: count %u%s exceeds the %s %s of %llu "
      "elements",
      type_name, Side(src), Side(dst), count, counted, which,
      end.ub != nullptr ? "LocalTensor" : "GlobalTensor",
      static_cast<unsigned long long>(end.elems));
}

}  // namespace

void CopyBytes(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  const auto d = reinterpret_cast<uintptr_t>(dst);
  const auto s = reinterpret_cast<uintptr_t>(src);
  if (bytes >= kStreamedCopyBytes && (d + bytes <= s || s + bytes <= d)) {
    normgrad::engine::ElementwiseIsa().vector.copy_streams(dst, src, bytes);
  } else {
    std::memmove(dst, src, bytes);
  }
}

DataCopyMode GetDataCopyMode() { return g_mode.Get(); }

void SetDataCopyMode(DataCopyMode mode) { g_mode.Set(mode); }

void DataCopyImpl(const char* type_name, uint32_t elem_bytes,
                  const CopyEnd& dst, const CopyEnd& src, uint32_t count) {
  CheckEnd(type_name, dst, src, "dst", dst);
  CheckEnd(type_name, dst, src, "src", src);
  const uint32_t asked = count;
  const uint64_t bytes = uint64_t{count} * elem_bytes;
  if (bytes % 32 != 0) {
    if (GetDataCopyMode() == DataCopyMode::kCheck) {
      Fail(
          "DataCopy<%s> %s->%s: count %u (%llu bytes) is not a multiple of "
          "32 bytes; the device would silently drop the last %llu bytes "
          "(NORMGRAD_DATACOPY=truncate mimics that)",
          type_name, Side(src), Side(dst), count,
          static_cast<unsigned long long>(bytes),
          static_cast<unsigned long long>(bytes % 32));
    }
    count = static_cast<uint32_t>(bytes / 32 * 32 / elem_bytes);
  }
  CheckRange(type_name, dst, src, "src", src, count, asked);
  CheckRange(type_name, dst, src, "dst", dst, count, asked);
  const uint64_t moved = uint64_t{count} * elem_bytes;
  if (dst.ub == nullptr) {
    StoreToGm(dst.data, src.data, moved);
  } else {
    CopyBytes(dst.data, src.data, moved);
  }
}

}  // namespace normgrad_ascendc
