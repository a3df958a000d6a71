// matmul_operand_test.cc — the Matmul object's operands on a cube core
// (docs/matmul.md, "The contract" and "How a result is computed"): A as
// [M, K] or [K, M] and B as [K, N] or [N, K], for half, bfloat16_t, float
// and int8_t, given in ND or NZ, with tails in M, N and K and a bias; A and
// B at TSCM (already in L1, filled by the kernel with DataCopy ND2NZ); and
// the rules of each.
//
// The oracle is a float64 (int64 for int8_t) product written here: with
// small-integer fills every partial sum is exact in float, so every
// orientation must equal it exactly; with random fills every orientation
// must give the bits of A as [M, K] and B as [N, K] (the path whose loads
// transpose nothing: the Mmad order is the same) and lie within the Mmad
// bound of docs/numerics.md.
//
// Extending: a new operand form gets a Run* case in the sweep of its test;
// a new rule a FailsWith line with its message.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "lib/matmul/matmul_intf.h"
#include "matmul_test_support.h"

namespace {

using matmul_test::Gm;
using matmul_test::kFloat8;
using matmul_test::Tiling;
using matmul_test::ToElement;

using AscendC::CubeFormat;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::Matmul;
using AscendC::MatmulType;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

using MatmulOperandTest = matmul_test::CubeCoreTest;

// C and the bias: int32_t for int8_t inputs, float otherwise.
template <typename T>
using OutT = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;

// A logical matrix (rows × cols, row major) in doubles, and its stored
// form: transposed or not, then ND or Nz (column blocks of C0 = 32 bytes,
// each of the stored rows rounded up to 16, zero padded).
struct Matrix {
  int rows = 0, cols = 0;
  std::vector<double> v;
  double at(int r, int c) const { return v[size_t{1} * r * cols + c]; }
};

// `c0`: a column block's elements (int4b_t's 64 for values kept in int8_t).
template <typename T>
std::vector<T> Stored(const Matrix& x, bool trans, bool nz,
                      int c0 = 32 / static_cast<int>(sizeof(T))) {
  const int rows = trans ? x.cols : x.rows, cols = trans ? x.rows : x.cols;
  const auto value = [&](int r, int c) {
    return trans ? x.at(c, r) : x.at(r, c);
  };
  if (!nz) {
    std::vector<T> out(size_t{1} * rows * cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        out[size_t{1} * r * cols + c] = ToElement<T>(value(r, c));
    return out;
  }
  const int height = (rows + 15) / 16 * 16;
  const int blocks = (cols + c0 - 1) / c0;
  std::vector<T> out(size_t{1} * blocks * height * c0, ToElement<T>(0));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out[(size_t{1} * (c / c0) * height + r) * c0 + c % c0] =
          ToElement<T>(value(r, c));
  return out;
}

// A matrix of small integers (exact sums) or of normal values, each
// already representable in T.
template <typename T>
Matrix Fill(int rows, int cols, bool small, std::mt19937& rng) {
  Matrix x{rows, cols, std::vector<double>(size_t{1} * rows * cols)};
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> narrow(-4, 4), wide(-128, 127);
  for (double& e : x.v) {
    if constexpr (std::is_same_v<T, int8_t>) {
      e = wide(rng);
    } else if constexpr (kFloat8<T>) {
      e = narrow(rng);  // the small integers only
    } else {
      e = static_cast<double>(static_cast<float>(
          static_cast<T>(small ? narrow(rng) : normal(rng))));
    }
  }
  return x;
}

struct Product {
  std::vector<double> c;    // bias + A · B, in float64 (exact in int64 range)
  std::vector<double> mag;  // |bias| + Σ|a·b| (the Mmad bound's sum)
};

Product Reference(const Matrix& a, const Matrix& b,
                  const std::vector<double>& bias) {
  Product p;
  for (int i = 0; i < a.rows; ++i) {
    for (int j = 0; j < b.cols; ++j) {
      double sum = bias[j], mag = std::fabs(bias[j]);
      for (int q = 0; q < a.cols; ++q) {
        sum += a.at(i, q) * b.at(q, j);
        mag += std::fabs(a.at(i, q) * b.at(q, j));
      }
      p.c.push_back(sum);
      p.mag.push_back(mag);
    }
  }
  return p;
}

// One Matmul of A (m × k) and B (k × n) plus a bias, the operands stored as
// TA / TB and FORMAT say, C in ND.
template <typename T, CubeFormat FORMAT, bool TA, bool TB, typename U = T>
std::vector<OutT<T>> RunGm(const Matrix& a, const Matrix& b,
                           const std::vector<double>& bias,
                           const TCubeTiling& tiling) {
  using O = OutT<T>;
  using AType = MatmulType<TPosition::GM, FORMAT, T, TA>;
  using BType = MatmulType<TPosition::GM, FORMAT, U, TB>;
  using CType = MatmulType<TPosition::GM, CubeFormat::ND, O>;
  const bool nz = FORMAT == CubeFormat::NZ;
  std::vector<T> as = Stored<T>(a, TA, nz);
  std::vector<U> bs = Stored<U>(b, TB, nz);
  std::vector<O> bias_v(bias.begin(), bias.end());
  std::vector<O> c(size_t{1} * a.rows * b.cols, O(-1));
  TPipe pipe;
  Matmul<AType, BType, CType, CType> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(as), TA);
  mm.SetTensorB(Gm(bs), TB);
  mm.SetBias(Gm(bias_v));
  mm.IterateAll(Gm(c));
  mm.End();
  return c;
}

template <typename T, CubeFormat FORMAT, typename U = T>
std::vector<std::vector<OutT<T>>> AllOrientations(
    const Matrix& a, const Matrix& b, const std::vector<double>& bias,
    const TCubeTiling& tiling) {
  return {RunGm<T, FORMAT, false, true, U>(a, b, bias, tiling),
          RunGm<T, FORMAT, false, false, U>(a, b, bias, tiling),
          RunGm<T, FORMAT, true, true, U>(a, b, bias, tiling),
          RunGm<T, FORMAT, true, false, U>(a, b, bias, tiling)};
}

const char* const kOrientation[] = {"A [M, K], B [N, K]", "A [M, K], B [K, N]",
                                    "A [K, M], B [N, K]", "A [K, M], B [K, N]"};

template <typename T, CubeFormat FORMAT, typename U = T>
void CheckShape(int m, int n, int k, int base_m, int base_n, int base_k,
                uint32_t seed) {
  const std::string what =
      std::string(normgrad_ascendc::TypeName<T>()) +
      (std::is_same_v<T, U> ? "" : " x ") +
      (std::is_same_v<T, U> ? std::string() : normgrad_ascendc::TypeName<U>()) +
      (FORMAT == CubeFormat::NZ ? " NZ " : " ND ") + std::to_string(m) + "x" +
      std::to_string(n) + "x" + std::to_string(k);
  const TCubeTiling tiling = Tiling(m, n, k, base_m, base_n, base_k);
  std::mt19937 rng(seed);
  // Small integers: every orientation is the exact product.
  {
    const Matrix a = Fill<T>(m, k, true, rng), b = Fill<U>(k, n, true, rng);
    std::vector<double> bias(n);
    for (int j = 0; j < n; ++j) bias[j] = (j % 7) - 3;
    const Product want = Reference(a, b, bias);
    const auto got = AllOrientations<T, FORMAT, U>(a, b, bias, tiling);
    for (size_t o = 0; o < got.size(); ++o) {
      for (size_t i = 0; i < want.c.size(); ++i) {
        ASSERT_EQ(static_cast<double>(got[o][i]), want.c[i])
            << what << ", " << kOrientation[o] << ", element " << i;
      }
    }
  }
  // int8_t above spans its range; the 8-bit floats' products and their
  // sums are exact for these values, so the exact product is the check.
  if constexpr (std::is_same_v<T, int8_t> || kFloat8<T>) {
    return;
  } else {
    // Random values: the bits of the path that transposes nothing, within
    // K · 2^-24 · (|bias| + Σ|a·b|) of the float64 product.
    const Matrix a = Fill<T>(m, k, false, rng), b = Fill<T>(k, n, false, rng);
    std::vector<double> bias(n);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (double& x : bias) x = static_cast<float>(normal(rng));
    const Product want = Reference(a, b, bias);
    const auto got = AllOrientations<T, FORMAT>(a, b, bias, tiling);
    for (size_t o = 1; o < got.size(); ++o) {
      ASSERT_EQ(std::memcmp(got[o].data(), got[0].data(),
                            got[0].size() * sizeof(got[0][0])),
                0)
          << what << ", " << kOrientation[o] << " differs from "
          << kOrientation[0];
    }
    for (size_t i = 0; i < want.c.size(); ++i) {
      const double bound = k * std::ldexp(1.0, -24) * want.mag[i];
      ASSERT_LE(std::fabs(got[0][i] - want.c[i]), bound)
          << what << ", element " << i;
    }
  }
}

// ---- Transposes ------------------------------------------------------------

// Shapes with tails in M, N and K: blocks whose 16-row count is odd (the
// int8_t squares' overhang), K tails shorter than a fractal, several K steps.
template <typename T>
void CheckNdShapes() {
  CheckShape<T, CubeFormat::ND>(40, 40, 70, 48, 48, 32, 1);
  CheckShape<T, CubeFormat::ND>(50, 37, 100, 32, 32, 64, 2);
  CheckShape<T, CubeFormat::ND>(17, 9, 5, 32, 16, 32, 3);
  CheckShape<T, CubeFormat::ND>(33, 16, 70, 32, 16, 32, 3);
}

TEST_F(MatmulOperandTest, HalfEveryOrientationInNd) { CheckNdShapes<half>(); }
TEST_F(MatmulOperandTest, Bfloat16EveryOrientationInNd) {
  CheckNdShapes<bfloat16_t>();
}
TEST_F(MatmulOperandTest, FloatEveryOrientationInNd) { CheckNdShapes<float>(); }
TEST_F(MatmulOperandTest, Int8EveryOrientationInNd) { CheckNdShapes<int8_t>(); }

// NZ operands are read in whole fractals: the shapes align to 16 and C0 and
// the base blocks start on fractals; tails of whole fractals remain.
template <typename T>
void CheckNzShapes() {
  CheckShape<T, CubeFormat::NZ>(48, 80, 96, 32, 32, 64, 4);
  CheckShape<T, CubeFormat::NZ>(64, 32, 128, 64, 32, 32, 5);
}

TEST_F(MatmulOperandTest, HalfEveryOrientationInNz) { CheckNzShapes<half>(); }
TEST_F(MatmulOperandTest, Bfloat16EveryOrientationInNz) {
  CheckNzShapes<bfloat16_t>();
}
TEST_F(MatmulOperandTest, FloatEveryOrientationInNz) { CheckNzShapes<float>(); }
TEST_F(MatmulOperandTest, Int8EveryOrientationInNz) { CheckNzShapes<int8_t>(); }

TEST_F(MatmulOperandTest, FloatAndInt8TransposeExactlyAsIstransSays) {
  const TCubeTiling t = Tiling(32, 32, 32, 16, 16, 32, false);
  TPipe pipe;
  using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  using FT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
  using I8T = MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>;
  using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  std::vector<float> x(32 * 32);
  std::vector<int8_t> y(32 * 32);
  {
    Matmul<FT, F, F, F> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
    EXPECT_TRUE(FailsWith(
        [&] { mm.SetTensorA(Gm(x)); },
        "Matmul::SetTensorA: isTransposeA is false, but A_TYPE's ISTRANS is "
        "true; for float (not half or bfloat16_t) the transpose must equal "
        "ISTRANS (and the host tiling's isTrans)"));
    EXPECT_TRUE(FailsWith(
        [&] { mm.SetTensorB(Gm(x), true); },
        "Matmul::SetTensorB: isTransposeB is true, but B_TYPE's ISTRANS is "
        "false; declare MatmulType<..., ISTRANS = true> for B to transpose "
        "it"));
  }
  {
    Matmul<I8T, I8T, I32, I32> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
    EXPECT_TRUE(FailsWith([&] { mm.SetTensorB(Gm(y), false); },
                          "Matmul::SetTensorB: isTransposeB is false, but "
                          "B_TYPE's ISTRANS is true; for int8_t"));
  }
}

// ---- Asynchronous results and block offsets --------------------------------

template <typename T>
void ExpectExact(const std::vector<T>& got, const Product& want,
                 const char* what) {
  for (size_t i = 0; i < want.c.size(); ++i) {
    ASSERT_EQ(static_cast<double>(got[i]), want.c[i])
        << what << ", element " << i;
  }
}

TEST_F(MatmulOperandTest, AsynchronousIterateServesEveryGetTensorC) {
  // One Iterate<false>, then one GetTensorC<false> per block, as the page's
  // example does: the same C as IterateAll. GetOffsetC names each block.
  const int m = 40, n = 48, k = 32;
  std::mt19937 rng(12);
  const Matrix a = Fill<half>(m, k, true, rng), b = Fill<half>(k, n, true, rng);
  std::vector<half> as = Stored<half>(a, false, false);
  std::vector<half> bs = Stored<half>(b, false, false);
  const Product want = Reference(a, b, std::vector<double>(n, 0.0));
  const TCubeTiling tiling = Tiling(m, n, k, 32, 32, 32, false);
  using HalfGm = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using FloatGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  TPipe pipe;
  Matmul<HalfGm, HalfGm, FloatGm, FloatGm> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  std::vector<float> c(m * n, -1.0f), work(4 * 32 * 32);
  mm.SetTensorA(Gm(as));
  mm.SetTensorB(Gm(bs));
  EXPECT_TRUE(FailsWith([&] { mm.GetOffsetC(); },
                        "Matmul::GetOffsetC: no block computed yet; call "
                        "Iterate first"));
  mm.Iterate<false>();
  EXPECT_TRUE(FailsWith(
      [&] { mm.GetTensorC<false>(Gm(c)); },
      "Matmul::GetTensorC: the asynchronous form (sync false) caches the "
      "results in the workspace; call SetWorkspace before Iterate"));
  mm.SetWorkspace(Gm(work));
  // 2 blocks along M (32, 8 rows) x 2 along N (32, 16 columns), M first.
  const int rows[] = {0, 32, 0, 32}, cols[] = {0, 0, 32, 32};
  const int heights[] = {32, 8, 32, 8}, widths[] = {32, 32, 16, 16};
  for (int i = 0; i < 4; ++i) {
    if (i > 0) mm.Iterate<false>();  // also the pattern of a loop
    const AscendC::MatrixOffset at = mm.GetOffsetC();
    EXPECT_EQ(at.row, rows[i]) << "block " << i;
    EXPECT_EQ(at.col, cols[i]) << "block " << i;
    EXPECT_EQ(at.height, heights[i]) << "block " << i;
    EXPECT_EQ(at.width, widths[i]) << "block " << i;
    EXPECT_EQ(at.offset, rows[i] * n + cols[i]) << "block " << i;
    mm.GetTensorC<false>(Gm(c));
  }
  mm.WaitGetTensorC();
  ExpectExact(c, want, "Iterate<false> once per block");
  // Iterate<false> once: each GetTensorC<false> computes the next block.
  std::fill(c.begin(), c.end(), -1.0f);
  mm.SetTensorA(Gm(as));
  mm.Iterate<false>();
  for (int i = 0; i < 4; ++i) mm.GetTensorC<false>(Gm(c));
  ExpectExact(c, want, "one Iterate<false>");
  EXPECT_TRUE(FailsWith([&] { mm.GetTensorC<false>(Gm(c)); },
                        "Matmul::GetTensorC: every block of the asynchronous "
                        "Iterate has been taken (4)"));
}

// ---- int4b_t ---------------------------------------------------------------

// int4b_t: A as [M, K] (the page: an int4b_t A is not transposed on Atlas
// A2/A3), B either way, two values a byte (the even element in the low
// nibble), C int32_t, no bias (see the rule below); exact.
template <bool TB, CubeFormat FORMAT = CubeFormat::ND>
std::vector<int32_t> RunInt4(const Matrix& a, const Matrix& b,
                             const TCubeTiling& tiling) {
  using AscendC::int4b_t;
  const auto pack = [](const std::vector<int8_t>& v) {
    std::vector<uint8_t> bytes((v.size() + 1) / 2);
    for (size_t i = 0; i < v.size(); ++i) {
      bytes[i / 2] |= static_cast<uint8_t>((v[i] & 0xf) << (i % 2 * 4));
    }
    return bytes;
  };
  const bool nz = FORMAT == CubeFormat::NZ;
  const std::vector<int8_t> a8 = Stored<int8_t>(a, false, nz, 64);
  const std::vector<int8_t> b8 = Stored<int8_t>(b, TB, nz, 64);
  std::vector<uint8_t> as = pack(a8), bs = pack(b8);
  GlobalTensor<int4b_t> a_gm, b_gm;
  a_gm.SetGlobalBuffer(reinterpret_cast<int4b_t*>(as.data()), a8.size());
  b_gm.SetGlobalBuffer(reinterpret_cast<int4b_t*>(bs.data()), b8.size());
  using AType = MatmulType<TPosition::GM, FORMAT, int4b_t>;
  using BType = MatmulType<TPosition::GM, FORMAT, int4b_t, TB>;
  using CType = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  std::vector<int32_t> c(size_t{1} * a.rows * b.cols, -1);
  TPipe pipe;
  Matmul<AType, BType, CType, CType> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(a_gm);
  mm.SetTensorB(b_gm, TB);
  mm.IterateAll(Gm(c));
  mm.End();
  return c;
}

TEST_F(MatmulOperandTest, Int4BothOrientationsOfB) {
  // Tails: N blocks whose 16s are not a multiple of four (the squares
  // overhang), beside whole squares or alone; K not a multiple of 64, in
  // one or two squares a step.
  struct Shape {
    int m, n, k, base_m, base_n, base_k;
  };
  for (const Shape& sh :
       {Shape{40, 88, 200, 32, 80, 128}, Shape{40, 88, 200, 32, 48, 64},
        Shape{17, 30, 130, 32, 16, 64}}) {
    std::mt19937 rng(sh.k);
    std::uniform_int_distribution<int> value(-8, 7);
    Matrix a{sh.m, sh.k, std::vector<double>(size_t{1} * sh.m * sh.k)};
    Matrix b{sh.k, sh.n, std::vector<double>(size_t{1} * sh.k * sh.n)};
    for (double& x : a.v) x = value(rng);
    for (double& x : b.v) x = value(rng);
    const Product want = Reference(a, b, std::vector<double>(sh.n, 0.0));
    const TCubeTiling tiling =
        Tiling(sh.m, sh.n, sh.k, sh.base_m, sh.base_n, sh.base_k, false);
    ExpectExact(RunInt4<false>(a, b, tiling), want, "int4b_t B [K, N]");
    ExpectExact(RunInt4<true>(a, b, tiling), want, "int4b_t B [N, K]");
  }
  // In NZ: shapes of whole fractals (16 rows, 64 columns), base blocks
  // starting on them, tails of whole fractals.
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> value(-8, 7);
  const int m = 48, n = 192, k = 256;
  Matrix a{m, k, std::vector<double>(size_t{1} * m * k)};
  Matrix b{k, n, std::vector<double>(size_t{1} * k * n)};
  for (double& x : a.v) x = value(rng);
  for (double& x : b.v) x = value(rng);
  const Product want = Reference(a, b, std::vector<double>(n, 0.0));
  const TCubeTiling tiling = Tiling(m, n, k, 32, 128, 128, false);
  ExpectExact(RunInt4<false, CubeFormat::NZ>(a, b, tiling), want,
              "int4b_t NZ B [K, N]");
  ExpectExact(RunInt4<true, CubeFormat::NZ>(a, b, tiling), want,
              "int4b_t NZ B [N, K]");
}

TEST_F(MatmulOperandTest, Int4IntoHalfIsDequantized) {
  // C of half: Fixpipe's DEQF16 with the scale 0.5 (the parameter's bits 0
  // to 31 are the float scale); small sums, so every value is exact.
  using AscendC::int4b_t;
  const int m = 16, n = 32, k = 64;
  std::vector<uint8_t> as(m * k / 2), bs(k * n / 2);
  for (size_t i = 0; i < as.size(); ++i) as[i] = static_cast<uint8_t>(i % 5);
  for (size_t i = 0; i < bs.size(); ++i) bs[i] = static_cast<uint8_t>(i % 3);
  const auto nibble = [](const std::vector<uint8_t>& v, int i) {
    return static_cast<int>(v[i / 2] >> (i % 2 * 4) & 0xf);  // 0 to 4
  };
  GlobalTensor<int4b_t> a_gm, b_gm;
  a_gm.SetGlobalBuffer(reinterpret_cast<int4b_t*>(as.data()), m * k);
  b_gm.SetGlobalBuffer(reinterpret_cast<int4b_t*>(bs.data()), k * n);
  using I4 = MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>;
  using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  const TCubeTiling t = Tiling(m, n, k, 16, 32, 64, false);
  TPipe pipe;
  Matmul<I4, I4, H, I32> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
  float half_scale = 0.5f;
  uint32_t bits = 0;
  std::memcpy(&bits, &half_scale, 4);
  mm.SetQuantScalar(bits);
  mm.SetTensorA(a_gm);
  mm.SetTensorB(b_gm);
  std::vector<half> c(m * n);
  mm.IterateAll(Gm(c));
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int sum = 0;
      for (int p = 0; p < k; ++p) {
        sum += nibble(as, i * k + p) * nibble(bs, p * n + j);
      }
      ASSERT_EQ(static_cast<float>(c[i * n + j]), 0.5f * sum) << i << ", " << j;
    }
  }
}

TEST_F(MatmulOperandTest, Int4RulesAreChecked) {
  using AscendC::int4b_t;
  using I4 = MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>;
  using I4T = MatmulType<TPosition::GM, CubeFormat::ND, int4b_t, true>;
  using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  TPipe pipe;
  {
    const TCubeTiling t = Tiling(32, 32, 64, 16, 16, 64, false);
    Matmul<I4T, I4, I32, I32> mm;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                          "Matmul::Init: A_TYPE of int4b_t has ISTRANS true; "
                          "on Atlas A2/A3 an int4b_t A is not transposed"));
  }
  {
    const TCubeTiling t = Tiling(32, 32, 64, 16, 16, 64, true);
    Matmul<I4, I4, I32, I32> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
    std::vector<int32_t> bias(32);
    EXPECT_TRUE(FailsWith([&] { mm.SetBias(Gm(bias)); },
                          "Matmul::SetBias: a bias with int4b_t inputs is not "
                          "emulated yet"));
  }
  {
    const TCubeTiling t = Tiling(32, 32, 63, 16, 16, 16, false);
    Matmul<I4, I4, I32, I32> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
    std::vector<uint8_t> x(32 * 32);
    std::vector<int32_t> c(32 * 32);
    GlobalTensor<int4b_t> g;
    g.SetGlobalBuffer(reinterpret_cast<int4b_t*>(x.data()), 32 * 63);
    mm.SetTensorA(g);
    mm.SetTensorB(g);
    EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                          "Matmul: A of int4b_t has an odd number of elements "
                          "along its inner axis (orgKa 63, a block of 16)"));
  }
}

// ---- Static tilings
// ----------------------------------------------------------

constexpr AscendC::MatmulConfig kFullShapeCfg =
    AscendC::GetMMConfig<AscendC::MatmulConfigMode::CONFIG_NORM>(
        AscendC::MatmulShapeParams{40, 48, 64, 32, 32, 32});
constexpr AscendC::MatmulConfig kBaseShapeCfg =
    AscendC::GetMMConfig<AscendC::MatmulConfigMode::CONFIG_MDL>(
        AscendC::MatmulShapeParams{0, 0, 0, 32, 16, 32});
using StaticHalf = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using StaticFloat = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr AscendC::MatmulApiStaticTiling kFullTiling =
    AscendC::GetMatmulApiTiling<StaticHalf, StaticHalf, StaticFloat,
                                StaticFloat>(kFullShapeCfg);
constexpr AscendC::MatmulApiStaticTiling kBaseTiling =
    AscendC::GetMatmulApiTiling<StaticHalf, StaticHalf, StaticFloat,
                                StaticFloat>(kBaseShapeCfg, 256 * 1024);

// What the constants are, at compile time.
static_assert(kFullTiling.M == 40 && kFullTiling.N == 48 &&
              kFullTiling.Ka == 64 && kFullTiling.Kb == 64);
static_assert(kFullTiling.singleCoreM == 40 && kFullTiling.baseK == 32);
static_assert(kFullTiling.depthA1 == 1 && kFullTiling.dbL0A == 2 &&
              kFullTiling.isBias == 1 && kFullTiling.usedCoreNum == 1);
static_assert(kFullTiling.shareL1Size == AscendC::Impl::L1_SIZE);
static_assert(kBaseTiling.baseN == 16 && kBaseTiling.M == -1 &&
              kBaseTiling.singleCoreK == -1 && kBaseTiling.shareL1Size == -1);
static_assert(kBaseTiling.cfg.doMultiDataLoad);

TEST_F(MatmulOperandTest, StaticTilingsFromGetMatmulApiTiling) {
  const int m = 40, n = 48, k = 64;
  std::mt19937 rng(21);
  const Matrix a = Fill<half>(m, k, true, rng), b = Fill<half>(k, n, true, rng);
  std::vector<half> as = Stored<half>(a, false, false);
  std::vector<half> bs = Stored<half>(b, false, false);
  std::vector<double> bias_d(n);
  for (int j = 0; j < n; ++j) bias_d[j] = j % 3;
  std::vector<float> bias(bias_d.begin(), bias_d.end());
  const Product want = Reference(a, b, bias_d);
  TPipe pipe;
  {
    // A full static tiling: REGIST_MATMUL_OBJ with a null tiling.
    Matmul<StaticHalf, StaticHalf, StaticFloat, StaticFloat, kFullTiling> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, nullptr);
    std::vector<float> c(m * n, -1.0f);
    mm.SetTensorA(Gm(as));
    mm.SetTensorB(Gm(bs));
    mm.SetBias(Gm(bias));
    mm.IterateAll(Gm(c));
    ExpectExact(c, want, "full static tiling");
  }
  {
    // A partial one (the base shape): the runtime tiling gives the rest
    // and must agree with the constants.
    Matmul<StaticHalf, StaticHalf, StaticFloat, StaticFloat, kBaseTiling> mm;
    TCubeTiling t = Tiling(m, n, k, 32, 16, 32);
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
    std::vector<float> c(m * n, -1.0f);
    mm.SetTensorA(Gm(as));
    mm.SetTensorB(Gm(bs));
    mm.SetBias(Gm(bias));
    mm.IterateAll(Gm(c));
    ExpectExact(c, want, "partial static tiling");
    t.baseN = 32;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&t); },
                          "Matmul::Init: tiling baseN 32 differs from MM_CFG's "
                          "static tiling's 16 (GetMatmulApiTiling); the "
                          "constants must equal the runtime tiling's"));
    EXPECT_TRUE(FailsWith([&] { mm.Init(nullptr); },
                          "Matmul::Init: cubeTiling is null, but MM_CFG's "
                          "static tiling fixes the base shape only"));
  }
  {
    Matmul<StaticHalf, StaticHalf, StaticFloat, StaticFloat> mm;
    EXPECT_TRUE(FailsWith([&] { mm.Init(nullptr, &pipe); },
                          "Matmul::Init: cubeTiling is null; only a Matmul "
                          "whose MM_CFG is a full static tiling"));
  }
}

// ---- TSCM ------------------------------------------------------------------

// The single shape's stored matrix (rows × cols, row length row_len in GM)
// into an L1 tensor in Nz by DataCopy with ND2NZ, as a kernel fills TSCM.
template <typename T>
void FillL1(const LocalTensor<T>& l1, const GlobalTensor<T>& gm, int rows,
            int cols) {
  AscendC::Nd2NzParams nz;
  nz.ndNum = 1;
  nz.nValue = static_cast<uint16_t>(rows);
  nz.dValue = static_cast<uint16_t>(cols);
  nz.srcDValue = static_cast<uint16_t>(cols);
  nz.dstNzC0Stride = static_cast<uint16_t>((rows + 15) / 16 * 16);
  nz.dstNzNStride = 1;
  AscendC::DataCopy(l1, gm, nz);
}

// A, or B, or both at TSCM (format NZ), the others in GM (ND).
template <typename T, bool A_SCM, bool B_SCM, bool TA, bool TB>
std::vector<OutT<T>> RunTscm(const Matrix& a, const Matrix& b,
                             const std::vector<double>& bias,
                             const TCubeTiling& tiling) {
  using O = OutT<T>;
  using AType = MatmulType<A_SCM ? TPosition::TSCM : TPosition::GM,
                           A_SCM ? CubeFormat::NZ : CubeFormat::ND, T, TA>;
  using BType = MatmulType<B_SCM ? TPosition::TSCM : TPosition::GM,
                           B_SCM ? CubeFormat::NZ : CubeFormat::ND, T, TB>;
  using CType = MatmulType<TPosition::GM, CubeFormat::ND, O>;
  std::vector<T> as = Stored<T>(a, TA, false), bs = Stored<T>(b, TB, false);
  std::vector<O> bias_v(bias.begin(), bias.end());
  std::vector<O> c(size_t{1} * a.rows * b.cols, O(-1));
  TPipe pipe;
  Matmul<AType, BType, CType, CType> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  // The kernel's own L1 buffers, after the object's.
  AscendC::TBuf<TPosition::A1> a_l1;
  AscendC::TBuf<TPosition::B1> b_l1;
  if constexpr (A_SCM) {
    pipe.InitBuffer(
        a_l1, static_cast<uint32_t>(normgrad_ascendc::MatmulNzBytes(
                  TA ? a.cols : a.rows, TA ? a.rows : a.cols, sizeof(T))));
    const LocalTensor<T> l1 = a_l1.Get<T>();
    FillL1(l1, Gm(as), TA ? a.cols : a.rows, TA ? a.rows : a.cols);
    mm.SetTensorA(l1, TA);
  } else {
    mm.SetTensorA(Gm(as), TA);
  }
  if constexpr (B_SCM) {
    pipe.InitBuffer(
        b_l1, static_cast<uint32_t>(normgrad_ascendc::MatmulNzBytes(
                  TB ? b.cols : b.rows, TB ? b.rows : b.cols, sizeof(T))));
    const LocalTensor<T> l1 = b_l1.Get<T>();
    FillL1(l1, Gm(bs), TB ? b.cols : b.rows, TB ? b.rows : b.cols);
    mm.SetTensorB(l1, TB);
  } else {
    mm.SetTensorB(Gm(bs), TB);
  }
  mm.SetBias(Gm(bias_v));
  mm.IterateAll(Gm(c));
  mm.End();
  return c;
}

TEST_F(MatmulOperandTest, TscmOperandsAreReadInPlace) {
  // Tails of whole fractals in M and N, K in two steps.
  const int m = 48, n = 80, k = 64;
  std::mt19937 rng(8);
  const TCubeTiling tiling = Tiling(m, n, k, 32, 32, 32);
  std::vector<double> bias(n);
  for (int j = 0; j < n; ++j) bias[j] = (j % 5) - 2;
  {
    const Matrix a = Fill<half>(m, k, true, rng),
                 b = Fill<half>(k, n, true, rng);
    const Product want = Reference(a, b, bias);
    ExpectExact(RunTscm<half, true, false, false, false>(a, b, bias, tiling),
                want, "half A [M, K] at TSCM");
    ExpectExact(RunTscm<half, true, false, true, false>(a, b, bias, tiling),
                want, "half A [K, M] at TSCM");
    ExpectExact(RunTscm<half, false, true, false, false>(a, b, bias, tiling),
                want, "half B [K, N] at TSCM");
    ExpectExact(RunTscm<half, false, true, false, true>(a, b, bias, tiling),
                want, "half B [N, K] at TSCM");
    ExpectExact(RunTscm<half, true, true, true, true>(a, b, bias, tiling), want,
                "half A [K, M] and B [N, K] at TSCM");
  }
  {
    const Matrix a = Fill<float>(m, k, true, rng),
                 b = Fill<float>(k, n, true, rng);
    const Product want = Reference(a, b, bias);
    ExpectExact(RunTscm<float, true, true, false, true>(a, b, bias, tiling),
                want, "float A [M, K] and B [N, K] at TSCM");
  }
  {
    const Matrix a = Fill<int8_t>(m, k, true, rng),
                 b = Fill<int8_t>(k, n, true, rng);
    const Product want = Reference(a, b, bias);
    ExpectExact(RunTscm<int8_t, true, true, false, true>(a, b, bias, tiling),
                want, "int8_t A [M, K] and B [N, K] at TSCM");
  }
}

TEST_F(MatmulOperandTest, TscmInt8TransposedByItsSquares) {
  // int8_t A as [K, M] and B as [K, N] at TSCM load by 32 x 32 squares
  // from the whole Nz matrix.
  std::mt19937 rng(31);
  const int m = 64, n = 96, k = 64;
  const Matrix a = Fill<int8_t>(m, k, true, rng),
               b = Fill<int8_t>(k, n, true, rng);
  std::vector<double> bias(n);
  for (int j = 0; j < n; ++j) bias[j] = j - 40;
  const TCubeTiling tiling = Tiling(m, n, k, 32, 64, 32);
  ExpectExact(RunTscm<int8_t, true, true, true, false>(a, b, bias, tiling),
              Reference(a, b, bias), "int8_t A [K, M] and B [K, N] at TSCM");
  // A tail K of 48 ends half a square into the last fractal row: the last
  // column block's last square reads one fractal past a tensor of exactly
  // the single shape.
  using A = MatmulType<TPosition::TSCM, CubeFormat::NZ, int8_t, true>;
  using B = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  TPipe pipe;
  Matmul<A, B, C, C> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, 48 * 64);
  std::vector<int8_t> bs(k * n);
  std::vector<int32_t> c(m * n);
  mm.SetTail(-1, -1, 48);
  mm.SetTensorA(l1.Get<int8_t>(), true);
  mm.SetTensorB(Gm(bs));
  EXPECT_TRUE(FailsWith(
      [&] { mm.IterateAll(Gm(c)); },
      "Matmul: A of int8_t at TSCM is loaded by squares of 32 rows of K; the "
      "last one reads up to byte 3584 of the tensor, which holds 3072: "
      "allocate the tensor that long (the rows past K are read, not used)"));
}

TEST_F(MatmulOperandTest, TscmInt4OperandsIncludingSquares) {
  // int4b_t A as [M, K] and B as [K, N] (loaded by 64 x 64 squares, N with
  // 16s not a multiple of four) at TSCM, filled by ND2NZ counting bytes.
  using AscendC::int4b_t;
  const int m = 32, n = 80, k = 128;
  std::mt19937 rng(41);
  std::uniform_int_distribution<int> value(-8, 7);
  std::vector<uint8_t> as(m * k / 2), bs(k * n / 2);
  std::vector<int> av(m * k), bv(k * n);
  for (int i = 0; i < m * k; ++i) av[i] = value(rng);
  for (int i = 0; i < k * n; ++i) bv[i] = value(rng);
  for (int i = 0; i < m * k; ++i) as[i / 2] |= (av[i] & 0xf) << (i % 2 * 4);
  for (int i = 0; i < k * n; ++i) bs[i / 2] |= (bv[i] & 0xf) << (i % 2 * 4);
  using A = MatmulType<TPosition::TSCM, CubeFormat::NZ, int4b_t>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  const TCubeTiling tiling = Tiling(m, n, k, 32, 80, 64, false);
  TPipe pipe;
  Matmul<A, A, C, C> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TBuf<TPosition::A1> a_l1;
  AscendC::TBuf<TPosition::B1> b_l1;
  pipe.InitBuffer(a_l1, m * k / 2);
  pipe.InitBuffer(b_l1, k * ((n + 63) / 64 * 64) / 2);
  const auto fill = [](const LocalTensor<int4b_t>& l1, std::vector<uint8_t>& v,
                       int rows, int cols) {
    GlobalTensor<int4b_t> gm;
    gm.SetGlobalBuffer(reinterpret_cast<int4b_t*>(v.data()), rows * cols);
    AscendC::Nd2NzParams nz;  // int4b_t: the lengths count bytes
    nz.ndNum = 1;
    nz.nValue = static_cast<uint16_t>(rows);
    nz.dValue = static_cast<uint16_t>(cols / 2);
    nz.srcDValue = static_cast<uint16_t>(cols / 2);
    nz.dstNzC0Stride = static_cast<uint16_t>(rows);
    nz.dstNzNStride = 1;
    AscendC::DataCopy(l1, gm, nz);
  };
  fill(a_l1.Get<int4b_t>(), as, m, k);
  fill(b_l1.Get<int4b_t>(), bs, k, n);
  mm.SetTensorA(a_l1.Get<int4b_t>());
  mm.SetTensorB(b_l1.Get<int4b_t>());
  std::vector<int32_t> c(m * n, -1);
  mm.IterateAll(Gm(c));
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int want = 0;
      for (int p = 0; p < k; ++p) want += av[i * k + p] * bv[p * n + j];
      ASSERT_EQ(c[i * n + j], want) << i << ", " << j;
    }
  }
}

TEST_F(MatmulOperandTest, TscmRulesAreChecked) {
  const TCubeTiling t = Tiling(32, 32, 32, 16, 16, 32, false);
  TPipe pipe;
  using HalfGm = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using FloatGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  {
    using Bias = MatmulType<TPosition::TSCM, CubeFormat::ND, float>;
    Matmul<HalfGm, HalfGm, FloatGm, Bias> mm;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                          "Matmul::Init: BIAS_TYPE at TSCM is not one the "
                          "bias takes on Atlas A2/A3 (GM or VECOUT"));
  }
  {
    using Nd = MatmulType<TPosition::TSCM, CubeFormat::ND, half>;
    Matmul<Nd, HalfGm, FloatGm, FloatGm> mm;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                          "Matmul::Init: A_TYPE at TSCM has format 0; an "
                          "operand already in L1 is read in place by the "
                          "cube's loads, so it must be NZ"));
  }
  {
    using B = MatmulType<TPosition::TSCM, CubeFormat::NZ, float>;
    Matmul<FloatGm, B, FloatGm, FloatGm> mm;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                          "Matmul::Init: B_TYPE at TSCM of float with ISTRANS "
                          "false ([K, N]) is not emulated on Atlas A2/A3"));
  }
  {
    using A = MatmulType<TPosition::TSCM, CubeFormat::NZ, half>;
    Matmul<A, HalfGm, FloatGm, FloatGm> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
    AscendC::TBuf<TPosition::A2> l0a;
    pipe.InitBuffer(l0a, 4096);
    EXPECT_TRUE(FailsWith([&] { mm.SetTensorA(l0a.Get<half>()); },
                          "Matmul::SetTensorA: A_TYPE is at TSCM, but the "
                          "tensor is at A2; an operand at TSCM is a tensor in "
                          "L1 (A1, B1 or C1)"));
    AscendC::TBuf<TPosition::A1> small;
    pipe.InitBuffer(small, 512);
    std::vector<half> b(32 * 32);
    std::vector<float> c(32 * 32);
    mm.SetTensorA(small.Get<half>());
    mm.SetTensorB(Gm(b));
    EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                          "Matmul: A at TSCM holds 512 bytes; the single "
                          "shape in Nz (32 x 32 stored, rows to 16, columns "
                          "to 32 bytes) takes 2048"));
  }
}

// ---- The Ascend 950 --------------------------------------------------------

// The same operands on the 950 profile, whose Mmad reads A from L0A as Nz
// and whose loads of A are LoadData2DParamsV2 (with its square transposes):
// every orientation, format and place must give the same exact products.
using MatmulOperand950Test = matmul_test::CubeCore950Test;

TEST_F(MatmulOperand950Test, EveryOrientationInNd) {
  CheckNdShapes<half>();
  CheckNdShapes<bfloat16_t>();
  CheckNdShapes<float>();
  CheckNdShapes<int8_t>();
}

TEST_F(MatmulOperand950Test, EveryOrientationInNz) {
  CheckNzShapes<half>();
  CheckNzShapes<float>();
  CheckNzShapes<int8_t>();
}

TEST_F(MatmulOperand950Test, EightBitFloatsInEveryOrientation) {
  // Small integers are values of every 8-bit float and their sums are
  // exact: each orientation must equal the float64 product. E4M3 with
  // E5M2 too (the 950's Mmad pairs them).
  CheckShape<fp8_e4m3fn_t, CubeFormat::ND>(40, 40, 70, 48, 48, 64, 11);
  CheckShape<fp8_e5m2_t, CubeFormat::ND>(17, 9, 5, 32, 16, 32, 12);
  CheckShape<hifloat8_t, CubeFormat::ND>(33, 16, 70, 32, 16, 32, 13);
  CheckShape<fp8_e4m3fn_t, CubeFormat::ND, fp8_e5m2_t>(50, 37, 100, 32, 32, 64,
                                                       14);
  CheckShape<fp8_e5m2_t, CubeFormat::NZ>(64, 32, 128, 64, 32, 32, 15);
}

TEST_F(MatmulOperand950Test, EightBitFloatsWithAHalfBiasIntoHalfAndBfloat16) {
  // The sums are exact in float (small integers), so C is the exact product
  // rounded once to C's type (Fixpipe's round to nearest even).
  const int m = 32, n = 48, k = 64;
  std::mt19937 rng(16);
  const Matrix a = Fill<fp8_e4m3fn_t>(m, k, true, rng),
               b8 = Fill<fp8_e5m2_t>(k, n, true, rng);
  std::vector<double> bias(n);
  for (int j = 0; j < n; ++j) bias[j] = (j % 9) - 4;
  using A = MatmulType<TPosition::GM, CubeFormat::ND, fp8_e4m3fn_t>;
  using B = MatmulType<TPosition::GM, CubeFormat::ND, fp8_e5m2_t>;
  using Bias = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  const TCubeTiling tiling = Tiling(m, n, k, 32, 32, 64);
  std::vector<fp8_e4m3fn_t> as = Stored<fp8_e4m3fn_t>(a, false, false);
  std::vector<fp8_e5m2_t> bs = Stored<fp8_e5m2_t>(b8, false, false);
  std::vector<half> bias_v;
  for (double x : bias) bias_v.push_back(half(static_cast<float>(x)));
  const Product want = Reference(a, b8, bias);
  const auto run = [&](auto out) {
    using O = decltype(out);
    using C = MatmulType<TPosition::GM, CubeFormat::ND, O>;
    std::vector<O> c(size_t{1} * m * n, O(-1.0f));
    TPipe pipe;
    Matmul<A, B, C, Bias> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(as));
    mm.SetTensorB(Gm(bs));
    mm.SetBias(Gm(bias_v));
    mm.IterateAll(Gm(c));
    mm.End();
    for (size_t i = 0; i < want.c.size(); ++i) {
      const float rounded =
          static_cast<float>(O(static_cast<float>(want.c[i])));
      ASSERT_EQ(static_cast<float>(c[i]), rounded)
          << normgrad_ascendc::TypeName<O>() << " C, element " << i;
    }
  };
  run(half(0.0f));
  run(bfloat16_t(0.0f));
}

// ---- MxMatmul ---------------------------------------------------------------

// The scale layouts of the MxMatmul guide page, one fp8_e8m0_t per 32 of K
// (kp = 2 · ⌈K/64⌉ of them a row or column): scaleA (m, kb) as [M, kp] or,
// transposed, [⌈K/64⌉, M, 2]; scaleB (kb, n) as [⌈K/64⌉, N, 2] or,
// transposed, [N, kp].
size_t ScaleAAt(int m, int kb, int rows, int kp, bool trans) {
  return trans ? size_t{1} * (kb / 2) * rows * 2 + m * 2 + kb % 2
               : size_t{1} * m * kp + kb;
}
size_t ScaleBAt(int kb, int n, int cols, int kp, bool trans) {
  return trans ? size_t{1} * n * kp + kb
               : size_t{1} * (kb / 2) * cols * 2 + n * 2 + kb % 2;
}

// C = (scaleA ⊗ A)(scaleB ⊗ B) + bias for MXFP8 operands, against float64:
// small-integer elements and scales 2^-1 .. 2^1 keep every partial sum exact
// in float, so the result must be exact.
template <typename TA, typename TB, bool kTransA, bool kTransB, bool kTransSA,
          bool kTransSB>
void CheckMx(int m, int n, int k, int base_m, int base_n, int base_k,
             uint32_t seed) {
  std::mt19937 rng(seed);
  const Matrix a = Fill<TA>(m, k, true, rng), b = Fill<TB>(k, n, true, rng);
  const int kp = (k + 63) / 64 * 2;
  std::uniform_int_distribution<int> code(126, 128);
  std::vector<fp8_e8m0_t> sa(size_t{1} * m * kp), sb(size_t{1} * n * kp);
  std::vector<double> sav(size_t{1} * m * kp), sbv(size_t{1} * n * kp);
  for (int i = 0; i < m; ++i) {
    for (int kb = 0; kb < kp; ++kb) {
      const int c = code(rng);
      sa[ScaleAAt(i, kb, m, kp, kTransSA)] = fp8_e8m0_t::FromBits(c);
      sav[size_t{1} * i * kp + kb] = std::ldexp(1.0, c - 127);
    }
  }
  for (int j = 0; j < n; ++j) {
    for (int kb = 0; kb < kp; ++kb) {
      const int c = code(rng);
      sb[ScaleBAt(kb, j, n, kp, kTransSB)] = fp8_e8m0_t::FromBits(c);
      sbv[size_t{1} * j * kp + kb] = std::ldexp(1.0, c - 127);
    }
  }
  std::vector<float> bias(n);
  for (int j = 0; j < n; ++j) bias[j] = static_cast<float>((j % 7) - 3);
  std::vector<double> want(size_t{1} * m * n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = bias[j];
      for (int q = 0; q < k; ++q) {
        sum += sav[size_t{1} * i * kp + q / 32] * a.at(i, q) *
               sbv[size_t{1} * j * kp + q / 32] * b.at(q, j);
      }
      want[size_t{1} * i * n + j] = sum;
    }
  }
  using G = TPosition;
  using AType =
      AscendC::MatmulTypeWithScale<G::GM, G::GM, CubeFormat::ND, TA, kTransA,
                                   G::GM, CubeFormat::ND, kTransSA>;
  using BType =
      AscendC::MatmulTypeWithScale<G::GM, G::GM, CubeFormat::ND, TB, kTransB,
                                   G::GM, CubeFormat::ND, kTransSB>;
  using CType = MatmulType<G::GM, CubeFormat::ND, float>;
  std::vector<TA> as = Stored<TA>(a, kTransA, false);
  std::vector<TB> bs = Stored<TB>(b, kTransB, false);
  std::vector<float> c(size_t{1} * m * n, -1.0f);
  const TCubeTiling tiling = Tiling(m, n, k, base_m, base_n, base_k);
  TPipe pipe;
  Matmul<AType, BType, CType, CType, AscendC::CFG_NORM,
         AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
         AscendC::Impl::Detail::MatmulWithScalePolicy>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(as), kTransA);
  mm.SetTensorB(Gm(bs), kTransB);
  mm.SetTensorScaleA(Gm(sa), kTransSA);
  mm.SetTensorScaleB(Gm(sb), kTransSB);
  mm.SetBias(Gm(bias));
  mm.IterateAll(Gm(c));
  mm.End();
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(static_cast<double>(c[i]), want[i])
        << normgrad_ascendc::TypeName<TA>() << " x "
        << normgrad_ascendc::TypeName<TB>() << (kTransA ? " A^T" : "")
        << (kTransB ? " B^T" : "") << (kTransSA ? " scaleA^T" : "")
        << (kTransSB ? " scaleB^T" : "") << ", element " << i;
  }
}

TEST_F(MatmulOperand950Test, MxMatmulScalesEachOperandAlongK) {
  // Tails in M and N, two K steps, every orientation of A, B and their
  // scales.
  CheckMx<fp8_e4m3fn_t, fp8_e5m2_t, false, false, false, false>(48, 40, 128, 32,
                                                                32, 64, 21);
  CheckMx<fp8_e5m2_t, fp8_e4m3fn_t, true, true, true, true>(33, 17, 128, 32, 16,
                                                            64, 22);
  CheckMx<fp8_e4m3fn_t, fp8_e4m3fn_t, true, false, false, true>(64, 48, 192, 64,
                                                                32, 64, 23);
  CheckMx<fp8_e5m2_t, fp8_e5m2_t, false, true, true, false>(16, 64, 64, 16, 64,
                                                            64, 24);
}

TEST_F(MatmulOperand950Test, MxMatmulRulesAreChecked) {
  using G = TPosition;
  using A =
      AscendC::MatmulTypeWithScale<G::GM, G::GM, CubeFormat::ND, fp8_e4m3fn_t>;
  using C = MatmulType<G::GM, CubeFormat::ND, float>;
  using Mx = Matmul<A, A, C, C, AscendC::CFG_NORM,
                    AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
                    AscendC::Impl::Detail::MatmulWithScalePolicy>;
  std::vector<fp8_e4m3fn_t> x(64 * 96, fp8_e4m3fn_t::FromBits(0));
  std::vector<fp8_e8m0_t> scales(64 * 4, fp8_e8m0_t::FromBits(127));
  std::vector<float> c(64 * 64);
  TPipe pipe;
  {
    const TCubeTiling t = Tiling(32, 32, 64, 32, 32, 64, false);
    Mx mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(Gm(x));
    mm.SetTensorB(Gm(x));
    mm.SetTensorScaleA(Gm(scales));
    EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                          "Matmul::IterateAll: the scales of B are not set; "
                          "call SetTensorScaleB first"));
    EXPECT_TRUE(FailsWith(
        [&] { mm.SetTensorScaleB(Gm(scales), true); },
        "Matmul::SetTensorScaleB: isTransposeScaleB is true, but B_TYPE's "
        "SCALE_ISTRANS is false"));
    std::vector<fp8_e8m0_t> few(16);
    EXPECT_TRUE(FailsWith([&] { mm.SetTensorScaleB(Gm(few)); },
                          "Matmul::SetTensorScaleB: the scale tensor holds 16 "
                          "fp8_e8m0_t; the single shape needs at least "
                          "singleCoreN x 2 x ceil(K / 64) = 64"));
  }
}

// A bfloat16_t bias (the 950's rows), widened exactly to float in the bias
// table, for 16- and 32-bit and 8-bit float operands.
template <typename T>
void CheckBfloat16Bias() {
  const int m = 40, n = 48, k = 64;
  std::mt19937 rng(17);
  const Matrix a = Fill<T>(m, k, true, rng), b = Fill<T>(k, n, true, rng);
  std::vector<double> bias(n);
  std::vector<bfloat16_t> bias_v;
  for (int j = 0; j < n; ++j) {
    bias[j] = (j % 11) - 5;
    bias_v.push_back(bfloat16_t(static_cast<float>(bias[j])));
  }
  using AB = MatmulType<TPosition::GM, CubeFormat::ND, T>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  using Bias = MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>;
  std::vector<T> as = Stored<T>(a, false, false),
                 bs = Stored<T>(b, false, false);
  std::vector<float> c(size_t{1} * m * n, -1.0f);
  const TCubeTiling tiling = Tiling(m, n, k, 32, 32, 32);
  TPipe pipe;
  Matmul<AB, AB, C, Bias> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(as));
  mm.SetTensorB(Gm(bs));
  mm.SetBias(Gm(bias_v));
  mm.IterateAll(Gm(c));
  mm.End();
  ExpectExact(c, Reference(a, b, bias), normgrad_ascendc::TypeName<T>());
}

TEST_F(MatmulOperand950Test, Bfloat16BiasRows) {
  CheckBfloat16Bias<half>();
  CheckBfloat16Bias<bfloat16_t>();
  CheckBfloat16Bias<float>();
  CheckBfloat16Bias<fp8_e5m2_t>();
}

TEST_F(MatmulOperandTest, Bfloat16BiasIsThe950s) {
  using AB = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  using Bias = MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>;
  const TCubeTiling t = Tiling(32, 32, 32, 32, 32, 32);
  TPipe pipe;
  Matmul<AB, AB, C, Bias> mm;
  EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                        "Matmul::Init: the type row (A half, B half, bias "
                        "bfloat16_t, C float) is the Ascend 950's"));
}

TEST_F(MatmulOperand950Test, TscmOperandsAreReadInPlace) {
  // A as [K, M] at TSCM for every width, and float B as [K, N]: the 950
  // transposes the squares of the whole Nz matrix (float too, which Atlas
  // A2/A3 refuses).
  const int m = 48, n = 80, k = 64;
  std::mt19937 rng(9);
  const TCubeTiling tiling = Tiling(m, n, k, 32, 32, 32);
  std::vector<double> bias(n);
  for (int j = 0; j < n; ++j) bias[j] = (j % 5) - 2;
  {
    const Matrix a = Fill<half>(m, k, true, rng),
                 b = Fill<half>(k, n, true, rng);
    ExpectExact(RunTscm<half, true, true, true, true>(a, b, bias, tiling),
                Reference(a, b, bias), "half A [K, M] and B [N, K] at TSCM");
  }
  {
    const Matrix a = Fill<float>(m, k, true, rng),
                 b = Fill<float>(k, n, true, rng);
    ExpectExact(RunTscm<float, true, false, true, true>(a, b, bias, tiling),
                Reference(a, b, bias), "float A [K, M] at TSCM");
    ExpectExact(RunTscm<float, false, true, false, false>(a, b, bias, tiling),
                Reference(a, b, bias), "float B [K, N] at TSCM");
  }
  {
    const Matrix a = Fill<int8_t>(64, k, true, rng),
                 b = Fill<int8_t>(k, n, true, rng);
    ExpectExact(RunTscm<int8_t, true, false, true, true>(
                    a, b, bias, Tiling(64, n, k, 32, 32, 32)),
                Reference(a, b, bias), "int8_t A [K, M] at TSCM");
  }
}

TEST_F(MatmulOperand950Test, PlacesThe950DoesNotTakeAreRefused) {
  using HalfGm = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using FloatGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  using Co1 = MatmulType<TPosition::CO1, CubeFormat::NZ, float>;
  const TCubeTiling t = Tiling(32, 32, 32, 32, 32, 32, false);
  TPipe pipe;
  Matmul<HalfGm, HalfGm, Co1, FloatGm> mm;
  EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                        "Matmul::Init: C_TYPE at CO1 is not one C takes on "
                        "profile Ascend 950 (GM or VECIN)"));
}

TEST_F(MatmulOperandTest, EightBitFloatRowsAreThe950s) {
  using A = MatmulType<TPosition::GM, CubeFormat::ND, fp8_e4m3fn_t>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  const TCubeTiling t = Tiling(32, 32, 64, 32, 32, 64, false);
  TPipe pipe;
  Matmul<A, A, C, C> mm;
  EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                        "Matmul::Init: the type row (A fp8_e4m3fn_t, B "
                        "fp8_e4m3fn_t, bias float, C float) is the Ascend "
                        "950's; Atlas A2/A3 has no 8-bit float Mmad and no "
                        "bfloat16_t bias"));
}

TEST_F(MatmulOperand950Test, Int4IsRefused) {
  using AscendC::int4b_t;
  using A = MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  const TCubeTiling t = Tiling(32, 32, 64, 32, 32, 64, false);
  TPipe pipe;
  Matmul<A, A, C, C> mm;
  EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                        "Matmul::Init: int4b_t operands on profile Ascend "
                        "950: its cube has no int4b_t Mmad"));
}

}  // namespace
