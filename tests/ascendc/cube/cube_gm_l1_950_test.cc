// cube_gm_l1_950_test.cc — the Ascend 950's moves from GM into L1
// (docs/cube.md, "The Ascend 950: moves into L1"): DataCopy with DN2NZ (and
// SmallC0), LoadData GM → L1 by fractals (LoadData2DParamsV2) and DataCopyPad
// GM → L1. Each is checked against a reference written here from its page (the
// DN2NZ and padding element positions, the fractal index arithmetic), on
// sentinel-filled L1 so that bytes a move must not touch are seen, with the
// pages' examples, each parameter's edge values and each rule's message.
//
// Extending: one TEST per behaviour; a new rule gets a FailsWith line with
// its message. The tests run on the 950 profile (the fixture sets it and
// gives the previous one back) on the thread's core made a cube core
// (Cube950Test, cube_core_test.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::DataCopy;
using AscendC::DataCopyExtParams;
using AscendC::DataCopyPad;
using AscendC::DataCopyPadExtParams;
using AscendC::Dn2NzParams;
using AscendC::GlobalTensor;
using AscendC::LoadData;
using AscendC::LoadData2DParamsV2;
using AscendC::LocalTensor;
using AscendC::PaddingMode;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using cube_test::CubeBuffers;
using cube_test::RuleCase;
using normgrad_ascendc::Profile;

using CubeGmL1950Test = Cube950Test;

template <typename T>
GlobalTensor<T> Gm(std::vector<T>& v) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(v.data(), v.size());
  return g;
}

// `v` as T (exact for every value used here).
template <typename T>
T Val(int v) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(v);
  } else {
    return static_cast<T>(static_cast<float>(v));
  }
}

// 1, 2, 3, ... as T, wrapping below 100 so that every value is exact in
// every type.
template <typename T>
std::vector<T> Counting(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = Val<T>(static_cast<int>(i % 99) + 1);
  return v;
}

template <typename T>
bool Same(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// An L1 tensor of `elems` elements of T filled with `sentinel`, and a view
// of its bytes for the checks.
template <typename T>
struct L1Tensor {
  L1Tensor(size_t elems, T sentinel, TPosition pos = TPosition::A1)
      : buf({{pos, static_cast<uint32_t>(elems * sizeof(T))}}),
        t(buf.Get<T>(pos)),
        count(elems) {
    for (size_t i = 0; i < elems; ++i) at(i) = sentinel;
  }
  T& at(size_t i) { return reinterpret_cast<T*>(t.view().declared_data())[i]; }
  CubeBuffers buf;
  LocalTensor<T> t;
  size_t count;
};

// ---- DataCopy with DN2NZ ---------------------------------------------------

// The DN2NZ page, element by element: source line d of matrix i holds
// element n at i · srcDnMatrixStride + d · srcDValue + n; it lands in the Nz
// row of n, column d: piece d / C0 of that row starts (piece ·
// dstNzC0Stride + n · dstNzNStride) C0-blocks into the matrix, and the
// matrix starts i · dstNzMatrixStride elements into dst. Columns from
// dValue to the next multiple of C0 are zeros; nothing else changes.
template <typename T>
std::vector<T> Dn2NzReference(const std::vector<T>& src,
                              const std::vector<T>& before,
                              const Dn2NzParams& p) {
  const size_t c0 = 32 / sizeof(T);
  std::vector<T> out = before;
  const size_t padded = (p.dValue + c0 - 1) / c0 * c0;
  for (size_t i = 0; i < p.dnNum; ++i) {
    for (size_t d = 0; d < padded; ++d) {
      for (size_t n = 0; n < p.nValue; ++n) {
        const size_t to =
            i * p.dstNzMatrixStride +
            ((d / c0) * p.dstNzC0Stride + n * p.dstNzNStride) * c0 + d % c0;
        out.at(to) = d < p.dValue
                         ? src.at(i * p.srcDnMatrixStride + d * p.srcDValue + n)
                         : Val<T>(0);
      }
    }
  }
  return out;
}

template <typename T>
void Dn2NzCase(const Dn2NzParams& p, size_t src_elems, size_t dst_elems) {
  SCOPED_TRACE(normgrad_ascendc::TypeName<T>());
  L1Tensor<T> l1(dst_elems, Val<T>(-3));
  std::vector<T> before(dst_elems, Val<T>(-3));
  std::vector<T> src = Counting<T>(src_elems);
  DataCopy(l1.t, Gm(src), p);
  const std::vector<T> expected = Dn2NzReference(src, before, p);
  for (size_t e = 0; e < dst_elems; ++e) {
    ASSERT_TRUE(Same(l1.at(e), expected[e])) << "dst element " << e;
  }
}

TEST_F(CubeGmL1950Test, Dn2NzFollowsThePagesContiguousExample) {
  // half: one 16-column DN matrix of 23 lines, C0 pieces 16 blocks apart.
  Dn2NzCase<half>(Dn2NzParams(1, 16, 23, 0, 16, 16, 1, 0), 23 * 16, 512);
}

TEST_F(CubeGmL1950Test, Dn2NzFollowsThePagesStridedExample) {
  // Two 8-column matrices 400 elements apart in GM, 320 apart in L1, rows
  // 2 blocks apart and pieces 37 blocks apart.
  Dn2NzCase<half>(Dn2NzParams(2, 8, 23, 400, 16, 37, 2, 320), 800, 1600);
}

TEST_F(CubeGmL1950Test, Dn2NzTurnsATransposedAIntoNz) {
  // The page's call: A (m 40 x k 56) stored column by column, into Nz with
  // M padded to 48; for each type of the page that normgrad knows.
  const auto run = [](auto zero) {
    using T = decltype(zero);
    const uint16_t c0 = 32 / sizeof(T);
    const uint32_t k_padded = (56 + c0 - 1) / c0 * c0;
    Dn2NzCase<T>(Dn2NzParams(1, 40, 56, 0, 40, 48, 1, 0), 56 * 40,
                 48 * k_padded);
  };
  run(int8_t{});
  run(uint8_t{});
  run(int16_t{});
  run(uint16_t{});
  run(half{});
  run(bfloat16_t{});
  run(int32_t{});
  run(uint32_t{});
  run(float{});
}

TEST_F(CubeGmL1950Test, Dn2NzReadsTheFirstMatrixForEachWhenTheSourceStrideIs0) {
  // srcDnMatrixStride 0: every matrix is the first one again.
  Dn2NzCase<float>(Dn2NzParams(3, 8, 5, 0, 8, 1, 1, 64), 40, 256);
}

TEST_F(CubeGmL1950Test, Dn2NzOverwritesTheFirstMatrixWhenTheDstStrideIs0) {
  // dstNzMatrixStride 0: each matrix lands on the first; the last stays.
  L1Tensor<float> l1(64, -1.0f);
  std::vector<float> src = Counting<float>(200);
  DataCopy(l1.t, Gm(src), Dn2NzParams(2, 8, 3, 100, 8, 1, 1, 0));
  for (size_t n = 0; n < 8; ++n) {
    for (size_t d = 0; d < 8; ++d) {
      const float want = d < 3 ? src[100 + d * 8 + n] : 0.0f;
      EXPECT_EQ(l1.at(n * 8 + d), want) << "row " << n << " column " << d;
    }
  }
}

TEST_F(CubeGmL1950Test, Dn2NzSmallC0PacksRowsOfFourAndPadsTheMatrixTo32Bytes) {
  // half, dValue 3: each Nz row is 4 halves (3 data, 1 zero); 5 rows are 40
  // bytes, so the matrix ends with zeros up to 64 bytes; matrices 32
  // elements apart. The C0 and N strides are not used.
  L1Tensor<half> l1(96, Val<half>(-3));
  std::vector<half> src = Counting<half>(128);
  Dn2NzParams p(2, 5, 3, 50, 7, 0, 0, 32);
  DataCopy<half, true>(l1.t, Gm(src), p);
  for (size_t i = 0; i < 3; ++i) {
    for (size_t e = 0; e < 32; ++e) {
      const size_t n = e / 4;
      const size_t d = e % 4;
      half want = Val<half>(-3);  // the third matrix slot is not written
      if (i < 2) {
        want = n < 5 && d < 3 ? src[i * 50 + d * 7 + n] : Val<half>(0);
      }
      EXPECT_TRUE(Same(l1.at(i * 32 + e), want))
          << "matrix " << i << " element " << e;
    }
  }
}

TEST_F(CubeGmL1950Test, Dn2NzWithACountOf0MovesNothing) {
  L1Tensor<half> l1(256, Val<half>(-3));
  std::vector<half> src = Counting<half>(256);
  for (const Dn2NzParams& p : {Dn2NzParams(0, 16, 16, 0, 16, 16, 1, 0),
                               Dn2NzParams(1, 0, 16, 0, 16, 16, 1, 0),
                               Dn2NzParams(1, 16, 0, 0, 16, 16, 1, 0)}) {
    DataCopy(l1.t, Gm(src), p);
  }
  for (size_t e = 0; e < 256; ++e) ASSERT_TRUE(Same(l1.at(e), Val<half>(-3)));
}

TEST_F(CubeGmL1950Test, Dn2NzChecksEachRange) {
  L1Tensor<half> l1(16384, Val<half>(0));
  std::vector<half> src = Counting<half>(1024);
  GlobalTensor<half> gm = Gm(src);
  const char* api = "DataCopy<half> GM->L1 (Dn2NzParams): intriParams.";
  const auto fails = [&](const Dn2NzParams& p, const std::string& rule) {
    return FailsWith([&] { DataCopy(l1.t, gm, p); }, api + rule);
  };
  EXPECT_TRUE(fails(Dn2NzParams(4096, 1, 1, 0, 1, 1, 1, 0),
                    "dnNum 4096 is out of range [0, 4095]"));
  EXPECT_TRUE(fails(Dn2NzParams(1, 16385, 1, 0, 1, 1, 1, 0),
                    "nValue 16385 is out of range [0, 16384]"));
  EXPECT_TRUE(fails(Dn2NzParams(1, 1, 1u << 21, 0, 1, 1, 1, 0),
                    "dValue 2097152 is out of range [0, 2097151]"));
  EXPECT_TRUE(fails(Dn2NzParams(2, 1, 1, uint64_t{1} << 40, 1, 1, 1, 16),
                    "srcDnMatrixStride 1099511627776 is out of range [0, "
                    "1099511627775]"));
  EXPECT_TRUE(fails(Dn2NzParams(1, 1, 1, 0, 0, 1, 1, 0),
                    "srcDValue 0 is out of range [1, 1099511627775]"));
  EXPECT_TRUE(fails(Dn2NzParams(1, 1, 1, 0, 1, 0, 1, 0),
                    "dstNzC0Stride 0 is out of range [1, 16384]"));
  EXPECT_TRUE(fails(Dn2NzParams(1, 1, 1, 0, 1, 16385, 1, 0),
                    "dstNzC0Stride 16385 is out of range [1, 16384]"));
  EXPECT_TRUE(fails(Dn2NzParams(1, 1, 1, 0, 1, 1, 0, 0),
                    "dstNzNStride 0 is out of range [1, 16384]"));
  EXPECT_TRUE(fails(Dn2NzParams(1, 1, 1, 0, 1, 1, 16385, 0),
                    "dstNzNStride 16385 is out of range [1, 16384]"));
  EXPECT_TRUE(fails(Dn2NzParams(2, 1, 1, 0, 1, 1, 1, 16385),
                    "dstNzMatrixStride 16385 is out of range [0, 16384]"));
  // The upper edges themselves are accepted (a move that fits).
  DataCopy(l1.t, gm, Dn2NzParams(1, 1, 1, 0, 1, 16384, 1, 0));
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy<half, true>(l1.t, gm, Dn2NzParams(1, 4, 5, 0, 4, 1, 1, 0));
      },
      "DataCopy<half> GM->L1 (Dn2NzParams): enableSmallC0 with "
      "intriParams.dValue 5; SmallC0 applies when dValue is at most 4"));
}

TEST_F(CubeGmL1950Test, Dn2NzRefusesOverlappingPiecesAndOutOfRangeAccess) {
  L1Tensor<half> l1(256, Val<half>(0));
  std::vector<half> src = Counting<half>(64);
  GlobalTensor<half> gm = Gm(src);
  // Rows 1 block apart and pieces 1 block apart: row 1's first piece is
  // row 0's second.
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(l1.t, gm, Dn2NzParams(1, 2, 32, 0, 2, 1, 1, 0)); },
      "DataCopy<half> GM->L1 (Dn2NzParams): a row piece writes dst byte 32 "
      "a second time; the destination pieces must not overlap"));
  // 16 rows x 2 pieces of 32 bytes need 1024 bytes; dst has 512.
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(l1.t, gm, Dn2NzParams(1, 16, 17, 0, 1, 16, 1, 0)); },
      "DataCopy<half> GM->L1 (Dn2NzParams): the last Nz matrix reaches 1024 "
      "bytes into dst, past the end of its 512 bytes"));
  // 4 lines of 16, 16 apart: 64 elements; 5 lines are past the GM tensor.
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(l1.t, gm, Dn2NzParams(1, 16, 5, 0, 16, 1, 1, 0)); },
      "the access reaches element 80 of src, past the end of the "
      "GlobalTensor of 64 elements"));
}

TEST_F(CubeGmL1950Test, Dn2NzTakesL1PositionsOnly) {
  CubeBuffers buf({{TPosition::A2, 512}});
  std::vector<half> src = Counting<half>(256);
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(buf.Get<half>(TPosition::A2), Gm(src),
                 Dn2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
      },
      "DataCopy<half> GM->L1 (Dn2NzParams): dst LocalTensor is at position "
      "A2; it must be at A1 or B1 (L1)"));
}

// ---- LoadData GM -> L1 (V2) ------------------------------------------------

TEST_F(CubeGmL1950Test, LoadDataV2FollowsThePagesExample) {
  // An 80 x 80 half matrix in Nz (5 x 5 fractals of 16 x 16, column by
  // column): 2 M fractals x 3 K fractals from fractal row 2, fractal column
  // 2, into a destination of 3 fractals per K column.
  constexpr size_t kFractal = 256;
  std::vector<half> src = Counting<half>(25 * kFractal);
  // Make each fractal's first element its own index, to name it.
  for (size_t f = 0; f < 25; ++f) src[f * kFractal] = Val<half>(int(f) + 200);
  L1Tensor<half> l1(9 * kFractal, Val<half>(-3), TPosition::B1);
  LoadData2DParamsV2 p;
  p.mStartPosition = 2;
  p.kStartPosition = 2;
  p.mStep = 2;
  p.kStep = 3;
  p.srcStride = 5;
  p.dstStride = 3;
  LoadData(l1.t, Gm(src), p);
  // Destination fractal k · dstStride + m is source fractal (kStart + k) ·
  // srcStride + mStart + m; fractals 2, 5 and 8 are not written.
  for (size_t f = 0; f < 9; ++f) {
    const size_t k = f / 3;
    const size_t m = f % 3;
    for (size_t e = 0; e < kFractal; ++e) {
      const half want =
          m < 2 ? src[((2 + k) * 5 + 2 + m) * kFractal + e] : Val<half>(-3);
      ASSERT_TRUE(Same(l1.at(f * kFractal + e), want))
          << "fractal " << f << " element " << e;
    }
  }
}

TEST_F(CubeGmL1950Test, LoadDataV2MovesFractalsOf512BytesForEachType) {
  // One fractal is 16 rows of 32 bytes whatever the type: 4 x 1 fractals of
  // a float source with 4 M fractals per K column.
  std::vector<float> src = Counting<float>(8 * 128);
  L1Tensor<float> l1(4 * 128, -1.0f);
  LoadData2DParamsV2 p;
  p.mStartPosition = 0;
  p.kStartPosition = 1;
  p.mStep = 4;
  p.kStep = 1;
  p.srcStride = 4;
  LoadData(l1.t, Gm(src), p);
  for (size_t e = 0; e < 4 * 128; ++e) {
    ASSERT_EQ(l1.at(e), src[4 * 128 + e]) << e;
  }
}

TEST_F(CubeGmL1950Test, LoadDataV2ChecksItsRulesAndStepsOf0MoveNothing) {
  std::vector<half> src = Counting<half>(4096);
  GlobalTensor<half> gm = Gm(src);
  L1Tensor<half> l1(1024, Val<half>(-3));
  LoadData2DParamsV2 p;
  p.mStep = 0;
  p.kStep = 3;
  LoadData(l1.t, gm, p);
  p.mStep = 2;
  p.kStep = 0;
  LoadData(l1.t, gm, p);
  for (size_t e = 0; e < 1024; ++e) ASSERT_TRUE(Same(l1.at(e), Val<half>(-3)));
  const std::string api = "LoadData<half> GM->L1 (LoadData2DParamsV2): ";
  const RuleCase<LoadData2DParamsV2> cases[] = {
      {LoadData2DParamsV2(0, 0, 256, 1, 0, 0, false, 0),
       "loadDataParams.mStep 256 is out of range [0, 255]"},
      {LoadData2DParamsV2(0, 0, 1, 256, 0, 0, false, 0),
       "loadDataParams.kStep 256 is out of range [0, 255]"},
      {LoadData2DParamsV2(0, 0, 1, 1, 0, 0, true, 0),
       "loadDataParams.ifTranspose is true; the GM -> L1 path does not "
       "transpose"},
      {LoadData2DParamsV2(0, 0, 2, 2, 2, 1, false, 0),
       "loadDataParams.dstStride 1 is less than mStep 2: the destination "
       "fractal columns would overlap"},
      {LoadData2DParamsV2(0, 0, 2, 3, 2, 2, false, 0),
       "the fractals written reaches 3072 bytes into dst, past the end of "
       "its 2048 bytes"},
      {LoadData2DParamsV2(0, 0, 2, 1, -1, 2, false, 0),
       "loadDataParams.srcStride -1 is negative; it counts the fractals from "
       "one K column of the source to the next"},
      {LoadData2DParamsV2(0, 8, 2, 1, 2, 2, false, 0),
       "the access reaches element 4608 of src"},
  };
  for (const auto& c : cases) {
    EXPECT_TRUE(FailsWith([&] { LoadData(l1.t, gm, c.params); }, api + c.rule));
  }
}

// ---- DataCopyPad GM -> L1 --------------------------------------------------

TEST_F(CubeGmL1950Test, DataCopyPadNormalPadsEachBlockTo32Bytes) {
  // The page's Normal example: 3 blocks of 48 int8_t, 16 padded on the
  // right of each (here with isPad and the value 9): 3 rows of 64 bytes.
  std::vector<int8_t> src = Counting<int8_t>(144);
  L1Tensor<int8_t> l1(256, -3);
  DataCopyPad(l1.t, Gm(src), DataCopyExtParams(3, 48, 0, 0, 0),
              DataCopyPadExtParams<int8_t>(true, 0, 16, 9));
  for (size_t k = 0; k < 3; ++k) {
    for (size_t b = 0; b < 64; ++b) {
      const int8_t want = b < 48 ? src[k * 48 + b] : int8_t{9};
      ASSERT_EQ(l1.at(k * 64 + b), want) << "row " << k << " byte " << b;
    }
  }
  for (size_t b = 192; b < 256; ++b) ASSERT_EQ(l1.at(b), -3) << b;
}

TEST_F(CubeGmL1950Test, DataCopyPadNormalPadsOnBothSidesAndKeepsTheGaps) {
  // half: blocks of 5 elements 2 apart in GM, each row left 2 + 5 + right 1
  // of 7, then filler to 16 elements; rows 1 block (16 halves) apart.
  std::vector<half> hsrc = Counting<half>(64);
  L1Tensor<half> h(96, Val<half>(-3));
  DataCopyPad(h.t, Gm(hsrc), DataCopyExtParams(2, 10, 4, 1, 0),
              DataCopyPadExtParams<half>(true, 2, 1, Val<half>(7)));
  for (size_t k = 0; k < 2; ++k) {
    for (size_t e = 0; e < 8; ++e) {
      const half want = e >= 2 && e < 7 ? hsrc[k * 7 + (e - 2)] : Val<half>(7);
      ASSERT_TRUE(Same(h.at(k * 32 + e), want)) << "row " << k << " " << e;
    }
  }
  // The gap block after each row is not written.
  for (size_t e = 16; e < 32; ++e) ASSERT_TRUE(Same(h.at(e), Val<half>(-3)));
}

TEST_F(CubeGmL1950Test, DataCopyPadWithoutIsPadKeepsWhatL1Held) {
  // The page leaves the paddings undefined without isPad: L1 keeps its
  // bytes, and the UB's pad register (SetPadValue) does not reach L1.
  std::vector<int8_t> src = Counting<int8_t>(96);
  L1Tensor<int8_t> l1(128, -3);
  AscendC::SetPadValue<int8_t>(5);
  DataCopyPad(l1.t, Gm(src), DataCopyExtParams(2, 48, 0, 0, 0),
              DataCopyPadExtParams<int8_t>(false, 0, 16, 9));
  for (size_t k = 0; k < 2; ++k) {
    for (size_t b = 0; b < 64; ++b) {
      const int8_t want = b < 48 ? src[k * 48 + b] : int8_t{-3};
      ASSERT_EQ(l1.at(k * 64 + b), want) << "row " << k << " byte " << b;
    }
  }
}

TEST_F(CubeGmL1950Test, DataCopyPadCompactPacksTheBlocks) {
  // The page's Compact example: 3 blocks of 48 bytes packed into 144 bytes,
  // the end padded to 160; nothing after.
  std::vector<int8_t> src = Counting<int8_t>(144);
  L1Tensor<int8_t> l1(256, -3);
  DataCopyPad<int8_t, PaddingMode::Compact>(
      l1.t, Gm(src), DataCopyExtParams(3, 48, 0, 0, 0),
      DataCopyPadExtParams<int8_t>(false, 0, 0, 0));
  for (size_t b = 0; b < 144; ++b) ASSERT_EQ(l1.at(b), src[b]) << b;
  for (size_t b = 160; b < 256; ++b) ASSERT_EQ(l1.at(b), -3) << b;
}

TEST_F(CubeGmL1950Test, DataCopyPadIntoL1ChecksItsRules) {
  std::vector<float> src = Counting<float>(64);
  L1Tensor<float> l1(64, -1.0f);
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopyPad(l1.t, Gm(src), DataCopyExtParams(1, 16, 0, 0, 0),
                    DataCopyPadExtParams<float>(true, 9, 0, 0.0f));
      },
      "DataCopyPad<float> GM->L1: padParams.leftPadding 9 elements (36 "
      "bytes) is over 32 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopyPad(l1.t, Gm(src), DataCopyExtParams(4096, 4, 0, 0, 0),
                    DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
      },
      "DataCopyPad<float> GM->L1: dataCopyParams.blockCount 4096 is out of "
      "range"));
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopyPad(l1.t, Gm(src), DataCopyExtParams(5, 64, 0, 0, 0),
                    DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
      },
      "reach 320 bytes into src, past the end of the GlobalTensor of 64 "
      "elements"));
}

// ---- Other profiles --------------------------------------------------------

TEST_F(CubeGmL1950Test, TheMovesAreTheAscend950s) {
  ProfileScope a2(Profile::kA2);
  L1Tensor<half> l1(256, Val<half>(0));
  std::vector<half> src = Counting<half>(256);
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(l1.t, Gm(src), Dn2NzParams(1, 16, 16, 0, 16, 16, 1, 0)); },
      "DataCopy<half> GM->L1 (Dn2NzParams): not available on profile Atlas "
      "A2/A3: DN2NZ is the Ascend 950's (Atlas A2/A3 take ND2NZ)"));
  LoadData2DParamsV2 p;
  p.mStep = 1;
  p.kStep = 1;
  EXPECT_TRUE(FailsWith([&] { LoadData(l1.t, Gm(src), p); },
                        "LoadData<half> GM->L1 (LoadData2DParamsV2): not "
                        "available on profile Atlas A2/A3: LoadData2DParamsV2 "
                        "is the Ascend 950's (Atlas A2/A3 take "
                        "LoadData2DParams)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopyPad(l1.t, Gm(src), DataCopyExtParams(1, 32, 0, 0, 0),
                    DataCopyPadExtParams<half>(false, 0, 0, Val<half>(0)));
      },
      "DataCopyPad<half> GM->L1: not available on profile Atlas A2/A3: "
      "DataCopyPad into L1 is the Ascend 950's (Atlas A2/A3 copy GM -> L1 in "
      "whole 32-byte blocks with DataCopy)"));
}

}  // namespace
