// matmul_sparse_test.cc — the 4:2 sparse Matmul (docs/matmul.md, "Sparse
// Matmul"): a Matmul whose B_TYPE is a SparseMatmulType, B given as the two
// values kept of every four along K ([N, K / 2], ISTRANS) and
// SetSparseIndex's index matrix (2-bit indices, four a byte, NZ), on a cube
// core with the MDL template; results exact against an int64 product of A
// with the dense B this file expands from the kept values and the indices
// (the selection rule of the MmadWithSparse page: the first index places the
// first kept value among the group's values 0..2, the second the second
// among values 1..3); tails in M, N and K, several K steps, B in ND and NZ,
// a bias; then every rule's message.
//
// Extending: one TEST per behaviour; a new rule gets a FailsWith line with
// its message. Seeds are fixed per test.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "lib/matmul/matmul_intf.h"
#include "matmul_test_support.h"

namespace {

using matmul_test::Gm;
using matmul_test::Tiling;

using AscendC::CubeFormat;
using AscendC::Matmul;
using AscendC::MatmulType;
using AscendC::SparseMatmulType;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

using MatmulSparseTest = matmul_test::CubeCoreTest;

using A8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using C32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
template <CubeFormat F = CubeFormat::ND, bool TRANS = true>
using SparseB =
    SparseMatmulType<TPosition::GM, TPosition::GM, F, int8_t, TRANS>;
using SparseMatmul = Matmul<A8, SparseB<>, C32, C32, AscendC::CFG_MDL>;

// A sparse problem: A [M, K], B's kept values [N, kept] (kept = 2 per group
// of four along K), their indices in NZ, and the dense B [K, N] they stand
// for.
struct Problem {
  int m, n, k, kept;
  std::vector<int8_t> a, b_kept;
  std::vector<uint8_t> index;
  std::vector<int64_t> b_dense;
};

// The six index pairs that place two values in a group of four (the
// index page's table, rows with two nonzeros): positions i0 and 1 + i1.
constexpr uint8_t kPairs[6][2] = {{2, 2}, {1, 2}, {0, 2},
                                  {1, 1}, {0, 1}, {0, 0}};

Problem MakeProblem(int m, int n, int k, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-128, 127), pair(0, 5);
  Problem p{m, n, k, 2 * ((k + 3) / 4), {}, {}, {}, {}};
  for (int i = 0; i < m * k; ++i)
    p.a.push_back(static_cast<int8_t>(value(rng)));
  const int n16 = (n + 15) / 16 * 16, columns = (p.kept + 31) / 32;
  p.b_kept.resize(size_t{1} * n * p.kept);
  p.index.assign(size_t{1} * columns * n16 * 8, 0xff);  // 3s: never valid
  p.b_dense.assign(size_t{1} * k * n, 0);
  for (int j = 0; j < n; ++j) {
    for (int g = 0; g < p.kept / 2; ++g) {
      const uint8_t* ix = kPairs[pair(rng)];
      const int at[2] = {4 * g + ix[0], 4 * g + 1 + ix[1]};
      for (int h = 0; h < 2; ++h) {
        const int kk = 2 * g + h;
        const auto v = static_cast<int8_t>(value(rng));
        p.b_kept[size_t{1} * j * p.kept + kk] = v;
        // NZ: fractals of 16 rows (N) by 32 indices (8 bytes), column
        // blocks of 32 kept values, each Ceil16(N) rows.
        uint8_t& byte =
            p.index[(size_t{1} * (kk / 32) * n16 + j) * 8 + kk % 32 / 4];
        const int shift = kk % 4 * 2;
        byte = static_cast<uint8_t>((byte & ~(3u << shift)) |
                                    (uint32_t{ix[h]} << shift));
        // A position past K has no A value: it adds nothing.
        if (at[h] < k) p.b_dense[size_t{1} * at[h] * n + j] = v;
      }
    }
  }
  return p;
}

std::vector<int32_t> Reference(const Problem& p) {
  std::vector<int32_t> c(size_t{1} * p.m * p.n);
  for (int i = 0; i < p.m; ++i) {
    for (int j = 0; j < p.n; ++j) {
      int64_t sum = 0;
      for (int q = 0; q < p.k; ++q) {
        sum +=
            p.a[size_t{1} * i * p.k + q] * p.b_dense[size_t{1} * q * p.n + j];
      }
      c[size_t{1} * i * p.n + j] = static_cast<int32_t>(sum);
    }
  }
  return c;
}

// B's kept values [N, kept] in NZ: 16 x 32 fractals, column blocks of
// Ceil16(N) rows.
std::vector<int8_t> KeptInNz(const Problem& p) {
  const int n16 = (p.n + 15) / 16 * 16, k32 = (p.kept + 31) / 32 * 32;
  std::vector<int8_t> nz(size_t{1} * n16 * k32, 0);
  for (int j = 0; j < p.n; ++j) {
    for (int kk = 0; kk < p.kept; ++kk) {
      nz[(size_t{1} * (kk / 32) * n16 + j) * 32 + kk % 32] =
          p.b_kept[size_t{1} * j * p.kept + kk];
    }
  }
  return nz;
}

template <typename MM>
std::vector<int32_t> RunSparse(Problem& p, std::vector<int8_t>& b,
                               const TCubeTiling& tiling) {
  std::vector<int32_t> c(size_t{1} * p.m * p.n, -1);
  TPipe pipe;
  MM mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(p.a));
  mm.SetTensorB(Gm(b), true);
  mm.SetSparseIndex(Gm(p.index));
  mm.IterateAll(Gm(c));
  mm.End();
  return c;
}

// ---- Results ---------------------------------------------------------------

TEST_F(MatmulSparseTest, IterateAllEqualsTheDenseProductWithTails) {
  // Tails in M (50 = 32 + 18), N (40 = 32 + 8) and K (200 = 3 · 64 + 8),
  // four K steps, so several index column blocks per block of N.
  Problem p = MakeProblem(50, 40, 200, 1);
  const TCubeTiling tiling = Tiling(50, 40, 200, 32, 32, 64, false);
  EXPECT_EQ(RunSparse<SparseMatmul>(p, p.b_kept, tiling), Reference(p));
}

TEST_F(MatmulSparseTest, KNotAMultipleOfFour) {
  // K 130: the last group holds two A values; a kept value the index puts
  // past K adds nothing.
  Problem p = MakeProblem(17, 20, 130, 2);
  const TCubeTiling tiling = Tiling(17, 20, 130, 16, 16, 128, false);
  EXPECT_EQ(RunSparse<SparseMatmul>(p, p.b_kept, tiling), Reference(p));
}

TEST_F(MatmulSparseTest, BInNzAndIterateBlockByBlock) {
  // K 224: 112 kept values a column, the last K step's 48 in a padded
  // fractal column.
  Problem p = MakeProblem(32, 48, 224, 3);
  std::vector<int8_t> nz = KeptInNz(p);
  const TCubeTiling tiling = Tiling(32, 48, 224, 16, 32, 128, false);
  using NzMatmul =
      Matmul<A8, SparseB<CubeFormat::NZ>, C32, C32, AscendC::CFG_MDL>;
  EXPECT_EQ(RunSparse<NzMatmul>(p, nz, tiling), Reference(p));

  // Iterate and GetTensorC place each block as IterateAll does.
  std::vector<int32_t> c(size_t{1} * p.m * p.n, -1);
  TPipe pipe;
  SparseMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(p.a));
  mm.SetTensorB(Gm(p.b_kept), true);
  mm.SetSparseIndex(Gm(p.index));
  int blocks = 0;
  while (mm.Iterate()) {
    mm.GetTensorC(Gm(c));
    ++blocks;
  }
  mm.End();
  EXPECT_EQ(blocks, 4);
  EXPECT_EQ(c, Reference(p));
}

TEST_F(MatmulSparseTest, ATransposed) {
  // A given as [K, M] (ISTRANS true): its squares go to L0A as Zz, which
  // MmadWithSparse reads.
  Problem p = MakeProblem(40, 32, 96, 6);
  std::vector<int8_t> at(p.a.size());
  for (int i = 0; i < p.m; ++i) {
    for (int q = 0; q < p.k; ++q) {
      at[size_t{1} * q * p.m + i] = p.a[size_t{1} * i * p.k + q];
    }
  }
  const TCubeTiling tiling = Tiling(40, 32, 96, 32, 32, 64, false);
  std::vector<int32_t> c(size_t{1} * p.m * p.n, -1);
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>, SparseB<>,
         C32, C32, AscendC::CFG_MDL>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(at), true);
  mm.SetTensorB(Gm(p.b_kept), true);
  mm.SetSparseIndex(Gm(p.index));
  mm.IterateAll(Gm(c));
  mm.End();
  EXPECT_EQ(c, Reference(p));
}

// ---- Rules -----------------------------------------------------------------

TEST_F(MatmulSparseTest, ComputingWithoutTheIndexIsAnError) {
  Problem p = MakeProblem(16, 16, 64, 4);
  const TCubeTiling tiling = Tiling(16, 16, 64, 16, 16, 64, false);
  std::vector<int32_t> c(256);
  TPipe pipe;
  SparseMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(p.a));
  mm.SetTensorB(Gm(p.b_kept), true);
  EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                        "Matmul::IterateAll: the 4:2 sparse Matmul has no "
                        "index matrix; call SetSparseIndex before computing"));
  // An index tensor that ends before the block's indices.
  AscendC::GlobalTensor<uint8_t> short_index;
  short_index.SetGlobalBuffer(p.index.data(), 64);
  mm.SetSparseIndex(short_index);
  EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                        "Matmul::IterateAll: the index tensor holds 64 bytes, "
                        "but the block at N 0, K 0 reads its indices up to "
                        "byte 128"));
}

TEST_F(MatmulSparseTest, BiasStartsEachBlock) {
  // Two blocks along N, three K steps: the bias is added once per element.
  Problem p = MakeProblem(20, 48, 150, 5);
  std::vector<int32_t> bias(48);
  for (int j = 0; j < 48; ++j) bias[j] = 1000 * j - 20000;
  const TCubeTiling tiling = Tiling(20, 48, 150, 32, 32, 64, true);
  std::vector<int32_t> c(size_t{1} * 20 * 48, -1);
  TPipe pipe;
  SparseMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(p.a));
  mm.SetTensorB(Gm(p.b_kept), true);
  mm.SetSparseIndex(Gm(p.index));
  mm.SetBias(Gm(bias));
  mm.IterateAll(Gm(c));
  mm.End();
  std::vector<int32_t> want = Reference(p);
  for (size_t i = 0; i < want.size(); ++i) want[i] += bias[i % 48];
  EXPECT_EQ(c, want);
}

TEST_F(MatmulSparseTest, SetSparseIndexNeedsASparseB) {
  std::vector<uint8_t> index(128);
  const TCubeTiling tiling = Tiling(16, 16, 64, 16, 16, 64, false);
  TPipe pipe;
  Matmul<A8, MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>, C32, C32,
         AscendC::CFG_MDL>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  EXPECT_TRUE(FailsWith([&] { mm.SetSparseIndex(Gm(index)); },
                        "Matmul::SetSparseIndex: B_TYPE is not a "
                        "SparseMatmulType"));
}

template <typename MM>
void InitFails(const TCubeTiling& tiling, const char* message) {
  TPipe pipe;
  MM mm;
  EXPECT_TRUE(FailsWith([&] { mm.Init(&tiling, &pipe); }, message)) << message;
}

TEST_F(MatmulSparseTest, InitRefusesWhatThePagesExclude) {
  const TCubeTiling tiling = Tiling(16, 16, 64, 16, 16, 64, false);
  InitFails<Matmul<A8, SparseB<>, C32, C32, AscendC::CFG_NORM>>(
      tiling,
      "Matmul::Init: the 4:2 sparse Matmul runs with the MDL template only");
  InitFails<
      Matmul<A8, SparseB<CubeFormat::ND, false>, C32, C32, AscendC::CFG_MDL>>(
      tiling, "Matmul::Init: the 4:2 sparse Matmul takes B transposed only");
  InitFails<Matmul<A8,
                   SparseMatmulType<TPosition::GM, TPosition::GM,
                                    CubeFormat::ND, half, true>,
                   C32, C32, AscendC::CFG_MDL>>(
      tiling, "Matmul::Init: the 4:2 sparse Matmul takes B of int8_t only");
  InitFails<Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, SparseB<>,
                   C32, C32, AscendC::CFG_MDL>>(
      tiling, "Matmul::Init: the 4:2 sparse Matmul takes A of int8_t only");
  InitFails<Matmul<A8,
                   SparseMatmulType<TPosition::TSCM, TPosition::GM,
                                    CubeFormat::NZ, int8_t, true>,
                   C32, C32, AscendC::CFG_MDL>>(
      tiling, "Matmul::Init: the 4:2 sparse Matmul takes B in GM only");
  InitFails<Matmul<A8, SparseB<CubeFormat::ZN>, C32, C32, AscendC::CFG_MDL>>(
      tiling, "Matmul::Init: the 4:2 sparse Matmul takes B as ND or NZ only");
  InitFails<Matmul<A8,
                   SparseMatmulType<TPosition::GM, TPosition::TSCM,
                                    CubeFormat::ND, int8_t, true>,
                   C32, C32, AscendC::CFG_MDL>>(
      tiling,
      "Matmul::Init: the 4:2 sparse Matmul takes the index matrix in GM only");
  InitFails<
      Matmul<A8,
             SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND,
                              int8_t, true, AscendC::LayoutMode::NONE, true>,
             C32, C32, AscendC::CFG_MDL>>(
      tiling, "Matmul::Init: the 4:2 sparse Matmul has no IBShare");
  // The shared tiling rule: whole fractals of kept values and indices.
  InitFails<SparseMatmul>(Tiling(16, 16, 64, 16, 16, 32, false),
                          "TCubeTiling.baseK 32 is not a multiple of 64: in "
                          "the 4:2 sparse Matmul K goes in multiples of 64");
}

TEST_F(MatmulSparseTest, TheAscend950HasNone) {
  normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::k950);
  InitFails<SparseMatmul>(Tiling(16, 16, 64, 16, 16, 64, false),
                          "Matmul::Init: the 4:2 sparse Matmul is not on "
                          "profile Ascend 950");
  normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::kA2);
}

}  // namespace
