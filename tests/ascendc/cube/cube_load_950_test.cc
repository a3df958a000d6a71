// cube_load_950_test.cc — the Ascend 950's loads into L0A / L0B (docs/cube.md,
// "The Ascend 950: loads into L0A and L0B"): LoadData with
// LoadData2DParamsV2 (blocks of an Nz matrix, plain and transposed for 8-,
// 16- and 32-bit types), LoadDataWithTranspose with
// LoadData2dTransposeParamsV2, the Atlas A2/A3 forms' 950 rules, the BitMode
// forms (Load2DBitModeParam, MmadBitModeParams) against the forms they pack,
// img2col into the 950's Nz L0A (LoadData 3D with SetLoadDataRepeat's
// dstStride, LoadDataWithStride with SetLoadDataRepeatWithStride, the BitMode
// img2col load after SetFmatrix's BitMode form) against the convolution
// windows indexed in the test, and Mmad on the 950 after
// these loads against a float64 product. The
// references index the matrices element by element from the pages' formulas;
// they share no code with the moves.
//
// Extending: one TEST per behaviour; a new rule gets a row in its test's
// table of cases (each failure names its case).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "cube_mmad_run.h"
#include "kernel_operator.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace {

using AscendC::LoadData;
using AscendC::LoadData2DParamsV2;
using AscendC::LoadData2dTransposeParams;
using AscendC::LoadData2dTransposeParamsV2;
using AscendC::LoadDataWithTranspose;
using AscendC::LocalTensor;
using AscendC::TPosition;
using compat_test::FailsWith;
using cube_test::CubeBuffers;
using cube_test::RuleCase;
using normgrad_ascendc::Profile;

// Each test runs on the 950 profile (cube_core_test.h).
using Load950Test = Cube950Test;

// Element (r, c) of an Nz matrix of T whose fractal columns are `stride`
// fractals apart (cube_mmad_run.h's Nz, C0 = 32 bytes of T); an Nz C in
// L0C (16 x 16 fractals).
template <typename T>
size_t NzIndex(uint32_t r, uint32_t c, uint32_t stride) {
  return cube_test::NzAIndex(r, c, stride, 32 / sizeof(T));
}
using cube_test::NzOutIndex;

template <typename T>
std::vector<T> Pattern(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = T(int(i % 119) - 59);
  return v;
}

// A case's name for the failures of a check run with it.
std::string CaseName(const char* type, const LoadData2DParamsV2& p) {
  char name[160];
  std::snprintf(name, sizeof name,
                "%s start (%u, %u) steps (%u, %u) strides (%d, %u)%s", type,
                p.mStartPosition, p.kStartPosition, p.mStep, p.kStep,
                p.srcStride, p.dstStride, p.ifTranspose ? " transposed" : "");
  return name;
}
std::string CaseName(const char* type, const LoadData2dTransposeParamsV2& p) {
  char name[160];
  std::snprintf(name, sizeof name,
                "%s startIndex %u repeatTimes %u srcStride %u dstGap %u "
                "dstFracGap %u srcFracGap %u addrMode %u",
                type, p.startIndex, p.repeatTimes, p.srcStride, p.dstGap,
                p.dstFracGap, p.srcFracGap, p.addrMode);
  return name;
}

// LoadData2DParamsV2 against the page: the block of mStep x kStep fractals
// at (mStartPosition, kStartPosition) of src (an Nz matrix with srcStride
// fractals per column) lands in dst as an Nz matrix with dstStride fractals
// per column; transposed, each side x side square of the block is mirrored
// where it stands (side 32 for 8-bit types, 16 otherwise).
template <typename T>
void CheckV2(const LoadData2DParamsV2& p, TPosition where) {
  const uint32_t c0 = 32 / sizeof(T);
  const uint32_t side = sizeof(T) == 1 ? 32 : 16;
  SCOPED_TRACE(CaseName(normgrad_ascendc::TypeName<T>(), p));
  CubeBuffers buf({{TPosition::A1, 64 * 1024},
                   {TPosition::A2, 32 * 1024},
                   {TPosition::B2, 32 * 1024}});
  LocalTensor<T> src = buf.Get<T>(TPosition::A1);
  const std::vector<T> values = Pattern<T>(64 * 1024 / sizeof(T));
  std::memcpy(static_cast<void*>(src.GetPhyAddr()), values.data(), 64 * 1024);
  LocalTensor<T> dst = buf.Get<T>(where);
  std::vector<T> zero(32 * 1024 / sizeof(T), T(0));
  std::memcpy(static_cast<void*>(dst.GetPhyAddr()), zero.data(), 32 * 1024);
  LoadData(dst, src, p);
  const uint32_t rows = 16u * p.mStep;
  const uint32_t cols = c0 * p.kStep;
  const uint32_t row0 = 16u * p.mStartPosition;
  const uint32_t col0 = c0 * p.kStartPosition;
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      uint32_t sr = r, sc = c;
      if (p.ifTranspose) {
        const uint32_t r_base = r - r % side, c_base = c - c % side;
        sr = r_base + (c - c_base);
        sc = c_base + (r - r_base);
      }
      const T want =
          values[NzIndex<T>(row0 + sr, col0 + sc, uint32_t(p.srcStride))];
      ASSERT_EQ(float(dst.GetValue(NzIndex<T>(r, c, p.dstStride))), float(want))
          << "dst element (" << r << ", " << c << ")";
    }
  }
}

TEST_F(Load950Test, V2MovesABlockOfAnNzMatrix) {
  // The page's example: start (2, 2), 2 x 3 fractals, strides 5 and 3.
  CheckV2<half>(LoadData2DParamsV2(2, 2, 2, 3, 5, 3, false, 0), TPosition::A2);
  CheckV2<float>(LoadData2DParamsV2(1, 0, 3, 2, 4, 3, false, 0), TPosition::B2);
  CheckV2<int8_t>(LoadData2DParamsV2(0, 1, 2, 2, 2, 2, false, 0),
                  TPosition::A2);
  CheckV2<bfloat16_t>(LoadData2DParamsV2(0, 0, 4, 2, 4, 6, false, 0),
                      TPosition::A2);  // dst columns 6 fractals apart
}

TEST_F(Load950Test, V2TransposesEachSquareWhereItStands) {
  CheckV2<half>(LoadData2DParamsV2(1, 1, 3, 2, 4, 3, true, 0), TPosition::B2);
  // 8-bit: squares of two fractal rows (mStep even).
  CheckV2<int8_t>(LoadData2DParamsV2(0, 1, 4, 2, 6, 4, true, 0), TPosition::B2);
  CheckV2<uint8_t>(LoadData2DParamsV2(2, 0, 2, 1, 4, 2, true, 0),
                   TPosition::A2);
  // 32-bit: squares of two fractal columns (kStep even).
  CheckV2<float>(LoadData2DParamsV2(1, 0, 2, 4, 3, 2, true, 0), TPosition::B2);
  CheckV2<int32_t>(LoadData2DParamsV2(0, 2, 1, 2, 2, 1, true, 0),
                   TPosition::A2);
}

TEST_F(Load950Test, V2StepsOfZeroMoveNothing) {
  CubeBuffers buf({{TPosition::A1, 512}, {TPosition::A2, 512}});
  LocalTensor<half> dst = buf.Get<half>(TPosition::A2);
  dst.SetValue(0, half(7.0f));
  // Far past both ends, yet a NOP: nothing is read or written.
  LoadData(dst, buf.Get<half>(TPosition::A1),
           LoadData2DParamsV2(90, 90, 0, 4, 9, 9, false, 0));
  LoadData(dst, buf.Get<half>(TPosition::A1),
           LoadData2DParamsV2(90, 90, 4, 0, 9, 9, false, 0));
  EXPECT_EQ(float(dst.GetValue(0)), 7.0f);
}

TEST_F(Load950Test, V2Rules) {
  CubeBuffers buf({{TPosition::A1, 4096}, {TPosition::A2, 2048}});
  const LocalTensor<float> src = buf.Get<float>(TPosition::A1);
  const LocalTensor<float> dst = buf.Get<float>(TPosition::A2);
  const std::string api = "LoadData<float>(LoadData2DParamsV2) L1->L0A: ";
  const RuleCase<LoadData2DParamsV2> cases[] = {
      {LoadData2DParamsV2(0, 0, 256, 1, 1, 1, false, 0),
       "loadDataParams.mStep 256 is out of range [0, 255]"},
      {LoadData2DParamsV2(0, 0, 1, 300, 1, 1, false, 0),
       "loadDataParams.kStep 300 is out of range [0, 255]"},
      {LoadData2DParamsV2(0, 0, 1, 1, -2, 1, false, 0),
       "loadDataParams.srcStride -2 is negative; it counts the fractals "
       "between two columns of src"},
      {LoadData2DParamsV2(0, 0, 1, 3, 1, 1, true, 0),
       "loadDataParams.kStep 3 with ifTranspose; a 32-bit type transposes "
       "squares of 2 fractal columns, so kStep must be a multiple of 2"},
      // src: fractal (kStart 1 + 1) x 3 + 1 = 7 ends at 4096 (fits); 8 does
      // not.
      {LoadData2DParamsV2(2, 1, 1, 2, 3, 1, false, 0),
       "the fractals read reaches 4608 bytes into src, past the end of its "
       "4096 bytes"},
      {LoadData2DParamsV2(0, 0, 1, 2, 1, 4, false, 0),
       "the fractals written reaches 2560 bytes into dst, past the end of "
       "its 2048 bytes"},
  };
  for (const auto& c : cases) {
    EXPECT_TRUE(FailsWith([&] { LoadData(dst, src, c.params); }, api + c.rule));
  }
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadData(src, src, LoadData2DParamsV2(0, 0, 1, 1, 1, 1, false, 0));
      },
      "dst LocalTensor is at position A1; it must be at A2 (L0A) or B2 (L0B)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadData(buf.Get<int8_t>(TPosition::A2), buf.Get<int8_t>(TPosition::A1),
                 LoadData2DParamsV2(0, 0, 3, 1, 4, 4, true, 0));
      },
      "LoadData<int8_t>(LoadData2DParamsV2) L1->L0A: loadDataParams.mStep 3 "
      "with ifTranspose; a 8-bit type transposes squares of 2 fractal rows, "
      "so mStep must be a multiple of 2"));
}

TEST_F(Load950Test, V2IsThe950s) {
  normgrad_ascendc::SetProfile(Profile::kA2);
  CubeBuffers buf({{TPosition::A1, 512}, {TPosition::A2, 512}});
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadData(buf.Get<half>(TPosition::A2), buf.Get<half>(TPosition::A1),
                 LoadData2DParamsV2(0, 0, 1, 1, 1, 1, false, 0));
      },
      "LoadData<half>(LoadData2DParamsV2) L1->L0A: not available on profile "
      "Atlas A2/A3: LoadData2DParamsV2 is the 950's; Atlas A2/A3 loads with "
      "LoadData2DParams"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithTranspose(buf.Get<half>(TPosition::A2),
                              buf.Get<half>(TPosition::A1),
                              LoadData2dTransposeParamsV2(0, 1, 0, 0, 0, 0, 0));
      },
      "LoadDataWithTranspose<half>(LoadData2dTransposeParamsV2) L1->L0B: not "
      "available on profile Atlas A2/A3: LoadData2dTransposeParamsV2 is the "
      "950's; Atlas A2/A3 transposes with LoadData2dTransposeParams"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LoadData<TPosition::A2, TPosition::A1>(
            buf.Get<half>(TPosition::A2), buf.Get<half>(TPosition::A1),
            AscendC::Load2DBitModeParam(
                LoadData2DParamsV2(0, 0, 1, 1, 1, 1, false, 0)));
      },
      "LoadData<half>(Load2DBitModeParam): not available on profile Atlas "
      "A2/A3: Load2DBitModeParam is the 950's; Atlas A2/A3 loads with "
      "LoadData2DParams"));
}

// LoadData2dTransposeParamsV2: square i's fractal j is read at startIndex ±
// i x srcStride + j x (1 + srcFracGap) and written at i x (1 + dstGap) +
// j x (1 + dstFracGap), the square transposed as a matrix (two 16 x 8
// fractals side by side for 32-bit types, two 16 x 32 one above the other
// for 8-bit types, one 16 x 16 for 16-bit types).
template <typename T>
void CheckTransposeV2(const LoadData2dTransposeParamsV2& p) {
  const uint32_t c0 = 32 / sizeof(T);
  const uint32_t per = 512 / sizeof(T);
  const uint32_t side = sizeof(T) == 1 ? 32 : 16;
  const uint32_t fractals = sizeof(T) == 2 ? 1 : 2;
  SCOPED_TRACE(CaseName(normgrad_ascendc::TypeName<T>(), p));
  CubeBuffers buf({{TPosition::B1, 32 * 1024}, {TPosition::B2, 32 * 1024}});
  LocalTensor<T> src = buf.Get<T>(TPosition::B1);
  const std::vector<T> values = Pattern<T>(32 * 1024 / sizeof(T));
  std::memcpy(static_cast<void*>(src.GetPhyAddr()), values.data(), 32 * 1024);
  LocalTensor<T> dst = buf.Get<T>(TPosition::B2);
  LoadDataWithTranspose(dst, src, p);
  // Element (r, c) of a square: its fractal and the element in it.
  const auto place = [&](uint32_t r, uint32_t c, uint32_t* frac) {
    *frac = sizeof(T) == 4 ? c / c0 : r / 16;
    return (r % 16) * c0 + c % c0;
  };
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint32_t first = p.addrMode == 1 ? p.startIndex - i * p.srcStride
                                           : p.startIndex + i * p.srcStride;
    for (uint32_t r = 0; r < side; ++r) {
      for (uint32_t c = 0; c < side; ++c) {
        uint32_t sf = 0, df = 0;
        const uint32_t se = place(c, r, &sf);
        const uint32_t de = place(r, c, &df);
        const uint32_t from =
            first + (fractals > 1 ? sf * (1u + p.srcFracGap) : 0);
        const uint32_t to =
            i * (1u + p.dstGap) + (fractals > 1 ? df * (1u + p.dstFracGap) : 0);
        ASSERT_EQ(float(dst.GetValue(to * per + de)),
                  float(values[from * per + se]))
            << "square " << i << " element (" << r << ", " << c << ")";
      }
    }
  }
}

TEST_F(Load950Test, TransposeV2ReadsTheSquaresFractalsApart) {
  CheckTransposeV2<half>(LoadData2dTransposeParamsV2(1, 3, 2, 1, 0, 0, 0));
  CheckTransposeV2<bfloat16_t>(
      LoadData2dTransposeParamsV2(6, 3, 3, 0, 0, 0, 1));  // 6, 3, 0
  CheckTransposeV2<float>(LoadData2dTransposeParamsV2(0, 3, 2, 1, 0, 0, 0));
  CheckTransposeV2<float>(LoadData2dTransposeParamsV2(1, 2, 1, 0, 2, 3, 0));
  CheckTransposeV2<int32_t>(LoadData2dTransposeParamsV2(2, 2, 4, 0, 1, 1, 0));
  CheckTransposeV2<int8_t>(LoadData2dTransposeParamsV2(0, 3, 2, 1, 0, 0, 0));
  CheckTransposeV2<uint8_t>(LoadData2dTransposeParamsV2(3, 2, 5, 0, 3, 2, 0));
}

TEST_F(Load950Test, TransposeV2Rules) {
  CubeBuffers buf(
      {{TPosition::B1, 2048}, {TPosition::A2, 1024}, {TPosition::B2, 1024}});
  const LocalTensor<float> src = buf.Get<float>(TPosition::B1);
  const LocalTensor<float> dst = buf.Get<float>(TPosition::B2);
  const std::string api =
      "LoadDataWithTranspose<float>(LoadData2dTransposeParamsV2) L1->L0B: ";
  using Params = LoadData2dTransposeParamsV2;
  const RuleCase<Params> cases[] = {
      {Params(0, 0, 0, 0, 0, 0, 0),
       "loadDataParams.repeatTimes 0 is out of range [1, 255]"},
      {Params(0, 1, 0, 0, 0, 0, 2),
       "loadDataParams.addrMode 2 is out of range [0, 1]"},
      {Params(1, 3, 1, 1, 0, 0, 1),
       "loadDataParams.addrMode 1 from startIndex 1 steps 2 fractals down "
       "(repeatTimes 3 x srcStride 1): below fractal 0"},
      // Square 0 reads fractals 1 and 1 + 3 = 4: past 2048 bytes.
      {Params(1, 1, 0, 0, 0, 2, 0),
       "the fractals read reaches 2560 bytes into src, past the end of its "
       "2048 bytes"},
      {Params(0, 1, 0, 0, 1, 0, 0),
       "the fractals written reaches 1536 bytes into dst, past the end of "
       "its 1024 bytes"},
      {Params(0, 2, 0, 0, 0, 0, 0),
       "loadDataParams.dstFracGap 0 and dstGap 0 put fractal 1 of square 0 "
       "on fractal 0 of square 1; the transposed fractals must not overlap"},
  };
  for (const auto& c : cases) {
    EXPECT_TRUE(FailsWith([&] { LoadDataWithTranspose(dst, src, c.params); },
                          api + c.rule));
  }
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithTranspose(buf.Get<float>(TPosition::A2), src,
                              LoadData2dTransposeParamsV2(0, 1, 0, 0, 0, 0, 0));
      },
      "dst LocalTensor is at position A2; it must be at B2 (L0B)"));
}

// The Atlas A2/A3 form keeps its L1 -> L0B path on the 950 and loses L0A.
TEST_F(Load950Test, TransposeWithA2ParamsMovesIntoL0BOnly) {
  CubeBuffers buf(
      {{TPosition::B1, 512}, {TPosition::A2, 512}, {TPosition::B2, 512}});
  LocalTensor<half> src = buf.Get<half>(TPosition::B1);
  for (uint32_t i = 0; i < 256; ++i) src.SetValue(i, half(float(i % 64)));
  LoadDataWithTranspose(buf.Get<half>(TPosition::B2), src,
                        LoadData2dTransposeParams(0, 1, 0, 0, 0, 0));
  EXPECT_EQ(float(buf.Get<half>(TPosition::B2).GetValue(1)),
            16.0f);  // (0, 1) <- (1, 0)
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithTranspose(buf.Get<half>(TPosition::A2), src,
                              LoadData2dTransposeParams(0, 1, 0, 0, 0, 0));
      },
      "LoadDataWithTranspose<half> L1->L0A: not available on profile Ascend "
      "950: the 950's LoadDataWithTranspose moves into L0B (B2) only"));
}

// Load2DBitModeParam: the fields in their bits, and the move LoadData2DParamsV2
// makes.
TEST_F(Load950Test, Load2DBitModePacksTheV2Fields) {
  const LoadData2DParamsV2 v2(2, 1, 3, 2, -5, 7, true, 0);
  const AscendC::Load2DBitModeParam packed(v2);
  EXPECT_EQ(packed.GetConfig0(),
            2ull | (1ull << 16) | (3ull << 32) | (2ull << 40));
  EXPECT_EQ(packed.GetConfig1(), 0xfffbull | (7ull << 16));
  EXPECT_EQ(packed.GetSrcStride(), -5);
  EXPECT_EQ(packed.GetDstStride(), 7);
  EXPECT_TRUE(packed.ifTranspose);
  AscendC::Load2DBitModeParam set;
  set.SetMStartPosition(9);
  set.SetKStep(255);
  set.config1BitMode.dstStride = 4;  // the bits, as the page allows
  EXPECT_EQ(set.GetMStartPosition(), 9u);
  EXPECT_EQ(set.GetKStep(), 255);
  EXPECT_EQ(set.GetDstStride(), 4);
}

TEST_F(Load950Test, Load2DBitModeMovesAsV2) {
  CubeBuffers buf({{TPosition::A1, 16384}, {TPosition::A2, 16384}});
  LocalTensor<half> src = buf.Get<half>(TPosition::A1);
  const std::vector<half> values = Pattern<half>(8192);
  std::memcpy(static_cast<void*>(src.GetPhyAddr()), values.data(), 16384);
  const LoadData2DParamsV2 v2(1, 1, 2, 3, 4, 2, true, 0);
  LoadData(buf.Get<half>(TPosition::A2)[0], src, v2);
  AscendC::LoadData<TPosition::A2, TPosition::A1>(
      buf.Get<half>(TPosition::A2)[4096], src, AscendC::Load2DBitModeParam(v2));
  EXPECT_EQ(std::memcmp(buf.Get<half>(TPosition::A2).GetPhyAddr(),
                        buf.Get<half>(TPosition::A2)[4096].GetPhyAddr(), 8192),
            0);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LoadData<TPosition::B2, TPosition::A1>(
            buf.Get<half>(TPosition::A2), src, AscendC::Load2DBitModeParam(v2));
      },
      "LoadData<half>(Load2DBitModeParam): dst LocalTensor is at position "
      "A2, not the Dst template argument B2"));
}

TEST_F(Load950Test, MmadBitModePacksMmadParams) {
  AscendC::MmadBitModeParams p;
  EXPECT_TRUE(p.GetCmatrixInitVal());  // C starts at 0, as MmadParams's
  p.SetM(4095);
  p.SetK(64);
  p.SetN(3);
  p.SetUnitFlag(2);
  p.SetDisableGemv(true);
  p.SetCmatrixInitVal(false);
  EXPECT_EQ(p.GetConfig0(), 4095ull | (64ull << 12) | (3ull << 24) |
                                (2ull << 36) | (1ull << 38));
  const AscendC::MmadBitModeParams copy(p);
  EXPECT_EQ(copy.GetM(), 4095);
  EXPECT_EQ(copy.GetUnitFlag(), 2);
  EXPECT_FALSE(copy.GetCmatrixSource());
}

TEST_F(Load950Test, MmadBitModeRules) {
  CubeBuffers buf(
      {{TPosition::A2, 4096}, {TPosition::B2, 4096}, {TPosition::CO1, 8192}});
  AscendC::MmadBitModeParams p;
  p.SetM(16);
  p.SetN(16);
  p.SetK(32);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Mmad(buf.Get<float>(TPosition::CO1),
                      buf.Get<half>(TPosition::A2),
                      buf.Get<half>(TPosition::B2), p);
      },
      "Mmad(MmadBitModeParams): mmadParams k 32 is not a multiple of 64"));
  p.SetK(64);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Mmad(buf.Get<float>(TPosition::CO1)[64],
                      buf.Get<half>(TPosition::A2),
                      buf.Get<half>(TPosition::B2), p);
      },
      "dst LocalTensor starts at L0C offset 256, which is not a multiple of "
      "1024 bytes"));
}

// Writes rows x cols small integers value(i, j) as half into `l1` as an Nz
// matrix of `stride` fractal rows a column; returns them row major.
template <typename F>
std::vector<double> FillNz(const LocalTensor<half>& l1, uint32_t rows,
                           uint32_t cols, uint32_t stride, F value) {
  std::vector<double> v(rows * cols);
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < cols; ++j) {
      v[i * cols + j] = double(value(i, j));
      l1.SetValue(uint32_t(NzIndex<half>(i, j, stride)),
                  half(float(v[i * cols + j])));
    }
  }
  return v;
}

// C (m x n in L0C, m1 fractal rows) is exactly the float64 product
// Σ_x a[i][x] · b(x, j).
template <typename B>
void ExpectNzProduct(const LocalTensor<float>& c, const std::vector<double>& a,
                     B b, uint32_t m, uint32_t k, uint32_t n, uint32_t m1) {
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      double want = 0;
      for (uint32_t x = 0; x < k; ++x) want += a[i * k + x] * b(x, j);
      ASSERT_EQ(double(c.GetValue(NzOutIndex(i, j, m1))), want)
          << "C(" << i << ", " << j << ")";
    }
  }
}

// A (M x K) and B^T (N x K) as Nz matrices in L1, moved by LoadData2DParamsV2
// into L0A (Nz) and L0B (B^T's Nz fractals are B's Zn ones), multiplied by
// Mmad and by Mmad with MmadBitModeParams: C (Nz in L0C) against the float64
// product, exactly (small integers), and the two forms bit for bit.
TEST_F(Load950Test, MmadAfterV2LoadsIsTheFloat64Product) {
  constexpr uint32_t m = 40, k = 64, n = 24;  // M and N not whole fractals
  constexpr uint32_t m1 = 3, n1 = 2, kc = 4;  // fractal rows; 16-half columns
  CubeBuffers buf({{TPosition::A1, m1 * kc * 512},
                   {TPosition::B1, n1 * kc * 512},
                   {TPosition::A2, m1 * kc * 512},
                   {TPosition::B2, n1 * kc * 512},
                   {TPosition::CO1, 2 * 8192}});
  LocalTensor<half> a1t = buf.Get<half>(TPosition::A1);
  LocalTensor<half> b1t = buf.Get<half>(TPosition::B1);
  const std::vector<double> a = FillNz(
      a1t, m, k, m1,
      [](uint32_t i, uint32_t j) { return int((i * 7 + j * 3) % 9) - 4; });
  const std::vector<double> bt =
      FillNz(b1t, n, k, n1,
             [](uint32_t i, uint32_t j) { return int((i * 5 + j) % 7) - 3; });
  LoadData(buf.Get<half>(TPosition::A2), a1t,
           LoadData2DParamsV2(0, 0, m1, kc, m1, m1, false, 0));
  LoadData(buf.Get<half>(TPosition::B2), b1t,
           LoadData2DParamsV2(0, 0, n1, kc, n1, n1, false, 0));
  AscendC::MmadParams params;
  params.m = m;
  params.n = n;
  params.k = k;
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  AscendC::Mmad(c, buf.Get<half>(TPosition::A2), buf.Get<half>(TPosition::B2),
                params);
  ExpectNzProduct(
      c, a, [&](uint32_t x, uint32_t j) { return bt[j * k + x]; }, m, k, n, m1);
  AscendC::MmadBitModeParams bits;
  bits.SetM(m);
  bits.SetN(n);
  bits.SetK(k);
  AscendC::Mmad(c[2048], buf.Get<half>(TPosition::A2),
                buf.Get<half>(TPosition::B2), bits);
  for (uint32_t i = 0; i < m; ++i) {  // the elements Mmad writes
    for (uint32_t j = 0; j < n; ++j) {
      ASSERT_EQ(c.GetValue(2048 + NzOutIndex(i, j, m1)),
                c.GetValue(NzOutIndex(i, j, m1)))
          << "C(" << i << ", " << j << ")";
    }
  }
}

// LoadData with LoadData2DParams on the 950: its page says dstGap has no
// effect, so the fractals land one after another.
TEST_F(Load950Test, LoadData2DIgnoresDstGap) {
  CubeBuffers buf({{TPosition::A1, 4096}, {TPosition::B2, 4096}});
  LocalTensor<half> src = buf.Get<half>(TPosition::A1);
  for (uint32_t i = 0; i < 2048; ++i) src.SetValue(i, half(float(i % 512)));
  LocalTensor<half> dst = buf.Get<half>(TPosition::B2);
  // Fractals 1, 3 and 5 of src; dstGap 2 would put them 3 fractals apart.
  LoadData(dst, src, AscendC::LoadData2DParams(1, 3, 2, 0, 2, false, 0));
  for (uint32_t i = 0; i < 3; ++i) {
    for (uint32_t e = 0; e < 256; ++e) {
      ASSERT_EQ(float(dst.GetValue(i * 256 + e)),
                float(src.GetValue((1 + 2 * i) * 256 + e)))
          << "fractal " << i << " element " << e;
    }
  }
}

// B as K x N (not transposed) in L1's Nz: its Nz fractals, 16 rows of K by
// 16 of N, are the transposes of B's Zn ones, so LoadData2DParamsV2 with
// ifTranspose moves one row of fractals per call into Zn's place (K block
// kr's fractals at kr x n1). Mmad on the 950 against the float64 product.
TEST_F(Load950Test, MmadAfterTransposedV2LoadOfB) {
  constexpr uint32_t m = 20, k = 48, n = 40;
  constexpr uint32_t m1 = 2, k1 = 3, n1 = 3;  // 16-element blocks
  CubeBuffers buf({{TPosition::A1, m1 * k1 * 512},
                   {TPosition::B1, k1 * n1 * 512},
                   {TPosition::A2, m1 * k1 * 512},
                   {TPosition::B2, k1 * n1 * 512},
                   {TPosition::CO1, m1 * n1 * 1024}});
  LocalTensor<half> a1t = buf.Get<half>(TPosition::A1);
  LocalTensor<half> b1t = buf.Get<half>(TPosition::B1);
  const std::vector<double> a = FillNz(
      a1t, m, k, m1,
      [](uint32_t i, uint32_t j) { return int((i * 3 + j * 5) % 11) - 5; });
  const std::vector<double> b =
      FillNz(b1t, k, n, k1,
             [](uint32_t i, uint32_t j) { return int((i * 7 + j) % 9) - 4; });
  LoadData(buf.Get<half>(TPosition::A2), a1t,
           LoadData2DParamsV2(0, 0, m1, k1, m1, m1, false, 0));
  for (uint32_t kr = 0; kr < k1; ++kr) {
    LoadData(buf.Get<half>(TPosition::B2)[kr * n1 * 256], b1t,
             LoadData2DParamsV2(kr, 0, 1, n1, k1, 1, true, 0));
  }
  AscendC::MmadParams params;
  params.m = m;
  params.n = n;
  params.k = k;
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  AscendC::Mmad(c, buf.Get<half>(TPosition::A2), buf.Get<half>(TPosition::B2),
                params);
  ExpectNzProduct(
      c, a, [&](uint32_t x, uint32_t j) { return b[x * n + j]; }, m, k, n, m1);
}

// A feature map of 2 channel blocks (C1 2, C0 16 halves), 4 high and 10
// wide, in L1 as C1HWC0; a 2 x 2 kernel, stride 1, padding 1 left and top.
// The img2col matrix: row m is the output point (m / outW, m % outW), column
// k the kernel point (k / 16 / 4 blocks, then (k / 16 % 4) / 2, % 2) and
// channel k % 16 (the page's order: channel block, kernel row, kernel
// column, channel).
class Img2col950 : public Load950Test {
 protected:
  static constexpr uint32_t kH = 4, kW = 10, kC1 = 2;
  static constexpr uint32_t kOutW = kW, kOutH = kH;  // (10 + 1 - 2) + 1
  static constexpr uint32_t kRows = kOutH * kOutW;   // 40: 3 fractal rows
  static constexpr uint32_t kCols = kC1 * 4 * 16;    // 128: 8 columns

  void Fill(LocalTensor<half> l1) {
    for (uint32_t i = 0; i < kC1 * kH * kW * 16; ++i) {
      l1.SetValue(i, half(float(int(i % 61) - 30)));
    }
  }
  AscendC::LoadData3DParamsV2<half> Params() const {
    AscendC::LoadData3DParamsV2<half> p;
    p.padList[0] = 1;  // left
    p.padList[2] = 1;  // top
    p.l1H = kH;
    p.l1W = kW;
    p.channelSize = kC1 * 16;
    p.kExtension = kCols;
    p.mExtension = kRows;
    p.filterW = 2;
    p.filterH = 2;
    p.padValue = half(7.0f);
    return p;
  }
  float Want(const LocalTensor<half>& l1, uint32_t m, uint32_t k) const {
    if (m >= kRows) return 0.0f;  // the last fractal row's padding rows
    const uint32_t block = k / 64, point = k / 16 % 4, channel = k % 16;
    const int h = int(m / kOutW) - 1 + int(point / 2);
    const int w = int(m % kOutW) - 1 + int(point % 2);
    if (h < 0 || w < 0) return 7.0f;
    return float(l1.GetValue(((block * kH + h) * kW + w) * 16 + channel));
  }
  // dst as the 950's Nz: column of fractals k / 16 at k / 16 x dstStride.
  void Check(const LocalTensor<half>& l1, const LocalTensor<half>& dst,
             uint32_t dst_stride) const {
    for (uint32_t m = 0; m < 48; ++m) {
      for (uint32_t k = 0; k < kCols; ++k) {
        ASSERT_EQ(float(dst.GetValue(NzIndex<half>(m, k, dst_stride))),
                  Want(l1, m, k))
            << "row " << m << " column " << k;
      }
    }
  }
  // The feature map in L1 (A1, or B1 for `l0` B2) unfolded into `l0` with
  // the columns `dst_stride` fractals apart: LoadData 3D after
  // SetLoadDataRepeat, or LoadDataWithStride after its own repeat.
  void LoadAndCheck(TPosition l0, uint32_t dst_stride, bool with_stride) {
    const TPosition l1_position =
        l0 == TPosition::B2 ? TPosition::B1 : TPosition::A1;
    CubeBuffers buf({{l1_position, 4096}, {l0, 8 * dst_stride * 512}});
    LocalTensor<half> l1 = buf.Get<half>(l1_position);
    Fill(l1);
    if (with_stride) {
      AscendC::LoadDataRepeatParamWithStride repeat;
      repeat.dstStride = dst_stride;
      AscendC::SetLoadDataRepeatWithStride(repeat);
      AscendC::LoadDataWithStride(buf.Get<half>(l0), l1, Params());
    } else {
      AscendC::LoadDataRepeatParam repeat;
      repeat.dstStride = dst_stride;
      AscendC::SetLoadDataRepeat(repeat);
      LoadData(buf.Get<half>(l0), l1, Params());
    }
    Check(l1, buf.Get<half>(l0), dst_stride);
  }
};

TEST_F(Img2col950, LoadData3DWritesNzColumnsDstStrideApart) {
  LoadAndCheck(TPosition::A2, 4, false);  // one fractal between columns' 3
}

// With enTranspose into L0A the whole matrix is transposed (each fractal and
// its place): the transpose (128 x 40, its columns padded to 48) as Nz, its
// columns of fractals dstStride apart.
TEST_F(Img2col950, TransposedIntoL0AIsTheTransposeAsNz) {
  CubeBuffers buf({{TPosition::A1, 4096}, {TPosition::A2, 3 * 9 * 512}});
  LocalTensor<half> l1 = buf.Get<half>(TPosition::A1);
  Fill(l1);
  AscendC::LoadDataRepeatParam repeat;
  repeat.dstStride = 9;  // the transpose's 8 fractal rows and one spare
  AscendC::SetLoadDataRepeat(repeat);
  AscendC::LoadData3DParamsV2<half> p = Params();
  p.enTranspose = true;
  LoadData(buf.Get<half>(TPosition::A2), l1, p);
  const LocalTensor<half> dst = buf.Get<half>(TPosition::A2);
  for (uint32_t r = 0; r < kCols; ++r) {  // the transpose's rows: K
    for (uint32_t c = 0; c < 48; ++c) {   // its columns: M, padded
      ASSERT_EQ(float(dst.GetValue(NzIndex<half>(r, c, 9))), Want(l1, c, r))
          << "transpose (" << r << ", " << c << ")";
    }
  }
}

// Into L0B the matrix is the Nz of Bᵀ (B's Zn), the same columns.
TEST_F(Img2col950, LoadData3DIntoL0BIsTheSameNz) {
  LoadAndCheck(TPosition::B2, 5, false);
}

TEST_F(Img2col950, LoadDataWithStrideTakesItsOwnRepeat) {
  LoadAndCheck(TPosition::A2, 3, true);  // the columns one after another
}

TEST_F(Img2col950, Rules) {
  CubeBuffers buf({{TPosition::A1, 4096}, {TPosition::A2, 8 * 4 * 512}});
  LocalTensor<half> l1 = buf.Get<half>(TPosition::A1);
  const std::string api = "LoadData<half> L1->L0A (LoadData3DParamsV2): ";
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(buf.Get<half>(TPosition::A2), l1, Params()); },
      api + "dstStride 0 (SetLoadDataRepeat or SetLoadDataRepeatWithStride, "
            "not called in this block) is less than the output's 3 fractal "
            "rows: on the 950 each column of fractals lands dstStride "
            "fractals after the previous one, and they must not overlap"));
  AscendC::LoadDataRepeatParam repeat;
  repeat.dstStride = 2;
  AscendC::SetLoadDataRepeat(repeat);
  EXPECT_TRUE(
      FailsWith([&] { LoadData(buf.Get<half>(TPosition::A2), l1, Params()); },
                "dstStride 2 (SetLoadDataRepeat or "
                "SetLoadDataRepeatWithStride) is less than the "
                "output's 3 fractal rows"));
  repeat.dstStride = 5;  // 7 x 5 + 3 fractals: past the 32 of dst
  AscendC::SetLoadDataRepeat(repeat);
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(buf.Get<half>(TPosition::A2), l1, Params()); },
      api + "the fractals written reaches 19456 bytes into dst, past the end "
            "of its 16384 bytes"));
}

TEST_F(Load950Test, LoadDataWithStrideIsThe950s) {
  normgrad_ascendc::SetProfile(Profile::kA2);
  CubeBuffers buf({{TPosition::A1, 512}, {TPosition::A2, 512}});
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LoadDataWithStride(buf.Get<half>(TPosition::A2),
                                    buf.Get<half>(TPosition::A1),
                                    AscendC::LoadData3DParamsV2<half>());
      },
      "LoadDataWithStride<half>: not available on profile Atlas A2/A3: "
      "LoadDataWithStride is the 950's"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SetLoadDataRepeatWithStride(
            AscendC::LoadDataRepeatParamWithStride());
      },
      "SetLoadDataRepeatWithStride: not available on profile Atlas A2/A3"));
}

TEST_F(Img2col950, BitModeLoadAfterBitModeSetFmatrix) {
  CubeBuffers buf({{TPosition::A1, 4096}, {TPosition::A2, 8 * 4 * 512}});
  LocalTensor<half> l1 = buf.Get<half>(TPosition::A1);
  Fill(l1);
  const AscendC::SetFMatrixBitModeParams fmatrix(Params());
  EXPECT_EQ(fmatrix.GetConfig0(),
            kH | (kW << 16) | (1ull << 32) | (1ull << 48));
  AscendC::SetFmatrix(fmatrix, AscendC::FmatrixMode::FMATRIX_LEFT);
  AscendC::SetLoadDataPaddingValue(half(7.0f));
  AscendC::LoadDataRepeatParam repeat;
  repeat.dstStride = 4;
  AscendC::SetLoadDataRepeat(repeat);
  const AscendC::Load3DBitModeParam packed(Params());
  EXPECT_EQ(packed.GetConfig0(), kCols | (kRows << 16));
  // strideW 1, strideH 1 << 6, filterW 2 << 12, filterH 2 << 20,
  // dilations 1 << 28 and 1 << 36, channelSize 32 << 48.
  EXPECT_EQ(packed.GetConfig1(), 1ull | (1ull << 6) | (2ull << 12) |
                                     (2ull << 20) | (1ull << 28) |
                                     (1ull << 36) | (32ull << 48));
  AscendC::LoadData<TPosition::A2, TPosition::A1>(buf.Get<half>(TPosition::A2),
                                                  l1, packed);
  Check(l1, buf.Get<half>(TPosition::A2), 4);
  // The template positions are checked as for Load2DBitModeParam.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LoadData<TPosition::A2, TPosition::B1>(
            buf.Get<half>(TPosition::A2), l1, packed);
      },
      "LoadData<half>(Load3DBitModeParam): src LocalTensor is at position "
      "A1, not the Src template argument B1"));
}

TEST_F(Load950Test, Img2colBitModesAreThe950s) {
  normgrad_ascendc::SetProfile(Profile::kA2);
  CubeBuffers buf({{TPosition::A1, 512}, {TPosition::A2, 512}});
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SetFmatrix(AscendC::SetFMatrixBitModeParams(),
                            AscendC::FmatrixMode::FMATRIX_LEFT);
      },
      "SetFmatrix(SetFMatrixBitModeParams): not available on profile Atlas "
      "A2/A3"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LoadData<TPosition::A2, TPosition::A1>(
            buf.Get<half>(TPosition::A2), buf.Get<half>(TPosition::A1),
            AscendC::Load3DBitModeParam());
      },
      "LoadData<half>(Load3DBitModeParam): not available on profile Atlas "
      "A2/A3"));
}

}  // namespace
