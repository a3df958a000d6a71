// cube_moves_test.cc — the matrix moves beside the cube's basic data path
// (docs/cube.md, "Matrix moves"): GM → L1 and L1 → GM in blocks
// (DataCopyParams, the high-dimension pages), and the vector core's GM → UB
// ND2NZ and UB → GM NZ2ND copies. Each is checked against a reference
// written here from its page's description (block and gap arithmetic, the
// Nz index maps), on sentinel-filled destinations so that bytes a move must
// not touch are seen, with each parameter's edge values and each rule's
// message. The race check's view of these moves is the program
// tests/programs/cube_moves.asc.
//
// Extending: one TEST per behaviour; a new rule gets a FailsWith line with
// its message. The L1 tests run on the thread's core made a cube core by the
// fixture (CubeCoreTest); the UB tests on the thread's vector core.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::DataCopy;
using AscendC::DataCopyParams;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::Nd2NzParams;
using AscendC::Nz2NdParamsFull;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

// The L1 tests run on a cube core.
class CubeMovesTest : public CubeCoreTest {};

template <typename T>
GlobalTensor<T> Gm(std::vector<T>& v) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(v.data(), v.size());
  return g;
}

// `v` as T: integers wrap to the type's width, floating types convert
// (exactly for every value used here).
template <typename T>
T Val(int v) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(v);
  } else {
    return static_cast<T>(static_cast<float>(v));
  }
}

// first, first + 1, ... as T.
template <typename T>
std::vector<T> Iota(size_t n, int first = 0) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = Val<T>(static_cast<int>(i) + first);
  return v;
}

template <typename T>
uint64_t Bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

// The block moves of the DataCopyParams pages, in bytes: block k's bytes
// [k · (len + gap) · 32, + len · 32) on each side, gaps in 32-byte blocks
// from one block's end to the next one's start.
void ExpectBlocks(const uint8_t* dst, const uint8_t* dst_before,
                  size_t dst_bytes, const uint8_t* src,
                  const DataCopyParams& p) {
  std::vector<bool> written(dst_bytes, false);
  for (uint32_t k = 0; k < p.blockCount; ++k) {
    for (uint32_t b = 0; b < p.blockLen * 32u; ++b) {
      const size_t to = size_t{k} * (p.blockLen + p.dstGap) * 32 + b;
      const size_t from = size_t{k} * (p.blockLen + p.srcGap) * 32 + b;
      ASSERT_LT(to, dst_bytes);
      EXPECT_EQ(dst[to], src[from]) << "block " << k << " byte " << b;
      written[to] = true;
    }
  }
  for (size_t i = 0; i < dst_bytes; ++i) {
    if (!written[i]) {
      EXPECT_EQ(dst[i], dst_before[i]) << "gap byte " << i;
    }
  }
}

// ---- GM -> L1 and L1 -> GM in blocks ---------------------------------------

// GM -> L1 with DataCopyParams, read back whole with the contiguous copy.
template <typename T>
void GmToL1Case(const DataCopyParams& p, size_t src_elems, size_t dst_elems) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, static_cast<uint32_t>(dst_elems * sizeof(T)));
  LocalTensor<T> t = l1.Get<T>();
  std::vector<T> src = Iota<T>(src_elems, 1);
  std::vector<T> sentinel(dst_elems, Val<T>(-7));
  std::vector<T> back(dst_elems);
  GlobalTensor<T> gsrc = Gm(src), gsent = Gm(sentinel), gback = Gm(back);
  DataCopy(t, gsent, static_cast<uint32_t>(dst_elems));
  DataCopy(t, gsrc, p);
  DataCopy(gback, t, static_cast<uint32_t>(dst_elems));
  ExpectBlocks(reinterpret_cast<const uint8_t*>(back.data()),
               reinterpret_cast<const uint8_t*>(sentinel.data()),
               dst_elems * sizeof(T),
               reinterpret_cast<const uint8_t*>(src.data()), p);
}

TEST_F(CubeMovesTest, GmToL1InBlocksFollowsThePagesExamples) {
  // The contiguous example: one block of 8 x 32 bytes (128 halves).
  GmToL1Case<half>(DataCopyParams(1, 8, 0, 0), 128, 128);
  // The gapped example: 2 blocks of 3, srcGap 1, dstGap 2 (half 1 x 112
  // into 128).
  GmToL1Case<half>(DataCopyParams(2, 3, 1, 2), 112, 128);
  GmToL1Case<float>(DataCopyParams(3, 2, 5, 1), 3 * 7 * 8, 3 * 3 * 8);
  GmToL1Case<int8_t>(DataCopyParams(4, 1, 0, 3), 4 * 32, 4 * 4 * 32);
  GmToL1Case<double>(DataCopyParams(2, 2, 1, 1), 5 * 4, 5 * 4);
}

TEST_F(CubeMovesTest, GmToL1InBlocksEdgeValues) {
  // blockCount 4095 blocks of 1; the largest gaps on the GM side.
  GmToL1Case<uint8_t>(DataCopyParams(4095, 1, 0, 0), 4095 * 32, 4095 * 32);
  GmToL1Case<uint8_t>(DataCopyParams(2, 1, 65535, 0), 65537 * 32, 2 * 32);
  // blockCount or blockLen 0: a NOP (the sentinel stays).
  GmToL1Case<half>(DataCopyParams(0, 8, 0, 0), 128, 128);
  GmToL1Case<half>(DataCopyParams(3, 0, 0, 0), 128, 128);
}

// L1 -> GM with DataCopyParams from an L1 tensor filled whole.
template <typename T>
void L1ToGmCase(const DataCopyParams& p, size_t src_elems, size_t dst_elems) {
  TPipe pipe;
  TBuf<TPosition::B1> l1;
  pipe.InitBuffer(l1, static_cast<uint32_t>(src_elems * sizeof(T)));
  LocalTensor<T> t = l1.Get<T>();
  std::vector<T> src = Iota<T>(src_elems, 3);
  std::vector<T> out(dst_elems, Val<T>(-5));
  const std::vector<T> before = out;
  GlobalTensor<T> gsrc = Gm(src), gout = Gm(out);
  DataCopy(t, gsrc, static_cast<uint32_t>(src_elems));
  DataCopy(gout, t, p);
  ExpectBlocks(reinterpret_cast<const uint8_t*>(out.data()),
               reinterpret_cast<const uint8_t*>(before.data()),
               dst_elems * sizeof(T),
               reinterpret_cast<const uint8_t*>(src.data()), p);
}

TEST_F(CubeMovesTest, L1ToGmInBlocksWithGaps) {
  L1ToGmCase<half>(DataCopyParams(1, 8, 0, 0), 128, 128);
  L1ToGmCase<half>(DataCopyParams(2, 8, 0, 1), 256, 17 * 16);
  L1ToGmCase<bfloat16_t>(DataCopyParams(2, 3, 1, 2), 112, 128);
  L1ToGmCase<int32_t>(DataCopyParams(3, 1, 2, 4), 8 * 8, 15 * 8);
  L1ToGmCase<uint64_t>(DataCopyParams(2, 1, 0, 65535), 8, 65537 * 4);
  L1ToGmCase<float>(DataCopyParams(4095, 1, 0, 0), 4095 * 8, 4095 * 8);
  L1ToGmCase<float>(DataCopyParams(0, 1, 0, 0), 8, 8);
}

TEST_F(CubeMovesTest, BlockMovesBetweenGmAndL1Rules) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, 1024);
  TBuf<TPosition::A2> l0a;
  pipe.InitBuffer(l0a, 512);
  LocalTensor<half> t = l1.Get<half>();
  std::vector<half> g(4096);
  GlobalTensor<half> gm = Gm(g);
  EXPECT_TRUE(FailsWith([&] { DataCopy(t, gm, DataCopyParams(4096, 1, 0, 0)); },
                        "DataCopy<half> GM->L1: repeatParams.blockCount 4096 "
                        "is out of range: it must be 0 to 4095"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(gm, t, DataCopyParams(4096, 1, 0, 0)); },
                        "DataCopy<half> L1->GM: repeatParams.blockCount 4096 "
                        "is out of range: it must be 0 to 4095"));
  // blockLen 65535 is in range, but 2 MiB is past the tensor's 1 KiB.
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(t, gm, DataCopyParams(1, 65535, 0, 0)); },
      "DataCopy<half> GM->L1: repeatParams {blockCount 1, blockLen 65535, "
      "srcStride 0, dstStride 0} (units of 32 bytes) reach 2097120 bytes into "
      "src, past the end of the GlobalTensor of 4096 elements"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(t, gm, DataCopyParams(2, 8, 0, 17)); },
      "DataCopy<half> GM->L1: repeatParams {blockCount 2, blockLen 8, "
      "srcStride 0, dstStride 17} (units of 32 bytes) reach 1056 bytes into "
      "dst, past the end of the LocalTensor of 512 elements (1024 bytes)"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(gm, t, DataCopyParams(5, 8, 0, 0)); },
      "DataCopy<half> L1->GM: repeatParams {blockCount 5, blockLen 8, "
      "srcStride 0, dstStride 0} (units of 32 bytes) reach 1280 bytes into "
      "src, past the end of the LocalTensor of 512 elements (1024 bytes)"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(t[1], gm, DataCopyParams(1, 1, 0, 0)); },
                        "DataCopy<half> GM->L1: dst LocalTensor starts at L1 "
                        "offset 2, which is not 32-byte aligned"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(gm, t[8], DataCopyParams(1, 1, 0, 0)); },
                        "DataCopy<half> L1->GM: src LocalTensor starts at L1 "
                        "offset 16, which is not 32-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(l0a.Get<half>(), gm, DataCopyParams(1, 1, 0, 0)); },
      "DataCopy<half> GM->L0A: dst LocalTensor is at position A2 (L0A); "
      "DataCopy moves between GM and L1 (A1, B1, C1) only"));
  GlobalTensor<half> unset;
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(unset, t, DataCopyParams(1, 1, 0, 0)); },
                "DataCopy<half> L1->GM: dst GlobalTensor has no buffer"));
}

// ---- GM -> UB with ND2NZ (vector core) -------------------------------------

// The page's ND2NZ, element by element: element k (< C0) of 32-byte piece
// j of row r of matrix i lands at element i · dstNzMatrixStride + (j ·
// dstNzC0Stride + r · dstNzNStride) · C0 + k, taken from source element
// i · srcNdMatrixStride + r · srcDValue + j · C0 + k, or 0 past dValue.
template <typename T>
std::vector<T> Nd2NzReference(const std::vector<T>& src,
                              const std::vector<T>& before,
                              const Nd2NzParams& p) {
  const size_t c0 = 32 / sizeof(T);
  std::vector<T> out = before;
  for (size_t i = 0; i < p.ndNum; ++i) {
    for (size_t r = 0; r < p.nValue; ++r) {
      for (size_t j = 0; j * c0 < p.dValue; ++j) {
        for (size_t k = 0; k < c0; ++k) {
          const size_t to = i * p.dstNzMatrixStride +
                            (j * p.dstNzC0Stride + r * p.dstNzNStride) * c0 + k;
          const size_t col = j * c0 + k;
          out.at(to) =
              col < p.dValue
                  ? src.at(i * p.srcNdMatrixStride + r * p.srcDValue + col)
                  : Val<T>(0);
        }
      }
    }
  }
  return out;
}

// GM -> UB with ND2NZ into a sentinel-filled UB tensor, then UB -> GM whole.
template <typename T>
void Nd2NzToUbCase(const Nd2NzParams& p, size_t src_elems, size_t dst_elems) {
  TPipe pipe;
  TBuf<TPosition::VECIN> ub;
  pipe.InitBuffer(ub, static_cast<uint32_t>(dst_elems * sizeof(T)));
  LocalTensor<T> t = ub.Get<T>();
  std::vector<T> src = Iota<T>(src_elems, 1);
  std::vector<T> sentinel(dst_elems, Val<T>(-9));
  std::vector<T> back(dst_elems);
  GlobalTensor<T> gsrc = Gm(src), gsent = Gm(sentinel), gback = Gm(back);
  DataCopy(t, gsent, static_cast<uint32_t>(dst_elems));
  DataCopy(t, gsrc, p);
  DataCopy(gback, t, static_cast<uint32_t>(dst_elems));
  const std::vector<T> want = Nd2NzReference(src, sentinel, p);
  for (size_t e = 0; e < dst_elems; ++e) {
    EXPECT_EQ(Bits(back[e]), Bits(want[e])) << "element " << e;
  }
}

TEST(CubeMovesVector, GmToUbNd2NzFollowsThePagesExamples) {
  // The call example: a 32 x 32 half matrix, 1 .. 1024, into Nz with the
  // column blocks 32 rows apart; the page's result starts 1 .. 16, 33 .. 48.
  {
    TPipe pipe;
    TBuf<TPosition::VECIN> ub;
    pipe.InitBuffer(ub, 1024 * 2);
    std::vector<half> src = Iota<half>(1024, 1), back(1024);
    GlobalTensor<half> gsrc = Gm(src), gback = Gm(back);
    DataCopy(ub.Get<half>(), gsrc, Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
    DataCopy(gback, ub.Get<half>(), 1024);
    for (int e = 0; e < 16; ++e) {
      EXPECT_EQ(static_cast<float>(back[e]), 1.0f + e);
      EXPECT_EQ(static_cast<float>(back[16 + e]), 33.0f + e);
      EXPECT_EQ(static_cast<float>(back[32 + e]), 65.0f + e);
      EXPECT_EQ(static_cast<float>(back[512 + e]), 17.0f + e);  // block 1
    }
    EXPECT_EQ(static_cast<float>(back[1023]), 1024.0f);
  }
  // The figure: two 2 x 24 half matrices, rows 48 apart, matrices 144
  // apart, into C0 stride 11, row stride 2, matrices 96 apart (the short
  // second pieces padded with zeros).
  Nd2NzToUbCase<half>(Nd2NzParams{2, 2, 24, 144, 48, 11, 2, 96}, 288, 16 * 20);
}

TEST(CubeMovesVector, GmToUbNd2NzTypesAndEdgeValues) {
  Nd2NzToUbCase<float>(Nd2NzParams{3, 5, 20, 120, 24, 7, 1, 152}, 360, 456);
  Nd2NzToUbCase<int8_t>(Nd2NzParams{1, 3, 70, 0, 70, 3, 1, 0}, 210, 9 * 32);
  Nd2NzToUbCase<bfloat16_t>(Nd2NzParams{2, 4, 16, 64, 16, 4, 1, 64}, 128, 128);
  Nd2NzToUbCase<uint32_t>(Nd2NzParams{1, 1, 1, 0, 1, 1, 1, 0}, 1, 8);
  Nd2NzToUbCase<int16_t>(Nd2NzParams{2, 2, 16, 0, 16, 2, 1, 32}, 32, 64);
  // dstNzC0Stride 16384 and dstNzNStride 16384 (the largest): 512 KiB is
  // more than the UB, so one row of one piece at the far stride.
  Nd2NzToUbCase<int32_t>(Nd2NzParams{1, 1, 8, 0, 8, 16384, 16384, 0}, 8, 8);
  // ndNum, nValue or dValue 0: a NOP.
  Nd2NzToUbCase<half>(Nd2NzParams{0, 2, 16, 0, 16, 2, 1, 0}, 32, 32);
  Nd2NzToUbCase<half>(Nd2NzParams{1, 0, 16, 0, 16, 2, 1, 0}, 32, 32);
  Nd2NzToUbCase<half>(Nd2NzParams{1, 2, 0, 0, 16, 2, 1, 0}, 32, 32);
}

TEST(CubeMovesVector, GmToUbNd2NzRules) {
  TPipe pipe;
  TBuf<TPosition::VECIN> ub;
  pipe.InitBuffer(ub, 1024);
  LocalTensor<half> t = ub.Get<half>();
  std::vector<half> g(1024);
  GlobalTensor<half> gm = Gm(g);
  const char* api = "DataCopy<half> GM->UB (Nd2NzParams): ";
  const auto fails = [&](const Nd2NzParams& p, const std::string& rule) {
    return FailsWith([&] { DataCopy(t, gm, p); }, api + rule);
  };
  EXPECT_TRUE(fails(Nd2NzParams{4096, 1, 16, 0, 16, 1, 1, 0},
                    "intriParams.ndNum 4096 is out of range [0, 4095]"));
  EXPECT_TRUE(fails(Nd2NzParams{1, 16385, 16, 0, 16, 1, 1, 0},
                    "intriParams.nValue 16385 is out of range [0, 16384]"));
  EXPECT_TRUE(fails(Nd2NzParams{1, 1, 16, 0, 0, 1, 1, 0},
                    "intriParams.srcDValue 0 is out of range [1, 65535]"));
  EXPECT_TRUE(fails(Nd2NzParams{1, 1, 16, 0, 16, 0, 1, 0},
                    "intriParams.dstNzC0Stride 0 is out of range [1, 16384]"));
  EXPECT_TRUE(
      fails(Nd2NzParams{1, 1, 16, 0, 16, 16385, 1, 0},
            "intriParams.dstNzC0Stride 16385 is out of range [1, 16384]"));
  EXPECT_TRUE(fails(Nd2NzParams{1, 1, 16, 0, 16, 1, 0, 0},
                    "intriParams.dstNzNStride 0 is out of range [1, 16384]"));
  EXPECT_TRUE(
      fails(Nd2NzParams{1, 1, 16, 0, 16, 1, 16385, 0},
            "intriParams.dstNzNStride 16385 is out of range [1, 16384]"));
  EXPECT_TRUE(
      fails(Nd2NzParams{2, 1, 16, 16, 16, 1, 1, 0},
            "intriParams.dstNzMatrixStride 0 is out of range [1, 65535]"));
  EXPECT_TRUE(fails(Nd2NzParams{1, 17, 16, 0, 16, 1, 2, 0},
                    "the last Nz piece written reaches 1056 bytes into dst, "
                    "past the end "
                    "of its 1024 bytes"));
  EXPECT_TRUE(fails(Nd2NzParams{1, 2, 16, 0, 1024, 2, 1, 0},
                    "the access reaches element 1040 of src, past the end of "
                    "the GlobalTensor of 1024 elements"));
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(t[1], gm, Nd2NzParams{1, 1, 16, 0, 16, 1, 1, 0});
      },
      "DataCopy<half> GM->UB (Nd2NzParams): dst LocalTensor starts at UB "
      "offset 2, which is not 32-byte aligned"));
  std::vector<int8_t> g4(64);
  GlobalTensor<AscendC::int4b_t> gm4;
  gm4.SetGlobalBuffer(reinterpret_cast<AscendC::int4b_t*>(g4.data()), 128);
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(ub.Get<AscendC::int4b_t>(), gm4,
                 Nd2NzParams{1, 1, 32, 0, 32, 1, 1, 0});
      },
      "DataCopy<int4b_t> GM->UB (Nd2NzParams): int4b_t does not move into "
      "the UB with ND2NZ"));
}

// ---- UB -> GM with NZ2ND (vector core) -------------------------------------

// The page's NZ2ND, element by element: ND element (r, c) of matrix i, at
// i · dstNdMatrixStride + r · dstDStride + c, is Nz element i ·
// srcNdMatrixStride · 256 + (c / 16) · srcNStride · 16 + r · 16 + c % 16.
template <typename T>
std::vector<T> Nz2NdReference(const std::vector<T>& src,
                              const std::vector<T>& before,
                              const Nz2NdParamsFull& p) {
  std::vector<T> out = before;
  for (size_t i = 0; i < p.ndNum; ++i) {
    for (size_t r = 0; r < p.nValue; ++r) {
      for (size_t c = 0; c < p.dValue; ++c) {
        out.at(i * p.dstNdMatrixStride + r * p.dstDStride + c) =
            src.at(i * p.srcNdMatrixStride * 256 +
                   (c / 16) * p.srcNStride * 16 + r * 16 + c % 16);
      }
    }
  }
  return out;
}

template <typename T>
void Nz2NdCase(const Nz2NdParamsFull& p, size_t src_elems, size_t dst_elems) {
  TPipe pipe;
  TBuf<TPosition::VECOUT> ub;
  pipe.InitBuffer(ub, static_cast<uint32_t>(src_elems * sizeof(T)));
  LocalTensor<T> t = ub.Get<T>();
  std::vector<T> src = Iota<T>(src_elems, 1);
  std::vector<T> out(dst_elems, Val<T>(-3));
  const std::vector<T> before = out;
  GlobalTensor<T> gsrc = Gm(src), gout = Gm(out);
  DataCopy(t, gsrc, static_cast<uint32_t>(src_elems));
  DataCopy(gout, t, p);
  const std::vector<T> want = Nz2NdReference(src, before, p);
  for (size_t e = 0; e < dst_elems; ++e) {
    EXPECT_EQ(Bits(out[e]), Bits(want[e])) << "element " << e;
  }
}

TEST(CubeMovesVector, UbToGmNz2NdFollowsThePagesExamples) {
  // The call example: 1 .. 1024 as a 32 x 32 Nz half matrix; the page's
  // result starts 1 .. 16, 513 .. 528, 17 .. 32.
  {
    TPipe pipe;
    TBuf<TPosition::VECOUT> ub;
    pipe.InitBuffer(ub, 1024 * 2);
    std::vector<half> src = Iota<half>(1024, 1), out(1024);
    GlobalTensor<half> gsrc = Gm(src), gout = Gm(out);
    DataCopy(ub.Get<half>(), gsrc, 1024);
    DataCopy(gout, ub.Get<half>(), Nz2NdParamsFull{1, 32, 32, 1, 32, 32, 1});
    for (int e = 0; e < 16; ++e) {
      EXPECT_EQ(static_cast<float>(out[e]), 1.0f + e);
      EXPECT_EQ(static_cast<float>(out[16 + e]), 513.0f + e);
      EXPECT_EQ(static_cast<float>(out[32 + e]), 17.0f + e);
      EXPECT_EQ(static_cast<float>(out[48 + e]), 529.0f + e);
    }
    EXPECT_EQ(static_cast<float>(out[1023]), 1024.0f);
  }
  // The figures: two 4 x 32 matrices, one 256-element unit apart, column
  // blocks 4 rows apart, rows 160 (half) or 144 (float) apart in GM and the
  // matrices side by side, 48 or 40 elements apart.
  Nz2NdCase<half>(Nz2NdParamsFull{2, 4, 32, 1, 4, 160, 48}, 512, 4 * 160);
  Nz2NdCase<float>(Nz2NdParamsFull{2, 4, 32, 1, 4, 144, 40}, 512, 4 * 144);
}

TEST(CubeMovesVector, UbToGmNz2NdTypesAndEdgeValues) {
  Nz2NdCase<int16_t>(Nz2NdParamsFull{3, 5, 48, 2, 6, 50, 300}, 3 * 512,
                     2 * 300 + 4 * 50 + 48);
  Nz2NdCase<uint32_t>(Nz2NdParamsFull{1, 1, 16, 1, 0, 16, 1}, 16, 16);
  Nz2NdCase<bfloat16_t>(Nz2NdParamsFull{1, 3, 32, 1, 0, 32, 1}, 48, 96);
  // srcNdMatrixStride 512 (the largest) with one matrix: two matrices
  // 512 units apart do not fit in the UB.
  Nz2NdCase<int32_t>(Nz2NdParamsFull{1, 16, 16, 512, 16, 16, 256}, 256, 256);
  // srcNStride 4096 (the largest) and dstDStride / dstNdMatrixStride 65535.
  Nz2NdCase<uint16_t>(Nz2NdParamsFull{1, 2, 32, 1, 4096, 65535, 1},
                      4096 * 16 + 32, 65535 + 32);
  Nz2NdCase<float>(Nz2NdParamsFull{2, 1, 16, 1, 0, 16, 65535}, 512, 65535 + 16);
  // ndNum 0: a NOP.
  Nz2NdCase<half>(Nz2NdParamsFull{0, 1, 16, 1, 1, 16, 1}, 16, 16);
}

TEST(CubeMovesVector, UbToGmNz2NdWritesThroughTheAtomicMode) {
  // Under SetAtomicAdd the ND elements add to what GM holds; the gaps
  // between rows keep theirs.
  TPipe pipe;
  TBuf<TPosition::VECOUT> ub;
  pipe.InitBuffer(ub, 2 * 256 * 4);
  std::vector<float> src = Iota<float>(512, 1), out(2 * 40, 100.0f);
  GlobalTensor<float> gsrc = Gm(src), gout = Gm(out);
  DataCopy(ub.Get<float>(), gsrc, 512);
  AscendC::SetAtomicAdd<float>();
  DataCopy(gout, ub.Get<float>(), Nz2NdParamsFull{1, 2, 32, 1, 2, 40, 1});
  AscendC::DisableDmaAtomic();
  const std::vector<float> before(out.size(), 100.0f);
  std::vector<float> want =
      Nz2NdReference(src, std::vector<float>(out.size(), 0.0f),
                     Nz2NdParamsFull{1, 2, 32, 1, 2, 40, 1});
  for (size_t e = 0; e < out.size(); ++e) {
    EXPECT_EQ(out[e], before[e] + want[e]) << "element " << e;
  }
}

TEST(CubeMovesVector, Nd2NzThenNz2NdGivesTheMatrixBack) {
  // A 24 x 48 float matrix into Nz with column blocks of 16 floats (NZ2ND's
  // blocks), and back.
  constexpr int rows = 24, cols = 48;
  TPipe pipe;
  TBuf<TPosition::VECCALC> ub;
  pipe.InitBuffer(ub, rows * cols * 4);
  std::vector<float> in = Iota<float>(rows * cols, -500), out(rows * cols);
  GlobalTensor<float> gin = Gm(in), gout = Gm(out);
  LocalTensor<float> t = ub.Get<float>();
  // ND2NZ's pieces are 32 bytes (8 floats): a 16-float block row is two
  // pieces side by side, which one ND2NZ of 16 columns writes (pieces 1
  // apart, rows 2 apart); one call per column block.
  for (int b = 0; b < cols / 16; ++b) {
    DataCopy(t[b * rows * 16], gin[b * 16],
             Nd2NzParams{1, rows, 16, 0, cols, 1, 2, 0});
  }
  DataCopy(gout, t, Nz2NdParamsFull{1, rows, cols, 1, rows, cols, 1});
  for (int e = 0; e < rows * cols; ++e) EXPECT_EQ(out[e], in[e]) << e;
}

TEST(CubeMovesVector, UbToGmNz2NdRules) {
  TPipe pipe;
  TBuf<TPosition::VECOUT> ub;
  pipe.InitBuffer(ub, 1024);
  LocalTensor<half> t = ub.Get<half>();
  std::vector<half> g(4096);
  GlobalTensor<half> gm = Gm(g);
  const char* api = "DataCopy<half> UB->GM (Nz2NdParamsFull): ";
  const auto fails = [&](const Nz2NdParamsFull& p, const std::string& rule) {
    return FailsWith([&] { DataCopy(gm, t, p); }, api + rule);
  };
  EXPECT_TRUE(fails(Nz2NdParamsFull{4096, 1, 16, 1, 1, 16, 16},
                    "intriParams.ndNum 4096 is out of range [0, 4095]"));
  EXPECT_TRUE(fails(Nz2NdParamsFull{1, 0, 16, 1, 1, 16, 16},
                    "intriParams.nValue 0 is out of range [1, 8192]"));
  EXPECT_TRUE(fails(Nz2NdParamsFull{1, 8193, 16, 1, 1, 16, 16},
                    "intriParams.nValue 8193 is out of range [1, 8192]"));
  EXPECT_TRUE(fails(Nz2NdParamsFull{1, 1, 0, 1, 1, 16, 16},
                    "intriParams.dValue 0 is out of range [1, 8192]"));
  EXPECT_TRUE(fails(Nz2NdParamsFull{1, 1, 8208, 1, 1, 16, 16},
                    "intriParams.dValue 8208 is out of range [1, 8192]"));
  EXPECT_TRUE(fails(Nz2NdParamsFull{1, 1, 24, 1, 1, 32, 16},
                    "intriParams.dValue 24 is not a multiple of 16"));
  EXPECT_TRUE(
      fails(Nz2NdParamsFull{1, 1, 16, 0, 1, 16, 16},
            "intriParams.srcNdMatrixStride 0 is out of range [1, 512]"));
  EXPECT_TRUE(
      fails(Nz2NdParamsFull{1, 1, 16, 513, 1, 16, 16},
            "intriParams.srcNdMatrixStride 513 is out of range [1, 512]"));
  EXPECT_TRUE(fails(Nz2NdParamsFull{1, 1, 16, 1, 4097, 16, 16},
                    "intriParams.srcNStride 4097 is out of range [0, 4096]"));
  EXPECT_TRUE(fails(Nz2NdParamsFull{1, 1, 16, 1, 1, 0, 16},
                    "intriParams.dstDStride 0 is out of range [1, 65535]"));
  EXPECT_TRUE(
      fails(Nz2NdParamsFull{1, 1, 16, 1, 1, 16, 0},
            "intriParams.dstNdMatrixStride 0 is out of range [1, 65535]"));
  EXPECT_TRUE(fails(Nz2NdParamsFull{1, 2, 32, 1, 2, 16, 1},
                    "intriParams.dstDStride 16 is less than dValue 32: the ND "
                    "rows of a matrix would overlap in dst"));
  // 2 matrices two units (512 halves) apart end at 528 of the 512 halves.
  EXPECT_TRUE(fails(Nz2NdParamsFull{2, 1, 16, 2, 1, 16, 16},
                    "the last Nz row read reaches 1056 bytes into src, past "
                    "the end "
                    "of its 1024 bytes"));
  EXPECT_TRUE(fails(Nz2NdParamsFull{1, 2, 16, 1, 2, 4096, 1},
                    "the access reaches element 4112 of dst, past the end of "
                    "the GlobalTensor of 4096 elements"));
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(gm, t[8], Nz2NdParamsFull{1, 1, 16, 1, 1, 16, 1});
      },
      "DataCopy<half> UB->GM (Nz2NdParamsFull): src LocalTensor starts at UB "
      "offset 16, which is not 32-byte aligned"));
  GlobalTensor<half> unset;
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(unset, t, Nz2NdParamsFull{1, 1, 16, 1, 1, 16, 1});
      },
      "DataCopy<half> UB->GM (Nz2NdParamsFull): dst GlobalTensor has no "
      "buffer"));
}

}  // namespace
