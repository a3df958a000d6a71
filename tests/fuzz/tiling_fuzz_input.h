// tests/fuzz/tiling_fuzz_input.h — what the host tiling fuzz targets share:
// turning fuzz bytes into the arguments of the Get…MaxMinTmpSize and
// Get…NDTilingInfo functions (shapes mostly of rank 4 with small, boundary or
// arbitrary dimensions; type sizes mostly 2 or 4; scratch sizes mostly
// around the minimum and maximum the size query gives), the check that the
// host-class overload writes the kernel struct's bytes, and the failure
// report. Included by exactly one source file of each target: it defines the
// target's LLVMFuzzerInitialize.
//
// The tiling functions print one line on stderr for every bad input, so
// ctest runs these targets with -close_fd_mask=2 (stderr discarded, the
// sanitizers' reports kept); a broken invariant is reported on a copy of
// stderr taken before that.
#pragma once

#include <unistd.h>

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"

namespace tiling_fuzz {

inline constexpr uint64_t kU32Max = 0xFFFFFFFFu;

inline FILE* g_report = stderr;  // stderr as it was before -close_fd_mask

struct Args {
  ge::Shape shape;
  uint32_t type_size = 0;
  bool reuse = false;
};

inline std::string ShapeText(const ge::Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    text += (i > 0 ? ", " : "") + std::to_string(shape.GetDim(i));
  }
  return text + "]";
}

// Aborts (a fuzzer finding) naming the API, the arguments and the invariant.
inline void Check(bool condition, const char* api, const Args& a, uint32_t scratch,
                  const char* what) {
  if (condition) return;
  std::fprintf(g_report,
               "%s: invariant broken for srcShape %s, typeSize %u, isReuseSource %d, "
               "stackBufferSize %u: %s\n",
               api, ShapeText(a.shape).c_str(), a.type_size, a.reuse ? 1 : 0, scratch, what);
  std::fflush(g_report);
  std::abort();
}

inline int64_t Dim(FuzzedDataProvider& in) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  static constexpr int64_t kBoundaries[] = {0,     1,          -1,          8,    16,  65535,
                                            65536, 0xFFFFFFFF, 0x100000000, kMax, kMin};
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 5:
      return in.ConsumeIntegralInRange<int64_t>(1, 1 << 20);
    case 6:
      return in.PickValueInArray(kBoundaries);
    case 7:
      return in.ConsumeIntegral<int64_t>();
    default:
      return in.ConsumeIntegralInRange<int64_t>(1, 300);
  }
}

inline Args ConsumeArgs(FuzzedDataProvider& in) {
  Args a;
  const size_t rank =
      in.ConsumeIntegralInRange<int>(0, 7) == 7 ? in.ConsumeIntegralInRange<size_t>(0, 6) : 4;
  std::vector<int64_t> dims;
  for (size_t i = 0; i < rank; ++i) dims.push_back(Dim(in));
  if (rank == 4 && in.ConsumeIntegralInRange<int>(0, 7) != 7) dims[3] = dims[2];
  a.shape = ge::Shape(dims);
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
    case 1:
      a.type_size = 2;
      break;
    case 2:
    case 3:
      a.type_size = 4;
      break;
    default:
      a.type_size = in.ConsumeIntegral<uint32_t>();
      break;
  }
  a.reuse = in.ConsumeBool();
  return a;
}

// A scratch size in bytes near what the size query reported, or any.
inline uint32_t ConsumeScratch(FuzzedDataProvider& in, uint32_t min_value, uint32_t max_value) {
  const uint32_t delta = in.ConsumeIntegralInRange<uint32_t>(0, 4096);
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
      return min_value;
    case 1:
      return max_value;
    case 2:
      return min_value >= delta ? min_value - delta : 0;
    case 3:
      return static_cast<uint32_t>(std::min<uint64_t>(uint64_t{min_value} + delta, kU32Max));
    case 4:
      return in.ConsumeIntegralInRange<uint32_t>(0, 1 << 20);
    default:
      return in.ConsumeIntegral<uint32_t>();
  }
}

// The host class's SaveToBuffer bytes equal the kernel struct's bytes.
template <typename HostTiling, typename KernelTiling>
bool SameBytes(const HostTiling& host, const KernelTiling& kernel) {
  if (host.GetDataSize() != sizeof(KernelTiling)) return false;
  unsigned char saved[sizeof(KernelTiling)];
  host.SaveToBuffer(saved, sizeof saved);
  return std::memcmp(saved, &kernel, sizeof kernel) == 0;
}

// Every byte of the kernel struct is zero (the tiling functions' failure).
template <typename KernelTiling>
bool AllZero(const KernelTiling& kernel) {
  const KernelTiling zero{};
  return std::memcmp(&zero, &kernel, sizeof kernel) == 0;
}

// A kernel struct with every byte non-zero, as if it held an earlier tiling.
template <typename KernelTiling>
KernelTiling Garbage() {
  KernelTiling t;
  std::memset(static_cast<void*>(&t), 0xA5, sizeof t);
  return t;
}

// What each tiling target checks first, and what it goes on with.
template <typename KernelTiling>
struct Tiled {
  Args a;
  uint32_t min_value;  // the size query's minimum (0: it refused the shape)
  uint32_t scratch;    // the scratch size the tiling was given
  KernelTiling tiling;
};

// Draws the arguments, asks the size query (`query_api`: both sizes or
// neither, min <= max), draws a scratch size around them and tiles through
// both overloads of `tiling_api` (the kernel struct starting from garbage),
// which must give the same bytes. `query` and `tile` forward to the API's
// overloaded functions.
template <typename KernelTiling, typename HostTiling, typename Query, typename Tile>
Tiled<KernelTiling> QueryAndTile(FuzzedDataProvider& in, const char* query_api,
                                 const char* tiling_api, Query query, Tile tile) {
  Tiled<KernelTiling> r{ConsumeArgs(in), 0, 0, Garbage<KernelTiling>()};
  uint32_t max_value = 1, min_value = 1;
  query(r.a.shape, r.a.type_size, r.a.reuse, max_value, min_value);
  Check((min_value == 0) == (max_value == 0) && min_value <= max_value, query_api, r.a, 0,
        "both sizes or neither, min <= max");
  r.min_value = min_value;
  r.scratch = ConsumeScratch(in, min_value, max_value);
  tile(r.a.shape, r.scratch, r.a.type_size, r.a.reuse, r.tiling);
  HostTiling host;
  tile(r.a.shape, r.scratch, r.a.type_size, r.a.reuse, host);
  Check(SameBytes(host, r.tiling), tiling_api, r.a, r.scratch,
        "the host class and the kernel struct get the same bytes");
  return r;
}

}  // namespace tiling_fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const int fd = dup(2);
  if (fd >= 0) {
    if (FILE* copy = fdopen(fd, "w")) tiling_fuzz::g_report = copy;
  }
  return 0;
}
