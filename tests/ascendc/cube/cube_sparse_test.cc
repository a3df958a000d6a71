// cube_sparse_test.cc — LoadDataWithSparse and MmadWithSparse (docs/cube.md,
// "Sparse Mmad"): a 4:2 sparse B densified here by the index page's
// generation table, loaded with its indices, multiplied against a full A,
// and compared bit for bit with a dense Mmad on the original B and with an
// exact integer reference; each row of the page's selection table on its
// own; the moves' placement; every rule's message.
//
// Extending: one TEST per behaviour. The references use the pages' tables
// as data (never the code under test); the layouts are Zz (A, 16 x 32
// fractals) and Zn (B and its index, 32 x 16 fractals, 2 bits an index, the
// first in a byte's low bits). Seeds: NORMGRAD_SEED.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LoadData2DParams;
using AscendC::LoadDataWithSparse;
using AscendC::LocalTensor;
using AscendC::Mmad;
using AscendC::MmadParams;
using AscendC::MmadWithSparse;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

class CubeSparseTest : public CubeCoreTest {};

uint32_t Up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Zz (L0A, int8): fractals of 16 rows x 32 columns, row-major fractals.
size_t ZzAt(uint32_t r, uint32_t c, uint32_t k1) {
  return size_t{(r / 16) * k1 + c / 32} * 512 + (r % 16) * 32 + c % 32;
}
// Zn (L0B and the index, int8): fractals of 32 rows (K) x 16 columns (N),
// row-major fractals, each column's 32 values together.
size_t ZnAt(uint32_t k, uint32_t n, uint32_t n1) {
  return size_t{(k / 32) * n1 + n / 16} * 512 + (n % 16) * 32 + k % 32;
}
// Nz (L0C, int32_t): 16 x 16 fractals, column-major fractals.
size_t NzAt(uint32_t m, uint32_t n, uint32_t m1) {
  return size_t{(n / 16) * m1 + m / 16} * 256 + (m % 16) * 16 + n % 16;
}

// The index page's generation table: a group of four B values (their
// nonzero pattern, bit i for value i) gives two indices and which B value
// each dense value is (4: a zero).
struct Densify {
  uint8_t pattern, index0, index1, value0, value1;
};
constexpr Densify kDensify[] = {
    {0b1100, 2, 2, 2, 3}, {0b1010, 1, 2, 1, 3}, {0b1001, 0, 2, 0, 3},
    {0b0110, 1, 1, 1, 2}, {0b0101, 0, 1, 0, 2}, {0b0011, 0, 0, 0, 1},
    {0b1000, 0, 2, 4, 3}, {0b0100, 2, 0, 2, 4}, {0b0010, 1, 0, 1, 4},
    {0b0001, 0, 0, 0, 4}, {0b0000, 0, 0, 4, 4},
};

// A K x N sparse B (row major), densified: the dense (K / 2) x N values and
// their indices, row major.
struct DenseB {
  std::vector<int8_t> values;
  std::vector<uint8_t> indices;
};
DenseB DensifyB(const std::vector<int8_t>& b, uint32_t k, uint32_t n) {
  DenseB d{std::vector<int8_t>(size_t{k / 2} * n),
           std::vector<uint8_t>(size_t{k / 2} * n)};
  for (uint32_t g = 0; g < k / 4; ++g) {
    for (uint32_t col = 0; col < n; ++col) {
      uint8_t pattern = 0;
      for (uint32_t i = 0; i < 4; ++i)
        if (b[size_t{4 * g + i} * n + col] != 0) pattern |= uint8_t(1u << i);
      const Densify* row = nullptr;
      for (const Densify& r : kDensify)
        if (r.pattern == pattern) row = &r;
      EXPECT_NE(row, nullptr) << "more than two nonzeros in a group";
      const auto pick = [&](uint8_t which) -> int8_t {
        return which == 4 ? 0 : b[size_t{4 * g + which} * n + col];
      };
      d.values[size_t{2 * g} * n + col] = pick(row->value0);
      d.values[size_t{2 * g + 1} * n + col] = pick(row->value1);
      d.indices[size_t{2 * g} * n + col] = row->index0;
      d.indices[size_t{2 * g + 1} * n + col] = row->index1;
    }
  }
  return d;
}

// Writes the dense B (rows x n) into `b1` as Zn fractals and its indices
// into `idx1` as Zn index fractals (128 bytes: 2 bits a value, the first of
// four in the low bits).
void StoreDense(const DenseB& d, uint32_t rows, uint32_t n,
                const LocalTensor<int8_t>& b1,
                const LocalTensor<uint8_t>& idx1) {
  const uint32_t n1 = Up(n, 16), kb1 = Up(rows, 32);
  for (uint32_t i = 0; i < kb1 * n1 * 512; ++i) b1.SetValue(i, 0);
  for (uint32_t i = 0; i < kb1 * n1 * 128; ++i) idx1.SetValue(i, 0);
  for (uint32_t kd = 0; kd < rows; ++kd) {
    for (uint32_t col = 0; col < n; ++col) {
      const size_t at = ZnAt(kd, col, n1);
      b1.SetValue(uint32_t(at), d.values[size_t{kd} * n + col]);
      const uint32_t byte = uint32_t(at / 4);
      idx1.SetValue(
          byte, uint8_t(idx1.GetValue(byte) | d.indices[size_t{kd} * n + col]
                                                  << (at % 4 * 2)));
    }
  }
}

// A random K x N B with at most two nonzeros in each group of four along K.
std::vector<int8_t> SparseB(std::mt19937& rng, uint32_t k, uint32_t n) {
  std::vector<int8_t> b(size_t{k} * n, 0);
  std::uniform_int_distribution<int> value(-128, 127), pick(0, 3);
  for (uint32_t g = 0; g < k / 4; ++g) {
    for (uint32_t col = 0; col < n; ++col) {
      const int nonzeros = pick(rng) % 3;  // 0, 1 or 2
      for (int i = 0; i < nonzeros; ++i) {
        int8_t v = int8_t(value(rng));
        if (v == 0) v = 1;
        b[size_t{4 * g + uint32_t(pick(rng))} * n + col] = v;
      }
    }
  }
  return b;
}

TEST_F(CubeSparseTest, SparseMmadEqualsDenseMmadOnTheOriginalB) {
  std::mt19937 rng(compat_test::Seed<32>());
  std::uniform_int_distribution<int> value(-128, 127);
  struct Shape {
    uint32_t m, k, n;
  };
  for (const Shape s :
       {Shape{20, 72, 40}, Shape{32, 128, 32}, Shape{1, 8, 16}}) {
    SCOPED_TRACE(s.k);
    const uint32_t m1 = Up(s.m, 16), n1 = Up(s.n, 16);
    const uint32_t ka1 = Up(s.k, 32), kb1 = Up(s.k / 2, 32);
    TPipe pipe;
    TBuf<TPosition::A2> l0a;
    TBuf<TPosition::B1> l1b, l1idx;
    TBuf<TPosition::B2> l0b_dense, l0b_full;
    TBuf<TPosition::CO1> c_sparse, c_dense;
    pipe.InitBuffer(l0a, m1 * ka1 * 512);
    pipe.InitBuffer(l1b, kb1 * n1 * 512);
    pipe.InitBuffer(l1idx, kb1 * n1 * 128);
    pipe.InitBuffer(l0b_dense, kb1 * n1 * 512);
    pipe.InitBuffer(l0b_full, ka1 * n1 * 512);
    pipe.InitBuffer(c_sparse, m1 * n1 * 1024);
    pipe.InitBuffer(c_dense, m1 * n1 * 1024);
    std::vector<int8_t> a(size_t{s.m} * s.k);
    for (int8_t& v : a) v = int8_t(value(rng));
    const std::vector<int8_t> b = SparseB(rng, s.k, s.n);
    LocalTensor<int8_t> at = l0a.Get<int8_t>();
    for (uint32_t i = 0; i < m1 * ka1 * 512; ++i) at.SetValue(i, 0);
    for (uint32_t r = 0; r < s.m; ++r)
      for (uint32_t c = 0; c < s.k; ++c)
        at.SetValue(uint32_t(ZzAt(r, c, ka1)), a[size_t{r} * s.k + c]);
    // The dense Mmad's B: the original K x N in Zn.
    LocalTensor<int8_t> full = l0b_full.Get<int8_t>();
    for (uint32_t i = 0; i < ka1 * n1 * 512; ++i) full.SetValue(i, 0);
    for (uint32_t r = 0; r < s.k; ++r)
      for (uint32_t c = 0; c < s.n; ++c)
        full.SetValue(uint32_t(ZnAt(r, c, n1)), b[size_t{r} * s.n + c]);
    // The sparse one's: densified, through L1 with its indices.
    StoreDense(DensifyB(b, s.k, s.n), s.k / 2, s.n, l1b.Get<int8_t>(),
               l1idx.Get<uint8_t>());
    LocalTensor<int8_t> dense = l0b_dense.Get<int8_t>();
    LoadDataWithSparse(
        dense, l1b.Get<int8_t>(), l1idx.Get<uint8_t>(),
        LoadData2DParams(0, uint8_t(kb1 * n1), 0, 0, 0, false, 0));
    MmadParams p;
    p.m = uint16_t(s.m);
    p.n = uint16_t(s.n);
    p.k = uint16_t(s.k);
    LocalTensor<int32_t> cs = c_sparse.Get<int32_t>();
    LocalTensor<int32_t> cd = c_dense.Get<int32_t>();
    MmadWithSparse(cs, at, dense, p);
    if (s.m > 1) Mmad(cd, at, full, p);  // m 1 would be Mmad's GEMV
    for (uint32_t r = 0; r < s.m; ++r) {
      for (uint32_t c = 0; c < s.n; ++c) {
        int64_t want = 0;
        for (uint32_t kk = 0; kk < s.k; ++kk)
          want += int64_t{a[size_t{r} * s.k + kk]} * b[size_t{kk} * s.n + c];
        const uint32_t i = uint32_t(NzAt(r, c, m1));
        ASSERT_EQ(cs.GetValue(i), want) << r << "," << c;
        if (s.m > 1) {
          ASSERT_EQ(cs.GetValue(i), cd.GetValue(i)) << r << "," << c;
        }
      }
    }
  }
}

// The Mmad page's selection table: two indices give the A values (of four)
// the two dense values meet; "X/X": one A value meets both.
struct Select {
  uint8_t index0, index1, x, y;
};
constexpr Select kSelect[] = {
    {2, 2, 2, 3}, {1, 2, 1, 3}, {0, 2, 0, 3}, {1, 1, 1, 2},
    {0, 1, 0, 2}, {0, 0, 0, 1}, {2, 0, 2, 2}, {1, 0, 1, 1},
};

TEST_F(CubeSparseTest, EachRowOfTheSelectionTable) {
  // One row of A (10, 20, 30, 40 | 50, 60, 70, 80), one column of B per
  // table row, dense values (1, 100) in the first group and (-3, 7) in the
  // second.
  TPipe pipe;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::B1> l1b, l1idx;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l0a, 512);
  pipe.InitBuffer(l1b, 512);
  pipe.InitBuffer(l1idx, 128);
  pipe.InitBuffer(l0b, 512);
  pipe.InitBuffer(l0c, 1024);
  LocalTensor<int8_t> a = l0a.Get<int8_t>();
  for (uint32_t i = 0; i < 512; ++i) a.SetValue(i, 0);
  for (uint32_t kk = 0; kk < 8; ++kk)
    a.SetValue(uint32_t(ZzAt(0, kk, 1)), int8_t(10 * (kk + 1)));
  const uint32_t n = 9;  // the table's 8 rows, and (2, 1)
  DenseB d{std::vector<int8_t>(4 * n), std::vector<uint8_t>(4 * n)};
  for (uint32_t col = 0; col < n; ++col) {
    const Select s = col < 8 ? kSelect[col] : Select{2, 1, 2, 2};
    const int8_t dense[4] = {1, 100, -3, 7};
    for (uint32_t r = 0; r < 4; ++r) {
      d.values[r * n + col] = dense[r];
      d.indices[r * n + col] = r % 2 == 0 ? s.index0 : s.index1;
    }
  }
  StoreDense(d, 4, n, l1b.Get<int8_t>(), l1idx.Get<uint8_t>());
  LocalTensor<int8_t> b = l0b.Get<int8_t>();
  LoadDataWithSparse(b, l1b.Get<int8_t>(), l1idx.Get<uint8_t>(),
                     LoadData2DParams(0, 1, 0, 0, 0, false, 0));
  MmadParams p;
  p.m = 1;
  p.n = uint16_t(n);
  p.k = 8;
  LocalTensor<int32_t> c = l0c.Get<int32_t>();
  MmadWithSparse(c, a, b, p);
  for (uint32_t col = 0; col < n; ++col) {
    // (2, 1) is not in the table: the rule the emulation extends it with
    // (docs/decisions.md) makes it the (2, 0) row.
    const Select s = col < 8 ? kSelect[col] : Select{2, 1, 2, 2};
    const int32_t want = 10 * (s.x + 1) * 1 + 10 * (s.y + 1) * 100 +
                         10 * (s.x + 5) * -3 + 10 * (s.y + 5) * 7;
    EXPECT_EQ(c.GetValue(col), want) << "column " << col;
  }
}

TEST_F(CubeSparseTest, LoadPlacesFractalsAndIndicesTogether) {
  // Fractals 1 and 2 of src (and index fractals 1 and 2 of idx) into L0B
  // fractals 2 and 3: the Mmad on those reads the indices loaded with them.
  TPipe pipe;
  TBuf<TPosition::B1> l1b, l1idx;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l1b, 3 * 512);
  pipe.InitBuffer(l1idx, 3 * 128);
  pipe.InitBuffer(l0b, 4 * 512);
  pipe.InitBuffer(l0a, 512);
  pipe.InitBuffer(l0c, 2 * 1024);
  LocalTensor<int8_t> src = l1b.Get<int8_t>();
  LocalTensor<uint8_t> idx = l1idx.Get<uint8_t>();
  for (uint32_t i = 0; i < 3 * 512; ++i) src.SetValue(i, int8_t(i % 7 + 1));
  // Index fractal 1 holds only 1s (0b01010101), index fractal 2 only 0s;
  // index fractal 0 holds 3s, which no index may be, and is not loaded.
  for (uint32_t i = 0; i < 3 * 128; ++i)
    idx.SetValue(i, i < 128 ? 0xFF : i < 256 ? 0x55 : 0x00);
  LocalTensor<int8_t> all = l0b.Get<int8_t>();
  LocalTensor<int8_t> dst = all[1024];
  LoadDataWithSparse(dst, src, idx, LoadData2DParams(1, 2, 0, 0, 0, false, 0));
  for (uint32_t i = 0; i < 2 * 512; ++i)
    ASSERT_EQ(dst.GetValue(i), src.GetValue(512 + i)) << i;
  LocalTensor<int8_t> a = l0a.Get<int8_t>();
  for (uint32_t i = 0; i < 512; ++i) a.SetValue(i, int8_t(i % 32 + 1));
  // N 32, K 4: the filter's two fractals are L0B fractals 2 and 3.
  MmadParams p;
  p.m = 1;
  p.n = 32;
  p.k = 4;
  LocalTensor<int32_t> c = l0c.Get<int32_t>();
  MmadWithSparse(c, a, dst, p);
  for (uint32_t col = 0; col < 32; ++col) {
    // Column col's two dense values are at Zn (0, col) and (1, col); its
    // indices are (1, 1) in L0B fractal 2 (A positions 1 and 2, holding 2
    // and 3), (0, 0) in fractal 3 (A positions 0 and 1, holding 1 and 2).
    const LocalTensor<int8_t> fractal = col < 16 ? dst : dst[512];
    const int32_t v0 = fractal.GetValue((col % 16) * 32);
    const int32_t v1 = fractal.GetValue((col % 16) * 32 + 1);
    const int32_t want = col < 16 ? 2 * v0 + 3 * v1 : 1 * v0 + 2 * v1;
    EXPECT_EQ(c.GetValue(uint32_t(NzAt(0, col, 1))), want) << col;
  }
  // The accumulating form adds to what L0C holds, saturating once.
  c.SetValue(uint32_t(NzAt(0, 0, 1)), std::numeric_limits<int32_t>::max());
  p.cmatrixInitVal = false;
  MmadWithSparse(c, a, dst, p);
  EXPECT_EQ(c.GetValue(0), std::numeric_limits<int32_t>::max());
}

TEST_F(CubeSparseTest, Rules) {
  TPipe pipe;
  TBuf<TPosition::B1> l1b, l1idx;
  TBuf<TPosition::A1> l1a;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l1b, 2 * 512);
  pipe.InitBuffer(l1idx, 128);
  pipe.InitBuffer(l1a, 512);
  pipe.InitBuffer(l0b, 2 * 512);
  pipe.InitBuffer(l0a, 2 * 512);
  pipe.InitBuffer(l0c, 1024);
  LocalTensor<int8_t> src = l1b.Get<int8_t>();
  LocalTensor<uint8_t> idx = l1idx.Get<uint8_t>();
  LocalTensor<int8_t> b = l0b.Get<int8_t>();
  LocalTensor<int8_t> a = l0a.Get<int8_t>();
  LocalTensor<int32_t> c = l0c.Get<int32_t>();
  const LoadData2DParams one(0, 1, 0, 0, 0, false, 0);
  EXPECT_TRUE(FailsWith([&] { LoadDataWithSparse(a, src, idx, one); },
                        "LoadDataWithSparse<int8_t> L1->L0B: dst LocalTensor "
                        "is at position A2; it must be at B2 (L0B)"));
  EXPECT_TRUE(
      FailsWith([&] { LoadDataWithSparse(b, l1a.Get<int8_t>(), idx, one); },
                "src LocalTensor is at position A1; it must be at B1 (L1)"));
  EXPECT_TRUE(
      FailsWith([&] { LoadDataWithSparse(b, src, l1a.Get<uint8_t>(), one); },
                "idx LocalTensor is at position A1; it must be at B1 (L1)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithSparse(b, src, idx,
                           LoadData2DParams(0, 1, 0, 0, 0, true, 0));
      },
      "loadDataParam.ifTranspose is true; LoadDataWithSparse does not "
      "transpose"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithSparse(b, src, idx,
                           LoadData2DParams(0, 2, 0, 0, 0, false, 0));
      },
      "the index fractals read (128 bytes each) reaches 256 bytes into idx, "
      "past the end of its 128 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithSparse(b, src, idx,
                           LoadData2DParams(2, 1, 0, 0, 0, false, 0));
      },
      "the fractals read reaches 1536 bytes into src, past the end of its "
      "1024 bytes"));
  MmadParams p;
  p.m = 16;
  p.n = 16;
  p.k = 64;
  EXPECT_TRUE(FailsWith([&] { MmadWithSparse(c, a, b, p); },
                        "MmadWithSparse<int32_t, int8_t>: filter's L0B "
                        "fractal 0 (bytes 0..511 of L0B) has no index: no "
                        "LoadDataWithSparse loaded it in this block"));
  for (uint32_t i = 0; i < 128; ++i) idx.SetValue(i, 0);
  idx.SetValue(5, 0x30);  // the index of dense row 22, column 0 is 3
  LoadDataWithSparse(b, src, idx, one);
  EXPECT_TRUE(FailsWith([&] { MmadWithSparse(c, a, b, p); },
                        "the index of dense B row 22, column 0 is 3; an index "
                        "is 0, 1 or 2"));
  p.k = 65;  // 17 groups: 34 dense rows, two fractal rows
  EXPECT_TRUE(FailsWith([&] { MmadWithSparse(c, a, b, p); },
                        "A (m x k) reaches 1536 bytes into fm, past the end "
                        "of its 1024 bytes"));
  p.k = 64;
  p.kDirectionAlign = true;
  EXPECT_TRUE(FailsWith([&] { MmadWithSparse(c, a, b, p); },
                        "mmadParams.kDirectionAlign is true; the sparse Mmad "
                        "takes int8_t and does not align K (set it false)"));
  p.kDirectionAlign = false;
  p.cmatrixInitVal = false;
  p.cmatrixSource = true;
  EXPECT_TRUE(FailsWith([&] { MmadWithSparse(c, a, b, p); },
                        "mmadParams.cmatrixSource is true, but MmadWithSparse "
                        "has no bias tensor to start C from"));
  p.cmatrixSource = false;
  p.unitFlag = 1;
  EXPECT_TRUE(FailsWith([&] { MmadWithSparse(c, a, b, p); },
                        "mmadParams.unitFlag 1 is not 0, 2 or 3"));
  p.unitFlag = 0;
  p.m = 4096;
  EXPECT_TRUE(FailsWith([&] { MmadWithSparse(c, a, b, p); },
                        "mmadParams.m 4096 is out of range [0, 4095]"));
  p.m = 16;
  EXPECT_TRUE(FailsWith([&] { MmadWithSparse(c, b, b, p); },
                        "fm LocalTensor is at position B2; it must be at A2 "
                        "(L0A)"));
  // A new block forgets the indices (the pipe stays: the test's core goes
  // on as a cube core).
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  normgrad_ascendc::CurrentCore().set_cube(true);
  EXPECT_TRUE(FailsWith([&] { MmadWithSparse(c, a, b, p); },
                        "has no index: no LoadDataWithSparse loaded it"));
}

}  // namespace
