// cube_sparse.cc — LoadDataWithSparse and MmadWithSparse
// (normgrad_ascendc/cube/cube_sparse.h, docs/cube.md "Sparse Mmad"): the
// dense B and its 2-bit indices from L1 into L0B and the core's index
// buffer, and the multiply whose indices pick, in each group of four A
// values along K, the two that meet the group's two dense B values; each
// checked before a byte moves.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "ascendc/cube/cube_checks.h"
#include "ascendc/cube/cube_unit_flag.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/cube/cube_sparse.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

namespace {

using AscendC::TPosition;

constexpr uint32_t kFractalBytes = 512;  // one L0B fractal: 32 x 16 int8
constexpr uint32_t kIndexBytes = SparseIndexBuffer::kFractalBytes;
// The index buffer holds one index fractal for each L0B fractal.
static_assert(MaxCubeMemoryBytes(CubeMemory::kL0B) / kFractalBytes ==
              SparseIndexBuffer::kFractals);

constexpr const char* kNoSparseOn950 =
    "the 950's cube has no 4:2 sparse matrices; densify B on the vector core";

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

}  // namespace

void RunLoadDataWithSparse(const TensorView& dst, const TensorView& src,
                           const TensorView& idx,
                           const AscendC::LoadData2DParams& p) {
  const char* api = "LoadDataWithSparse<int8_t> L1->L0B";
  RequireCubeProfile(api, {Profile::kA2}, kNoSparseOn950);
  CheckOperand(api, "dst", dst, {TPosition::B2}, "B2 (L0B)", kFractalBytes);
  CheckOperand(api, "src", src, {TPosition::B1}, "B1 (L1)", 32);
  CheckOperand(api, "idx", idx, {TPosition::B1}, "B1 (L1)", 32);
  if (p.ifTranspose) {
    Fail(
        "%s: loadDataParam.ifTranspose is true; LoadDataWithSparse does not "
        "transpose (it moves consecutive fractals)",
        api);
  }
  if (p.repeatTimes == 0) return;  // a NOP
  const uint64_t count = p.repeatTimes;
  const uint64_t end = p.startIndex + count;  // fractals, from 0
  CheckFits(api, "dst", count * kFractalBytes, dst.bytes,
            "the fractals written");
  CheckFits(api, "src", end * kFractalBytes, src.bytes, "the fractals read");
  CheckFits(api, "idx", end * kIndexBytes, idx.bytes,
            "the index fractals read (128 bytes each)");
  std::memcpy(dst.declared_data(),
              src.declared_data() + uint64_t{p.startIndex} * kFractalBytes,
              count * kFractalBytes);
  // Each L0B fractal's index lands at the same place of the index buffer
  // (a quarter of the address), where MmadWithSparse looks for it.
  SparseIndexBuffer& buffer = CurrentCore().sparse_index();
  if (!buffer.bytes) {
    buffer.bytes =
        std::make_unique<uint8_t[]>(SparseIndexBuffer::kFractals * kIndexBytes);
  }
  const uint32_t first = dst.offset / kFractalBytes;
  std::memcpy(buffer.bytes.get() + uint64_t{first} * kIndexBytes,
              idx.declared_data() + uint64_t{p.startIndex} * kIndexBytes,
              count * kIndexBytes);
  for (uint32_t i = 0; i < count; ++i) buffer.MarkLoaded(first + i);
}

void RunMmadWithSparse(const TensorView& dst, const TensorView& fm,
                       const TensorView& filter, const AscendC::MmadParams& p) {
  const char* api = "MmadWithSparse<int32_t, int8_t>";
  RequireCubeProfile(api, {Profile::kA2}, kNoSparseOn950);
  CheckMmadOperands(api, dst, fm, filter, p);
  if (p.kDirectionAlign) {
    Fail(
        "%s: mmadParams.kDirectionAlign is true; the sparse Mmad takes int8_t "
        "and does not align K (set it false)",
        api);
  }
  if (!p.isBias && !p.cmatrixInitVal && p.cmatrixSource) {
    Fail(
        "%s: mmadParams.cmatrixSource is true, but MmadWithSparse has no "
        "bias tensor to start C from",
        api);
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) return;  // a NOP
  // A: m x k in Zz fractals of 16 x 32; B: the dense (groups x 2) x n in Zn
  // fractals of 32 x 16, one row pair per group of four along K (no GEMV:
  // A is Zz even for m 1).
  const uint32_t groups = CeilDiv(p.k, 4);
  const uint32_t m1 = CeilDiv(p.m, 16), n1 = CeilDiv(p.n, 16);
  const uint32_t ka1 = CeilDiv(p.k, 32), kb1 = CeilDiv(groups * 2, 32);
  CheckFits(api, "fm", uint64_t{m1} * ka1 * kFractalBytes, fm.bytes,
            "A (m x k)");
  CheckFits(api, "filter", uint64_t{kb1} * n1 * kFractalBytes, filter.bytes,
            "the dense B (k / 2 x n)");
  CheckFits(api, "dst", uint64_t{m1} * n1 * 1024, dst.bytes, "C (m x n)");
  const SparseIndexBuffer& buffer = CurrentCore().sparse_index();
  const uint32_t first = filter.offset / kFractalBytes;
  for (uint32_t f = first; f < first + kb1 * n1; ++f) {
    if (!buffer.IsLoaded(f)) {
      Fail(
          "%s: filter's L0B fractal %u (bytes %u..%u of L0B) has no index: "
          "no LoadDataWithSparse loaded it in this block",
          api, f, f * kFractalBytes, (f + 1) * kFractalBytes - 1);
    }
  }
  RunUnitFlag("MmadWithSparse", api, "mmadParams.unitFlag",
              UnitFlagSide::kWrite, p.unitFlag,
              MmadL0cBlocks(dst.offset, p.m, p.n));
  const auto* a = reinterpret_cast<const int8_t*>(fm.declared_data());
  const auto* b = reinterpret_cast<const int8_t*>(filter.declared_data());
  const uint8_t* index = buffer.bytes.get();
  // Element (row kd, column n) of the dense B, and its index: both Zn, the
  // index packing four 2-bit values a byte, the first in the low bits.
  const auto zn = [&](uint32_t kd, uint32_t n) {
    return uint64_t{(kd / 32) * n1 + n / 16} * kFractalBytes + (n % 16) * 32 +
           kd % 32;
  };
  const auto index_of = [&](uint32_t kd, uint32_t n) {
    const uint64_t e = zn(kd, n);
    const uint64_t fractal = first + e / kFractalBytes;
    const uint32_t in = static_cast<uint32_t>(e % kFractalBytes);
    const uint32_t bits = index[fractal * kIndexBytes + in / 4] >> (in % 4 * 2);
    const uint32_t value = bits & 3u;
    if (value == 3) {
      Fail(
          "%s: the index of dense B row %u, column %u is 3; an index is 0, 1 "
          "or 2 (the position of a nonzero among three)",
          api, kd, n);
    }
    return value;
  };
  const auto a_at = [&](uint32_t m, uint32_t k) -> int32_t {
    // Past k the fractal's padding is not part of the sum.
    if (k >= p.k) return 0;
    return a[uint64_t{(m / 16) * ka1 + k / 32} * kFractalBytes + (m % 16) * 32 +
             k % 32];
  };
  const bool keep = p.isBias || !p.cmatrixInitVal;
  uint8_t* c = dst.declared_data();
  // Per column of B: each dense value and the K of the A value it meets.
  std::vector<uint32_t> at(uint64_t{groups} * 2);
  std::vector<int32_t> value(uint64_t{groups} * 2);
  for (uint32_t n = 0; n < p.n; ++n) {
    for (uint32_t g = 0; g < groups; ++g) {
      // The first index places the first value among A's values 0..2 of the
      // group; the second places the second among values 1..3, and where
      // that is not past the first, the first value's A value serves both
      // (the page's "X/X" rows).
      const uint32_t first_at = index_of(2 * g, n);
      const uint32_t second_at = std::max(first_at, 1 + index_of(2 * g + 1, n));
      at[2 * g] = 4 * g + first_at;
      at[2 * g + 1] = 4 * g + second_at;
      value[2 * g] = b[zn(2 * g, n)];
      value[2 * g + 1] = b[zn(2 * g + 1, n)];
    }
    for (uint32_t m = 0; m < p.m; ++m) {
      int64_t sum = 0;
      for (uint32_t j = 0; j < 2 * groups; ++j)
        sum += a_at(m, at[j]) * value[j];
      uint8_t* out = c + (uint64_t{n / 16} * m1 + m / 16) * 1024 +
                     ((m % 16) * 16 + n % 16) * 4;
      int32_t init = 0;
      if (keep) std::memcpy(&init, out, 4);
      // Saturated to int32_t once, as Mmad's int8_t sum.
      const int64_t total =
          std::clamp<int64_t>(init + sum, std::numeric_limits<int32_t>::min(),
                              std::numeric_limits<int32_t>::max());
      const int32_t v = static_cast<int32_t>(total);
      std::memcpy(out, &v, 4);
    }
  }
}

}  // namespace normgrad_ascendc
