// cube_mx_test.cc — the Ascend 950's 8-bit float Mmad and MmadMx (docs/cube.md,
// "The Ascend 950: 8-bit floats and MX"), on the 950 profile: Mmad for every
// 8-bit float pair of its page and MmadMx for every pair of its page against
// a float64 reference written here, with inputs chosen so that every product
// and sum is exact in float (so the comparison is bit for bit); the scale
// move's placement; every rule's message, and the refusal off the 950.
//
// The codes are written here by hand from the formats' definitions (never
// decoded by the code under test): values {0, ±0.5, ±1, ±1.5, ±2, ±3, ±4,
// ±6} for the 8-bit types and fp4x2_e2m1_t, {0, ±0.25 .. ±1.75} for
// fp4x2_e1m2_t; scales 2^-2 .. 2^2. Layouts: A Nz (16 x k0 fractals,
// column-major fractals), B Zn, C Nz; the scales 16 x 2 fractals, row-major
// fractals for A and column-major for B (see ScaleAt). To extend: add a TEST;
// seeds come from NORMGRAD_SEED.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "cube_mmad_run.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::MmadParams;
using AscendC::TPosition;
using compat_test::FailsWith;
using cube_test::CubeBuffers;
using normgrad_ascendc::Profile;

// On the 950 profile (cube_core_test.h).
using CubeMxTest = Cube950Test;

uint32_t Up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// A format's codes for the values {0, 0.5, 1, 1.5, 2, 3, 4, 6} (e1m2: {0,
// 0.25, .., 1.75}), by hand from its definition; `sign` is the sign bit.
struct Codes {
  uint8_t code[8];
  double value[8];
  uint8_t sign;
};
// fp8_e4m3fn_t: bias 7. 1.0 = 0 0111 000.
constexpr Codes kE4m3{{0x00, 0x30, 0x38, 0x3C, 0x40, 0x44, 0x48, 0x4C},
                      {0, 0.5, 1, 1.5, 2, 3, 4, 6},
                      0x80};
// fp8_e5m2_t: bias 15. 1.0 = 0 01111 00.
constexpr Codes kE5m2{{0x00, 0x38, 0x3C, 0x3E, 0x40, 0x42, 0x44, 0x46},
                      {0, 0.5, 1, 1.5, 2, 3, 4, 6},
                      0x80};
// hifloat8_t: 1 = D 0001 M 000; 0.5 = D 001 E 1 (−1); 2, 3 = D 001 E 0
// (+1); 4, 6 = D 01 E 00 (+2).
constexpr Codes kHif8{{0x00, 0x18, 0x08, 0x0C, 0x10, 0x14, 0x20, 0x24},
                      {0, 0.5, 1, 1.5, 2, 3, 4, 6},
                      0x80};
// fp4 e2m1 (bias 1): the codes are the values' order.
constexpr Codes kE2m1{
    {0, 1, 2, 3, 4, 5, 6, 7}, {0, 0.5, 1, 1.5, 2, 3, 4, 6}, 0x8};
// fp4 e1m2 (bias 1): M / 4 below 1, 1 + M / 4 from 1.
constexpr Codes kE1m2{
    {0, 1, 2, 3, 4, 5, 6, 7}, {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75}, 0x8};

// A random matrix of rows x cols codes and their values.
struct Matrix {
  std::vector<uint8_t> code;
  std::vector<double> value;
};
Matrix Random(std::mt19937& rng, const Codes& c, uint32_t rows, uint32_t cols) {
  Matrix m{std::vector<uint8_t>(size_t{rows} * cols),
           std::vector<double>(size_t{rows} * cols)};
  std::uniform_int_distribution<int> pick(0, 15);
  for (size_t i = 0; i < m.code.size(); ++i) {
    const int r = pick(rng);
    const bool negative = r >= 8 && c.code[r % 8] != 0;
    m.code[i] = uint8_t(c.code[r % 8] | (negative ? c.sign : 0));
    m.value[i] = negative ? -c.value[r % 8] : c.value[r % 8];
  }
  return m;
}

// Element offsets in the 950's L0A (Nz), L0B (Zn) and L0C (Nz):
// cube_mmad_run.h's maps, with k0 elements a fractal row.
using cube_test::NzAIndex;
using cube_test::NzOutIndex;
using cube_test::ZnIndex;

// Writes element `e` (a code) into raw bytes: one a byte, or a nibble each
// (element 2i in the low nibble) for the 4-bit types.
void Put(std::vector<uint8_t>& bytes, size_t e, uint8_t code, bool fp4) {
  if (!fp4) {
    bytes[e] = code;
    return;
  }
  uint8_t& b = bytes[e / 2];
  b = uint8_t(e % 2 ? (b & 0x0F) | (code << 4) : (b & 0xF0) | code);
}

std::mt19937 Rng() { return std::mt19937(compat_test::Seed<32>()); }

// ---- Mmad with 8-bit floats -------------------------------------------------

template <typename U, typename S>
void CheckFloat8Mmad(const Codes& ca, const Codes& cb, uint32_t m, uint32_t k,
                     uint32_t n) {
  SCOPED_TRACE(std::string(normgrad_ascendc::TypeName<U>()) + " x " +
               normgrad_ascendc::TypeName<S>() + " m " + std::to_string(m) +
               " k " + std::to_string(k) + " n " + std::to_string(n));
  std::mt19937 rng = Rng();
  const Matrix a = Random(rng, ca, m, k);
  const Matrix b = Random(rng, cb, k, n);
  const uint32_t m1 = Up(m, 16), n1 = Up(n, 16), k1 = Up(k, 32);
  CubeBuffers buf({{TPosition::A2, m1 * k1 * 512},
                   {TPosition::B2, k1 * n1 * 512},
                   {TPosition::CO1, m1 * n1 * 1024}});
  LocalTensor<uint8_t> ra = buf.Get<uint8_t>(TPosition::A2);
  LocalTensor<uint8_t> rb = buf.Get<uint8_t>(TPosition::B2);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < k; ++j)
      ra.SetValue(uint32_t(NzAIndex(i, j, m1, 32)), a.code[size_t{i} * k + j]);
  for (uint32_t i = 0; i < k; ++i)
    for (uint32_t j = 0; j < n; ++j)
      rb.SetValue(uint32_t(ZnIndex(i, j, n1, 32)), b.code[size_t{i} * n + j]);
  MmadParams p;
  p.m = uint16_t(m);
  p.k = uint16_t(k);
  p.n = uint16_t(n);
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  AscendC::Mmad(c, buf.Get<U>(TPosition::A2), buf.Get<S>(TPosition::B2), p);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      double want = 0;
      for (uint32_t t = 0; t < k; ++t)
        want += a.value[size_t{i} * k + t] * b.value[size_t{t} * n + j];
      ASSERT_EQ(double(c.GetValue(uint32_t(NzOutIndex(i, j, m1)))), want)
          << "C[" << i << "][" << j << "]";
    }
  }
}

TEST_F(CubeMxTest, Float8MmadEveryPairOfItsPage) {
  CheckFloat8Mmad<fp8_e4m3fn_t, fp8_e4m3fn_t>(kE4m3, kE4m3, 40, 100, 33);
  CheckFloat8Mmad<fp8_e4m3fn_t, fp8_e5m2_t>(kE4m3, kE5m2, 17, 64, 20);
  CheckFloat8Mmad<fp8_e5m2_t, fp8_e4m3fn_t>(kE5m2, kE4m3, 32, 70, 16);
  CheckFloat8Mmad<fp8_e5m2_t, fp8_e5m2_t>(kE5m2, kE5m2, 3, 31, 5);
  CheckFloat8Mmad<hifloat8_t, hifloat8_t>(kHif8, kHif8, 30, 96, 47);
}

TEST_F(CubeMxTest, Float8MmadIsTheNineFiftysOnly) {
  normgrad_ascendc::SetProfile(Profile::kA2);
  CubeBuffers buf(
      {{TPosition::A2, 512}, {TPosition::B2, 512}, {TPosition::CO1, 1024}});
  MmadParams p;
  p.m = 16;
  p.k = 32;
  p.n = 16;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Mmad(buf.Get<float>(TPosition::CO1),
                      buf.Get<fp8_e4m3fn_t>(TPosition::A2),
                      buf.Get<fp8_e5m2_t>(TPosition::B2), p);
      },
      "Mmad<float, fp8_e4m3fn_t, fp8_e5m2_t>: not available on profile Atlas "
      "A2/A3: a fp8_e4m3fn_t fm exists on the Ascend 950 only"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::MmadMx(buf.Get<float>(TPosition::CO1),
                        buf.Get<fp8_e4m3fn_t>(TPosition::A2),
                        buf.Get<fp8_e5m2_t>(TPosition::B2), p);
      },
      "MmadMx<float, fp8_e4m3fn_t, fp8_e5m2_t>: not available on profile "
      "Atlas A2/A3: MmadMx exists on the Ascend 950 only"));
}

// ---- MmadMx
// -------------------------------------------------------------------

// Byte of scale (row, kb) (kb: K / 32 block) in an MX buffer: fractals of 16
// rows x 2 scales, k / 64 of them along K per row of fractals.
size_t ScaleAt(uint32_t row, uint32_t kb, uint32_t k) {
  return size_t{(row / 16) * (k / 64) + kb / 2} * 32 + (row % 16) * 2 + kb % 2;
}

struct Scales {
  std::vector<uint8_t> bytes;  // in the MX layout
  std::vector<double> value;   // [row][kb]
};
Scales RandomScales(std::mt19937& rng, uint32_t rows, uint32_t k) {
  Scales s{std::vector<uint8_t>(size_t{Up(rows, 16)} * (k / 64) * 32),
           std::vector<double>(size_t{rows} * (k / 32))};
  std::uniform_int_distribution<int> pick(125, 129);  // 2^-2 .. 2^2
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t kb = 0; kb < k / 32; ++kb) {
      const int e = pick(rng);
      s.bytes[ScaleAt(r, kb, k)] = uint8_t(e);
      s.value[size_t{r} * (k / 32) + kb] = std::ldexp(1.0, e - 127);
    }
  }
  return s;
}

// Σ_t (scaleA ⊗ A)[i][t] · (scaleB ⊗ B)[t][j] in float64 (exact for the
// codes and scales used here).
double MxDot(const Matrix& a, const Scales& sa, const Matrix& b,
             const Scales& sb, uint32_t i, uint32_t j, uint32_t k, uint32_t n) {
  double sum = 0;
  for (uint32_t t = 0; t < k; ++t) {
    sum += a.value[size_t{i} * k + t] *
           sa.value[size_t{i} * (k / 32) + t / 32] *
           b.value[size_t{t} * n + j] * sb.value[size_t{j} * (k / 32) + t / 32];
  }
  return sum;
}

// Loads `scales` (rows x k / 32, already in the MX layout) into `side`'s MX
// buffer at the operand's address / 16 through L1, one block move.
void LoadScales(normgrad_ascendc::MxSide side, uint32_t operand_offset,
                const Scales& scales, uint32_t rows, uint32_t k,
                CubeBuffers& buf) {
  LocalTensor<uint8_t> raw = buf.Get<uint8_t>(TPosition::A1);
  for (size_t i = 0; i < scales.bytes.size(); ++i)
    raw.SetValue(uint32_t(i), scales.bytes[i]);
  AscendC::LoadData2DMxParams p;
  p.xStep = uint8_t(Up(rows, 16));
  p.yStep = uint8_t(k / 64);
  p.srcStride = uint16_t(k / 64);
  p.dstStride = uint16_t(k / 64);
  normgrad_ascendc::RunLoadMxScales("LoadData (MX)", side, operand_offset / 16,
                                    buf.Get<fp8_e8m0_t>(TPosition::A1).view(),
                                    p);
}

template <typename U, typename S>
void CheckMmadMx(const Codes& ca, const Codes& cb, uint32_t m, uint32_t k,
                 uint32_t n, bool with_bias) {
  SCOPED_TRACE(std::string(normgrad_ascendc::TypeName<U>()) + " x " +
               normgrad_ascendc::TypeName<S>() + " m " + std::to_string(m) +
               " k " + std::to_string(k) + " n " + std::to_string(n));
  const bool fp4 =
      std::is_same_v<U, fp4x2_e2m1_t> || std::is_same_v<U, fp4x2_e1m2_t>;
  const uint32_t k0 = fp4 ? 64 : 32;
  std::mt19937 rng = Rng();
  const Matrix a = Random(rng, ca, m, k);
  const Matrix b = Random(rng, cb, k, n);
  const Scales sa = RandomScales(rng, m, k);
  const Scales sb = RandomScales(rng, n, k);
  const uint32_t m1 = Up(m, 16), n1 = Up(n, 16), k1 = k / k0;
  // A at L0A byte 1024 (its scales at L0A_MX byte 64), B at L0B byte 2048
  // (its scales at L0B_MX byte 128).
  CubeBuffers buf({{TPosition::A2, m1 * k1 * 512 + 1024},
                   {TPosition::B2, k1 * n1 * 512 + 2048},
                   {TPosition::CO1, m1 * n1 * 1024},
                   {TPosition::A1, 4096},
                   {TPosition::C2, 1024}});
  const LocalTensor<U> a_t = buf.Get<U>(TPosition::A2)[1024];
  const LocalTensor<S> b_t = buf.Get<S>(TPosition::B2)[2048];
  std::vector<uint8_t> abytes(size_t{m1} * k1 * 512),
      bbytes(size_t{k1} * n1 * 512);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < k; ++j)
      Put(abytes, NzAIndex(i, j, m1, k0), a.code[size_t{i} * k + j], fp4);
  for (uint32_t i = 0; i < k; ++i)
    for (uint32_t j = 0; j < n; ++j)
      Put(bbytes, ZnIndex(i, j, n1, k0), b.code[size_t{i} * n + j], fp4);
  LocalTensor<uint8_t> ra = buf.Get<uint8_t>(TPosition::A2);
  LocalTensor<uint8_t> rb = buf.Get<uint8_t>(TPosition::B2);
  for (size_t i = 0; i < abytes.size(); ++i)
    ra.SetValue(uint32_t(1024 + i), abytes[i]);
  for (size_t i = 0; i < bbytes.size(); ++i)
    rb.SetValue(uint32_t(2048 + i), bbytes[i]);
  LoadScales(normgrad_ascendc::MxSide::kA, 1024, sa, m, k, buf);
  LoadScales(normgrad_ascendc::MxSide::kB, 2048, sb, n, k, buf);
  LocalTensor<float> bias = buf.Get<float>(TPosition::C2);
  std::vector<double> bias_value(n, 0.0);
  for (uint32_t j = 0; j < n; ++j) {
    bias_value[j] = with_bias ? double(int(j % 7) - 3) : 0.0;
    bias.SetValue(j, float(bias_value[j]));
  }
  MmadParams p;
  p.m = uint16_t(m);
  p.k = uint16_t(k);
  p.n = uint16_t(n);
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  if (with_bias) {
    AscendC::MmadMx(c, a_t, b_t, bias, p);
  } else {
    AscendC::MmadMx(c, a_t, b_t, p);
  }
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const double want = bias_value[j] + MxDot(a, sa, b, sb, i, j, k, n);
      ASSERT_EQ(double(c.GetValue(uint32_t(NzOutIndex(i, j, m1)))), want)
          << "C[" << i << "][" << j << "]";
    }
  }
}

TEST_F(CubeMxTest, MmadMxEveryPairOfItsPage) {
  CheckMmadMx<fp8_e4m3fn_t, fp8_e4m3fn_t>(kE4m3, kE4m3, 20, 128, 18, false);
  CheckMmadMx<fp8_e4m3fn_t, fp8_e5m2_t>(kE4m3, kE5m2, 16, 64, 16, true);
  CheckMmadMx<fp8_e5m2_t, fp8_e4m3fn_t>(kE5m2, kE4m3, 33, 64, 40, false);
  CheckMmadMx<fp8_e5m2_t, fp8_e5m2_t>(kE5m2, kE5m2, 5, 192, 7, true);
  CheckMmadMx<fp4x2_e2m1_t, fp4x2_e2m1_t>(kE2m1, kE2m1, 18, 128, 20, false);
  CheckMmadMx<fp4x2_e2m1_t, fp4x2_e1m2_t>(kE2m1, kE1m2, 16, 64, 17, true);
  CheckMmadMx<fp4x2_e1m2_t, fp4x2_e2m1_t>(kE1m2, kE2m1, 31, 192, 16, false);
  CheckMmadMx<fp4x2_e1m2_t, fp4x2_e1m2_t>(kE1m2, kE1m2, 2, 64, 3, true);
}

TEST_F(CubeMxTest, ScaleMovePlacesFractalBlocks) {
  CubeBuffers buf({{TPosition::A1, 32 * 12},
                   {TPosition::A2, 1024},
                   {TPosition::B2, 1024},
                   {TPosition::CO1, 1024}});
  // Source: 3 rows of 4 fractals (srcStride 4); fractal f holds the byte f.
  LocalTensor<uint8_t> raw = buf.Get<uint8_t>(TPosition::A1);
  for (uint32_t i = 0; i < 32 * 12; ++i) raw.SetValue(i, uint8_t(i / 32));
  AscendC::LoadData2DMxParams p;
  p.xStartPosition = 1;  // from row 1
  p.yStartPosition = 1;  // fractal 1 of it: fractal 5
  p.xStep = 2;
  p.yStep = 2;
  p.srcStride = 4;
  p.dstStride = 3;
  normgrad_ascendc::RunLoadMxScales(
      "LoadData (MX)", normgrad_ascendc::MxSide::kB, 64,
      buf.Get<fp8_e8m0_t>(TPosition::A1).view(), p);
  normgrad_ascendc::MxScaleBuffers& mx =
      normgrad_ascendc::CurrentCore().mx_scales();
  // Row x, fractal y lands at 64 + (x * 3 + y) * 32 from fractal 5 + x * 4
  // + y.
  const uint32_t want[2][2] = {{5, 6}, {9, 10}};
  for (uint32_t x = 0; x < 2; ++x) {
    for (uint32_t y = 0; y < 2; ++y) {
      const uint32_t at = 64 + (x * 3 + y) * 32;
      for (uint32_t i = 0; i < 32; ++i) {
        ASSERT_EQ(mx.buffer(1)[at + i], want[x][y]) << x << ", " << y;
      }
      EXPECT_TRUE(mx.IsLoaded(1, at / 32));
    }
  }
  EXPECT_FALSE(mx.IsLoaded(1, 64 / 32 + 2));  // the gap of dstStride 3
  EXPECT_FALSE(mx.IsLoaded(0, 64 / 32));      // L0A_MX untouched
}

TEST_F(CubeMxTest, LoadDataMxMovesTheMatrixAndItsScales) {
  CubeBuffers buf({{TPosition::A1, 2048}, {TPosition::A2, 2048}});
  LocalTensor<uint8_t> raw = buf.Get<uint8_t>(TPosition::A1);
  for (uint32_t i = 0; i < 2048; ++i) raw.SetValue(i, uint8_t(i * 7 + 3));
  // The matrix: fractal columns k = 0, 1 of fractal row 0 (L1 bytes 0 and
  // 512, srcStride 1) into L0A from byte 512 on (dstStride 1). Its scales:
  // two 32-byte fractals of row 0 from L1 byte 1024 (srcStride 2).
  const AscendC::LoadData2DParamsV2 matrix(0, 0, 1, 2, 1, 1, false, 0);
  AscendC::LoadData2DMxParams scales;
  scales.xStep = 1;
  scales.yStep = 2;
  scales.srcStride = 2;
  scales.dstStride = 2;
  LocalTensor<fp8_e4m3fn_t> dst = buf.Get<fp8_e4m3fn_t>(TPosition::A2)[512];
  AscendC::LoadData(dst, buf.Get<fp8_e4m3fn_t>(TPosition::A1),
                    buf.Get<fp8_e8m0_t>(TPosition::A1)[1024], matrix, scales);
  // Fractal k lands at k x dstStride + m = k, from k x srcStride + m = k.
  LocalTensor<uint8_t> l0a_bytes = buf.Get<uint8_t>(TPosition::A2);
  for (uint32_t i = 0; i < 1024; ++i) {
    ASSERT_EQ(l0a_bytes.GetValue(512 + i), raw.GetValue(i)) << i;
  }
  // The scales land in L0A_MX from 512 / 16 = 32 on, fractal y at y x 32.
  normgrad_ascendc::MxScaleBuffers& mx =
      normgrad_ascendc::CurrentCore().mx_scales();
  for (uint32_t i = 0; i < 64; ++i) {
    ASSERT_EQ(mx.buffer(0)[32 + i], raw.GetValue(1024 + i)) << i;
  }
  EXPECT_TRUE(mx.IsLoaded(0, 1));
  EXPECT_TRUE(mx.IsLoaded(0, 2));
}

TEST_F(CubeMxTest, Rules) {
  CubeBuffers buf({{TPosition::A1, 1024},
                   {TPosition::A2, 4096},
                   {TPosition::B2, 4096},
                   {TPosition::CO1, 4096},
                   {TPosition::C1, 64}});
  const auto a = buf.Get<fp8_e4m3fn_t>(TPosition::A2);
  const auto b = buf.Get<fp8_e5m2_t>(TPosition::B2);
  const auto c = buf.Get<float>(TPosition::CO1);
  AscendC::LoadData2DMxParams lp;
  lp.xStep = 1;
  lp.yStep = 1;
  const auto load = [&](const LocalTensor<fp8_e8m0_t>& src, uint64_t addr) {
    normgrad_ascendc::RunLoadMxScales(
        "LoadData (MX)", normgrad_ascendc::MxSide::kA, addr, src.view(), lp);
  };
  EXPECT_TRUE(
      FailsWith([&] { load(buf.Get<fp8_e8m0_t>(TPosition::C1), 0); },
                "LoadData (MX): srcMx LocalTensor is at position C1; it "
                "must be at A1 or B1 (L1)"));
  EXPECT_TRUE(
      FailsWith([&] { load(buf.Get<fp8_e8m0_t>(TPosition::A1), 16); },
                "LoadData (MX): the scales go to L0A_MX byte 16, which is "
                "not a multiple of 32"));
  lp.xStep = 2;
  lp.dstStride = 64;
  EXPECT_TRUE(FailsWith([&] { load(buf.Get<fp8_e8m0_t>(TPosition::A1), 2048); },
                        "end at byte 4128, past the buffer's 4096 bytes"));
  lp.dstStride = 1;
  lp.srcStride = 32;
  EXPECT_TRUE(
      FailsWith([&] { load(buf.Get<fp8_e8m0_t>(TPosition::A1), 0); },
                "the scale fractals read reaches 1056 bytes into srcMx, past "
                "the end of its 1024 bytes"));
  lp.srcStride = 1;
  MmadParams p;
  p.m = 16;
  p.n = 16;
  p.k = 32;
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::MmadMx(c, a, b, p); },
      "MmadMx<float, fp8_e4m3fn_t, fp8_e5m2_t>: mmadParams.k 32 is not a "
      "multiple of 64"));
  p.k = 64;
  EXPECT_TRUE(FailsWith([&] { AscendC::MmadMx(c, a[512], b, p); },
                        "fm LocalTensor starts at L0A offset 512, which is "
                        "not a multiple of 1024 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::MmadMx(c, buf.Get<fp4x2_e2m1_t>(TPosition::A2)[512],
                        buf.Get<fp4x2_e2m1_t>(TPosition::B2), p);
      },
      "MmadMx<float, fp4x2_e2m1_t, fp4x2_e2m1_t>: fm's scale fractal at "
      "L0A_MX bytes 32..63 was not loaded in this block"));
  EXPECT_TRUE(FailsWith([&] { AscendC::MmadMx(c, a, b, p); },
                        "fm's scale fractal at L0A_MX bytes 0..31 was not "
                        "loaded in this block"));
  load(buf.Get<fp8_e8m0_t>(TPosition::A1), 0);  // fm's: L0A_MX fractals 0 and 1
  EXPECT_TRUE(FailsWith([&] { AscendC::MmadMx(c, a, b, p); },
                        "filter's scale fractal at L0B_MX bytes 0..31 was not "
                        "loaded in this block (LoadData's MX form, or "
                        "asc_copy_l12l0b_mx, fills it)"));
  p.cmatrixInitVal = false;
  p.cmatrixSource = true;
  EXPECT_TRUE(FailsWith([&] { AscendC::MmadMx(c, a, b, p); },
                        "mmadParams.cmatrixSource is true, but this form has "
                        "no bias tensor"));
  p.cmatrixInitVal = true;
  p.cmatrixSource = false;
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::MmadMx(c, buf.Get<fp8_e4m3fn_t>(TPosition::CO1), b, p); },
      "fm LocalTensor is at position CO1; it must be at A2 (L0A)"));
  p.k = 0;
  AscendC::MmadMx(c, a, b, p);  // a NOP: nothing checked past the operands
}

// m = 1: with GEMV on, A is one ND row of k codes; with disableGemv, row 0
// of its Nz fractals. The scales are row 0's either way. Also Mmad's bias
// form on 8-bit floats (the page's table 6).
TEST_F(CubeMxTest, MmadMxGemvAndFloat8MmadWithBias) {
  constexpr uint32_t k = 128, n = 16;
  std::mt19937 rng = Rng();
  const Matrix a = Random(rng, kE4m3, 1, k);
  const Matrix b = Random(rng, kE4m3, k, n);
  const Scales sa = RandomScales(rng, 1, k);
  const Scales sb = RandomScales(rng, n, k);
  CubeBuffers buf({{TPosition::A2, 1024 + 4 * 512},  // ND row at 0, Nz at 1024
                   {TPosition::B2, 4 * 512},
                   {TPosition::CO1, 3 * 1024},
                   {TPosition::A1, 4096},
                   {TPosition::C2, 64}});
  LocalTensor<uint8_t> ra = buf.Get<uint8_t>(TPosition::A2);
  LocalTensor<uint8_t> rb = buf.Get<uint8_t>(TPosition::B2);
  for (uint32_t t = 0; t < k; ++t) {
    ra.SetValue(t, a.code[t]);
    ra.SetValue(uint32_t(1024 + NzAIndex(0, t, 1, 32)), a.code[t]);
    for (uint32_t j = 0; j < n; ++j)
      rb.SetValue(uint32_t(ZnIndex(t, j, 1, 32)), b.code[size_t{t} * n + j]);
  }
  LoadScales(normgrad_ascendc::MxSide::kA, 0, sa, 1, k, buf);
  LoadScales(normgrad_ascendc::MxSide::kA, 1024, sa, 1, k, buf);
  LoadScales(normgrad_ascendc::MxSide::kB, 0, sb, n, k, buf);
  LocalTensor<float> bias = buf.Get<float>(TPosition::C2);
  for (uint32_t j = 0; j < n; ++j) bias.SetValue(j, float(j) - 4.0f);
  MmadParams p;
  p.m = 1;
  p.k = k;
  p.n = n;
  const LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  AscendC::MmadMx(c, buf.Get<fp8_e4m3fn_t>(TPosition::A2),
                  buf.Get<fp8_e4m3fn_t>(TPosition::B2), p);
  p.disableGemv = true;
  AscendC::MmadMx(c[256], buf.Get<fp8_e4m3fn_t>(TPosition::A2)[1024],
                  buf.Get<fp8_e4m3fn_t>(TPosition::B2), p);
  p.disableGemv = false;
  AscendC::Mmad(c[512], buf.Get<fp8_e4m3fn_t>(TPosition::A2),
                buf.Get<fp8_e4m3fn_t>(TPosition::B2), bias, p);
  for (uint32_t j = 0; j < n; ++j) {
    const double mx = MxDot(a, sa, b, sb, 0, j, k, n);
    double plain = double(j) - 4.0;
    for (uint32_t t = 0; t < k; ++t)
      plain += a.value[t] * b.value[size_t{t} * n + j];
    EXPECT_EQ(double(c.GetValue(j)), mx) << j;
    EXPECT_EQ(double(c.GetValue(256 + j)), mx) << j;
    EXPECT_EQ(double(c.GetValue(512 + j)), plain) << j;
  }
}

}  // namespace
