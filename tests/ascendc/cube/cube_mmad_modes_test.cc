// cube_mmad_modes_test.cc — Mmad's mode registers (docs/cube.md, "Mmad
// modes"): SetHF32Mode / SetHF32TransMode round float inputs to HF32 (11
// fraction bits) before the products, ties to even or away from zero, with
// values on and around the ties written out by hand; half inputs and the
// initial C are untouched; SetMMColumnMajor / SetMMRowMajor change no value.
//
// Extending: one TEST per behaviour; each starts a fresh block (modes reset).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::HF32Mode;
using AscendC::HF32TransMode;
using AscendC::LocalTensor;
using AscendC::MmadParams;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;

class MmadModesTest : public CubeCoreTest {};

// C[m][0] = a[m] · b for a 16 x 8 float A (a[m] at k = 0, the rest 0) and a
// B whose only non-zero is b at (0, 0): one fractal each.
std::vector<float> ColumnTimes(const std::vector<float>& a, float b) {
  TPipe pipe;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  pipe.InitBuffer(a2, 512);
  pipe.InitBuffer(b2, 512);
  pipe.InitBuffer(co1, 1024);
  LocalTensor<float> fm = a2.Get<float>();
  LocalTensor<float> filter = b2.Get<float>();
  LocalTensor<float> c = co1.Get<float>();
  for (uint32_t i = 0; i < 128; ++i) {
    fm.SetValue(i, 0.0f);
    filter.SetValue(i, 0.0f);
  }
  for (uint32_t m = 0; m < a.size(); ++m) fm.SetValue(m * 8, a[m]);  // Zz
  filter.SetValue(0, b);  // Zn: (k 0, n 0)
  MmadParams p;
  p.m = 16;
  p.n = 16;
  p.k = 8;
  AscendC::Mmad(c, fm, filter, p);
  std::vector<float> out(a.size());
  for (uint32_t m = 0; m < a.size(); ++m) out[m] = c.GetValue(m * 16);  // Nz
  return out;
}

const float kTie = 1.0f + std::ldexp(1.0f, -12);         // halfway, LSB 0
const float kOddTie = 1.0f + 3 * std::ldexp(1.0f, -12);  // halfway, LSB 1
const float kAbove = 1.0f + std::ldexp(1.0f, -12) + std::ldexp(1.0f, -20);
const float kBelow = 1.0f + std::ldexp(1.0f, -12) - std::ldexp(1.0f, -20);
const float kKept = 1.0f + std::ldexp(1.0f, -11);  // exact in HF32

TEST_F(MmadModesTest, Hf32RoundsFloatInputsTiesToEven) {
  const std::vector<float> a = {kTie, kOddTie, kAbove, kBelow, -kTie, kKept};
  // Off (the block's start): the products are the inputs.
  EXPECT_EQ(ColumnTimes(a, 1.0f), a);
  AscendC::SetHF32Mode(HF32Mode::ENABLE);
  const std::vector<float> even = {
      1.0f, 1.0f + std::ldexp(1.0f, -10), kKept, 1.0f, -1.0f, kKept};
  EXPECT_EQ(ColumnTimes(a, 1.0f), even);
  // b is rounded too: kKept · kKept = 1 + 2^-10 + 2^-22, exact in float.
  EXPECT_EQ(ColumnTimes({kKept}, kKept + std::ldexp(1.0f, -14))[0],
            1.0f + std::ldexp(1.0f, -10) + std::ldexp(1.0f, -22));
}

TEST_F(MmadModesTest, Hf32NearestZeroRoundsTiesAwayFromZero) {
  AscendC::SetHF32Mode(HF32Mode::ENABLE);
  AscendC::SetHF32TransMode(HF32TransMode::NEAREST_ZERO);
  const std::vector<float> a = {kTie, kOddTie, kAbove, kBelow, -kTie};
  const std::vector<float> away = {kKept, 1.0f + std::ldexp(1.0f, -10), kKept,
                                   1.0f, -kKept};
  EXPECT_EQ(ColumnTimes(a, 1.0f), away);
  // Back to ties to even, then off.
  AscendC::SetHF32TransMode(HF32TransMode::NEAREST_EVEN);
  EXPECT_EQ(ColumnTimes({kTie}, 1.0f)[0], 1.0f);
  AscendC::SetHF32Mode(HF32Mode::DISABLE);
  EXPECT_EQ(ColumnTimes({kTie}, 1.0f)[0], kTie);
}

TEST_F(MmadModesTest, Hf32KeepsInfAndNaNAndCarriesIntoTheExponent) {
  AscendC::SetHF32Mode(HF32Mode::ENABLE);
  const float largest = std::numeric_limits<float>::max();
  const std::vector<float> c =
      ColumnTimes({INFINITY, NAN, largest, 2.0f - std::ldexp(1.0f, -20)}, 1.0f);
  EXPECT_EQ(c[0], INFINITY);
  EXPECT_TRUE(std::isnan(c[1]));
  EXPECT_EQ(c[2], INFINITY);  // rounds past the largest finite value
  EXPECT_EQ(c[3], 2.0f);
}

TEST_F(MmadModesTest, Hf32LeavesHalfInputsAndRowColumnMajorChangeNothing) {
  TPipe pipe;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  pipe.InitBuffer(a2, 2048);
  pipe.InitBuffer(b2, 2048);
  pipe.InitBuffer(co1, 4096);
  LocalTensor<half> fm = a2.Get<half>();
  LocalTensor<half> filter = b2.Get<half>();
  LocalTensor<float> c = co1.Get<float>();
  for (uint32_t i = 0; i < 1024; ++i) {
    fm.SetValue(i, half(1.0f + float(i % 37) / 1024.0f));
    filter.SetValue(i, half(float(int(i % 11) - 5) / 8.0f));
  }
  MmadParams p;
  p.m = 32;
  p.n = 32;
  p.k = 32;
  const auto run = [&] {
    AscendC::Mmad(c, fm, filter, p);
    std::vector<float> out(1024);
    for (uint32_t i = 0; i < 1024; ++i) out[i] = c.GetValue(i);
    return out;
  };
  const std::vector<float> plain = run();
  AscendC::SetHF32Mode(HF32Mode::ENABLE);
  EXPECT_EQ(run(), plain);
  AscendC::SetMMColumnMajor();
  EXPECT_EQ(run(), plain);
  AscendC::SetMMRowMajor();
  EXPECT_EQ(run(), plain);
}

// Random float inputs: the HF32 product stays within numerics.md's bound
// (K · u + 2 u_h + u_h²) · Σ|a·b| of the exact product of the float inputs,
// and is not the plain float result (the rounding shows).
TEST_F(MmadModesTest, Hf32RandomStaysWithinTheDerivedBound) {
  const uint32_t m = 16, n = 16, k = 64;
  TPipe pipe;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  pipe.InitBuffer(a2, m * k * 4);
  pipe.InitBuffer(b2, k * n * 4);
  pipe.InitBuffer(co1, m * n * 4);
  LocalTensor<float> fm = a2.Get<float>();
  LocalTensor<float> filter = b2.Get<float>();
  LocalTensor<float> c = co1.Get<float>();
  uint32_t seed = 2032;
  const auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return float(int32_t(seed >> 8) - (1 << 23)) / float(1 << 22);
  };
  std::vector<float> a(m * k), b(k * n);
  for (float& v : a) v = next();
  for (float& v : b) v = next();
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t i = 0; i < k; ++i) {
      fm.SetValue((i / 8) * 128 + r * 8 + i % 8, a[r * k + i]);  // Zz, m1 = 1
    }
  }
  for (uint32_t i = 0; i < k; ++i) {
    for (uint32_t col = 0; col < n; ++col) {
      filter.SetValue((i / 8) * 128 + col * 8 + i % 8, b[i * n + col]);  // Zn
    }
  }
  MmadParams p;
  p.m = m;
  p.n = n;
  p.k = k;
  AscendC::SetHF32Mode(HF32Mode::ENABLE);
  AscendC::Mmad(c, fm, filter, p);
  const double u = std::ldexp(1.0, -24), uh = std::ldexp(1.0, -12);
  bool differs = false;
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      double exact = 0, magnitude = 0, plain = 0;
      for (uint32_t i = 0; i < k; ++i) {
        const double t = double(a[r * k + i]) * double(b[i * n + col]);
        exact += t;
        magnitude += std::fabs(t);
        plain = float(plain + float(t));
      }
      const double got = c.GetValue(r * 16 + col);
      EXPECT_LE(std::fabs(got - exact), (k * u + 2 * uh + uh * uh) * magnitude)
          << r << ", " << col;
      differs = differs || got != plain;
    }
  }
  EXPECT_TRUE(differs);
}

}  // namespace

// ---- CTRL[48]: the FLOAT saturation mode (SetOverflow(0) on the pages)

TEST_F(MmadModesTest, SetOverflowZeroSaturatesMmadsInfAndNaN) {
  const float big = std::ldexp(1.0f, 100);  // big · big overflows float
  const float inf = std::numeric_limits<float>::infinity();
  const float max = std::numeric_limits<float>::max();
  // IEEE by default (CTRL[48] = 1): inf and NaN stay.
  std::vector<float> c = ColumnTimes({big, -big, 3.0f}, big);
  EXPECT_EQ(c[0], inf);
  EXPECT_EQ(c[1], -inf);
  EXPECT_TRUE(std::isnan(ColumnTimes({inf}, 0.0f)[0]));  // inf · 0
  AscendC::AscendCUtils::SetOverflow(0);
  c = ColumnTimes({big, -big, 3.0f}, big);
  EXPECT_EQ(c[0], max);
  EXPECT_EQ(c[1], -max);
  EXPECT_EQ(c[2], 3.0f * big);  // finite results are untouched
  const float nan_result = ColumnTimes({inf}, 0.0f)[0];
  EXPECT_EQ(nan_result, 0.0f);
  EXPECT_FALSE(std::signbit(nan_result));
  AscendC::AscendCUtils::SetOverflow(1);  // back to IEEE
  EXPECT_EQ(ColumnTimes({big}, big)[0], inf);
}

TEST_F(MmadModesTest, SetOverflowZeroSaturatesFixpipesFloatingOutputs) {
  TPipe pipe;
  TBuf<TPosition::CO1> co1;
  pipe.InitBuffer(co1, 1024);
  LocalTensor<float> c = co1.Get<float>();
  const float inf = std::numeric_limits<float>::infinity();
  // Row 0 of one fractal: 1e6 (overflows half), inf, NaN, -1e6 and a value
  // every output keeps.
  const float row[] = {1e6f, inf, std::nanf(""), -1e6f, 2.5f};
  for (uint32_t i = 0; i < 256; ++i) c.SetValue(i, 0.0f);
  for (uint32_t col = 0; col < 5; ++col) c.SetValue(col, row[col]);
  AscendC::FixpipeParamsV220 p;
  p.mSize = 1;
  p.nSize = 16;
  p.srcStride = 16;
  p.dstStride = 16;
  std::vector<half> h(16);
  std::vector<bfloat16_t> bf(16);
  std::vector<float> f(16);
  AscendC::GlobalTensor<half> gh;
  AscendC::GlobalTensor<bfloat16_t> gbf;
  AscendC::GlobalTensor<float> gf;
  gh.SetGlobalBuffer(h.data(), h.size());
  gbf.SetGlobalBuffer(bf.data(), bf.size());
  gf.SetGlobalBuffer(f.data(), f.size());
  const auto run = [&] {
    p.quantPre = AscendC::F322F16;
    AscendC::Fixpipe(gh, c, p);
    p.quantPre = AscendC::F322BF16;
    AscendC::Fixpipe(gbf, c, p);
    p.quantPre = AscendC::NoQuant;
    AscendC::Fixpipe(gf, c, p);
  };
  run();  // IEEE
  EXPECT_EQ(float(h[0]), inf);
  EXPECT_TRUE(std::isnan(float(h[2])));
  EXPECT_EQ(float(bf[1]), inf);
  EXPECT_EQ(f[1], inf);
  AscendC::AscendCUtils::SetOverflow(0);
  run();
  EXPECT_EQ(float(h[0]), 65504.0f);
  EXPECT_EQ(float(h[1]), 65504.0f);
  EXPECT_EQ(float(h[2]), 0.0f);
  EXPECT_EQ(float(h[3]), -65504.0f);
  EXPECT_EQ(float(h[4]), 2.5f);
  const float bf_max = std::ldexp(float(0xFF), 120);  // 0x7F7F
  EXPECT_EQ(float(bf[1]), bf_max);
  EXPECT_EQ(float(bf[2]), 0.0f);
  EXPECT_EQ(f[1], std::numeric_limits<float>::max());
  EXPECT_EQ(f[2], 0.0f);
  EXPECT_EQ(f[0], 1e6f);
  AscendC::AscendCUtils::SetOverflow(1);
}
