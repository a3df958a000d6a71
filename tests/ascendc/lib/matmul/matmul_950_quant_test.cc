// matmul_950_quant_test.cc — the Ascend 950's quantized Matmul rows
// (docs/matmul.md, "The Ascend 950's quantized rows"): C in fp8_e4m3fn_t
// from E4M3 / E5M2 inputs, C in hifloat8_t from HiFloat8 inputs, and int8_t
// inputs with an int32_t bias into bfloat16_t, each with SetQuantScalar and
// SetQuantVector, with tails in M, N and K, C in ND, ND_ALIGN and NZ; and
// their refusals (Atlas A2/A3, no parameter, MxMatmul).
//
// The oracle is written here: small-integer inputs make every sum exact
// (int64), and scales of 11 significant bits keep sum × scale exact in
// float; that float is rounded once into C's type, by the runtime's encoders
// of runtime/float8.h (E4M3, and HiFloat8 half away from zero) or by a
// round to nearest even into bfloat16_t written below.
//
// Extending: a new row gets a Check* line in its test; a new rule a
// FailsWith line with its message.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

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
using matmul_test::Tiling;
using matmul_test::ToElement;

using AscendC::CubeFormat;
using AscendC::Matmul;
using AscendC::MatmulType;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

using Matmul950QuantTest = matmul_test::CubeCore950Test;

// The same rows on Atlas A2/A3, which lacks them.
using Matmul950QuantOnA2Test = matmul_test::CubeCoreTest;

// A scale with 11 significant bits (the parameter keeps bits 13..31 of the
// float; these keep fewer, so sum × scale is exact in float).
float Scale(float s) {
  uint32_t bits;
  std::memcpy(&bits, &s, 4);
  bits &= 0xFFFFE000u;
  std::memcpy(&s, &bits, 4);
  return s;
}

uint64_t QuantParam(float scale) {
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  return bits;
}

// v to bfloat16_t's code, to nearest with ties to even (v finite).
uint16_t Bfloat16Code(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

// C's code for the exact float `v`.
template <typename C>
uint32_t Expected(float v) {
  if constexpr (std::is_same_v<C, fp8_e4m3fn_t>) {
    return normgrad_ascendc::EncodeFp8E4m3fn(v);
  } else if constexpr (std::is_same_v<C, hifloat8_t>) {
    return normgrad_ascendc::EncodeHif8(v,
                                        normgrad_ascendc::Hif8Round::kHalfAway);
  } else if constexpr (std::is_same_v<C, float>) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return bits;
  } else {
    return Bfloat16Code(v);
  }
}

template <typename C>
uint32_t CodeOf(const C& c) {
  if constexpr (sizeof(C) == 1) {
    uint8_t code;
    std::memcpy(&code, &c, 1);
    return code;
  } else if constexpr (sizeof(C) == 2) {
    uint16_t code;
    std::memcpy(&code, &c, 2);
    return code;
  } else {
    uint32_t code;
    std::memcpy(&code, &c, 4);
    return code;
  }
}

// kNone: C in float, not quantized.
enum class Quant { kNone, kScalar, kVector };

// One row: A [M, K] and B [K, N] in GM as ND, a bias, C in `kFormat` (ND
// rows N long, ND_ALIGN rows rounded to 32 bytes, NZ column blocks of 16),
// through IterateAll with the parameter `quant`; every element must be the
// oracle's code.
template <typename TA, typename TB, typename TBias, typename TC,
          CubeFormat kFormat = CubeFormat::ND>
void Check(int m, int n, int k, int base_m, int base_n, int base_k, Quant quant,
           uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-3, 3);
  std::vector<int> av(size_t{1} * m * k), bv(size_t{1} * k * n), biasv(n);
  for (int& x : av) x = value(rng);
  for (int& x : bv) x = value(rng);
  for (int& x : biasv) x = value(rng);
  std::vector<TA> a;
  std::vector<TB> b;
  std::vector<TBias> bias;
  for (int x : av) a.push_back(ToElement<TA>(x));
  for (int x : bv) b.push_back(ToElement<TB>(x));
  for (int x : biasv) bias.push_back(ToElement<TBias>(x));
  // Per column: 0.05 .. 0.33 (vector), or one 0.3 (scalar): products land
  // between the codes, so the rounding shows.
  std::vector<float> scale(n);
  std::vector<uint64_t> params(n);
  for (int j = 0; j < n; ++j) {
    scale[j] =
        quant == Quant::kNone
            ? 1.0f
            : Scale(quant == Quant::kVector ? 0.05f + 0.07f * (j % 5) : 0.3f);
    params[j] = QuantParam(scale[j]);
  }
  // Where C's element (i, j) lies.
  constexpr int per32 = 32 / sizeof(TC);
  const int row =
      kFormat == CubeFormat::ND_ALIGN ? (n + per32 - 1) / per32 * per32 : n;
  const int col_rows = (m + 15) / 16 * 16;
  const auto at = [&](int i, int j) -> size_t {
    if (kFormat == CubeFormat::COLUMN_MAJOR) return size_t{1} * j * m + i;
    if (kFormat == CubeFormat::NZ) {
      return size_t{1} * (j / 16) * col_rows * 16 + i * 16 + j % 16;
    }
    return size_t{1} * i * row + j;
  };
  const size_t c_size = kFormat == CubeFormat::NZ
                            ? size_t{1} * (n + 15) / 16 * col_rows * 16
                            : size_t{1} * m * row;
  using A = MatmulType<TPosition::GM, CubeFormat::ND, TA>;
  using B = MatmulType<TPosition::GM, CubeFormat::ND, TB>;
  using Bias = MatmulType<TPosition::GM, CubeFormat::ND, TBias>;
  using C = MatmulType<TPosition::GM, kFormat, TC>;
  const TCubeTiling tiling = Tiling(m, n, k, base_m, base_n, base_k);
  // C on a 32-byte boundary (Fixpipe's NZ output needs it).
  std::vector<uint8_t> c_bytes(c_size * sizeof(TC) + 32, 0x55);
  uint8_t* c_start = c_bytes.data();
  while (reinterpret_cast<uintptr_t>(c_start) % 32 != 0) ++c_start;
  TC* c = reinterpret_cast<TC*>(c_start);
  AscendC::GlobalTensor<TC> c_gm;
  c_gm.SetGlobalBuffer(c, c_size);
  TPipe pipe;
  Matmul<A, B, C, Bias> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetBias(Gm(bias));
  if (quant == Quant::kVector) {
    mm.SetQuantVector(Gm(params));
  } else if (quant == Quant::kScalar) {
    mm.SetQuantScalar(params[0]);
  }
  mm.IterateAll(c_gm);
  mm.End();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int64_t sum = biasv[j];
      for (int q = 0; q < k; ++q) {
        sum += int64_t{av[size_t{1} * i * k + q]} * bv[size_t{1} * q * n + j];
      }
      const float exact = static_cast<float>(sum) * scale[j];
      ASSERT_EQ(CodeOf(c[at(i, j)]), Expected<TC>(exact))
          << normgrad_ascendc::TypeName<TC>() << " C (" << i << ", " << j
          << "), sum " << sum << " x " << scale[j];
    }
  }
  // The padding of ND_ALIGN's rows is left as it was.
  const uint32_t untouched = sizeof(TC) == 1 ? 0x55u : 0x5555u;  // 8, 16 bits
  for (int i = 0; i < m && row > n; ++i) {
    ASSERT_EQ(CodeOf(c[size_t{1} * i * row + n]), untouched)
        << "row " << i << "'s padding";
  }
}

TEST_F(Matmul950QuantTest, Fp8InputsIntoFp8E4m3) {
  // QF322FP8_PRE / VQF322FP8_PRE; E4M3 with E5M2 too, tails in M, N and K.
  Check<fp8_e4m3fn_t, fp8_e4m3fn_t, float, fp8_e4m3fn_t>(40, 37, 70, 32, 32, 64,
                                                         Quant::kScalar, 1);
  Check<fp8_e4m3fn_t, fp8_e5m2_t, half, fp8_e4m3fn_t>(33, 50, 100, 32, 48, 64,
                                                      Quant::kVector, 2);
  Check<fp8_e5m2_t, fp8_e5m2_t, bfloat16_t, fp8_e4m3fn_t>(
      16, 64, 64, 16, 32, 32, Quant::kVector, 3);
}

TEST_F(Matmul950QuantTest, Hifloat8InputsIntoHifloat8) {
  // QF322HIF8_PRE / VQF322HIF8_PRE (rounding half away from zero).
  Check<hifloat8_t, hifloat8_t, float, hifloat8_t>(20, 45, 96, 16, 32, 64,
                                                   Quant::kScalar, 4);
  Check<hifloat8_t, hifloat8_t, half, hifloat8_t>(48, 21, 40, 32, 16, 32,
                                                  Quant::kVector, 5);
}

TEST_F(Matmul950QuantTest, Int8InputsIntoBfloat16) {
  // QS322BF16_PRE / VQS322BF16_PRE.
  Check<int8_t, int8_t, int32_t, bfloat16_t>(40, 37, 70, 32, 32, 64,
                                             Quant::kScalar, 6);
  Check<int8_t, int8_t, int32_t, bfloat16_t>(17, 70, 33, 16, 48, 32,
                                             Quant::kVector, 7);
}

TEST_F(Matmul950QuantTest, CInNdAlignAndNz) {
  Check<int8_t, int8_t, int32_t, bfloat16_t, CubeFormat::ND_ALIGN>(
      20, 21, 64, 16, 16, 32, Quant::kScalar, 8);
  Check<int8_t, int8_t, int32_t, bfloat16_t, CubeFormat::NZ>(
      20, 48, 64, 16, 32, 32, Quant::kVector, 9);
  Check<hifloat8_t, hifloat8_t, float, hifloat8_t, CubeFormat::NZ>(
      33, 32, 64, 32, 16, 64, Quant::kScalar, 10);
}

TEST_F(Matmul950QuantTest, CInColumnMajor) {
  // Column after column, orgM apart; any row, tails in M and N.
  Check<half, half, float, float, CubeFormat::COLUMN_MAJOR>(
      40, 37, 70, 32, 32, 32, Quant::kNone, 20);
  Check<int8_t, int8_t, int32_t, bfloat16_t, CubeFormat::COLUMN_MAJOR>(
      17, 50, 64, 16, 32, 32, Quant::kVector, 21);
  Check<fp8_e4m3fn_t, fp8_e5m2_t, float, fp8_e4m3fn_t,
        CubeFormat::COLUMN_MAJOR>(33, 20, 64, 16, 16, 64, Quant::kScalar, 22);
}

TEST_F(Matmul950QuantTest, CInColumnMajorBlockByBlock) {
  // GetTensorC in sequential write mode: each block alone, baseM apart.
  const int m = 24, n = 20, k = 32, base_m = 16, base_n = 16;
  using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using Cm = MatmulType<TPosition::GM, CubeFormat::COLUMN_MAJOR, float>;
  using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  std::vector<half> a(m * k), b(k * n);
  for (int i = 0; i < m * k; ++i) a[i] = half(static_cast<float>(i % 5 - 2));
  for (int i = 0; i < k * n; ++i) b[i] = half(static_cast<float>(i % 3 - 1));
  const TCubeTiling tiling = Tiling(m, n, k, base_m, base_n, 32, false);
  TPipe pipe;
  Matmul<H, H, Cm, F> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  std::vector<float> block(base_m * base_n, -1.0f);
  AscendC::GlobalTensor<float> block_gm;  // of unknown size, as a kernel's
  block_gm.SetGlobalBuffer(block.data());
  int blocks = 0;
  while (mm.Iterate()) {
    mm.GetTensorC(block_gm, 0, true);
    const AscendC::MatrixOffset at = mm.GetOffsetC();
    for (int j = 0; j < at.width; ++j) {
      for (int i = 0; i < at.height; ++i) {
        float want = 0.0f;
        for (int q = 0; q < k; ++q) {
          want += static_cast<float>(a[(at.row + i) * k + q]) *
                  static_cast<float>(b[q * n + at.col + j]);
        }
        ASSERT_EQ(block[j * base_m + i], want)
            << "block " << blocks << " (" << i << ", " << j << ")";
      }
    }
    ++blocks;
  }
  EXPECT_EQ(blocks, 4);
}

// A and B in COLUMN_MAJOR, each `[rows, cols]` as SetTensorA/B names it
// (transposed when kTransA / kTransB), stored column after column; C
// (float, int32_t for int8_t) exact against the int64 sums.
template <typename T, bool kTransA, bool kTransB>
void CheckColumnMajorOperands(int m, int n, int k, int base_m, int base_n,
                              int base_k, uint32_t seed) {
  using O = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-3, 3);
  std::vector<int> av(size_t{1} * m * k), bv(size_t{1} * k * n);
  for (int& x : av) x = value(rng);  // (i, q) at i * k + q
  for (int& x : bv) x = value(rng);  // (q, j) at q * n + j
  // A as named: [M, K] (or [K, M]); column after column.
  std::vector<T> a(av.size()), b(bv.size());
  for (int i = 0; i < m; ++i) {
    for (int q = 0; q < k; ++q) {
      const size_t at = kTransA ? size_t{1} * i * k + q : size_t{1} * q * m + i;
      a[at] = ToElement<T>(av[size_t{1} * i * k + q]);
    }
  }
  for (int q = 0; q < k; ++q) {
    for (int j = 0; j < n; ++j) {
      const size_t at = kTransB ? size_t{1} * q * n + j : size_t{1} * j * k + q;
      b[at] = ToElement<T>(bv[size_t{1} * q * n + j]);
    }
  }
  using A = MatmulType<TPosition::GM, CubeFormat::COLUMN_MAJOR, T, kTransA>;
  using B = MatmulType<TPosition::GM, CubeFormat::COLUMN_MAJOR, T, kTransB>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, O>;
  const TCubeTiling tiling = Tiling(m, n, k, base_m, base_n, base_k, false);
  std::vector<O> c(size_t{1} * m * n, O(-1));
  TPipe pipe;
  Matmul<A, B, C, C> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a), kTransA);
  mm.SetTensorB(Gm(b), kTransB);
  mm.IterateAll(Gm(c));
  mm.End();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int q = 0; q < k; ++q) {
        sum += int64_t{av[size_t{1} * i * k + q]} * bv[size_t{1} * q * n + j];
      }
      ASSERT_EQ(static_cast<double>(c[size_t{1} * i * n + j]),
                static_cast<double>(sum))
          << normgrad_ascendc::TypeName<T>() << " A, B in COLUMN_MAJOR"
          << (kTransA ? " (A transposed)" : "")
          << (kTransB ? " (B transposed)" : "") << ", C (" << i << ", " << j
          << ")";
    }
  }
}

TEST_F(Matmul950QuantTest, AAndBInColumnMajor) {
  // Column-major [M, K] is row-major [K, M]: each read as that, tails in
  // M, N and K, every type's orientations.
  CheckColumnMajorOperands<half, false, false>(40, 37, 70, 32, 32, 32, 30);
  CheckColumnMajorOperands<half, true, true>(33, 20, 48, 16, 16, 32, 31);
  CheckColumnMajorOperands<float, false, false>(24, 40, 40, 16, 32, 16, 32);
  CheckColumnMajorOperands<float, true, true>(17, 16, 40, 16, 16, 16, 33);
  CheckColumnMajorOperands<int8_t, false, false>(40, 48, 96, 32, 32, 64, 34);
  CheckColumnMajorOperands<int8_t, true, true>(32, 32, 64, 32, 32, 32, 35);
  CheckColumnMajorOperands<fp8_e4m3fn_t, false, true>(20, 33, 64, 16, 32, 64,
                                                      36);
}

TEST_F(Matmul950QuantTest, ColumnMajorRules) {
  using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  const TCubeTiling tiling = Tiling(16, 16, 32, 16, 16, 32, false);
  TPipe pipe;
  {
    using Cv = MatmulType<TPosition::VECIN, CubeFormat::COLUMN_MAJOR, float>;
    Matmul<H, H, Cv, F> mm;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&tiling, &pipe); },
                          "Matmul::Init: C_TYPE at VECIN has format "
                          "COLUMN_MAJOR; a COLUMN_MAJOR matrix lies in GM"));
  }
  {
    using Bm = MatmulType<TPosition::GM, CubeFormat::COLUMN_MAJOR, float>;
    Matmul<H, H, F, Bm> mm;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&tiling, &pipe); },
                          "Matmul::Init: BIAS_TYPE has format COLUMN_MAJOR; "
                          "the bias is ND"));
  }
}

TEST_F(Matmul950QuantTest, WithoutAParameterGetTensorCStops) {
  using F8 = MatmulType<TPosition::GM, CubeFormat::ND, fp8_e4m3fn_t>;
  using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  const TCubeTiling tiling = Tiling(16, 16, 32, 16, 16, 32, false);
  std::vector<fp8_e4m3fn_t> a(16 * 32), b(32 * 16), c(16 * 16);
  TPipe pipe;
  Matmul<F8, F8, F8, F> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                        "Matmul::GetTensorC: C of fp8_e4m3fn_t from "
                        "fp8_e4m3fn_t inputs is quantized on its way out; "
                        "call SetQuantScalar or SetQuantVector first"));
}

TEST_F(Matmul950QuantTest, AtomicIntoNdIsRefusedByName) {
  using I8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  using Bf = MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>;
  const TCubeTiling tiling = Tiling(16, 16, 32, 16, 16, 32, false);
  std::vector<int8_t> a(16 * 32), b(32 * 16);
  std::vector<bfloat16_t> c(16 * 16);
  TPipe pipe;
  Matmul<I8, I8, Bf, I32> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetQuantScalar(QuantParam(1.0f));
  EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c), 1); },
                        "Matmul::GetTensorC: enAtomic 1 with C of bfloat16_t "
                        "in ND is not emulated yet (0 only)"));
}

TEST_F(Matmul950QuantTest, AtomicIntoEightBitFloatsAndAShortCAreRefused) {
  using F8 = MatmulType<TPosition::GM, CubeFormat::ND, fp8_e4m3fn_t>;
  using F8Nz = MatmulType<TPosition::GM, CubeFormat::NZ, fp8_e4m3fn_t>;
  using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  const TCubeTiling tiling = Tiling(16, 16, 32, 16, 16, 32, false);
  std::vector<fp8_e4m3fn_t> a(16 * 32), b(32 * 16), c(16 * 16), short_c(100);
  {
    TPipe pipe;
    Matmul<F8, F8, F8Nz, F> nz;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), nz, &tiling);
    nz.SetTensorA(Gm(a));
    nz.SetTensorB(Gm(b));
    nz.SetQuantScalar(QuantParam(1.0f));
    EXPECT_TRUE(FailsWith([&] { nz.IterateAll(Gm(c), 2); },
                          "Matmul::GetTensorC: enAtomic 2 with C of "
                          "fp8_e4m3fn_t; the atomic operations take no 8-bit "
                          "float (0 only)"));
  }
  TPipe pipe;
  Matmul<F8, F8, F8, F> nd;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), nd, &tiling);
  nd.SetTensorA(Gm(a));
  nd.SetTensorB(Gm(b));
  nd.SetQuantScalar(QuantParam(1.0f));
  EXPECT_TRUE(FailsWith([&] { nd.IterateAll(Gm(short_c)); },
                        "Matmul::GetTensorC: C in GM holds 100 elements, but "
                        "the block (16 x 16, rows 16 apart) needs 256"));
}

TEST_F(Matmul950QuantTest, MxMatmulKeepsItsFloatOutputs) {
  using G = TPosition;
  using AType =
      AscendC::MatmulTypeWithScale<G::GM, G::GM, CubeFormat::ND, fp8_e4m3fn_t,
                                   false, G::GM, CubeFormat::ND, false>;
  using CType = MatmulType<G::GM, CubeFormat::ND, fp8_e4m3fn_t>;
  using BiasType = MatmulType<G::GM, CubeFormat::ND, float>;
  const TCubeTiling tiling = Tiling(16, 16, 64, 16, 16, 64, false);
  TPipe pipe;
  Matmul<AType, AType, CType, BiasType, AscendC::CFG_NORM,
         AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
         AscendC::Impl::Detail::MatmulWithScalePolicy>
      mm;
  EXPECT_TRUE(FailsWith(
      [&] {
        REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
      },
      "Matmul::Init: C_TYPE fp8_e4m3fn_t in an MxMatmul; MxMatmul's C is "
      "half, float or bfloat16_t (its type table)"));
}

// ---- The bias at TSCM -------------------------------------------------------

// A [M, K] and B [K, N] in GM, the bias already in L1 (the kernel's C1
// buffer, filled by DataCopy with ND2NZ as one row), C in float (int32_t for
// int8_t inputs) against the int64 sums. `skip` elements of the buffer
// come before the bias.
template <typename T, typename TBias>
void CheckTscmBias(int m, int n, int k, int base_m, int base_n, int base_k,
                   uint32_t skip, uint32_t seed) {
  using O = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-3, 3);
  std::vector<int> av(size_t{1} * m * k), bv(size_t{1} * k * n), biasv(n);
  for (int& x : av) x = value(rng);
  for (int& x : bv) x = value(rng);
  for (int& x : biasv) x = value(rng);
  std::vector<T> a, b;
  std::vector<TBias> bias;
  for (int x : av) a.push_back(ToElement<T>(x));
  for (int x : bv) b.push_back(ToElement<T>(x));
  for (int x : biasv) bias.push_back(ToElement<TBias>(x));
  using A = MatmulType<TPosition::GM, CubeFormat::ND, T>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, O>;
  using Bias = MatmulType<TPosition::TSCM, CubeFormat::ND, TBias>;
  const TCubeTiling tiling = Tiling(m, n, k, base_m, base_n, base_k);
  std::vector<O> c(size_t{1} * m * n, O(-1));
  TPipe pipe;
  Matmul<A, A, C, Bias> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TBuf<TPosition::C1> bias_l1;
  pipe.InitBuffer(bias_l1,
                  static_cast<uint32_t>((skip + n) * sizeof(TBias) + 64));
  const AscendC::LocalTensor<TBias> l1 = bias_l1.Get<TBias>()[skip];
  AscendC::Nd2NzParams nz;
  nz.ndNum = 1;
  nz.nValue = 1;
  nz.dValue = static_cast<uint16_t>(n);
  nz.srcDValue = static_cast<uint16_t>(n);
  nz.dstNzC0Stride = 1;
  nz.dstNzNStride = 1;
  AscendC::DataCopy(l1, Gm(bias), nz);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetBias(l1);
  mm.IterateAll(Gm(c));
  mm.End();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int64_t sum = biasv[j];
      for (int q = 0; q < k; ++q) {
        sum += int64_t{av[size_t{1} * i * k + q]} * bv[size_t{1} * q * n + j];
      }
      ASSERT_EQ(static_cast<double>(c[size_t{1} * i * n + j]),
                static_cast<double>(sum))
          << normgrad_ascendc::TypeName<TBias>() << " bias at TSCM, C (" << i
          << ", " << j << ")";
    }
  }
}

TEST_F(Matmul950QuantTest, BiasAtTscmIsReadFromL1) {
  // Tails in M, N and K; the 2-byte biases need only 32-byte starts.
  CheckTscmBias<half, float>(40, 37, 70, 32, 32, 32, 0, 11);
  CheckTscmBias<half, half>(33, 64, 48, 16, 48, 32, 16, 12);
  CheckTscmBias<bfloat16_t, bfloat16_t>(16, 50, 32, 16, 32, 32, 0, 13);
  CheckTscmBias<int8_t, int32_t>(24, 40, 64, 16, 32, 64, 16, 14);
  CheckTscmBias<fp8_e4m3fn_t, float>(20, 33, 64, 16, 16, 64, 0, 15);
}

TEST_F(Matmul950QuantTest, BiasAtTscmRules) {
  using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  using BiasScm = MatmulType<TPosition::TSCM, CubeFormat::ND, float>;
  const TCubeTiling tiling = Tiling(16, 32, 32, 16, 16, 32);
  TPipe pipe;
  Matmul<H, H, F, BiasScm> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TBuf<TPosition::C1> l1;
  pipe.InitBuffer(l1, 256);
  AscendC::TBuf<TPosition::A2> l0a;
  pipe.InitBuffer(l0a, 512);
  EXPECT_TRUE(FailsWith([&] { mm.SetBias(l1.Get<float>()[8]); },
                        "Matmul::SetBias: inputBias (float at TSCM) starts at "
                        "L1 byte "));
  EXPECT_TRUE(FailsWith([&] { mm.SetBias(l1.Get<float>()[8]); },
                        "not a multiple of 64; a float or int32_t bias in L1 "
                        "starts on 64 bytes"));
  EXPECT_TRUE(FailsWith([&] { mm.SetBias(l0a.Get<float>()); },
                        "Matmul::SetBias: BIAS_TYPE is at TSCM, but the tensor "
                        "is at A2; an operand at TSCM is a tensor in L1"));
  std::vector<half> a(16 * 32), b(32 * 32);
  std::vector<float> c(16 * 32);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetBias(l1.Get<float>()[48]);  // 16 values left: singleCoreN is 32
  EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                        "Matmul: the bias at TSCM holds 16 elements, fewer "
                        "than singleCoreN 32; it must hold the core's whole "
                        "N"));
  using BiasNz = MatmulType<TPosition::TSCM, CubeFormat::NZ, float>;
  Matmul<H, H, F, BiasNz> nz;
  EXPECT_TRUE(FailsWith([&] { nz.Init(&tiling, &pipe); },
                        "Matmul::Init: BIAS_TYPE at TSCM has format 1; the "
                        "bias is ND"));
}

// Each row's Init on Atlas A2/A3 names the row and the missing mode.
template <typename TA, typename TBias, typename TC>
void RefusedOnA2(const char* row) {
  using A = MatmulType<TPosition::GM, CubeFormat::ND, TA>;
  using Bias = MatmulType<TPosition::GM, CubeFormat::ND, TBias>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, TC>;
  const TCubeTiling tiling = Tiling(16, 16, 32, 16, 16, 32);
  TPipe pipe;
  Matmul<A, A, C, Bias> mm;
  EXPECT_TRUE(FailsWith(
      [&] {
        REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
      },
      std::string("Matmul::Init: the type row (") + row +
          ") is the Ascend 950's; its C is quantized by a Fixpipe mode that "
          "Atlas A2/A3 lacks (QF322FP8_PRE, QF322HIF8_PRE, QS322BF16_PRE)"));
}

TEST_F(Matmul950QuantOnA2Test, ColumnMajorIsThe950s) {
  using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using Cm = MatmulType<TPosition::GM, CubeFormat::COLUMN_MAJOR, float>;
  using F = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  const TCubeTiling tiling = Tiling(16, 16, 32, 16, 16, 32, false);
  TPipe pipe;
  Matmul<H, H, Cm, F> mm;
  EXPECT_TRUE(FailsWith([&] { mm.Init(&tiling, &pipe); },
                        "Matmul::Init: C_TYPE has format COLUMN_MAJOR, which "
                        "is the Ascend 950's; Atlas A2/A3 has no column-major "
                        "matrices"));
}

TEST_F(Matmul950QuantOnA2Test, TheRowsAreRefusedByName) {
  RefusedOnA2<int8_t, int32_t, bfloat16_t>(
      "A int8_t, B int8_t, bias int32_t, C bfloat16_t");
  RefusedOnA2<fp8_e4m3fn_t, float, fp8_e4m3fn_t>(
      "A fp8_e4m3fn_t, B fp8_e4m3fn_t, bias float, C fp8_e4m3fn_t");
  RefusedOnA2<hifloat8_t, half, hifloat8_t>(
      "A hifloat8_t, B hifloat8_t, bias half, C hifloat8_t");
}

}  // namespace
