// cube_out_950_test.cc — the Ascend 950's Fixpipe with FixpipeParamsArch3510
// (docs/cube.md, "The Ascend 950: out of L0C, and UB ↔ L1"): NZ2ND, NZ2NZ
// and NZ2DN into GM and L1, the casts and quantization it shares with the
// Atlas A2/A3 Fixpipe, the quantization modes the 950 added (each against
// the page's formula on exactly representable values, and the roundings'
// edges), L0C → UB into one vector core's UB or both (the
// dual-destination mode split by rows or by columns) in mixed kernels, and
// each rule's message. Part of compat_cube_test.
//
// Extending: one TEST per behaviour; each reference places element (m, n)
// by the pages' formulas (the NZ2DN page's walk, the element units of
// FixpipeParamsArch3510's strides), never by the code under test. The
// GM / L1 tests run on the calling thread's core made a cube core by the
// fixture (Cube950Test), on the 950 profile; the UB tests launch mixed
// kernels. Every test takes its cube buffers from cube_test::CubeBuffers
// (cube_core_test.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using namespace AscendC;  // NOLINT: kernels are written this way
using compat_test::FailsWith;
using compat_test::ProfileScope;
using cube_test::CubeBuffers;
using normgrad_ascendc::KernelErrorPolicy;
using normgrad_ascendc::LaunchKernel;
using normgrad_ascendc::Profile;

constexpr FixpipeConfig kToUbNd{CO2Layout::ROW_MAJOR, true};
constexpr FixpipeConfig kToUbNz{CO2Layout::NZ, true};
constexpr FixpipeConfig kToUbDn{CO2Layout::COLUMN_MAJOR, true};

// Distinct, exactly representable values (a half holds them too).
float Value(uint32_t r, uint32_t c) { return float(r * 64 + c + 1); }

// An output in GM starts at a 32-byte boundary.
struct alignas(32) GmFloats {
  float v[8192];
};

// The L0C bytes FillL0c's matrices take, in whole KiB.
uint32_t L0cBytes(uint32_t n, uint32_t rows, uint32_t matrices = 1,
                  uint32_t matrix_stride = 0) {
  const uint32_t bytes =
      ((matrices - 1) * matrix_stride + (n + 15) / 16 * rows * 16) * 4;
  return (bytes + 1023) / 1024 * 1024;
}

// L0C (Nz: 16 x 16 fractals of 4-byte values, column block b at b x
// `rows` x 16 values) holding Value(r, c) for r < m, c < n, `matrices`
// matrices `matrix_stride` values apart (each Value + 1000 x its index), in
// the CO1 buffer of `buf` (L0cBytes of them).
LocalTensor<float> FillL0c(const CubeBuffers& buf, uint32_t m, uint32_t n,
                           uint32_t rows, uint32_t matrices = 1,
                           uint32_t matrix_stride = 0) {
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  for (uint32_t i = 0; i < matrices; ++i) {
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t col = 0; col < n; ++col)
        c.SetValue(
            i * matrix_stride + (col / 16) * rows * 16 + r * 16 + col % 16,
            Value(r, col) + 1000.0f * float(i));
    }
  }
  return c;
}

using CubeOut950Test = Cube950Test;

// ---- Into GM ---------------------------------------------------------------

// NZ2ND: element (m, n) of matrix i at i x dstNdStride + m x dstStride + n;
// matrix i of L0C srcNdStride x 16 values after matrix i - 1.
TEST_F(CubeOut950Test, Nz2NdIntoGmPlacesRowsAndMatrices) {
  const uint32_t m = 20, n = 32, rows = 32, nd = 2, src_nd = 96;
  const uint32_t dst_stride = 40, dst_nd = 900;
  const CubeBuffers buf({{TPosition::CO1, L0cBytes(n, rows, nd, src_nd * 16)}});
  LocalTensor<float> c = FillL0c(buf, m, n, rows, nd, src_nd * 16);
  const auto out = std::make_unique<GmFloats>();
  std::fill(out->v, out->v + 2048, -1.0f);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out->v, 2048);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = rows;
  p.dstStride = dst_stride;
  p.params.ndNum = nd;
  p.params.srcNdStride = src_nd;
  p.params.dstNdStride = dst_nd;
  Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p);
  std::vector<float> want(2048, -1.0f);
  for (uint32_t i = 0; i < nd; ++i) {
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t col = 0; col < n; ++col)
        want[i * dst_nd + r * dst_stride + col] =
            Value(r, col) + 1000.0f * float(i);
    }
  }
  for (size_t k = 0; k < want.size(); ++k) ASSERT_EQ(out->v[k], want[k]) << k;
}

// NZ2DN, as the page's walk gives it: column n of matrix h goes to row n
// of the DN output (h x dstDnMatrixStride + n x dstStride), its element m
// read from m x srcNzC0Stride x 16 values into the column block.
TEST_F(CubeOut950Test, Nz2DnIntoGmFollowsThePagesWalk) {
  const uint32_t m = 24, n = 32, c0_stride = 2, rows = 48, dn = 2;
  const uint32_t src_matrix = 240, dst_stride = 30, dst_matrix = 1000;
  const CubeBuffers buf({{TPosition::CO1, 64 * 1024}});
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  // Every L0C value distinct: the walk's reads are told apart.
  for (uint32_t k = 0; k < 16384; ++k) c.SetValue(k, float(k));
  const auto out = std::make_unique<GmFloats>();
  std::fill(out->v, out->v + 4096, -1.0f);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out->v, 4096);
  FixpipeParamsArch3510<CO2Layout::COLUMN_MAJOR> p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = rows;
  p.dstStride = dst_stride;
  p.params.dnNum = dn;
  p.params.srcNzMatrixStride = src_matrix;
  p.params.dstDnMatrixStride = dst_matrix;
  p.params.srcNzC0Stride = c0_stride;
  Fixpipe<float, float, CFG_COLUMN_MAJOR>(g, c, p);
  std::vector<float> want(4096, -1.0f);
  for (uint32_t h = 0; h < dn; ++h) {
    const uint32_t src3 = h * 16 * src_matrix;
    const uint32_t dst3 = h * dst_matrix;
    for (uint32_t i = 0; i < (n + 15) / 16; ++i) {
      const uint32_t src2 = src3 + i * 16 * rows;
      const uint32_t dst2 = dst3 + i * 16 * dst_stride;
      for (uint32_t j = 0; j < 16 && i * 16 + j < n; ++j) {
        for (uint32_t k = 0; k < m; ++k)
          want[dst2 + j * dst_stride + k] =
              float(src2 + j + k * 16 * c0_stride);
      }
    }
  }
  for (size_t k = 0; k < want.size(); ++k) ASSERT_EQ(out->v[k], want[k]) << k;
}

// NZ2NZ: dstStride counts elements on the 950 (32-byte units on A2).
TEST_F(CubeOut950Test, NzIntoGmCountsDstStrideInElements) {
  const uint32_t m = 20, n = 32, rows = 32, dst_stride = 336;
  const CubeBuffers buf({{TPosition::CO1, L0cBytes(n, rows)}});
  LocalTensor<float> c = FillL0c(buf, m, n, rows);
  const auto out = std::make_unique<GmFloats>();
  std::fill(out->v, out->v + 1024, -1.0f);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out->v, 1024);
  FixpipeParamsArch3510<CO2Layout::NZ> p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = rows;
  p.dstStride = dst_stride;
  Fixpipe<float, float, CFG_NZ>(g, c, p);
  std::vector<float> want(1024, -1.0f);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      want[(col / 16) * dst_stride + r * 16 + col % 16] = Value(r, col);
  }
  for (size_t k = 0; k < want.size(); ++k) ASSERT_EQ(out->v[k], want[k]) << k;
}

// ---- Into L1, with a conversion
// ----------------------------------------------

// F322F16 into L1 as ND (the 950 adds ND and DN outputs to the L1 path);
// ReLU first: the negative values become 0.
TEST_F(CubeOut950Test, CastWithReluIntoL1AsNd) {
  const uint32_t m = 16, n = 32, rows = 16;
  const CubeBuffers buf({{TPosition::CO1, 2048}, {TPosition::A1, 1024}});
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      c.SetValue((col / 16) * rows * 16 + r * 16 + col % 16,
                 (col % 2 == 0 ? 1.0f : -1.0f) * Value(r, col));
  }
  LocalTensor<half> d = buf.Get<half>(TPosition::A1);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = rows;
  p.dstStride = n;
  p.quantPre = F322F16;
  p.reluEn = true;
  Fixpipe<half, float, CFG_ROW_MAJOR>(d, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const float want = col % 2 == 0 ? Value(r, col) : 0.0f;
      ASSERT_EQ(static_cast<float>(d.GetValue(r * n + col)), want)
          << r << "," << col;
    }
  }
}

// DEQF16 (int32_t -> half with the scalar parameter): the A2 quantization,
// here through FixpipeParamsArch3510.
TEST_F(CubeOut950Test, ScalarDequantizationIntoGm) {
  const uint32_t m = 16, n = 16;
  const CubeBuffers buf({{TPosition::CO1, 1024}});
  LocalTensor<int32_t> c = buf.Get<int32_t>(TPosition::CO1);
  for (uint32_t k = 0; k < 256; ++k) c.SetValue(k, int32_t(k) - 128);
  alignas(32) static half out[256];
  GlobalTensor<half> g;
  g.SetGlobalBuffer(out, 256);
  const float scale = 0.5f;
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = 16;
  p.dstStride = n;
  p.quantPre = DEQF16;
  p.deqScalar = bits;
  Fixpipe<half, int32_t, CFG_ROW_MAJOR>(g, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      ASSERT_EQ(static_cast<float>(out[r * n + col]),
                0.5f * float(int32_t(r * 16 + col) - 128));
  }
}

// ---- The 950's added quantization modes ------------------------------------

// A QUANT_PRE parameter holding `scale` in bits 0..31 (its low 13 bits are
// dropped by the device), with the other fields 0 unless `extra` sets them.
uint64_t QuantBits(float scale, uint64_t extra = 0) {
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  return bits | extra;
}

// L0C values of the quantization tests: the integers -15 .. 15 (one of each
// sign per column pair), which times a scale 2^-k (k 0 .. 3) every output
// type holds exactly (four significant bits, exponents -3 .. 3).
float QuantInput(uint32_t r, uint32_t c) {
  return float(int32_t((r * 32 + c) % 31) - 15);
}
float ColumnScale(uint32_t c) { return std::ldexp(1.0f, -int(c % 4)); }

// One float-input mode into GM (ND, 16 x 32), with the scalar parameter
// 0.5 or (`vector`) ColumnScale per column from cbufWorkspace, with or
// without ReLU; checks each element against the page's formula, x x M1 for
// x >= 0 and x x M2 (M1, or 0 under ReLU) otherwise, exact here.
template <typename T>
void CheckFloatMode(QuantMode_t mode, bool vector, bool relu) {
  SCOPED_TRACE(std::string("mode ") + std::to_string(int(mode)) +
               (vector ? " vector" : " scalar") + (relu ? " relu" : ""));
  const uint32_t m = 16, n = 32;
  const CubeBuffers buf({{TPosition::CO1, 4096}, {TPosition::C1, n * 8}});
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      c.SetValue((col / 16) * m * 16 + r * 16 + col % 16, QuantInput(r, col));
  }
  LocalTensor<uint64_t> w = buf.Get<uint64_t>(TPosition::C1);
  for (uint32_t col = 0; col < n; ++col)
    w.SetValue(col, QuantBits(ColumnScale(col)));
  alignas(32) static uint8_t out[m * n * 4];
  std::memset(out, 0xA5, sizeof out);
  GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<T*>(out), m * n);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = m;
  p.dstStride = n;
  p.quantPre = mode;
  p.reluEn = relu;
  if (vector) {
    Fixpipe<T, float, CFG_ROW_MAJOR>(g, c, w, p);
  } else {
    p.deqScalar = QuantBits(0.5f);
    Fixpipe<T, float, CFG_ROW_MAJOR>(g, c, p);
  }
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const float x = QuantInput(r, col);
      const float scale = vector ? ColumnScale(col) : 0.5f;
      const float want = relu && x < 0 ? 0.0f : x * scale;
      T got;
      std::memcpy(&got, out + (r * n + col) * sizeof(T), sizeof(T));
      ASSERT_EQ(static_cast<float>(got), want) << r << "," << col;
    }
  }
}

TEST_F(CubeOut950Test, FloatQuantModesScaleEachValue) {
  for (const bool vector : {false, true}) {
    for (const bool relu : {false, true}) {
      CheckFloatMode<fp8_e4m3fn_t>(vector ? VQF322FP8_PRE : QF322FP8_PRE,
                                   vector, relu);
      CheckFloatMode<hifloat8_t>(vector ? VQF322HIF8_PRE : QF322HIF8_PRE,
                                 vector, relu);
      CheckFloatMode<hifloat8_t>(
          vector ? VQF322HIF8_PRE_HYBRID : QF322HIF8_PRE_HYBRID, vector, relu);
      CheckFloatMode<half>(vector ? VQF322F16_PRE : QF322F16_PRE, vector, relu);
      CheckFloatMode<bfloat16_t>(vector ? VQF322BF16_PRE : QF322BF16_PRE,
                                 vector, relu);
      CheckFloatMode<float>(vector ? VQF322F32_PRE : QF322F32_PRE, vector,
                            relu);
    }
  }
}

// One float-input mode on a single 16 x 16 block whose row 0 holds
// `inputs` (the rest 0), scalar parameter `bits`; returns row 0's outputs
// as floats.
template <typename T>
std::vector<float> RowThrough(QuantMode_t mode, uint64_t bits,
                              const std::vector<float>& inputs) {
  const CubeBuffers buf({{TPosition::CO1, 1024}});
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  for (uint32_t k = 0; k < 256; ++k)
    c.SetValue(k, k < inputs.size() ? inputs[k] : 0.0f);
  alignas(32) static uint8_t out[256 * 4];
  GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<T*>(out), 256);
  FixpipeParamsArch3510<CO2Layout::NZ> p;
  p.mSize = 16;
  p.nSize = 16;
  p.srcStride = 16;
  p.dstStride = 16 * 32;  // one 16 x 32 fractal of 1-byte outputs
  p.quantPre = mode;
  p.deqScalar = bits;
  Fixpipe<T, float, CFG_NZ>(g, c, p);
  std::vector<float> row;
  for (size_t k = 0; k < inputs.size(); ++k) {
    T v;
    std::memcpy(&v, out + k * sizeof(T), sizeof(T));
    row.push_back(static_cast<float>(v));
  }
  return row;
}

// The roundings the pages name: fp8_e4m3fn_t to the nearest, ties to even,
// NaN past 448 (it has no infinity); hifloat8_t half away from zero, or
// hybrid, which rounds up when the dropped bits reach the float's own low 14
// bits (17 = 16 + a quarter step, low bits 0: up to 20); infinity past
// 32768. Each input is twice the value: the scale is 0.5.
TEST_F(CubeOut950Test, EightBitFloatModesRoundAsTheirPagesSay) {
  const uint64_t half_scale = QuantBits(0.5f);
  const std::vector<float> fp8 =
      RowThrough<fp8_e4m3fn_t>(QF322FP8_PRE, half_scale,
                               {2 * 2.625f, 2 * 2.875f, 2 * 464.0f, 2 * 465.0f,
                                -2 * 1e6f, 2 * 0.001953125f});
  EXPECT_EQ(fp8[0], 2.5f);
  EXPECT_EQ(fp8[1], 3.0f);
  EXPECT_EQ(fp8[2], 448.0f);
  EXPECT_TRUE(std::isnan(fp8[3]));
  EXPECT_TRUE(std::isnan(fp8[4]));
  EXPECT_EQ(fp8[5], 0.001953125f);  // 2^-9, the smallest subnormal
  const std::vector<float> in = {2 * 17.0f, 2 * 18.0f, 2 * 1.0625f,
                                 2 * 40960.0f, 2 * -17.0f};
  const std::vector<float> away =
      RowThrough<hifloat8_t>(QF322HIF8_PRE, half_scale, in);
  EXPECT_EQ(away[0], 16.0f);
  EXPECT_EQ(away[1], 20.0f);
  EXPECT_EQ(away[2], 1.125f);
  EXPECT_TRUE(std::isinf(away[3]));
  EXPECT_EQ(away[4], -16.0f);
  const std::vector<float> hybrid =
      RowThrough<hifloat8_t>(QF322HIF8_PRE_HYBRID, half_scale, in);
  EXPECT_EQ(hybrid[0], 20.0f);
  EXPECT_EQ(hybrid[1], 20.0f);
  EXPECT_EQ(hybrid[2], 1.125f);
  EXPECT_TRUE(std::isinf(hybrid[3]));
  EXPECT_EQ(hybrid[4], -20.0f);
}

// The scale keeps its top 10 mantissa bits (QF322F32_PRE included), and the
// 950's parameter has no shift, offset or sign for these modes: bits 32..46
// set change nothing.
TEST_F(CubeOut950Test, QuantParameterOnThe950) {
  const uint64_t all_fields = 0x7FFFull << 32;
  const std::vector<float> f32 = RowThrough<float>(
      QF322F32_PRE, QuantBits(1.0f + std::ldexp(1.0f, -11), all_fields),
      {3.0f, -1.0f});
  EXPECT_EQ(f32[0], 3.0f);
  EXPECT_EQ(f32[1], -1.0f);
  const std::vector<float> f16 = RowThrough<half>(
      QF322F16_PRE, QuantBits(1.0f + std::ldexp(1.0f, -10), all_fields),
      {1024.0f});
  EXPECT_EQ(f16[0], 1025.0f);
}

// QS322BF16_PRE: int32_t made float, times the scale, rounded to
// bfloat16_t (ties to even: 257 -> 256, 259 -> 260); REQ8 on the 950 does
// not shift by N even with the MCB bit set (those bits are unused there).
TEST_F(CubeOut950Test, Int32QuantModesOnThe950) {
  // L0C: the first 1 KiB for the 16 x 16 block, the next 2 KiB for REQ8's
  // 16 x 32.
  const CubeBuffers buf({{TPosition::CO1, 3072}, {TPosition::C1, 16 * 8}});
  LocalTensor<int32_t> c = buf.Get<int32_t>(TPosition::CO1);
  const int32_t inputs[] = {257, 259, -6, 100, 40, -300};
  for (uint32_t k = 0; k < 256; ++k) c.SetValue(k, k < 6 ? inputs[k] : 0);
  alignas(32) static bfloat16_t out[256];
  GlobalTensor<bfloat16_t> g;
  g.SetGlobalBuffer(out, 256);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
  p.mSize = 16;
  p.nSize = 16;
  p.srcStride = 16;
  p.dstStride = 16;
  p.quantPre = QS322BF16_PRE;
  p.deqScalar = QuantBits(1.0f);
  Fixpipe<bfloat16_t, int32_t, CFG_ROW_MAJOR>(g, c, p);
  const float want[] = {256.0f, 260.0f, -6.0f, 100.0f, 40.0f, -300.0f};
  for (uint32_t k = 0; k < 6; ++k)
    EXPECT_EQ(static_cast<float>(out[k]), want[k]) << k;
  // Per column, with ReLU: column k scaled by 2^-k, negatives to 0 (129.5
  // is the tie between 129 and 130).
  LocalTensor<uint64_t> w = buf.Get<uint64_t>(TPosition::C1);
  for (uint32_t k = 0; k < 16; ++k)
    w.SetValue(k, QuantBits(std::ldexp(1.0f, -int(k))));
  p.quantPre = VQS322BF16_PRE;
  p.reluEn = true;
  Fixpipe<bfloat16_t, int32_t, CFG_ROW_MAJOR>(g, c, w, p);
  const float want_v[] = {256.0f, 130.0f, 0.0f, 12.5f, 2.5f, 0.0f};
  for (uint32_t k = 0; k < 6; ++k)
    EXPECT_EQ(static_cast<float>(out[k]), want_v[k]) << k;
  // REQ8 with N = 16 and MCB set: on the 950 the value is not shifted.
  alignas(32) static int8_t out8[512];
  GlobalTensor<int8_t> g8;
  g8.SetGlobalBuffer(out8, 512);
  p.quantPre = REQ8;
  p.reluEn = false;
  p.dstStride = 32;
  p.nSize = 32;
  p.srcStride = 16;
  LocalTensor<int32_t> c2 = c[256];
  for (uint32_t k = 0; k < 512; ++k) c2.SetValue(k, k == 0 ? 100 : 0);
  p.deqScalar = QuantBits(1.0f, 0xFull << 32 | 1ull << 36 | 1ull << 46);
  Fixpipe<int8_t, int32_t, CFG_ROW_MAJOR>(g8, c2, p);
  EXPECT_EQ(out8[0], 100);
}

// ---- The rules -------------------------------------------------------------

TEST_F(CubeCoreTest, Arch3510FormsAreTheAscend950s) {
  const CubeBuffers buf({{TPosition::CO1, 1024}});
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  alignas(32) static float out[256];
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out, 256);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
  p.mSize = 16;
  p.nSize = 16;
  p.srcStride = 16;
  p.dstStride = 16;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "Fixpipe<float, float> L0C->GM "
                        "(FixpipeParamsArch3510): not available on profile "
                        "Atlas A2/A3: FixpipeParamsArch3510 is the Ascend "
                        "950's"));
}

TEST_F(CubeOut950Test, ParameterRules) {
  const CubeBuffers buf({{TPosition::CO1, 4096}, {TPosition::A1, 8192}});
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  LocalTensor<float> d = buf.Get<float>(TPosition::A1);
  LocalTensor<int8_t> d8 = buf.Get<int8_t>(TPosition::A1);
  const auto out = std::make_unique<GmFloats>();
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out->v, 8192);
  const auto nd = [] {
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
    p.mSize = 16;
    p.nSize = 32;
    p.srcStride = 16;
    p.dstStride = 32;
    return p;
  };
  const auto dn = [] {
    FixpipeParamsArch3510<CO2Layout::COLUMN_MAJOR> p;
    p.mSize = 16;
    p.nSize = 16;
    p.srcStride = 16;
    p.dstStride = 16;
    p.params.srcNzC0Stride = 1;
    return p;
  };
  auto p = nd();
  p.nSize = 24;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "intriParams.nSize 24 is not a multiple of 16"));
  p = nd();
  p.nSize = 4096;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "intriParams.nSize 4096 is out of range [0, 4095]"));
  p = nd();
  p.unitFlag = 1;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "intriParams.unitFlag 1 is not 0, 2 or 3"));
  p = nd();
  p.dstStride = 31;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "intriParams.dstStride 31 is less than 32 (nSize"));
  p = nd();
  p.params.ndNum = 2;
  p.params.dstNdStride = 100;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "intriParams.params.dstNdStride 100 is less than one "
                        "ND matrix (512 elements)"));
  p = nd();
  p.dualDstCtrl = 1;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
      "intriParams.dualDstCtrl 1; the dual-destination mode is the L0C -> "
      "UB path's only"));
  p = nd();
  p.dualDstCtrl = 3;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "intriParams.dualDstCtrl 3 is out of range [0, 2]"));
  p = nd();
  p.subBlockId = 2;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "intriParams.subBlockId 2 is out of range [0, 1]"));
  p = nd();
  p.isChannelSplit = true;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "intriParams.isChannelSplit does not combine with "
                        "NZ2ND"));
  p = nd();
  p.nSize = 16;
  p.dstStride = 16;
  p.quantPre = QF322B8_PRE;
  p.deqScalar = 0x3F800000ull | 1ull << 46;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe<int8_t, float, CFG_ROW_MAJOR>(d8, c, p); },
                "intriParams.nSize 16 x 1 bytes is not a multiple of 32 bytes "
                "(NZ2ND)"));
  p = nd();
  p.quantPre = F322F16;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p); },
                        "intriParams.quantPre F322F16 does not turn float "
                        "into float"));
  auto q = dn();
  q.params.srcNzC0Stride = 0;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe<float, float, CFG_COLUMN_MAJOR>(g, c, q); },
                "intriParams.params.srcNzC0Stride is 0; NZ2DN needs it >= 1"));
  q = dn();
  q.params.srcNzC0Stride = 2;
  q.unitFlag = 2;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<float, float, CFG_COLUMN_MAJOR>(g, c, q); },
      "intriParams.params.srcNzC0Stride 2 with unitFlag 2; NZ2DN with a "
      "srcNzC0Stride other than 1 does not combine with unitFlag"));
  q = dn();
  q.mSize = 12;
  q.quantPre = QF322B8_PRE;
  q.deqScalar = 0x3F800000ull | 1ull << 46;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe<int8_t, float, CFG_COLUMN_MAJOR>(d8, c, q); },
                "intriParams.mSize 12 x 1 bytes is not a multiple of 32 bytes "
                "(NZ2DN)"));
  q = dn();
  q.dstStride = 15;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<float, float, CFG_COLUMN_MAJOR>(g, c, q); },
      "intriParams.dstStride 15 is less than 16 (mSize, the elements of a "
      "DN row)"));
  FixpipeParamsArch3510<CO2Layout::NZ> z;
  z.mSize = 16;
  z.nSize = 16;
  z.srcStride = 16;
  z.dstStride = 256;
  z.isChannelSplit = true;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_NZ>(d, c, z); },
                        "intriParams.isChannelSplit is true; F32 Channel "
                        "Split takes effect on the L0C -> GM path only"));
  z.isChannelSplit = false;
  z.nSize = 32;
  z.srcStride = 512;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_NZ>(g, c, z); },
                        "the NZ matrices reaches"));
  // A UB destination outside a mixed kernel: no vector core to write to.
  LocalTensor<float> ub(TPosition::VECOUT, 0, 1024);
  p = nd();
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, kToUbNd>(ub, c, p); },
                        "the destination is the UB of a vector core of this "
                        "AI Core, but the kernel runs no vector cores"));
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, kToUbNd>(d, c, p); },
                        "dst LocalTensor is at position A1; it must be at "
                        "VECIN, VECOUT or VECCALC"));
  // DataCopyL1ToUB's rules.
  EXPECT_TRUE(FailsWith(
      [&] { DataCopyL1ToUB<float, 0>(ub, d, DataCopyParams(0, 1, 0, 0)); },
      "DataCopyL1ToUB<float> L1->UB: repeatParams.blockCount 0 is out of "
      "range [1, 4095]"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopyL1ToUB<float, 0>(ub, d, DataCopyParams(2, 200, 0, 0)); },
      "the copy reaches 12800 bytes into src, past the end of its 8192 "
      "bytes"));
  EXPECT_TRUE(FailsWith([&] { DataCopyL1ToUB<float, 0>(ub, ub, 64); },
                        "src LocalTensor is at position VECOUT; it must be "
                        "at A1, B1 or C1 (L1)"));
  EXPECT_TRUE(
      FailsWith([&] { DataCopyL1ToUB<float, 1>(ub, d, 64); },
                "DataCopyL1ToUB<float> L1->UB: the destination is the UB"));
  // A nothing-to-move call (mSize 0) checks its parameters and moves nothing.
  p = nd();
  p.mSize = 0;
  Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, p);
}

// The added modes' rules: the type pair each requires, the parameter's
// place (cbufWorkspace for the V modes only), a finite scale, and no
// conversion in the dual-destination mode.
TEST_F(CubeOut950Test, AddedQuantModesRules) {
  const CubeBuffers buf({{TPosition::CO1, 2048}, {TPosition::C1, 256}});
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  LocalTensor<int32_t> ci = buf.Get<int32_t>(TPosition::CO1);
  LocalTensor<uint64_t> w = buf.Get<uint64_t>(TPosition::C1);
  alignas(32) static uint8_t out[2048];
  GlobalTensor<half> gh;
  gh.SetGlobalBuffer(reinterpret_cast<half*>(out), 1024);
  GlobalTensor<fp8_e4m3fn_t> g8;
  g8.SetGlobalBuffer(reinterpret_cast<fp8_e4m3fn_t*>(out), 2048);
  GlobalTensor<bfloat16_t> gb;
  gb.SetGlobalBuffer(reinterpret_cast<bfloat16_t*>(out), 1024);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
  p.mSize = 16;
  p.nSize = 32;
  p.srcStride = 16;
  p.dstStride = 32;
  p.deqScalar = QuantBits(1.0f);
  p.quantPre = QF322FP8_PRE;
  EXPECT_TRUE(FailsWith([&] { Fixpipe<half, float, CFG_ROW_MAJOR>(gh, c, p); },
                        "Fixpipe<half, float> L0C->GM (FixpipeParamsArch3510):"
                        " intriParams.quantPre QF322FP8_PRE does not turn "
                        "float into half (float: NoQuant to float, F322F16, "
                        "QF322F16_PRE or VQF322F16_PRE to half"));
  p.quantPre = QS322BF16_PRE;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe<bfloat16_t, float, CFG_ROW_MAJOR>(gb, c, p); },
                "intriParams.quantPre QS322BF16_PRE does not turn float into "
                "bfloat16_t"));
  p.quantPre = QF322BF16_PRE;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe<bfloat16_t, int32_t, CFG_ROW_MAJOR>(gb, ci, p); },
                "intriParams.quantPre QF322BF16_PRE does not turn int32_t "
                "into bfloat16_t"));
  p.quantPre = QF322HIF8_PRE_HYBRID;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<fp8_e4m3fn_t, float, CFG_ROW_MAJOR>(g8, c, p); },
      "intriParams.quantPre QF322HIF8_PRE_HYBRID does not turn float into "
      "fp8_e4m3fn_t"));
  p.quantPre = NoQuant;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<fp8_e4m3fn_t, float, CFG_ROW_MAJOR>(g8, c, p); },
      "intriParams.quantPre NoQuant does not turn float into fp8_e4m3fn_t"));
  p.quantPre = VQF322F32_PRE;
  GlobalTensor<float> gf;
  gf.SetGlobalBuffer(reinterpret_cast<float*>(out), 512);
  EXPECT_TRUE(FailsWith([&] { Fixpipe<float, float, CFG_ROW_MAJOR>(gf, c, p); },
                        "intriParams.quantPre VQF322F32_PRE reads one "
                        "parameter per column from cbufWorkspace"));
  p.quantPre = QF322F16_PRE;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe<half, float, CFG_ROW_MAJOR>(gh, c, w, p); },
                "cbufWorkspace is given, but intriParams.quantPre "
                "QF322F16_PRE is not a per-column mode"));
  p.deqScalar = QuantBits(std::numeric_limits<float>::infinity());
  EXPECT_TRUE(FailsWith([&] { Fixpipe<half, float, CFG_ROW_MAJOR>(gh, c, p); },
                        "intriParams.deqScalar 0x000000007f800000 has the "
                        "scale inf in bits 0..31, which is inf, NaN or "
                        "subnormal"));
  // A per-column parameter is checked as the scalar one is.
  for (uint32_t k = 0; k < 32; ++k) w.SetValue(k, QuantBits(1.0f));
  w.SetValue(5, QuantBits(std::numeric_limits<float>::quiet_NaN()));
  p.quantPre = VQF322HIF8_PRE;
  GlobalTensor<hifloat8_t> gh8;
  gh8.SetGlobalBuffer(reinterpret_cast<hifloat8_t*>(out), 2048);
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<hifloat8_t, float, CFG_ROW_MAJOR>(gh8, c, w, p); },
      "cbufWorkspace[5] 0x000000007fc00000 has the scale nan"));
  LocalTensor<half> ub(TPosition::VECOUT, 0, 1024);
  p.deqScalar = QuantBits(1.0f);
  p.quantPre = QF322F16_PRE;
  p.dualDstCtrl = 1;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<half, float, kToUbNd>(ub, c, p); },
      "intriParams.dualDstCtrl 1 with quantPre QF322F16_PRE and reluEn "
      "false; the dual-destination mode moves the values unconverted"));
}

// The added modes are the 950's: the Atlas A2/A3 forms (FixpipeParamsV220,
// and DataCopy with DataCopyCO12DstParams, which shares its checks) refuse
// them, naming the mode.
TEST_F(CubeCoreTest, AddedQuantModesAreNotAtlasA2s) {
  const CubeBuffers buf({{TPosition::CO1, 1024}});
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  alignas(32) static half out[256];
  GlobalTensor<half> g;
  g.SetGlobalBuffer(out, 256);
  FixpipeParamsV220 p;
  p.mSize = 16;
  p.nSize = 16;
  p.srcStride = 16;
  p.dstStride = 16;
  p.quantPre = QF322F16_PRE;
  p.deqScalar = QuantBits(1.0f);
  EXPECT_TRUE(FailsWith([&] { Fixpipe<half, float, CFG_ROW_MAJOR>(g, c, p); },
                        "Fixpipe<half, float> L0C->GM: intriParams.quantPre "
                        "QF322F16_PRE is one of the Ascend 950's modes, set "
                        "in FixpipeParamsArch3510; this form has NoQuant, "
                        "F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, "
                        "VQF322B8_PRE, REQ8 and VREQ8"));
  // DataCopy names the mode before it looks for the registers the mode
  // would read (SetFixPipeConfig's tensor for a V mode).
  DataCopyCO12DstParams d;
  d.mSize = 16;
  d.nSize = 16;
  d.srcStride = 16;
  d.dstStride = 16;
  d.quantPre = VQF322F16_PRE;
  EXPECT_TRUE(FailsWith([&] { DataCopy(g, c, d); },
                        "DataCopy<half, float> L0C->GM: intriParams.quantPre "
                        "VQF322F16_PRE is one of the Ascend 950's modes"));
}

// ---- Into the UB of the vector cores (mixed kernels) -----------------------

// The cases the mixed kernel runs: the cube core puts a 32 x 32 float matrix
// (Value) into the UB at byte 0 and sets flag 1; each vector core waits for
// it and copies kUbFloats of its UB to GM row GetBlockIdx().
enum UbCase : int32_t {
  kOneUbNd,
  kRowsSplitNd,
  kColumnsSplitNz,
  kOneUbDn,
  kL1ToUb,  // DataCopyL1ToUB: 96 floats into UB 0, two gapped blocks into 1
};
constexpr uint32_t kUbFloats = 1024;
int32_t g_ub_case = kOneUbNd;

// DataCopyL1ToUB from L1 holding 0, 1, 2, ...: by count (100 floats, cut to
// 96: whole 32-byte blocks) into vector core 0's UB, and two blocks of 8 x 32
// bytes, 1 block apart in L1 and 2 apart in the UB, into vector core 1's.
void CubeL1ToUb() {
  const CubeBuffers buf({{TPosition::A1, 4096}});
  LocalTensor<float> src = buf.Get<float>(TPosition::A1);
  for (uint32_t k = 0; k < 1024; ++k) src.SetValue(k, float(k));
  LocalTensor<float> ub(TPosition::VECOUT, 0, kUbFloats);
  DataCopyL1ToUB<float, 0>(ub, src, 100);
  DataCopyL1ToUB<float, 1>(ub, src, DataCopyParams(2, 8, 1, 2));
  CrossCoreSetFlag<2, PIPE_MTE1>(1);
}

void CubeToUb() {
  if (g_ub_case == kL1ToUb) {
    CubeL1ToUb();
    return;
  }
  const CubeBuffers buf({{TPosition::CO1, L0cBytes(32, 32)}});
  LocalTensor<float> c = FillL0c(buf, 32, 32, 32);
  LocalTensor<float> ub(TPosition::VECOUT, 0, kUbFloats);
  if (g_ub_case == kOneUbNd || g_ub_case == kRowsSplitNd) {
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
    p.mSize = 32;
    p.nSize = 32;
    p.srcStride = 32;
    p.dstStride = 32;
    p.subBlockId = 1;
    p.dualDstCtrl = g_ub_case == kRowsSplitNd ? 1 : 0;
    Fixpipe<float, float, kToUbNd>(ub, c, p);
  } else if (g_ub_case == kColumnsSplitNz) {
    FixpipeParamsArch3510<CO2Layout::NZ> p;
    p.mSize = 32;
    p.nSize = 32;
    p.srcStride = 32;
    p.dstStride = 512;
    p.dualDstCtrl = 2;
    Fixpipe<float, float, kToUbNz>(ub, c, p);
  } else {
    FixpipeParamsArch3510<CO2Layout::COLUMN_MAJOR> p;
    p.mSize = 32;
    p.nSize = 32;
    p.srcStride = 32;
    p.dstStride = 32;
    p.params.srcNzC0Stride = 1;
    Fixpipe<float, float, kToUbDn>(ub, c, p);
  }
  CrossCoreSetFlag<2, PIPE_FIX>(1);
}

void VectorCopiesUb(GM_ADDR out) {
  CrossCoreWaitFlag<2, PIPE_MTE3>(1);
  LocalTensor<float> ub(TPosition::VECOUT, 0, kUbFloats);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(
      reinterpret_cast<__gm__ float*>(out) + GetBlockIdx() * kUbFloats,
      kUbFloats);
  DataCopy(g, ub, kUbFloats);
}

extern "C" __global__ __mix__(1, 2) void mix12_fixpipe_ub(GM_ADDR out) {
  if (ASCEND_IS_AIC) {
    CubeToUb();
  } else {
    VectorCopiesUb(out);
  }
}

extern "C" __global__ __mix__(1, 1) void mix11_fixpipe_ub(GM_ADDR out) {
  if (ASCEND_IS_AIC) {
    CubeToUb();
  } else {
    VectorCopiesUb(out);
  }
}

class CubeOut950UbTest : public testing::Test {
 protected:
  // Runs the 1:2 kernel on one AI Core; out holds each vector core's UB.
  std::vector<float> Run(UbCase which) {
    g_ub_case = which;
    std::vector<float> out(2 * kUbFloats, -1.0f);
    EXPECT_EQ(LaunchKernel("mix12_fixpipe_ub", 1, 0, nullptr, mix12_fixpipe_ub,
                           reinterpret_cast<uint8_t*>(out.data())),
              0);
    return out;
  }
  ProfileScope profile_{Profile::k950};
};

TEST_F(CubeOut950UbTest, OneUbTakesTheWholeMatrix) {
  const std::vector<float> out = Run(kOneUbNd);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    ASSERT_EQ(out[k], 0.0f) << "UB 0 is untouched, " << k;
    ASSERT_EQ(out[kUbFloats + k], Value(k / 32, k % 32)) << k;
  }
}

// dualDstCtrl 1: rows [0, 16) into vector core 0, [16, 32) into 1, each as
// a 16 x 32 ND matrix from the UB address.
TEST_F(CubeOut950UbTest, RowSplitGivesEachUbHalfTheRows) {
  const std::vector<float> out = Run(kRowsSplitNd);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    const float zero_past_half = 0.0f;
    const uint32_t r = k / 32, col = k % 32;
    ASSERT_EQ(out[k], r < 16 ? Value(r, col) : zero_past_half) << k;
    ASSERT_EQ(out[kUbFloats + k], r < 16 ? Value(16 + r, col) : zero_past_half)
        << k;
  }
}

// dualDstCtrl 2: columns [0, 16) into vector core 0, [16, 32) into 1, each
// an NZ column block of 32 rows.
TEST_F(CubeOut950UbTest, ColumnSplitGivesEachUbHalfTheColumns) {
  const std::vector<float> out = Run(kColumnsSplitNz);
  for (uint32_t k = 0; k < 512; ++k) {
    const uint32_t r = k / 16, col = k % 16;
    ASSERT_EQ(out[k], Value(r, col)) << k;
    ASSERT_EQ(out[kUbFloats + k], Value(r, 16 + col)) << k;
  }
}

TEST_F(CubeOut950UbTest, DnIntoOneUb) {
  const std::vector<float> out = Run(kOneUbDn);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    ASSERT_EQ(out[k], Value(k % 32, k / 32)) << k;  // row n holds column n
    ASSERT_EQ(out[kUbFloats + k], 0.0f) << k;
  }
}

TEST_F(CubeOut950UbTest, L1ToUbByCountAndInBlocks) {
  const std::vector<float> out = Run(kL1ToUb);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    ASSERT_EQ(out[k], k < 96 ? float(k) : 0.0f) << k;
    // Block b of 64 floats: from L1 float b x 72, to UB float b x 80.
    const uint32_t b = k / 80, in = k % 80;
    const float want = b < 2 && in < 64 ? float(b * 72 + in) : 0.0f;
    ASSERT_EQ(out[kUbFloats + k], want) << k;
  }
}

// Runs the 1:1 kernel for `which` and returns its stderr.
std::string RunOneToOne(UbCase which) {
  g_ub_case = which;
  std::vector<float> out(2 * kUbFloats, -1.0f);
  const KernelErrorPolicy previous = normgrad_ascendc::GetKernelErrorPolicy();
  normgrad_ascendc::SetKernelErrorPolicy(KernelErrorPolicy::kReturn);
  testing::internal::CaptureStderr();
  const int rc =
      LaunchKernel("mix11_fixpipe_ub", 1, 0, nullptr, mix11_fixpipe_ub,
                   reinterpret_cast<uint8_t*>(out.data()));
  const std::string text = testing::internal::GetCapturedStderr();
  normgrad_ascendc::SetKernelErrorPolicy(previous);
  normgrad_ascendc::TakeLaunchError();
  EXPECT_NE(rc, 0);
  return text;
}

TEST_F(CubeOut950UbTest, SubBlockOneNeedsTwoVectorCores) {
  const std::string text = RunOneToOne(kOneUbNd);
  EXPECT_NE(text.find("the write goes to vector core 1 of the AI Core "
                      "(intriParams.subBlockId), but the kernel runs 1 "
                      "vector core per AI Core (1:1)"),
            std::string::npos)
      << text;
}

TEST_F(CubeOut950UbTest, L1ToUbNeedsAOneToTwoKernel) {
  const std::string text = RunOneToOne(kL1ToUb);
  EXPECT_NE(text.find("DataCopyL1ToUB<float> L1->UB: the kernel runs 1 "
                      "vector core per AI Core (1:1); the copy into a vector "
                      "core's UB needs a 1:2 mixed kernel"),
            std::string::npos)
      << text;
}

}  // namespace
