// data_copy.cc — DataCopy's checks, the NORMGRAD_DATACOPY mode and the copy
// itself (normgrad_ascendc/data_copy.h).
#include "normgrad_ascendc/data_copy.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "normgrad_ascendc/core.h"

namespace normgrad_ascendc {

namespace {

// The mode as an int, or -1 before the environment was read.
std::atomic<int> g_mode{-1};

int EnvironmentMode() {
  const char* value = std::getenv("NORMGRAD_DATACOPY");
  if (value == nullptr || *value == '\0' || std::strcmp(value, "check") == 0) {
    return static_cast<int>(DataCopyMode::kCheck);
  }
  if (std::strcmp(value, "truncate") == 0) {
    return static_cast<int>(DataCopyMode::kTruncate);
  }
  Fail(
      "NORMGRAD_DATACOPY: unknown value \"%s\"; valid: check (default), "
      "truncate",
      value);
}

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

DataCopyMode GetDataCopyMode() {
  int mode = g_mode.load(std::memory_order_relaxed);
  if (mode < 0) {
    int unset = -1;
    g_mode.compare_exchange_strong(unset, EnvironmentMode());
    mode = g_mode.load(std::memory_order_relaxed);
  }
  return static_cast<DataCopyMode>(mode);
}

void SetDataCopyMode(DataCopyMode mode) {
  g_mode.store(static_cast<int>(mode), std::memory_order_relaxed);
}

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
  std::memmove(dst.data, src.data, uint64_t{count} * elem_bytes);
}

}  // namespace normgrad_ascendc
