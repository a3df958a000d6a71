// matmul_mx_test.cc — MxMatmul (docs/matmul.md, "MxMatmul") beyond the
// MXFP8 operands with K a multiple of 64 that matmul_operand_test.cc covers:
// K tails (the last scale group partial, the scales padded to even).
//
// The oracle is the pages' definition in float64, written here: C(i, j) =
// bias(j) + Σ_q a(i, q) · 2^(sa(i, q/32) − 127) · b(q, j) · 2^(sb(q/32, j) −
// 127). The elements are small values of their type and the scales 2^-1 ..
// 2^1, so every partial sum is exact in float and the result must equal the
// oracle exactly, in every orientation of A, B and their scales.
//
// Extending: a new operand form or shape is one more Case in its test; a
// new rule a FailsWith line with its message.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
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
using AscendC::TPipe;
using AscendC::TPosition;
using normgrad_ascendc::Float8Kind;

using MatmulMx950Test = matmul_test::CubeCore950Test;

// The element kind of an MX operand type.
template <typename T>
constexpr Float8Kind kKind =
    std::is_same_v<T, fp8_e4m3fn_t>   ? Float8Kind::kE4m3fn
    : std::is_same_v<T, fp8_e5m2_t>   ? Float8Kind::kE5m2
    : std::is_same_v<T, fp4x2_e2m1_t> ? Float8Kind::kE2m1
                                      : Float8Kind::kE1m2;
template <typename T>
constexpr bool kFour =
    kKind<T> == Float8Kind::kE2m1 || kKind<T> == Float8Kind::kE1m2;

// The codes of T whose values are small: the integers -4 .. 4 of the 8-bit
// floats, every (finite) code of the 4-bit ones.
template <typename T>
std::vector<uint8_t> SmallCodes() {
  std::vector<uint8_t> codes;
  const int count = kFour<T> ? 16 : 256;
  for (int code = 0; code < count; ++code) {
    const double v =
        normgrad_ascendc::DecodeFloat8(kKind<T>, static_cast<uint8_t>(code));
    if (kFour<T> || (std::abs(v) <= 4 && v == std::floor(v))) {
      codes.push_back(static_cast<uint8_t>(code));
    }
  }
  return codes;
}

// A logical rows × cols matrix of codes of T (row major) and its values.
struct Codes {
  int rows = 0, cols = 0;
  std::vector<uint8_t> code;
  std::vector<double> value;
  double at(int r, int c) const { return value[size_t{1} * r * cols + c]; }
};

template <typename T>
Codes RandomCodes(int rows, int cols, std::mt19937& rng) {
  const std::vector<uint8_t> small = SmallCodes<T>();
  std::uniform_int_distribution<size_t> pick(0, small.size() - 1);
  Codes x{rows, cols, {}, {}};
  for (int i = 0; i < rows * cols; ++i) {
    const uint8_t code = small[pick(rng)];
    x.code.push_back(code);
    x.value.push_back(normgrad_ascendc::DecodeFloat8(kKind<T>, code));
  }
  return x;
}

// The matrix as GM holds it, transposed or not, in ND or in NZ (column
// blocks of 32 bytes, each of the stored rows rounded up to 16, zeros
// between): one code a byte, or two a byte (element 2i in the low nibble)
// for the 4-bit types.
template <typename T>
std::vector<T> Stored(const Codes& x, bool trans, bool nz) {
  const int rows = trans ? x.cols : x.rows, cols = trans ? x.rows : x.cols;
  const int c0 = kFour<T> ? 64 : 32, height = (rows + 15) / 16 * 16;
  const int blocks = (cols + c0 - 1) / c0;
  std::vector<uint8_t> codes(nz ? size_t{1} * blocks * height * c0
                                : size_t{1} * rows * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const size_t at = nz ? (size_t{1} * (c / c0) * height + r) * c0 + c % c0
                           : size_t{1} * r * cols + c;
      codes[at] = trans ? x.code[size_t{1} * c * x.cols + r]
                        : x.code[size_t{1} * r * x.cols + c];
    }
  }
  std::vector<T> out;
  if constexpr (kFour<T>) {
    for (size_t i = 0; i < codes.size(); i += 2) {
      out.push_back(
          T::FromBits(static_cast<uint8_t>(codes[i] | (codes[i + 1] << 4))));
    }
  } else {
    for (const uint8_t code : codes) out.push_back(T::FromBits(code));
  }
  return out;
}

// An MxMatmul case: the shape, the base blocks and the orientations of the
// scales (A's and B's are the test's template arguments: for 8-bit and
// 4-bit types SetTensorA/B's transpose must equal ISTRANS).
struct Case {
  int m, n, k, base_m, base_n, base_k;
  bool trans_sa, trans_sb;
};

// The scale layouts of the guide's MxMatmul page (kp = 2 · ⌈K/64⌉ scales a
// row of M or N): scaleA (i, kb) as [M, kp] or, transposed, [⌈K/64⌉, M, 2];
// scaleB (kb, j) as [⌈K/64⌉, N, 2] or, transposed, [N, kp].
size_t ScaleAt(bool is_a, int mn, int kb, int rows, int kp, bool trans) {
  const bool pairs_outer = is_a == trans;
  return pairs_outer ? size_t{1} * (kb / 2) * rows * 2 + mn * 2 + kb % 2
                     : size_t{1} * mn * kp + kb;
}

// A stored matrix into an L1 tensor the way a kernel fills TSCM: its NZ
// bytes moved as they are.
template <typename T>
AscendC::LocalTensor<T> ToTscm(TPipe& pipe, AscendC::TBuf<TPosition::A1>& buf,
                               std::vector<T>& stored) {
  const uint32_t bytes = static_cast<uint32_t>((stored.size() + 31) / 32 * 32);
  pipe.InitBuffer(buf, bytes);
  const AscendC::LocalTensor<T> l1 = buf.Get<T>();
  AscendC::DataCopyParams move;
  move.blockLen = static_cast<uint16_t>(stored.size() / 32);
  AscendC::DataCopy(l1, Gm(stored), move);
  return l1;
}

// kFormat: A's and B's format in GM (VECTOR: A and scaleA in VECTOR, B in
// ND); kScmA (kScmB): A (B) at TSCM instead,
// in NZ.
template <typename TA, typename TB, bool kTransA, bool kTransB,
          CubeFormat kFormat = CubeFormat::ND, bool kScmA = false,
          bool kScmB = false,
          const AscendC::MatmulConfig& kCfg = AscendC::CFG_NORM>
void CheckMx(const Case& t, uint32_t seed) {
  std::mt19937 rng(seed);
  const Codes a = RandomCodes<TA>(t.m, t.k, rng);
  const Codes b = RandomCodes<TB>(t.k, t.n, rng);
  // ⌈K/32⌉ scales of the operand's, then the zeros the page has the user
  // pad them with to an even count.
  const int groups = (t.k + 31) / 32, kp = (t.k + 63) / 64 * 2;
  std::uniform_int_distribution<int> code(126, 128);
  std::vector<fp8_e8m0_t> sa(size_t{1} * t.m * kp), sb(size_t{1} * t.n * kp);
  std::vector<double> sav(sa.size()), sbv(sb.size());  // [mn][kb]
  const auto scales = [&](bool is_a, int rows, std::vector<fp8_e8m0_t>& s,
                          std::vector<double>& sv, bool trans) {
    for (int i = 0; i < rows; ++i) {
      for (int kb = 0; kb < kp; ++kb) {
        const int c = kb < groups ? code(rng) : 0;
        s[ScaleAt(is_a, i, kb, rows, kp, trans)] =
            fp8_e8m0_t::FromBits(static_cast<uint8_t>(c));
        sv[size_t{1} * i * kp + kb] = std::ldexp(1.0, c - 127);
      }
    }
  };
  scales(true, t.m, sa, sav, t.trans_sa);
  scales(false, t.n, sb, sbv, t.trans_sb);
  std::vector<float> bias(t.n);
  for (int j = 0; j < t.n; ++j) bias[j] = static_cast<float>((j % 7) - 3);
  std::vector<double> want(size_t{1} * t.m * t.n);
  for (int i = 0; i < t.m; ++i) {
    for (int j = 0; j < t.n; ++j) {
      double sum = bias[j];
      for (int q = 0; q < t.k; ++q) {
        sum += a.at(i, q) * sav[size_t{1} * i * kp + q / 32] * b.at(q, j) *
               sbv[size_t{1} * j * kp + q / 32];
      }
      want[size_t{1} * i * t.n + j] = sum;
    }
  }
  using G = TPosition;
  constexpr bool kGemv = kFormat == CubeFormat::VECTOR;
  using AType = AscendC::MatmulTypeWithScale<
      kScmA ? G::TSCM : G::GM, G::GM, kScmA ? CubeFormat::NZ : kFormat, TA,
      kTransA, G::GM, kGemv ? CubeFormat::VECTOR : CubeFormat::ND, !kGemv>;
  using BType =
      AscendC::MatmulTypeWithScale<kScmB ? G::TSCM : G::GM, G::GM,
                                   kScmB   ? CubeFormat::NZ
                                   : kGemv ? CubeFormat::ND
                                           : kFormat,
                                   TB, kTransB, G::GM, CubeFormat::ND, true>;
  constexpr bool kNz = kFormat == CubeFormat::NZ;
  using CType = MatmulType<G::GM, CubeFormat::ND, float>;
  std::vector<TA> as = Stored<TA>(a, kTransA, kNz || kScmA);
  std::vector<TB> bs = Stored<TB>(b, kTransB, kNz || kScmB);
  std::vector<float> c(size_t{1} * t.m * t.n, -1.0f);
  const TCubeTiling tiling =
      Tiling(t.m, t.n, t.k, t.base_m, t.base_n, t.base_k);
  TPipe pipe;
  Matmul<AType, BType, CType, CType, kCfg,
         AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
         AscendC::Impl::Detail::MatmulWithScalePolicy>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TBuf<TPosition::A1> a_l1, b_l1;
  if constexpr (kScmA) {
    mm.SetTensorA(ToTscm(pipe, a_l1, as), kTransA);
  } else {
    mm.SetTensorA(Gm(as), kTransA);
  }
  if constexpr (kScmB) {
    mm.SetTensorB(ToTscm(pipe, b_l1, bs), kTransB);
  } else {
    mm.SetTensorB(Gm(bs), kTransB);
  }
  mm.SetTensorScaleA(Gm(sa), t.trans_sa);
  mm.SetTensorScaleB(Gm(sb), t.trans_sb);
  mm.SetBias(Gm(bias));
  mm.IterateAll(Gm(c));
  mm.End();
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(static_cast<double>(c[i]), want[i])
        << normgrad_ascendc::TypeName<TA>() << " x "
        << normgrad_ascendc::TypeName<TB>() << " " << t.m << "x" << t.n << "x"
        << t.k << " base " << t.base_m << "x" << t.base_n << "x" << t.base_k
        << (kNz ? " NZ" : "") << (kScmA ? " A at TSCM" : "")
        << (kScmB ? " B at TSCM" : "") << (kTransA ? " A^T" : "")
        << (kTransB ? " B^T" : "") << (t.trans_sa ? " scaleA^T" : "")
        << (t.trans_sb ? " scaleB^T" : "") << ", element " << i;
  }
}

TEST_F(MatmulMx950Test, KTailsArePaddedWithZerosToSixtyFour) {
  // K below one scale group, an odd group count (the scales padded with a
  // zero scale), a tail after a full step, and a partial last group, in
  // every orientation of A, B and the scales, with tails in M and N.
  CheckMx<fp8_e4m3fn_t, fp8_e5m2_t, false, false>(
      {16, 32, 30, 16, 32, 64, false, false}, 31);
  CheckMx<fp8_e5m2_t, fp8_e4m3fn_t, true, true>(
      {33, 17, 96, 32, 16, 64, true, true}, 32);
  CheckMx<fp8_e4m3fn_t, fp8_e4m3fn_t, true, false>(
      {40, 48, 160, 32, 32, 128, false, true}, 33);
  CheckMx<fp8_e5m2_t, fp8_e5m2_t, false, true>(
      {24, 40, 100, 16, 32, 64, true, false}, 34);
  // K rows past the tail in a block whose stored rows run along K: the
  // rows the step before left there must read as zeros (their scale group
  // is the operand's, not a padding zero).
  CheckMx<fp8_e4m3fn_t, fp8_e5m2_t, true, false>(
      {32, 32, 100, 32, 32, 64, false, true}, 35);
}

TEST_F(MatmulMx950Test, Mxfp4InEveryOrientation) {
  // Two 4-bit elements a byte in GM; 64-element fractals along K, loaded
  // by 64 x 64 squares where the stored rows run along K (fewer than four
  // 16s of M or N overhang); the pairs mixed, K steps and tails.
  CheckMx<fp4x2_e2m1_t, fp4x2_e2m1_t, false, true>(
      {48, 32, 128, 32, 32, 64, false, true}, 41);
  CheckMx<fp4x2_e1m2_t, fp4x2_e2m1_t, true, false>(
      {34, 20, 192, 32, 16, 128, true, false}, 42);
  CheckMx<fp4x2_e2m1_t, fp4x2_e1m2_t, true, true>(
      {40, 48, 100, 32, 48, 64, false, false}, 43);
  CheckMx<fp4x2_e1m2_t, fp4x2_e1m2_t, false, false>(
      {18, 64, 64, 16, 64, 64, true, true}, 44);
}

TEST_F(MatmulMx950Test, OperandsInNz) {
  // A and B in GM in NZ (M, N to 16, K to C0: 32 for MXFP8, 64 for MXFP4),
  // either orientation, with base-block tails in M and N and a K tail of
  // 32.
  CheckMx<fp8_e4m3fn_t, fp8_e5m2_t, false, true, CubeFormat::NZ>(
      {48, 32, 96, 32, 16, 64, false, true}, 51);
  CheckMx<fp8_e5m2_t, fp8_e5m2_t, true, false, CubeFormat::NZ>(
      {48, 48, 96, 32, 32, 64, true, false}, 52);
  CheckMx<fp4x2_e2m1_t, fp4x2_e1m2_t, false, true, CubeFormat::NZ>(
      {48, 32, 192, 32, 16, 128, false, false}, 53);
  CheckMx<fp4x2_e1m2_t, fp4x2_e2m1_t, true, false, CubeFormat::NZ>(
      {32, 128, 128, 32, 64, 64, true, true}, 54);
}

TEST_F(MatmulMx950Test, OperandsAtTscm) {
  // A, B or both already in L1 (NZ), read in place, the scales from GM;
  // the other operand in GM as ND.
  CheckMx<fp8_e4m3fn_t, fp8_e5m2_t, false, true, CubeFormat::ND, true, false>(
      {48, 40, 128, 32, 32, 64, false, true}, 61);
  CheckMx<fp8_e5m2_t, fp8_e4m3fn_t, true, false, CubeFormat::ND, true, true>(
      {32, 48, 128, 32, 32, 64, true, false}, 62);
  CheckMx<fp4x2_e2m1_t, fp4x2_e2m1_t, false, true, CubeFormat::ND, false, true>(
      {40, 32, 128, 32, 16, 128, false, false}, 63);
  CheckMx<fp4x2_e1m2_t, fp4x2_e2m1_t, true, false, CubeFormat::ND, true, true>(
      {64, 64, 128, 64, 64, 64, true, true}, 64);
}

TEST_F(MatmulMx950Test, GemvWithAAndScaleAInVector) {
  // One row of A and of its scales (CubeFormat::VECTOR), K in two steps
  // with a tail.
  CheckMx<fp8_e4m3fn_t, fp8_e5m2_t, false, false, CubeFormat::VECTOR>(
      {1, 40, 160, 16, 32, 128, false, true}, 71);
  CheckMx<fp4x2_e2m1_t, fp4x2_e1m2_t, false, true, CubeFormat::VECTOR>(
      {1, 32, 128, 16, 32, 64, false, false}, 72);
}

TEST_F(MatmulMx950Test, MdlTemplate) {
  // The guide's MxMatmul kernel declares CFG_MDL: MXFP8 and MXFP4, K tails.
  CheckMx<fp8_e5m2_t, fp8_e4m3fn_t, false, true, CubeFormat::ND, false, false,
          AscendC::CFG_MDL>({48, 40, 160, 32, 32, 64, true, false}, 81);
  CheckMx<fp4x2_e2m1_t, fp4x2_e1m2_t, true, false, CubeFormat::ND, false, false,
          AscendC::CFG_MDL>({34, 20, 100, 32, 16, 64, false, true}, 82);
}

TEST_F(MatmulMx950Test, TscmNeedsScalesInPairs) {
  using G = TPosition;
  using A =
      AscendC::MatmulTypeWithScale<G::TSCM, G::GM, CubeFormat::NZ, fp8_e4m3fn_t,
                                   false, G::GM, CubeFormat::ND>;
  using B =
      AscendC::MatmulTypeWithScale<G::GM, G::GM, CubeFormat::ND, fp8_e4m3fn_t>;
  using C = MatmulType<G::GM, CubeFormat::ND, float>;
  std::vector<fp8_e4m3fn_t> x(32 * 96);
  std::vector<fp8_e8m0_t> scales(32 * 4, fp8_e8m0_t::FromBits(127));
  std::vector<float> c(32 * 32);
  const TCubeTiling t = Tiling(32, 32, 96, 32, 32, 64, false);
  TPipe pipe;
  Matmul<A, B, C, C, AscendC::CFG_NORM,
         AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
         AscendC::Impl::Detail::MatmulWithScalePolicy>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
  AscendC::TBuf<TPosition::A1> a_l1;
  mm.SetTensorA(ToTscm(pipe, a_l1, x));
  mm.SetTensorB(Gm(x));
  mm.SetTensorScaleA(Gm(scales));
  mm.SetTensorScaleB(Gm(scales));
  EXPECT_TRUE(compat_test::FailsWith(
      [&] { mm.IterateAll(Gm(c)); },
      "Matmul::IterateAll: MxMatmul with A or B at TSCM and singleCoreK 96: "
      "K rounded up to 32 must be an even number of 32s"));
}

TEST_F(MatmulMx950Test, Mxfp4InnerAxisIsEven) {
  using G = TPosition;
  using A = AscendC::MatmulTypeWithScale<G::GM, G::GM, CubeFormat::ND,
                                         fp4x2_e2m1_t, true>;
  using C = MatmulType<G::GM, CubeFormat::ND, float>;
  std::vector<fp4x2_e2m1_t> x(64 * 64);
  std::vector<fp8_e8m0_t> scales(64 * 2, fp8_e8m0_t::FromBits(127));
  std::vector<float> c(33 * 32);
  const TCubeTiling t = Tiling(33, 32, 64, 48, 32, 64, false);
  TPipe pipe;
  Matmul<A, A, C, C, AscendC::CFG_NORM,
         AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
         AscendC::Impl::Detail::MatmulWithScalePolicy>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
  mm.SetTensorA(Gm(x), true);  // [K, M] with M 33
  mm.SetTensorB(Gm(x), true);
  mm.SetTensorScaleA(Gm(scales));
  mm.SetTensorScaleB(Gm(scales));
  EXPECT_TRUE(compat_test::FailsWith(
      [&] { mm.IterateAll(Gm(c)); },
      "Matmul: A of fp4x2_e2m1_t has an odd number of elements along its "
      "inner axis (orgM 33, a block of 33); fp4x2_e2m1_t matrices have an "
      "even inner axis"));
}

TEST_F(MatmulMx950Test, ScaleTensorRuleCountsTheScalesPaddedToEven) {
  // K 96 has three scale groups, which the page has padded to four.
  using G = TPosition;
  using A =
      AscendC::MatmulTypeWithScale<G::GM, G::GM, CubeFormat::ND, fp8_e4m3fn_t>;
  using C = MatmulType<G::GM, CubeFormat::ND, float>;
  std::vector<fp8_e8m0_t> three(32 * 3);
  const TCubeTiling t = Tiling(32, 32, 96, 32, 32, 64, false);
  TPipe pipe;
  Matmul<A, A, C, C, AscendC::CFG_NORM,
         AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
         AscendC::Impl::Detail::MatmulWithScalePolicy>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
  EXPECT_TRUE(compat_test::FailsWith(
      [&] { mm.SetTensorScaleA(Gm(three)); },
      "Matmul::SetTensorScaleA: the scale tensor holds 96 fp8_e8m0_t; the "
      "single shape needs at least singleCoreM x 2 x ceil(K / 64) = 128"));
}

}  // namespace
