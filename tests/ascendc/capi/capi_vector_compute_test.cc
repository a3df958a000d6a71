// capi_vector_compute_test.cc — the C API's vector instructions
// (c_api/vector_compute/vector_compute.h): each function's count form,
// high-dimension form and _sync form against the C++ instruction on the same
// UB data, bit for bit (the UB bytes the C++ call leaves are compared whole,
// so lanes the mask leaves out count too); a few against references
// computed here; the mask functions; and the checks, by their messages.
//
// Extending: a new function gets a line in the comparison tests (its C API
// call and its C++ call on the same operands) and its messages in Checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "c_api/asc_simd.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TPosition;
using compat_test::FailsWith;

// The UB regions of a test, 8 KiB each: two sources, the C API's
// destination and the C++ API's.
constexpr uint32_t kRegion = 8192;
constexpr uint32_t kSrc0 = 0, kSrc1 = kRegion, kDstC = 2 * kRegion,
                   kDstCpp = 3 * kRegion;

template <typename T>
T* UbAt(uint32_t offset) {
  return reinterpret_cast<T*>(asc_get_phy_buf_addr(offset));
}
template <typename T>
LocalTensor<T> TensorAt(uint32_t offset) {
  return LocalTensor<T>(TPosition::VECCALC, offset, kRegion / sizeof(T));
}

class CapiVector : public ::testing::Test {
 protected:
  CapiVector() : profile_(normgrad_ascendc::Profile::kA2) {
    asc_init();
    asc_set_mask_norm();
    AscendC::ResetMask();
  }

  // Random sources (positive where `positive`, for the logarithm and roots)
  // and the same filler in both destinations.
  template <typename T>
  void Fill(bool positive = false) {
    std::mt19937 rng(compat_test::Seed<4242>());
    std::uniform_real_distribution<float> real(positive ? 0.125f : -8.0f, 8.0f);
    std::uniform_int_distribution<int> integer(-3000, 3000);
    for (uint32_t i = 0; i < kRegion / sizeof(T); ++i) {
      for (uint32_t at : {kSrc0, kSrc1}) {
        UbAt<T>(at)[i] = std::is_integral_v<T> ? static_cast<T>(integer(rng))
                                               : static_cast<T>(real(rng));
      }
      UbAt<T>(kDstC)[i] = UbAt<T>(kDstCpp)[i] = static_cast<T>(i % 7);
    }
  }
  // Sources with ties: src1 = src0 at every third element, so that each
  // relation and its strict or inclusive twin give different bits.
  template <typename T>
  void FillWithTies() {
    Fill<T>();
    for (uint32_t i = 0; i < kRegion / sizeof(T); i += 3) {
      UbAt<T>(kSrc1)[i] = UbAt<T>(kSrc0)[i];
    }
  }
  // Whether both destinations hold the same bytes.
  static ::testing::AssertionResult SameDst() {
    if (std::memcmp(UbAt<uint8_t>(kDstC), UbAt<uint8_t>(kDstCpp), kRegion) ==
        0) {
      return ::testing::AssertionSuccess();
    }
    for (uint32_t i = 0; i < kRegion; ++i) {
      if (UbAt<uint8_t>(kDstC)[i] != UbAt<uint8_t>(kDstCpp)[i]) {
        return ::testing::AssertionFailure()
               << "destinations differ first at byte " << i;
      }
    }
    return ::testing::AssertionFailure();
  }

  compat_test::ProfileScope profile_;
};

// The mask of a high-dimension comparison: every other lane, and the last.
constexpr uint64_t kMaskLow = 0x5555555555555555ull | (1ull << 63);
constexpr uint64_t kMaskHigh = 0x00FF00FF00FF00FFull;

// ---- Count forms against the C++ API -------------------------------------

// The count form, its _sync form and the C++ count form of a two-source
// instruction, over `n` elements of T.
#define EXPECT_BINARY_COUNT(T, capi, cpp, n)                                   \
  do {                                                                         \
    Fill<T>();                                                                 \
    capi(UbAt<T>(kDstC), UbAt<T>(kSrc0), UbAt<T>(kSrc1), n);                   \
    AscendC::cpp(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0), TensorAt<T>(kSrc1), \
                 n);                                                           \
    EXPECT_TRUE(SameDst()) << #capi "<" #T ">";                                \
    std::memset(UbAt<T>(kDstC), 0, kRegion);                                   \
    capi##_sync(UbAt<T>(kDstC), UbAt<T>(kSrc0), UbAt<T>(kSrc1), n);            \
    std::memset(UbAt<T>(kDstCpp), 0, kRegion);                                 \
    AscendC::cpp(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0), TensorAt<T>(kSrc1), \
                 n);                                                           \
    EXPECT_TRUE(SameDst()) << #capi "_sync<" #T ">";                           \
  } while (0)

TEST_F(CapiVector, BinaryCountFormsMatchCpp) {
  for (uint32_t n : {1u, 63u, 64u, 65u, 1000u}) {
    EXPECT_BINARY_COUNT(float, asc_add, Add, n);
    EXPECT_BINARY_COUNT(half, asc_add, Add, n);
    EXPECT_BINARY_COUNT(int16_t, asc_add, Add, n);
    EXPECT_BINARY_COUNT(int32_t, asc_add, Add, n);
    EXPECT_BINARY_COUNT(float, asc_sub, Sub, n);
    EXPECT_BINARY_COUNT(half, asc_sub, Sub, n);
    EXPECT_BINARY_COUNT(float, asc_mul, Mul, n);
    EXPECT_BINARY_COUNT(int16_t, asc_mul, Mul, n);
    EXPECT_BINARY_COUNT(float, asc_div, Div, n);
    EXPECT_BINARY_COUNT(half, asc_div, Div, n);
    EXPECT_BINARY_COUNT(float, asc_max, Max, n);
    EXPECT_BINARY_COUNT(int32_t, asc_max, Max, n);
    EXPECT_BINARY_COUNT(half, asc_min, Min, n);
    EXPECT_BINARY_COUNT(int16_t, asc_min, Min, n);
    EXPECT_BINARY_COUNT(int16_t, asc_and, And, n);
    EXPECT_BINARY_COUNT(uint16_t, asc_or, Or, n);
  }
}

#define EXPECT_SCALAR_COUNT(T, capi, cpp, value, n)                   \
  do {                                                                \
    Fill<T>();                                                        \
    capi(UbAt<T>(kDstC), UbAt<T>(kSrc0), value, n);                   \
    AscendC::cpp(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0), value, n); \
    EXPECT_TRUE(SameDst()) << #capi "<" #T ">";                       \
    std::memset(UbAt<T>(kDstC), 0, kRegion);                          \
    std::memset(UbAt<T>(kDstCpp), 0, kRegion);                        \
    capi##_sync(UbAt<T>(kDstC), UbAt<T>(kSrc0), value, n);            \
    AscendC::cpp(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0), value, n); \
    EXPECT_TRUE(SameDst()) << #capi "_sync<" #T ">";                  \
  } while (0)

// asc_sub_scalar against Adds by the negated value (x − v and x + (−v) are
// the same number in IEEE arithmetic and modulo 2^bits).
TEST_F(CapiVector, SubScalarMatchesAddsOfNegation) {
  Fill<half>();
  asc_sub_scalar(UbAt<half>(kDstC), UbAt<half>(kSrc0), half(0.3f), 1000);
  AscendC::Adds(TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0), half(-0.3f),
                1000);
  EXPECT_TRUE(SameDst()) << "asc_sub_scalar<half>";
  Fill<int16_t>();
  asc_set_vector_mask(kMaskHigh, kMaskLow);
  asc_sub_scalar(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc0), int16_t{-9}, 3, 2,
                 1, 17, 8);
  AscendC::Adds<int16_t, false>(TensorAt<int16_t>(kDstCpp),
                                TensorAt<int16_t>(kSrc0), int16_t{9}, kMaskLow,
                                3, AscendC::UnaryRepeatParams(2, 1, 17, 8));
  EXPECT_TRUE(SameDst()) << "asc_sub_scalar<int16_t> high-dimension";
}

TEST_F(CapiVector, ScalarCountFormsMatchCpp) {
  for (uint32_t n : {1u, 64u, 129u, 1000u}) {
    EXPECT_SCALAR_COUNT(float, asc_add_scalar, Adds, 1.25f, n);
    EXPECT_SCALAR_COUNT(half, asc_add_scalar, Adds, half(-0.5f), n);
    EXPECT_SCALAR_COUNT(int32_t, asc_mul_scalar, Muls, 3, n);
    EXPECT_SCALAR_COUNT(float, asc_mul_scalar, Muls, 0.75f, n);
    EXPECT_SCALAR_COUNT(int16_t, asc_max_scalar, Maxs, int16_t{7}, n);
    EXPECT_SCALAR_COUNT(half, asc_min_scalar, Mins, half(1.0f), n);
  }
}

#define EXPECT_UNARY_COUNT(T, capi, cpp, positive, n)          \
  do {                                                         \
    Fill<T>(positive);                                         \
    capi(UbAt<T>(kDstC), UbAt<T>(kSrc0), n);                   \
    AscendC::cpp(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0), n); \
    EXPECT_TRUE(SameDst()) << #capi "<" #T ">";                \
    std::memset(UbAt<T>(kDstC), 0, kRegion);                   \
    std::memset(UbAt<T>(kDstCpp), 0, kRegion);                 \
    capi##_sync(UbAt<T>(kDstC), UbAt<T>(kSrc0), n);            \
    AscendC::cpp(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0), n); \
    EXPECT_TRUE(SameDst()) << #capi "_sync<" #T ">";           \
  } while (0)

TEST_F(CapiVector, UnaryCountFormsMatchCpp) {
  for (uint32_t n : {1u, 64u, 129u, 1000u}) {
    EXPECT_UNARY_COUNT(float, asc_exp, Exp, false, n);
    EXPECT_UNARY_COUNT(half, asc_exp, Exp, false, n);
    EXPECT_UNARY_COUNT(float, asc_log, Ln, true, n);
    EXPECT_UNARY_COUNT(half, asc_sqrt, Sqrt, true, n);
    EXPECT_UNARY_COUNT(float, asc_rsqrt, Rsqrt, true, n);
    EXPECT_UNARY_COUNT(float, asc_rcp, Reciprocal, false, n);
    EXPECT_UNARY_COUNT(half, asc_abs, Abs, false, n);
    EXPECT_UNARY_COUNT(float, asc_relu, Relu, false, n);
    EXPECT_UNARY_COUNT(int32_t, asc_relu, Relu, false, n);
    EXPECT_UNARY_COUNT(int16_t, asc_not, Not, false, n);
  }
}

// ---- High-dimension forms against the C++ level-0 forms ------------------

// repeat 3 with gaps between the blocks (block stride 2) and the repeats
// (repeat stride 17), under kMaskLow/kMaskHigh.
TEST_F(CapiVector, HighDimensionFormsMatchCpp) {
  const AscendC::BinaryRepeatParams binary(2, 1, 2, 17, 8, 17);
  const AscendC::UnaryRepeatParams unary(2, 1, 17, 8);
  asc_set_vector_mask(kMaskHigh, kMaskLow);
  const uint64_t mask16[2] = {kMaskLow, kMaskHigh};
  const uint64_t mask32[2] = {kMaskLow, 0};

  Fill<float>();
  asc_add(UbAt<float>(kDstC), UbAt<float>(kSrc0), UbAt<float>(kSrc1), 3, 2, 1,
          2, 17, 8, 17);
  AscendC::Add(TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0),
               TensorAt<float>(kSrc1), mask32, 3, binary);
  EXPECT_TRUE(SameDst()) << "asc_add<float>";

  asc_set_vector_mask(kMaskHigh, kMaskLow);
  Fill<half>();
  asc_mul(UbAt<half>(kDstC), UbAt<half>(kSrc0), UbAt<half>(kSrc1), 3, 2, 1, 2,
          17, 8, 17);
  AscendC::Mul(TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0),
               TensorAt<half>(kSrc1), mask16, 3, binary);
  EXPECT_TRUE(SameDst()) << "asc_mul<half>";

  asc_set_vector_mask(kMaskHigh, kMaskLow);
  Fill<float>();
  asc_div(UbAt<float>(kDstC), UbAt<float>(kSrc0), UbAt<float>(kSrc1), 3, 2, 1,
          2, 17, 8, 17);
  AscendC::Div(TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0),
               TensorAt<float>(kSrc1), mask32, 3, binary);
  EXPECT_TRUE(SameDst()) << "asc_div<float>";

  asc_set_vector_mask(kMaskHigh, kMaskLow);
  Fill<uint16_t>();
  asc_and(UbAt<uint16_t>(kDstC), UbAt<uint16_t>(kSrc0), UbAt<uint16_t>(kSrc1),
          3, 2, 1, 2, 17, 8, 17);
  AscendC::And(TensorAt<uint16_t>(kDstCpp), TensorAt<uint16_t>(kSrc0),
               TensorAt<uint16_t>(kSrc1), mask16, 3, binary);
  EXPECT_TRUE(SameDst()) << "asc_and<uint16_t>";

  asc_set_vector_mask(kMaskHigh, kMaskLow);
  Fill<half>();
  asc_max_scalar(UbAt<half>(kDstC), UbAt<half>(kSrc0), half(0.5f), 3, 2, 1, 17,
                 8);
  AscendC::Maxs(TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0), half(0.5f),
                mask16, 3, unary);
  EXPECT_TRUE(SameDst()) << "asc_max_scalar<half>";

  asc_set_vector_mask(kMaskHigh, kMaskLow);
  Fill<float>();
  asc_exp(UbAt<float>(kDstC), UbAt<float>(kSrc0), 3, 2, 1, 17, 8);
  AscendC::Exp(TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0), mask32, 3,
               unary);
  EXPECT_TRUE(SameDst()) << "asc_exp<float>";

  asc_set_vector_mask(kMaskHigh, kMaskLow);
  Fill<int16_t>();
  asc_not(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc0), 3, 2, 1, 17, 8);
  AscendC::Not(TensorAt<int16_t>(kDstCpp), TensorAt<int16_t>(kSrc0), mask16, 3,
               unary);
  EXPECT_TRUE(SameDst()) << "asc_not<int16_t>";

  asc_set_vector_mask(kMaskHigh, kMaskLow);
  Fill<float>();
  asc_duplicate(UbAt<float>(kDstC), 2.5f, 3, 2, 17);
  AscendC::Duplicate(TensorAt<float>(kDstCpp), 2.5f, mask32, 3, 2, 17);
  EXPECT_TRUE(SameDst()) << "asc_duplicate<float>";
}

// The repeat strides of the one-source forms are 16-bit: 300 blocks apart.
TEST_F(CapiVector, WideRepeatStride) {
  Fill<float>();
  float* dst = UbAt<float>(kDstC);
  float* src = UbAt<float>(kSrc0);
  asc_abs(dst, src, 2, 1, 1, 8, 300);
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(dst[i], std::fabs(src[i])) << i;
    EXPECT_EQ(dst[64 + i], std::fabs(src[300 * 8 + i])) << i;
  }
}

// ---- Independent references -------------------------------------------------

TEST_F(CapiVector, CountFormsAgainstReferences) {
  Fill<float>();
  float* d = UbAt<float>(kDstC);
  const float* a = UbAt<float>(kSrc0);
  const float* b = UbAt<float>(kSrc1);
  asc_add(d, UbAt<float>(kSrc0), UbAt<float>(kSrc1), 300);
  for (uint32_t i = 0; i < 300; ++i) EXPECT_EQ(d[i], a[i] + b[i]) << i;
  EXPECT_EQ(d[300], 300 % 7);  // past count: the filler
  asc_sub_scalar(d, UbAt<float>(kSrc0), 0.75f, 300);
  for (uint32_t i = 0; i < 300; ++i) EXPECT_EQ(d[i], a[i] - 0.75f) << i;
  asc_sub_scalar_sync(UbAt<int32_t>(kDstC), UbAt<int32_t>(kSrc1), INT32_MIN,
                      40);
  for (uint32_t i = 0; i < 40; ++i) {
    const uint32_t wrapped = static_cast<uint32_t>(UbAt<int32_t>(kSrc1)[i]) -
                             static_cast<uint32_t>(INT32_MIN);
    EXPECT_EQ(UbAt<int32_t>(kDstC)[i], static_cast<int32_t>(wrapped)) << i;
  }
  asc_mul_scalar(d, UbAt<float>(kSrc0), 0.5f, 300);
  for (uint32_t i = 0; i < 300; ++i) EXPECT_EQ(d[i], a[i] * 0.5f) << i;
  asc_duplicate(UbAt<int32_t>(kDstC), -9, 70);
  for (uint32_t i = 0; i < 70; ++i) EXPECT_EQ(UbAt<int32_t>(kDstC)[i], -9);
  Fill<int16_t>();
  asc_or(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc0), UbAt<int16_t>(kSrc1), 200);
  for (uint32_t i = 0; i < 200; ++i) {
    EXPECT_EQ(UbAt<int16_t>(kDstC)[i],
              static_cast<int16_t>(UbAt<int16_t>(kSrc0)[i] |
                                   UbAt<int16_t>(kSrc1)[i]));
  }
}

// Normal mode: only the lanes whose bits are set; counter mode: the first
// mask0 elements over as many repeats as they need, repeat not read.
TEST_F(CapiVector, MaskModes) {
  Fill<float>();
  float* d = UbAt<float>(kDstC);
  const float* a = UbAt<float>(kSrc0);
  asc_set_vector_mask(0, 0x3);  // lanes 0 and 1 of each repeat
  asc_relu(d, UbAt<float>(kSrc0), 2, 1, 1, 8, 8);
  for (uint32_t i = 0; i < 128; ++i) {
    const bool selected = i % 64 < 2;
    EXPECT_EQ(d[i], selected ? std::fmax(a[i], 0.0f) : float(i % 7)) << i;
  }
  Fill<float>();
  asc_set_mask_count();
  asc_set_vector_mask(12345, 100);  // mask1 is not read in counter mode
  asc_add_scalar(d, UbAt<float>(kSrc0), 1.0f, 1, 1, 1, 8, 8);
  asc_set_mask_norm();
  for (uint32_t i = 0; i < 130; ++i) {
    EXPECT_EQ(d[i], i < 100 ? a[i] + 1.0f : float(i % 7)) << i;
  }
  // The count form leaves the register alone.
  asc_set_vector_mask(0, 0x1);
  asc_add(d, UbAt<float>(kSrc0), UbAt<float>(kSrc1), 64);
  const normgrad_ascendc::VectorMask& m =
      normgrad_ascendc::CurrentCore().vector_mask();
  EXPECT_EQ(m.low, 0x1u);
  EXPECT_EQ(m.mode, AscendC::MaskMode::NORMAL);
}

// ---- Comparisons and select ------------------------------------------------

// Every relation into dst (repeat 3, strides with gaps) and its _sync form
// against Compare's level-0 form; the scalar forms against Compares'.
#define EXPECT_COMPARE(T, capi, mode)                                          \
  do {                                                                         \
    FillWithTies<T>();                                                         \
    capi(UbAt<uint8_t>(kDstC), UbAt<T>(kSrc0), UbAt<T>(kSrc1), 3, 1, 2, 1, 8,  \
         17, 8);                                                               \
    AscendC::Compare(TensorAt<uint8_t>(kDstCpp), TensorAt<T>(kSrc0),           \
                     TensorAt<T>(kSrc1), AscendC::CMPMODE::mode, mask, 3,      \
                     binary);                                                  \
    EXPECT_TRUE(SameDst()) << #capi "<" #T ">";                                \
    std::memset(UbAt<uint8_t>(kDstC), 0, kRegion);                             \
    std::memset(UbAt<uint8_t>(kDstCpp), 0, kRegion);                           \
    capi##_sync(UbAt<uint8_t>(kDstC), UbAt<T>(kSrc0), UbAt<T>(kSrc1), 3, 1, 2, \
                1, 8, 17, 8);                                                  \
    AscendC::Compare(TensorAt<uint8_t>(kDstCpp), TensorAt<T>(kSrc0),           \
                     TensorAt<T>(kSrc1), AscendC::CMPMODE::mode, mask, 3,      \
                     binary);                                                  \
    EXPECT_TRUE(SameDst()) << #capi "_sync<" #T ">";                           \
    Fill<T>();                                                                 \
    const T value = UbAt<T>(kSrc0)[5];                                         \
    UbAt<T>(kSrc0)[40] = UbAt<T>(kSrc0)[300] = value;                          \
    capi##_scalar(UbAt<uint8_t>(kDstC), UbAt<T>(kSrc0), value, 3, 1, 2, 8,     \
                  17);                                                         \
    AscendC::Compares(TensorAt<uint8_t>(kDstCpp), TensorAt<T>(kSrc0), value,   \
                      AscendC::CMPMODE::mode, mask, 3, unary);                 \
    EXPECT_TRUE(SameDst()) << #capi "_scalar<" #T ">";                         \
    capi##_scalar_sync(UbAt<uint8_t>(kDstC), UbAt<T>(kSrc0), value, 3, 1, 2,   \
                       8, 17);                                                 \
    EXPECT_TRUE(SameDst()) << #capi "_scalar_sync<" #T ">";                    \
  } while (0)

TEST_F(CapiVector, ComparisonsIntoDstMatchCpp) {
  const AscendC::BinaryRepeatParams binary(1, 2, 1, 8, 17, 8);
  const AscendC::UnaryRepeatParams unary(1, 2, 8, 17);
  const uint64_t mask[2] = {kMaskLow, kMaskHigh};  // reserved on A2/A3
  EXPECT_COMPARE(float, asc_eq, EQ);
  EXPECT_COMPARE(half, asc_eq, EQ);
  EXPECT_COMPARE(int32_t, asc_eq, EQ);
  EXPECT_COMPARE(float, asc_ne, NE);
  EXPECT_COMPARE(half, asc_ne, NE);
  EXPECT_COMPARE(float, asc_lt, LT);
  EXPECT_COMPARE(half, asc_lt, LT);
  EXPECT_COMPARE(float, asc_le, LE);
  EXPECT_COMPARE(half, asc_le, LE);
  EXPECT_COMPARE(float, asc_gt, GT);
  EXPECT_COMPARE(half, asc_gt, GT);
  EXPECT_COMPARE(float, asc_ge, GE);
  EXPECT_COMPARE(half, asc_ge, GE);
}

// The register forms against Compare's register form with isSetMask =
// false, read back with asc_get_cmp_mask and GetCmpMask.
#define EXPECT_COMPARE_TO_REGISTER(T, capi, mode)                      \
  do {                                                                 \
    FillWithTies<T>();                                                 \
    asc_set_vector_mask(kMaskHigh, kMaskLow);                          \
    capi(UbAt<T>(kSrc0), UbAt<T>(kSrc1), 5, 1, 1, 2, 8, 8, 8);         \
    asc_get_cmp_mask(UbAt<uint8_t>(kDstC));                            \
    AscendC::Compare<T, false>(TensorAt<T>(kSrc0), TensorAt<T>(kSrc1), \
                               AscendC::CMPMODE::mode, mask, binary);  \
    AscendC::GetCmpMask(TensorAt<uint8_t>(kDstCpp));                   \
    EXPECT_TRUE(SameDst()) << #capi "<" #T "> into the register";      \
    capi##_sync(UbAt<T>(kSrc1), UbAt<T>(kSrc0), 5, 1, 1, 2, 8, 8, 8);  \
    asc_get_cmp_mask(UbAt<uint8_t>(kDstC));                            \
    AscendC::Compare<T, false>(TensorAt<T>(kSrc1), TensorAt<T>(kSrc0), \
                               AscendC::CMPMODE::mode, mask, binary);  \
    AscendC::GetCmpMask(TensorAt<uint8_t>(kDstCpp));                   \
    EXPECT_TRUE(SameDst()) << #capi "_sync<" #T "> into the register"; \
  } while (0)

TEST_F(CapiVector, ComparisonsIntoRegisterMatchCpp) {
  const AscendC::BinaryRepeatParams binary(1, 1, 2, 8, 8, 8);
  const uint64_t mask[2] = {0, 0};  // not set: the register as it stands
  EXPECT_COMPARE_TO_REGISTER(float, asc_eq, EQ);
  EXPECT_COMPARE_TO_REGISTER(half, asc_ne, NE);
  EXPECT_COMPARE_TO_REGISTER(float, asc_lt, LT);
  EXPECT_COMPARE_TO_REGISTER(half, asc_le, LE);
  EXPECT_COMPARE_TO_REGISTER(half, asc_gt, GT);
  EXPECT_COMPARE_TO_REGISTER(float, asc_ge, GE);
}

// asc_eq_scalar's example: src 1 … 128, value 20: only bit 3 of byte 2.
TEST_F(CapiVector, CompareScalarPageExample) {
  half* src = UbAt<half>(kSrc0);
  for (int i = 0; i < 128; ++i) src[i] = half(static_cast<float>(i + 1));
  uint8_t* dst = UbAt<uint8_t>(kDstC);
  asc_eq_scalar(dst, src, half(20.0f), 1, 1, 1, 8, 8);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(dst[i], i == 2 ? 0x08 : 0) << i;
}

// Bits against a reference computed here: little-endian, lane k at bit
// k % 8 of byte k / 8, packed across repeats; NaN compares unequal.
TEST_F(CapiVector, ComparisonsAgainstReference) {
  FillWithTies<float>();
  float* a = UbAt<float>(kSrc0);
  float* b = UbAt<float>(kSrc1);
  a[3] = std::nanf("");
  b[70] = a[70];
  uint8_t* dst = UbAt<uint8_t>(kDstC);
  asc_le(dst, a, b, 2, 1, 1, 1, 8, 8, 8);
  for (uint32_t k = 0; k < 128; ++k) {
    EXPECT_EQ((dst[k / 8] >> (k % 8)) & 1, a[k] <= b[k] ? 1 : 0) << k;
  }
  asc_ne(dst, a, b, 2, 1, 1, 1, 8, 8, 8);
  for (uint32_t k = 0; k < 128; ++k) {
    EXPECT_EQ((dst[k / 8] >> (k % 8)) & 1, a[k] != b[k] ? 1 : 0) << k;
  }
  // Into the register: one repeat under the mask register, whatever repeat.
  asc_set_vector_mask(0, 0xF0F0F0F0F0F0F0F0ull);
  asc_gt(a, b, 7, 1, 1, 1, 8, 8, 8);
  asc_get_cmp_mask(dst);
  for (uint32_t k = 0; k < 128; ++k) {
    const bool on = k < 64 && (k / 4) % 2 == 1 && a[k] > b[k];
    EXPECT_EQ((dst[k / 8] >> (k % 8)) & 1, on ? 1 : 0) << k;
  }
}

// asc_select's page example (256 floats, an 8-byte sel_mask: every repeat
// of 64 lanes selects by the same 64 bits) against a reference and Select
// in mode VSEL_CMPMASK_SPR; the high-dimension form against Select's
// register form.
TEST_F(CapiVector, SelectMatchesCppAndReference) {
  Fill<float>();
  uint8_t* sel = UbAt<uint8_t>(4 * kRegion);
  const uint8_t bits[8] = {0x0F, 0xAA, 0x00, 0xFF, 0x81, 0x3C, 0x55, 0xF0};
  std::memcpy(sel, bits, 8);
  std::memset(sel + 8, 0, 24);
  float* d = UbAt<float>(kDstC);
  const float* a = UbAt<float>(kSrc0);
  const float* b = UbAt<float>(kSrc1);
  asc_set_cmp_mask(sel);
  asc_sync_pipe(PIPE_V);
  asc_select(d, UbAt<float>(kSrc0), UbAt<float>(kSrc1), 256);
  for (uint32_t i = 0; i < 256; ++i) {
    const uint32_t k = i % 64;
    EXPECT_EQ(d[i], (bits[k / 8] >> (k % 8) & 1) ? a[i] : b[i]) << i;
  }
  EXPECT_EQ(d[256], 256 % 7);  // past count: the filler
  AscendC::Select(TensorAt<float>(kDstCpp),
                  LocalTensor<uint8_t>(TPosition::VECCALC, 4 * kRegion, 32),
                  TensorAt<float>(kSrc0), TensorAt<float>(kSrc1),
                  AscendC::SELMODE::VSEL_CMPMASK_SPR, 256);
  EXPECT_TRUE(SameDst()) << "asc_select<float>";

  Fill<half>();
  asc_set_cmp_mask(sel);
  asc_select_sync(UbAt<half>(kDstC), UbAt<half>(kSrc0), UbAt<half>(kSrc1), 300);
  AscendC::Select(TensorAt<half>(kDstCpp),
                  LocalTensor<uint8_t>(TPosition::VECCALC, 4 * kRegion, 32),
                  TensorAt<half>(kSrc0), TensorAt<half>(kSrc1),
                  AscendC::SELMODE::VSEL_CMPMASK_SPR, 300);
  EXPECT_TRUE(SameDst()) << "asc_select_sync<half>";

  Fill<half>();
  asc_set_cmp_mask(sel);
  asc_set_vector_mask(kMaskHigh, kMaskLow);
  asc_select(UbAt<half>(kDstC), UbAt<half>(kSrc0), UbAt<half>(kSrc1), 3, 2, 1,
             2, 17, 8, 17);
  AscendC::Select<half, AscendC::SELMODE::VSEL_CMPMASK_SPR>(
      TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0), TensorAt<half>(kSrc1), 3,
      AscendC::BinaryRepeatParams(2, 1, 2, 17, 8, 17));
  EXPECT_TRUE(SameDst()) << "asc_select<half> high-dimension";

  // A comparison feeds the selection: a > b ? a : b is the maximum.
  Fill<float>();
  asc_set_vector_mask(~0ull, ~0ull);
  asc_gt(UbAt<float>(kSrc0), UbAt<float>(kSrc1), 1, 1, 1, 1, 8, 8, 8);
  asc_select(d, UbAt<float>(kSrc0), UbAt<float>(kSrc1), 64);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(d[i], std::fmax(a[i], b[i])) << i;
}

TEST_F(CapiVector, CompareAndSelectChecks) {
  Fill<float>();
  uint8_t* bits = UbAt<uint8_t>(kDstC);
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_lt(bits, UbAt<int32_t>(kSrc0), UbAt<int32_t>(kSrc1), 1, 1, 1, 1, 8,
               8, 8);
      },
      "asc_lt<int32_t>: cmpMode LT is not supported for int32_t on profile "
      "Atlas A2/A3 (int32_t compares by EQ only there)"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_ge_scalar_sync(bits, UbAt<int32_t>(kSrc0), 3, 1, 1, 1, 8, 8); },
      "asc_ge_scalar_sync<int32_t>: cmpMode GE is not supported for int32_t"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_eq(bits, UbAt<int16_t>(kSrc0), UbAt<int16_t>(kSrc1), 1, 1, 1, 1, 8,
               8, 8);
      },
      "asc_eq<int16_t>: element type int16_t is not supported on profile "
      "Atlas A2/A3 (asc_eq takes "));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_eq(UbAt<int32_t>(kSrc0), UbAt<int32_t>(kSrc1), 1, 1, 1, 1, 8, 8, 8);
      },
      "asc_eq<int32_t>: element type int32_t is not supported on profile "
      "Atlas A2/A3 (asc_eq takes half, float there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_select(UbAt<int32_t>(kDstC), UbAt<int32_t>(kSrc0),
                   UbAt<int32_t>(kSrc1), 64);
      },
      "asc_select<int32_t>: element type int32_t is not supported on profile "
      "Atlas A2/A3 (asc_select takes half, float there)"));
  EXPECT_TRUE(FailsWith([&] { asc_set_cmp_mask(bits + 8); },
                        "asc_set_cmp_mask: sel_mask is at UB byte 16392, "
                        "which is not 16-byte aligned"));
  const uint32_t ub = normgrad_ascendc::CurrentCore().ub_size();
  EXPECT_TRUE(FailsWith([&] { asc_get_cmp_mask(UbAt<uint8_t>(ub - 64)); },
                        "asc_get_cmp_mask: dst at UB byte 196544 with 128 "
                        "bytes runs past the end of the unified buffer"));
  float* last = UbAt<float>(ub - 256);
  EXPECT_TRUE(FailsWith(
      [&] { asc_select(last, UbAt<float>(kSrc0), UbAt<float>(kSrc1), 65); },
      "asc_select<float>: dst has 64 elements, fewer than count 65"));
  std::vector<float> host(64);
  EXPECT_TRUE(FailsWith(
      [&] { asc_gt(UbAt<float>(kSrc0), host.data(), 1, 1, 1, 1, 8, 8, 8); },
      "asc_gt<float>: src1 "));
}

// ---- Conversions ------------------------------------------------------------

// A conversion's count form and _sync form against Cast by `mode` on the same
// sources, over n elements.
#define EXPECT_CAST(D, S, capi, mode, n)                    \
  do {                                                      \
    Fill<S>();                                              \
    capi(UbAt<D>(kDstC), UbAt<S>(kSrc0), n);                \
    AscendC::Cast(TensorAt<D>(kDstCpp), TensorAt<S>(kSrc0), \
                  AscendC::RoundMode::mode, n);             \
    EXPECT_TRUE(SameDst()) << #capi;                        \
    std::memset(UbAt<D>(kDstC), 0, kRegion);                \
    std::memset(UbAt<D>(kDstCpp), 0, kRegion);              \
    capi##_sync(UbAt<D>(kDstC), UbAt<S>(kSrc0), n);         \
    AscendC::Cast(TensorAt<D>(kDstCpp), TensorAt<S>(kSrc0), \
                  AscendC::RoundMode::mode, n);             \
    EXPECT_TRUE(SameDst()) << #capi "_sync";                \
  } while (0)
#define EXPECT_CAST_FIVE(D, S, capi, n)           \
  do {                                            \
    EXPECT_CAST(D, S, capi##_rn, CAST_RINT, n);   \
    EXPECT_CAST(D, S, capi##_rna, CAST_ROUND, n); \
    EXPECT_CAST(D, S, capi##_rd, CAST_FLOOR, n);  \
    EXPECT_CAST(D, S, capi##_ru, CAST_CEIL, n);   \
    EXPECT_CAST(D, S, capi##_rz, CAST_TRUNC, n);  \
  } while (0)

TEST_F(CapiVector, ConversionCountFormsMatchCpp) {
  for (uint32_t n : {1u, 200u, 1000u}) {
    EXPECT_CAST(float, bfloat16_t, asc_bfloat162float, CAST_NONE, n);
    EXPECT_CAST_FIVE(int32_t, bfloat16_t, asc_bfloat162int32, n);
    EXPECT_CAST_FIVE(bfloat16_t, float, asc_float2bfloat16, n);
    EXPECT_CAST_FIVE(float, float, asc_float2float, n);
    EXPECT_CAST(half, float, asc_float2half, CAST_NONE, n);
    EXPECT_CAST_FIVE(half, float, asc_float2half, n);
    EXPECT_CAST(half, float, asc_float2half_ro, CAST_ODD, n);
    EXPECT_CAST_FIVE(int16_t, float, asc_float2int16, n);
    EXPECT_CAST_FIVE(int32_t, float, asc_float2int32, n);
    EXPECT_CAST_FIVE(int64_t, float, asc_float2int64, n);
    EXPECT_CAST(float, half, asc_half2float, CAST_NONE, n);
    EXPECT_CAST_FIVE(int16_t, half, asc_half2int16, n);
    EXPECT_CAST_FIVE(int32_t, half, asc_half2int32, n);
    EXPECT_CAST(int8_t, half, asc_half2int8, CAST_NONE, n);
    EXPECT_CAST_FIVE(int8_t, half, asc_half2int8, n);
    EXPECT_CAST(uint8_t, half, asc_half2uint8, CAST_NONE, n);
    EXPECT_CAST_FIVE(uint8_t, half, asc_half2uint8, n);
    EXPECT_CAST(float, int16_t, asc_int162float, CAST_NONE, n);
    EXPECT_CAST(half, int16_t, asc_int162half, CAST_NONE, n);
    EXPECT_CAST_FIVE(half, int16_t, asc_int162half, n);
    EXPECT_CAST(float, int32_t, asc_int322float, CAST_NONE, n);
    EXPECT_CAST_FIVE(float, int32_t, asc_int322float, n);
    EXPECT_CAST(int16_t, int32_t, asc_int322int16, CAST_NONE, n);
    EXPECT_CAST(int64_t, int32_t, asc_int322int64, CAST_NONE, n);
    EXPECT_CAST_FIVE(float, int64_t, asc_int642float, n);
    EXPECT_CAST(int32_t, int64_t, asc_int642int32, CAST_NONE, n);
    EXPECT_CAST(half, int8_t, asc_int82half, CAST_NONE, n);
    EXPECT_CAST(half, uint8_t, asc_uint82half, CAST_NONE, n);
  }
}

// The high-dimension forms against Cast's level-0 form with isSetMask =
// false: a repeat has the wider type's lanes, under the mask register.
#define EXPECT_CAST_REPEATS(D, S, capi, mode, ds, ss)                     \
  do {                                                                    \
    Fill<S>();                                                            \
    asc_set_vector_mask(kMaskHigh, kMaskLow);                             \
    capi(UbAt<D>(kDstC), UbAt<S>(kSrc0), 3, 1, 2, ds, ss);                \
    AscendC::Cast<D, S, false>(TensorAt<D>(kDstCpp), TensorAt<S>(kSrc0),  \
                               AscendC::RoundMode::mode, mask, 3,         \
                               AscendC::UnaryRepeatParams(1, 2, ds, ss)); \
    EXPECT_TRUE(SameDst()) << #capi " high-dimension";                    \
  } while (0)

TEST_F(CapiVector, ConversionHighDimensionFormsMatchCpp) {
  const uint64_t mask[2] = {0, 0};  // not set: the register as it stands
  EXPECT_CAST_REPEATS(half, float, asc_float2half_ro, CAST_ODD, 4, 17);
  EXPECT_CAST_REPEATS(half, float, asc_float2half, CAST_NONE, 5, 16);
  EXPECT_CAST_REPEATS(float, half, asc_half2float, CAST_NONE, 17, 4);
  EXPECT_CAST_REPEATS(float, int32_t, asc_int322float_rd, CAST_FLOOR, 9, 8);
  EXPECT_CAST_REPEATS(int8_t, half, asc_half2int8_rna, CAST_ROUND, 4, 16);
  EXPECT_CAST_REPEATS(int64_t, float, asc_float2int64_rz, CAST_TRUNC, 16, 8);
  EXPECT_CAST_REPEATS(float, bfloat16_t, asc_bfloat162float, CAST_NONE, 8, 4);
  EXPECT_CAST_REPEATS(half, int16_t, asc_int162half_ru, CAST_CEIL, 8, 8);
  EXPECT_CAST_REPEATS(int32_t, int64_t, asc_int642int32, CAST_NONE, 4, 8);
}

// The rounding suffixes against values computed here: ties and halves.
TEST_F(CapiVector, ConversionRoundingAgainstReference) {
  half* src = UbAt<half>(kSrc0);
  const float values[8] = {2.5f, -2.5f, 3.5f, -0.5f, 1.25f, -1.75f, 0.0f, 7.0f};
  for (int i = 0; i < 8; ++i) src[i] = half(values[i]);
  int32_t* dst = UbAt<int32_t>(kDstC);
  const int32_t rn[8] = {2, -2, 4, 0, 1, -2, 0, 7};
  const int32_t rna[8] = {3, -3, 4, -1, 1, -2, 0, 7};
  const int32_t rd[8] = {2, -3, 3, -1, 1, -2, 0, 7};
  const int32_t ru[8] = {3, -2, 4, 0, 2, -1, 0, 7};
  const int32_t rz[8] = {2, -2, 3, 0, 1, -1, 0, 7};
  asc_half2int32_rn(dst, src, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(dst[i], rn[i]) << "rn " << i;
  asc_half2int32_rna(dst, src, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(dst[i], rna[i]) << "rna " << i;
  asc_half2int32_rd(dst, src, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(dst[i], rd[i]) << "rd " << i;
  asc_half2int32_ru(dst, src, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(dst[i], ru[i]) << "ru " << i;
  asc_half2int32_rz(dst, src, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(dst[i], rz[i]) << "rz " << i;
  // float → half: 1 + 2^-11 is a tie between 1 and 1 + 2^-10.
  float* f = UbAt<float>(kSrc1);
  f[0] = 1.0f + std::ldexp(1.0f, -11);
  f[1] = -f[0];
  half* h = UbAt<half>(kDstC);
  asc_float2half_rn(h, f, 2);
  EXPECT_EQ(static_cast<float>(h[0]), 1.0f);
  EXPECT_EQ(static_cast<float>(h[1]), -1.0f);
  asc_float2half_ru(h, f, 2);
  EXPECT_EQ(static_cast<float>(h[0]), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(static_cast<float>(h[1]), -1.0f);
  asc_float2half_ro(h, f, 2);  // to odd: the odd neighbour
  EXPECT_EQ(static_cast<float>(h[0]), 1.0f + std::ldexp(1.0f, -10));
  // Saturation: half 300 and −300 to int8_t.
  src[0] = half(300.0f);
  src[1] = half(-300.0f);
  asc_half2int8(UbAt<int8_t>(kDstC), src, 2);
  EXPECT_EQ(UbAt<int8_t>(kDstC)[0], 127);
  EXPECT_EQ(UbAt<int8_t>(kDstC)[1], -128);
}

// asc_half2int4 and asc_int42half (int4b_t packed two a byte) against Cast
// on the same UB data in every form; the pages' examples (256 halves to
// int4b_t, 128 int4b_t to half); the even-count rule by its message.
TEST_F(CapiVector, Int4ConversionsMatchCpp) {
  using AscendC::int4b_t;
  for (uint32_t n : {2u, 200u, 1000u}) {
    EXPECT_CAST(int4b_t, half, asc_half2int4, CAST_NONE, n);
    EXPECT_CAST_FIVE(int4b_t, half, asc_half2int4, n);
    Fill<uint8_t>();  // random int4b_t pairs
    asc_int42half(UbAt<half>(kDstC), UbAt<int4b_t>(kSrc0), n);
    AscendC::Cast(TensorAt<half>(kDstCpp),
                  TensorAt<uint8_t>(kSrc0).ReinterpretCast<int4b_t>(),
                  AscendC::RoundMode::CAST_NONE, n);
    EXPECT_TRUE(SameDst()) << "asc_int42half " << n;
    asc_int42half_sync(UbAt<half>(kDstC), UbAt<int4b_t>(kSrc0), n);
    EXPECT_TRUE(SameDst()) << "asc_int42half_sync " << n;
  }
  // The high-dimension forms under the mask register as it stands: pairs
  // of lanes selected together.
  const uint64_t mask[2] = {0, 0};
  const uint64_t kPairs = 0x0FF0F00F33CCC33Cull;
  Fill<half>();
  asc_set_vector_mask(kPairs, kPairs);
  asc_half2int4_rd(UbAt<int4b_t>(kDstC), UbAt<half>(kSrc0), 3, 1, 1, 2, 8);
  AscendC::Cast<int4b_t, half, false>(
      TensorAt<uint8_t>(kDstCpp).ReinterpretCast<int4b_t>(),
      TensorAt<half>(kSrc0), AscendC::RoundMode::CAST_FLOOR, mask, 3,
      AscendC::UnaryRepeatParams(1, 1, 2, 8));
  EXPECT_TRUE(SameDst()) << "asc_half2int4_rd high-dimension";
  asc_int42half(UbAt<half>(kDstC), UbAt<int4b_t>(kSrc1), 2, 1, 1, 8, 2);
  AscendC::Cast<half, int4b_t, false>(
      TensorAt<half>(kDstCpp),
      TensorAt<uint8_t>(kSrc1).ReinterpretCast<int4b_t>(),
      AscendC::RoundMode::CAST_NONE, mask, 2,
      AscendC::UnaryRepeatParams(1, 1, 8, 2));
  EXPECT_TRUE(SameDst()) << "asc_int42half high-dimension";
  AscendC::ResetMask();

  // The pages' examples: 256 halves at UB 0 into int4b_t after them, and
  // 128 int4b_t (64 bytes) back into halves after them.
  half* h = UbAt<half>(0);
  for (int i = 0; i < 256; ++i) h[i] = half(float(i % 16) - 8.5f);
  int4b_t* q = UbAt<int4b_t>(256 * sizeof(half));
  asc_half2int4(q, h, 256);
  const auto* bytes = reinterpret_cast<const uint8_t*>(q);
  for (int i = 0; i < 256; ++i) {
    const int nibble = i % 2 == 0 ? bytes[i / 2] & 0xF : bytes[i / 2] >> 4;
    const float x = float(i % 16) - 8.5f;  // ties: to even, then saturated
    const int want = std::max(-8, std::min(7, int(std::nearbyint(x))));
    EXPECT_EQ(nibble >= 8 ? nibble - 16 : nibble, want) << i;
  }
  half* back = UbAt<half>(256 * sizeof(half) + 128 / 2 * 2);
  asc_int42half(back, q, 128);
  for (int i = 0; i < 128; ++i) {
    const int nibble = i % 2 == 0 ? bytes[i / 2] & 0xF : bytes[i / 2] >> 4;
    EXPECT_EQ(float(back[i]), float(nibble >= 8 ? nibble - 16 : nibble)) << i;
  }

  EXPECT_TRUE(FailsWith(
      [&] { asc_half2int4_rz(q, h, 255); },
      "asc_half2int4_rz<int4b_t, half>: count 255 is odd; int4b_t elements "
      "go two a byte, so the count must be even"));
  EXPECT_TRUE(FailsWith([&] { asc_int42half_sync(back, q, 7); },
                        "asc_int42half_sync<half, int4b_t>: count 7 is odd"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_half2int4(q + 3, h, 64); },
      "asc_half2int4<int4b_t, half>: dst is at UB byte 515, which is not "
      "32-byte aligned"));
}

// asc_deq_int162b8_h's example (scale 1, offset 0, signed: dst = src into
// the upper half of each block) and the other quantizations against
// CastDequant; asc_deq_int322half's example (scale 2).
TEST_F(CapiVector, DequantizationsMatchCppAndPages) {
  const uint64_t mask[2] = {0, 0};  // not set: the register as it stands
  Fill<int16_t>();
  int16_t* src = UbAt<int16_t>(kSrc0);
  for (int i = 0; i < 128; ++i) src[i] = static_cast<int16_t>(i * 3 - 200);
  int8_t* dst = UbAt<int8_t>(kDstC);
  asc_set_deq_scale(1.0f, 0, true);
  asc_deq_int162b8_h(dst, src, 128);
  for (int i = 0; i < 128; ++i) {
    const int block = i / 16, lane = i % 16;
    const int expected = std::min(127, std::max(-128, i * 3 - 200));
    EXPECT_EQ(dst[block * 32 + 16 + lane], expected) << i;
    // The lower half keeps Fill's int16_t filler, (block · 16 + k) % 7.
    const int kept = lane % 2 == 0 ? (block * 16 + lane / 2) % 7 : 0;
    EXPECT_EQ(dst[block * 32 + lane], kept) << "lower half kept " << i;
  }
  AscendC::CastDequant<int8_t, int16_t, false, true>(
      TensorAt<int8_t>(kDstCpp), TensorAt<int16_t>(kSrc0), 128);
  EXPECT_TRUE(SameDst()) << "asc_deq_int162b8_h";

  Fill<int16_t>();
  asc_set_deq_scale(0.5f, 3, false);
  asc_deq_int162b8_l_sync(UbAt<uint8_t>(kDstC), UbAt<int16_t>(kSrc0), 300);
  AscendC::CastDequant<uint8_t, int16_t, false, false>(
      TensorAt<uint8_t>(kDstCpp), TensorAt<int16_t>(kSrc0), 300);
  EXPECT_TRUE(SameDst()) << "asc_deq_int162b8_l_sync";

  Fill<int16_t>();
  float scales[ASC_VDEQ_SIZE];
  int16_t offsets[ASC_VDEQ_SIZE];
  bool signs[ASC_VDEQ_SIZE];
  for (int j = 0; j < ASC_VDEQ_SIZE; ++j) {
    scales[j] = 0.25f * static_cast<float>(j + 1);
    offsets[j] = static_cast<int16_t>(j - 8);
    signs[j] = true;
  }
  asc_set_deq_scale(UbAt<uint64_t>(4 * kRegion), scales, offsets, signs);
  asc_vdeq_int162b8_l(UbAt<int8_t>(kDstC), UbAt<int16_t>(kSrc0), 2, 1, 1, 8, 8);
  AscendC::SetDeqScale(
      LocalTensor<uint64_t>(TPosition::VECCALC, 4 * kRegion + 256, 16),
      AscendC::VdeqInfo(scales, offsets, signs));
  AscendC::CastDequant<int8_t, int16_t, false, true, false>(
      TensorAt<int8_t>(kDstCpp), TensorAt<int16_t>(kSrc0), mask, 2,
      AscendC::UnaryRepeatParams(1, 1, 8, 8));
  EXPECT_TRUE(SameDst()) << "asc_vdeq_int162b8_l";

  int32_t* i32 = UbAt<int32_t>(kSrc1);
  for (int i = 0; i < 128; ++i) i32[i] = i - 64;
  asc_set_deq_scale(2.0);
  asc_deq_int322half(UbAt<half>(kDstC), i32, 128);
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(static_cast<float>(UbAt<half>(kDstC)[i]), 2.0f * (i - 64)) << i;
  }
}

TEST_F(CapiVector, ConversionChecks) {
  Fill<float>();
  EXPECT_TRUE(FailsWith(
      [&] { asc_float2half(UbAt<half>(kDstC), UbAt<float>(kSrc0) + 1, 8); },
      "asc_float2half<half, float>: src is at UB byte 4, which is not 32-byte "
      "aligned"));
  const uint32_t ub = normgrad_ascendc::CurrentCore().ub_size();
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_half2float_sync(UbAt<float>(ub - 256), UbAt<half>(kSrc0), 65);
      },
      "asc_half2float_sync<float, half>: dst has 64 elements, fewer than "
      "count 65"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_deq_int322half(UbAt<half>(ub - 64), UbAt<int32_t>(kSrc0), 64);
      },
      "asc_deq_int322half<half, int32_t>: dst has 32 elements, fewer than "
      "count 64"));
  EXPECT_TRUE(FailsWith(
      [&] {
        float s[ASC_VDEQ_SIZE] = {};
        int16_t o[ASC_VDEQ_SIZE] = {};
        bool m[ASC_VDEQ_SIZE] = {};
        asc_set_deq_scale(UbAt<uint64_t>(ub - 64), s, o, m);
      },
      "asc_set_deq_scale: tmp at UB byte 196544 with 128 bytes runs past the "
      "end of the unified buffer"));
}

// ---- Reductions -------------------------------------------------------------

// The high-dimension forms against the C++ level-0 reductions with
// isSetMask = false under the same mask register (repeat 3, a gap between
// the source blocks and repeats, results 2 strides apart).
#define EXPECT_REDUCE_REPEATS(T, capi, cpp_call)               \
  do {                                                         \
    Fill<T>();                                                 \
    asc_set_vector_mask(kMaskHigh, kMaskLow);                  \
    capi(UbAt<T>(kDstC), UbAt<T>(kSrc0), 3, 2, 2, 17);         \
    cpp_call;                                                  \
    EXPECT_TRUE(SameDst()) << #capi "<" #T "> high-dimension"; \
  } while (0)
#define EXPECT_REDUCE_ORDERS(T, capi, Cpp)                                  \
  do {                                                                      \
    EXPECT_REDUCE_REPEATS(                                                  \
        T, capi##_value_index,                                              \
        (AscendC::Cpp<T, false>(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0),   \
                                mask, 3, 2, 2, 17,                          \
                                AscendC::ReduceOrder::ORDER_VALUE_INDEX))); \
    EXPECT_REDUCE_REPEATS(                                                  \
        T, capi##_index_value,                                              \
        (AscendC::Cpp<T, false>(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0),   \
                                mask, 3, 2, 2, 17,                          \
                                AscendC::ReduceOrder::ORDER_INDEX_VALUE))); \
    EXPECT_REDUCE_REPEATS(                                                  \
        T, capi##_only_value,                                               \
        (AscendC::Cpp<T, false>(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0),   \
                                mask, 3, 2, 2, 17,                          \
                                AscendC::ReduceOrder::ORDER_ONLY_VALUE)));  \
    EXPECT_REDUCE_REPEATS(                                                  \
        T, capi##_only_index,                                               \
        (AscendC::Cpp<T, false>(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0),   \
                                mask, 3, 2, 2, 17,                          \
                                AscendC::ReduceOrder::ORDER_ONLY_INDEX)));  \
  } while (0)
#define EXPECT_REDUCE_BLOCKS(T, capi, Cpp)                                 \
  EXPECT_REDUCE_REPEATS(                                                   \
      T, capi,                                                             \
      (AscendC::Cpp<T, false>(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0), 3, \
                              mask, 2, 2, 17)))

TEST_F(CapiVector, ReductionHighDimensionFormsMatchCpp) {
  const uint64_t mask[2] = {0, 0};  // not set: the register as it stands
  EXPECT_REDUCE_BLOCKS(half, asc_datablock_reduce_sum, BlockReduceSum);
  EXPECT_REDUCE_BLOCKS(float, asc_datablock_reduce_sum, BlockReduceSum);
  EXPECT_REDUCE_BLOCKS(half, asc_datablock_reduce_max, BlockReduceMax);
  EXPECT_REDUCE_BLOCKS(float, asc_datablock_reduce_min, BlockReduceMin);
  EXPECT_REDUCE_BLOCKS(half, asc_pair_reduce_sum, PairReduceSum);
  EXPECT_REDUCE_BLOCKS(float, asc_pair_reduce_sum, PairReduceSum);
  EXPECT_REDUCE_REPEATS(
      half, asc_repeat_reduce_sum,
      (AscendC::WholeReduceSum<half, false>(
          TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0), mask, 3, 2, 2, 17)));
  EXPECT_REDUCE_REPEATS(float, asc_repeat_reduce_sum,
                        (AscendC::WholeReduceSum<float, false>(
                            TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0),
                            mask, 3, 2, 2, 17)));
  EXPECT_REDUCE_ORDERS(half, asc_repeat_reduce_max, WholeReduceMax);
  EXPECT_REDUCE_ORDERS(float, asc_repeat_reduce_max, WholeReduceMax);
  EXPECT_REDUCE_ORDERS(half, asc_repeat_reduce_min, WholeReduceMin);
  EXPECT_REDUCE_ORDERS(float, asc_repeat_reduce_min, WholeReduceMin);
}

// The count forms against the C++ level-0 reductions in counter mode with
// the count as their mask; the C API leaves the mask register as it was.
#define EXPECT_REDUCE_COUNT(T, capi, cpp_call, n)                     \
  do {                                                                \
    Fill<T>();                                                        \
    asc_set_vector_mask(0, 0x3);                                      \
    capi(UbAt<T>(kDstC), UbAt<T>(kSrc0), n);                          \
    EXPECT_EQ(normgrad_ascendc::CurrentCore().vector_mask().low, 3u); \
    EXPECT_EQ(normgrad_ascendc::CurrentCore().vector_mask().mode,     \
              AscendC::MaskMode::NORMAL);                             \
    capi##_sync(UbAt<T>(kDstC), UbAt<T>(kSrc0), n);                   \
    AscendC::SetMaskCount();                                          \
    cpp_call;                                                         \
    AscendC::SetMaskNorm();                                           \
    EXPECT_TRUE(SameDst()) << #capi "<" #T "> count " << n;           \
  } while (0)

TEST_F(CapiVector, ReductionCountFormsMatchCpp) {
  for (int32_t n : {1, 100, 300}) {
    EXPECT_REDUCE_COUNT(
        half, asc_datablock_reduce_sum,
        (AscendC::BlockReduceSum<half, true>(
            TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0), 1, n, 1, 1, 8)),
        n);
    EXPECT_REDUCE_COUNT(
        float, asc_datablock_reduce_max,
        (AscendC::BlockReduceMax<float, true>(
            TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0), 1, n, 1, 1, 8)),
        n);
    EXPECT_REDUCE_COUNT(
        half, asc_datablock_reduce_min,
        (AscendC::BlockReduceMin<half, true>(
            TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0), 1, n, 1, 1, 8)),
        n);
    EXPECT_REDUCE_COUNT(
        float, asc_pair_reduce_sum,
        (AscendC::PairReduceSum<float, true>(
            TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0), 1, n, 1, 1, 8)),
        n);
    EXPECT_REDUCE_COUNT(
        half, asc_repeat_reduce_max_value_index,
        (AscendC::WholeReduceMax<half, true>(
            TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0), n, 1, 1, 1, 8,
            AscendC::ReduceOrder::ORDER_VALUE_INDEX)),
        n);
    EXPECT_REDUCE_COUNT(
        float, asc_repeat_reduce_min_index_value,
        (AscendC::WholeReduceMin<float, true>(
            TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0), n, 1, 1, 1, 8,
            AscendC::ReduceOrder::ORDER_INDEX_VALUE)),
        n);
    EXPECT_REDUCE_COUNT(
        half, asc_repeat_reduce_max_only_value,
        (AscendC::WholeReduceMax<half, true>(
            TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0), n, 1, 1, 1, 8,
            AscendC::ReduceOrder::ORDER_ONLY_VALUE)),
        n);
    EXPECT_REDUCE_COUNT(
        float, asc_repeat_reduce_min_only_index,
        (AscendC::WholeReduceMin<float, true>(
            TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0), n, 1, 1, 1, 8,
            AscendC::ReduceOrder::ORDER_ONLY_INDEX)),
        n);
  }
}

// The pages' examples: all ones by blocks and by repeats, 1 … 256 by
// pairs, and the maximum of each half repeat of 1 … 256 with its lane.
TEST_F(CapiVector, ReductionPageExamples) {
  half* src = UbAt<half>(kSrc0);
  half* dst = UbAt<half>(kDstC);
  for (int i = 0; i < 256; ++i) src[i] = half(1.0f);
  asc_datablock_reduce_sum(dst, src, 2, 1, 1, 8);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(static_cast<float>(dst[i]), 16.0f);
  asc_repeat_reduce_sum(dst, src, 2, 1, 1, 8);
  EXPECT_EQ(static_cast<float>(dst[0]), 128.0f);
  EXPECT_EQ(static_cast<float>(dst[1]), 128.0f);
  for (int i = 0; i < 256; ++i) src[i] = half(static_cast<float>(i + 1));
  asc_pair_reduce_sum(dst, src, 2, 1, 1, 8);
  for (int k = 0; k < 128; ++k) {
    EXPECT_EQ(static_cast<float>(dst[k]), static_cast<float>(4 * k + 3)) << k;
  }
  asc_repeat_reduce_max_value_index(dst, src, 2, 1, 1, 8);
  uint16_t index[2];
  std::memcpy(&index[0], &dst[1], 2);
  std::memcpy(&index[1], &dst[3], 2);
  EXPECT_EQ(static_cast<float>(dst[0]), 128.0f);
  EXPECT_EQ(index[0], 127);
  EXPECT_EQ(static_cast<float>(dst[2]), 256.0f);
  EXPECT_EQ(index[1], 127);
}

TEST_F(CapiVector, ReductionChecks) {
  Fill<float>();
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_datablock_reduce_sum(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc0),
                                 64);
      },
      "asc_datablock_reduce_sum<int16_t>: element type int16_t is not "
      "supported on profile Atlas A2/A3 (asc_datablock_reduce_sum takes half, "
      "float there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_repeat_reduce_max_value_index(UbAt<float>(kDstC) + 1,
                                          UbAt<float>(kSrc0), 1, 1, 1, 8);
      },
      "asc_repeat_reduce_max_value_index<float>: dst is at UB byte 16388, "
      "which is not 8-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_pair_reduce_sum(UbAt<float>(kDstC), UbAt<float>(kSrc0) + 4, 64);
      },
      "asc_pair_reduce_sum<float>: src is at UB byte 16, which is not 32-byte "
      "aligned"));
  // The count form gives the mask register back after a failure too.
  asc_set_vector_mask(0, 0x5);
  const uint32_t ub = normgrad_ascendc::CurrentCore().ub_size();
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_datablock_reduce_sum_sync(UbAt<float>(kDstC), UbAt<float>(ub - 256),
                                      128);
      },
      "asc_datablock_reduce_sum_sync<float>: src"));
  EXPECT_EQ(normgrad_ascendc::CurrentCore().vector_mask().low, 5u);
  EXPECT_EQ(normgrad_ascendc::CurrentCore().vector_mask().mode,
            AscendC::MaskMode::NORMAL);
}

// ---- Compounds
// ---------------------------------------------------------------

// A two-source compound's count and _sync forms against the C++ compound on
// the same operands (dst is read by some: both start with the same filler).
#define EXPECT_COMPOUND(D, S, capi, cpp, n)                                    \
  do {                                                                         \
    Fill<S>();                                                                 \
    capi(UbAt<D>(kDstC), UbAt<S>(kSrc0), UbAt<S>(kSrc1), n);                   \
    AscendC::cpp(TensorAt<D>(kDstCpp), TensorAt<S>(kSrc0), TensorAt<S>(kSrc1), \
                 n);                                                           \
    EXPECT_TRUE(SameDst()) << #capi "<" #D ", " #S ">";                        \
    std::memset(UbAt<D>(kDstC), 0, kRegion);                                   \
    std::memset(UbAt<D>(kDstCpp), 0, kRegion);                                 \
    capi##_sync(UbAt<D>(kDstC), UbAt<S>(kSrc0), UbAt<S>(kSrc1), n);            \
    AscendC::cpp(TensorAt<D>(kDstCpp), TensorAt<S>(kSrc0), TensorAt<S>(kSrc1), \
                 n);                                                           \
    EXPECT_TRUE(SameDst()) << #capi "_sync<" #D ", " #S ">";                   \
  } while (0)
#define EXPECT_COMPOUND_SCALAR(D, S, capi, cpp, value, n)             \
  do {                                                                \
    Fill<S>();                                                        \
    capi(UbAt<D>(kDstC), UbAt<S>(kSrc0), value, n);                   \
    AscendC::cpp(TensorAt<D>(kDstCpp), TensorAt<S>(kSrc0), value, n); \
    EXPECT_TRUE(SameDst()) << #capi "<" #D ", " #S ">";               \
    std::memset(UbAt<D>(kDstC), 0, kRegion);                          \
    std::memset(UbAt<D>(kDstCpp), 0, kRegion);                        \
    capi##_sync(UbAt<D>(kDstC), UbAt<S>(kSrc0), value, n);            \
    AscendC::cpp(TensorAt<D>(kDstCpp), TensorAt<S>(kSrc0), value, n); \
    EXPECT_TRUE(SameDst()) << #capi "_sync<" #D ", " #S ">";          \
  } while (0)

TEST_F(CapiVector, CompoundCountFormsMatchCpp) {
  for (uint32_t n : {1u, 200u, 1000u}) {
    EXPECT_COMPOUND(float, float, asc_add_relu, AddRelu, n);
    EXPECT_COMPOUND(half, half, asc_add_relu, AddRelu, n);
    EXPECT_COMPOUND(int16_t, int16_t, asc_add_relu, AddRelu, n);
    EXPECT_COMPOUND(half, float, asc_add_relu, AddReluCast, n);
    EXPECT_COMPOUND(int8_t, half, asc_add_relu, AddReluCast, n);
    EXPECT_COMPOUND(int8_t, int16_t, asc_add_relu, AddReluCast, n);
    EXPECT_COMPOUND(float, float, asc_sub_relu, SubRelu, n);
    EXPECT_COMPOUND(int16_t, int16_t, asc_sub_relu, SubRelu, n);
    EXPECT_COMPOUND(half, float, asc_sub_relu, SubReluCast, n);
    EXPECT_COMPOUND(int8_t, half, asc_sub_relu, SubReluCast, n);
    EXPECT_COMPOUND(half, half, asc_mul_add, FusedMulAdd, n);
    EXPECT_COMPOUND(float, float, asc_mul_add, FusedMulAdd, n);
    EXPECT_COMPOUND(half, half, asc_mul_add_relu, MulAddRelu, n);
    EXPECT_COMPOUND(float, float, asc_mul_add_relu, MulAddRelu, n);
    EXPECT_COMPOUND(half, half, asc_fma, MulAddDst, n);
    EXPECT_COMPOUND(float, float, asc_fma, MulAddDst, n);
    EXPECT_COMPOUND(float, half, asc_fma, MulAddDst, n);
    EXPECT_COMPOUND(int8_t, half, asc_mul_cast_half2int8, MulCast, n);
    EXPECT_COMPOUND(uint8_t, half, asc_mul_cast_half2uint8, MulCast, n);
    EXPECT_COMPOUND_SCALAR(half, half, asc_axpy, Axpy, half(0.75f), n);
    EXPECT_COMPOUND_SCALAR(float, float, asc_axpy, Axpy, -1.5f, n);
    EXPECT_COMPOUND_SCALAR(float, half, asc_axpy, Axpy, half(2.0f), n);
    EXPECT_COMPOUND_SCALAR(half, half, asc_leakyrelu, LeakyRelu, half(0.1f), n);
    EXPECT_COMPOUND_SCALAR(float, float, asc_leakyrelu, LeakyRelu, 0.01f, n);
  }
}

// The high-dimension forms against the C++ level-0 forms with isSetMask =
// false under the same mask register.
TEST_F(CapiVector, CompoundHighDimensionFormsMatchCpp) {
  const uint64_t mask[2] = {0, 0};  // not set: the register as it stands
  const AscendC::BinaryRepeatParams binary(2, 1, 2, 17, 8, 17);
  Fill<half>();
  asc_set_vector_mask(kMaskHigh, kMaskLow);
  asc_add_relu(UbAt<int8_t>(kDstC), UbAt<half>(kSrc0), UbAt<half>(kSrc1), 3, 1,
               1, 1, 4, 8, 8);
  AscendC::AddReluCast<int8_t, half, false>(
      TensorAt<int8_t>(kDstCpp), TensorAt<half>(kSrc0), TensorAt<half>(kSrc1),
      mask, 3, AscendC::BinaryRepeatParams(1, 1, 1, 4, 8, 8));
  EXPECT_TRUE(SameDst()) << "asc_add_relu<int8_t, half>";

  Fill<float>();
  asc_mul_add_relu(UbAt<float>(kDstC), UbAt<float>(kSrc0), UbAt<float>(kSrc1),
                   3, 2, 1, 2, 17, 8, 17);
  AscendC::MulAddRelu<float, false>(TensorAt<float>(kDstCpp),
                                    TensorAt<float>(kSrc0),
                                    TensorAt<float>(kSrc1), mask, 3, binary);
  EXPECT_TRUE(SameDst()) << "asc_mul_add_relu<float>";

  Fill<half>();
  asc_fma(UbAt<float>(kDstC), UbAt<half>(kSrc0), UbAt<half>(kSrc1), 2, 1, 1, 1,
          8, 4, 4);
  AscendC::MulAddDst<float, half, false>(
      TensorAt<float>(kDstCpp), TensorAt<half>(kSrc0), TensorAt<half>(kSrc1),
      mask, 2, AscendC::BinaryRepeatParams(1, 1, 1, 8, 4, 4));
  EXPECT_TRUE(SameDst()) << "asc_fma<float, half>";

  Fill<float>();
  asc_axpy(UbAt<float>(kDstC), UbAt<float>(kSrc0), 0.5f, 3, 2, 1, 17, 8);
  AscendC::Axpy<float, float, false>(TensorAt<float>(kDstCpp),
                                     TensorAt<float>(kSrc0), 0.5f, mask, 3,
                                     AscendC::UnaryRepeatParams(2, 1, 17, 8));
  EXPECT_TRUE(SameDst()) << "asc_axpy<float>";

  Fill<half>();
  asc_leakyrelu(UbAt<half>(kDstC), UbAt<half>(kSrc0), half(0.25f), 3, 2, 1, 17,
                8);
  AscendC::LeakyRelu<half, false>(TensorAt<half>(kDstCpp),
                                  TensorAt<half>(kSrc0), half(0.25f), mask, 3,
                                  AscendC::UnaryRepeatParams(2, 1, 17, 8));
  EXPECT_TRUE(SameDst()) << "asc_leakyrelu<half>";

  Fill<half>();
  asc_mul_cast_half2uint8(UbAt<uint8_t>(kDstC), UbAt<half>(kSrc0),
                          UbAt<half>(kSrc1), 2, 1, 1, 1, 4, 8, 8);
  AscendC::MulCast<uint8_t, half, false>(
      TensorAt<uint8_t>(kDstCpp), TensorAt<half>(kSrc0), TensorAt<half>(kSrc1),
      mask, 2, AscendC::BinaryRepeatParams(1, 1, 1, 4, 8, 8));
  EXPECT_TRUE(SameDst()) << "asc_mul_cast_half2uint8";
}

// Against the pages' formulas, computed here.
TEST_F(CapiVector, CompoundsAgainstReference) {
  Fill<float>();
  float* d = UbAt<float>(kDstC);
  const float* a = UbAt<float>(kSrc0);
  const float* b = UbAt<float>(kSrc1);
  asc_sub_relu(d, UbAt<float>(kSrc0), UbAt<float>(kSrc1), 300);
  for (uint32_t i = 0; i < 300; ++i) EXPECT_EQ(d[i], std::fmax(a[i] - b[i], 0));
  for (uint32_t i = 0; i < 300; ++i) d[i] = 2.0f;
  asc_mul_add(d, UbAt<float>(kSrc0), UbAt<float>(kSrc1), 300);
  for (uint32_t i = 0; i < 300; ++i) EXPECT_EQ(d[i], a[i] * 2.0f + b[i]) << i;
  for (uint32_t i = 0; i < 300; ++i) d[i] = 1.0f;
  asc_axpy(d, UbAt<float>(kSrc0), 0.5f, 300);
  for (uint32_t i = 0; i < 300; ++i) EXPECT_EQ(d[i], a[i] * 0.5f + 1.0f) << i;
  asc_leakyrelu(d, UbAt<float>(kSrc0), 0.125f, 300);
  for (uint32_t i = 0; i < 300; ++i) {
    EXPECT_EQ(d[i], a[i] > 0 ? a[i] : a[i] * 0.125f) << i;
  }
  half* h0 = UbAt<half>(kSrc0);
  half* h1 = UbAt<half>(kSrc1);
  const float x[4] = {3.0f, -3.0f, 2.5f, 1.5f};
  const float y[4] = {50.0f, 50.0f, 1.0f, 1.0f};
  for (int i = 0; i < 4; ++i) {
    h0[i] = half(x[i]);
    h1[i] = half(y[i]);
  }
  asc_mul_cast_half2int8(UbAt<int8_t>(kDstC), h0, h1, 4);
  const int8_t expected[4] = {127, -128, 2, 2};  // saturated; ties to even
  for (int i = 0; i < 4; ++i) EXPECT_EQ(UbAt<int8_t>(kDstC)[i], expected[i]);
}

TEST_F(CapiVector, CompoundChecks) {
  Fill<float>();
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_leakyrelu(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc0), int16_t{1},
                      64);
      },
      "asc_leakyrelu<int16_t>: element type int16_t is not supported on "
      "profile Atlas A2/A3 (asc_leakyrelu takes half, float there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_add_relu(UbAt<int32_t>(kDstC), UbAt<int32_t>(kSrc0),
                     UbAt<int32_t>(kSrc1), 64);
      },
      "asc_add_relu<int32_t>: "));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_fma_sync(UbAt<float>(kDstC), UbAt<half>(kDstC + 128),
                     UbAt<half>(kSrc1), 64);
      },
      "asc_fma_sync<float, half>: dst (UB bytes 16384..16640) and src0 (UB "
      "bytes 16512..16640) overlap; from half into float the operands may "
      "not overlap"));
  const uint32_t ub = normgrad_ascendc::CurrentCore().ub_size();
  EXPECT_TRUE(FailsWith(
      [&] { asc_axpy(UbAt<float>(ub - 256), UbAt<float>(kSrc0), 1.0f, 65); },
      "asc_axpy<float>: dst has 64 elements, fewer than count 65"));
}

// ---- Shifts and copies ------------------------------------------------------

#define EXPECT_SHIFT(T, capi, cpp, by)                                   \
  do {                                                                   \
    Fill<T>();                                                           \
    capi(UbAt<T>(kDstC), UbAt<T>(kSrc0), by, 1000);                      \
    AscendC::cpp(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0), T(by), 1000); \
    EXPECT_TRUE(SameDst()) << #capi "<" #T ">";                          \
    capi##_sync(UbAt<T>(kDstC), UbAt<T>(kSrc0), by, 300);                \
    AscendC::cpp(TensorAt<T>(kDstCpp), TensorAt<T>(kSrc0), T(by), 300);  \
    EXPECT_TRUE(SameDst()) << #capi "_sync<" #T ">";                     \
  } while (0)

TEST_F(CapiVector, ShiftsAndCopyMatchCpp) {
  EXPECT_SHIFT(int16_t, asc_shiftleft, ShiftLeft, 3);
  EXPECT_SHIFT(uint16_t, asc_shiftleft, ShiftLeft, 16);
  EXPECT_SHIFT(int32_t, asc_shiftleft, ShiftLeft, 5);
  EXPECT_SHIFT(uint32_t, asc_shiftleft, ShiftLeft, 0);
  EXPECT_SHIFT(int16_t, asc_shiftright, ShiftRight, 3);
  EXPECT_SHIFT(uint16_t, asc_shiftright, ShiftRight, 2);
  EXPECT_SHIFT(int32_t, asc_shiftright, ShiftRight, 7);
  EXPECT_SHIFT(uint32_t, asc_shiftright, ShiftRight, 31);

  const uint64_t mask[2] = {0, 0};  // not set: the register as it stands
  asc_set_vector_mask(kMaskHigh, kMaskLow);
  Fill<int16_t>();
  asc_shiftright_round(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc0), 2, 3, 2, 1,
                       17, 8);
  AscendC::ShiftRight<int16_t, false>(
      TensorAt<int16_t>(kDstCpp), TensorAt<int16_t>(kSrc0), int16_t{2}, mask, 3,
      AscendC::UnaryRepeatParams(2, 1, 17, 8), true);
  EXPECT_TRUE(SameDst()) << "asc_shiftright_round<int16_t>";
  Fill<uint32_t>();
  asc_shiftleft(UbAt<uint32_t>(kDstC), UbAt<uint32_t>(kSrc0), 4, 3, 2, 1, 17,
                8);
  AscendC::ShiftLeft<uint32_t, false>(TensorAt<uint32_t>(kDstCpp),
                                      TensorAt<uint32_t>(kSrc0), 4u, mask, 3,
                                      AscendC::UnaryRepeatParams(2, 1, 17, 8));
  EXPECT_TRUE(SameDst()) << "asc_shiftleft<uint32_t> high-dimension";

  Fill<uint16_t>();
  asc_copy(UbAt<uint16_t>(kDstC), UbAt<uint16_t>(kSrc0), 3, 2, 1, 17, 8);
  AscendC::Copy<uint16_t, false>(TensorAt<uint16_t>(kDstCpp),
                                 TensorAt<uint16_t>(kSrc0), mask, 3,
                                 AscendC::CopyRepeatParams(2, 1, 17, 8));
  EXPECT_TRUE(SameDst()) << "asc_copy<uint16_t> high-dimension";
}

// The pages' examples and references: the rounding right shift adds the
// last bit shifted out; the count form of asc_copy copies count elements.
TEST_F(CapiVector, ShiftsAndCopyAgainstReference) {
  Fill<int32_t>();
  int32_t* src = UbAt<int32_t>(kSrc0);
  src[0] = 0b1010;
  src[1] = 0b1001;
  int32_t* dst = UbAt<int32_t>(kDstC);
  asc_shiftright_round(dst, src, 1, 2);
  EXPECT_EQ(dst[0], 0b0101);
  EXPECT_EQ(dst[1], 0b0101);
  asc_shiftright_round_sync(dst, src, 3, 200);
  for (uint32_t i = 0; i < 200; ++i) {
    EXPECT_EQ(dst[i], (src[i] >> 3) + ((src[i] >> 2) & 1)) << i;
  }
  asc_shiftleft(dst, src, 2, 200);
  for (uint32_t i = 0; i < 200; ++i) {
    EXPECT_EQ(dst[i], static_cast<int32_t>(static_cast<uint32_t>(src[i]) << 2));
  }
  asc_copy_sync(dst, src, 130);
  for (uint32_t i = 0; i < 130; ++i) EXPECT_EQ(dst[i], src[i]) << i;
  asc_copy(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc1), 77);
  EXPECT_EQ(std::memcmp(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc1), 154), 0);
}

// asc_transpose against Transpose and against the 16×16 transpose.
TEST_F(CapiVector, TransposeMatchesCppAndReference) {
  Fill<int16_t>();
  asc_transpose(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc0));
  AscendC::Transpose(TensorAt<int16_t>(kDstCpp), TensorAt<int16_t>(kSrc0));
  EXPECT_TRUE(SameDst()) << "asc_transpose<int16_t>";
  const uint16_t* src = UbAt<uint16_t>(kSrc1);
  uint16_t* dst = UbAt<uint16_t>(kDstC);
  asc_transpose_sync(dst, UbAt<uint16_t>(kSrc1));
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) EXPECT_EQ(dst[r * 16 + c], src[c * 16 + r]);
  }
  EXPECT_TRUE(FailsWith(
      [&] { asc_transpose(UbAt<half>(kDstC), UbAt<half>(kSrc0)); },
      "asc_transpose<half>: element type half is not supported on profile "
      "Atlas A2/A3 (asc_transpose takes int16_t, uint16_t there)"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_transpose(UbAt<int16_t>(kDstC) + 4, UbAt<int16_t>(kSrc0)); },
      "asc_transpose<int16_t>: dst is at UB byte 16392, which is not 32-byte "
      "aligned"));
}

TEST_F(CapiVector, ShiftAndCopyChecks) {
  Fill<int16_t>();
  int16_t* d = UbAt<int16_t>(kDstC);
  int16_t* a = UbAt<int16_t>(kSrc0);
  EXPECT_TRUE(FailsWith([&] { asc_shiftleft(d, a, 17, 64); },
                        "asc_shiftleft<int16_t>: distance 17 is out of range "
                        "(0..16, the bits of int16_t)"));
  EXPECT_TRUE(FailsWith([&] { asc_shiftright_sync(d, a, -1, 64); },
                        "asc_shiftright_sync<int16_t>: value -1 is out of "
                        "range (0..16, the bits of int16_t)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_shiftright_round(UbAt<uint16_t>(kDstC), UbAt<uint16_t>(kSrc0), 1,
                             64);
      },
      "asc_shiftright_round<uint16_t>: element type uint16_t is not supported "
      "on profile Atlas A2/A3 (asc_shiftright_round takes int16_t, int32_t "
      "there)"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy(UbAt<half>(kDstC), UbAt<half>(kSrc0), 64); },
      "asc_copy<half>: element type half is not supported on profile Atlas "
      "A2/A3 (asc_copy takes "));
  EXPECT_TRUE(FailsWith([&] { asc_copy(d, a, 1, 1, 1, 8, 5000); },
                        "asc_copy<int16_t>: src_repeat_stride 5000 is out of "
                        "range (0..4095 blocks)"));
}

// ---- Checks -------------------------------------------------------------

// ---- Moving elements and blocks ------------------------------------------

// The page's example, then the C++ Brcb on the same data, both types.
TEST_F(CapiVector, BrcbMatchesPageAndCpp) {
  uint16_t* src = UbAt<uint16_t>(kSrc0);
  for (uint16_t i = 0; i < 16; ++i) src[i] = static_cast<uint16_t>(i + 1);
  asc_brcb(UbAt<uint16_t>(kDstC), src, 1, 8, 2);
  for (uint32_t i = 0; i < 256; ++i) {
    EXPECT_EQ(UbAt<uint16_t>(kDstC)[i], i / 16 + 1) << i;
  }
  Fill<uint32_t>();
  asc_brcb(UbAt<uint32_t>(kDstC), UbAt<uint32_t>(kSrc0), 2, 20, 3);
  AscendC::Brcb(TensorAt<uint32_t>(kDstCpp), TensorAt<uint32_t>(kSrc0), 3,
                AscendC::BrcbRepeatParams(2, 20));
  EXPECT_TRUE(SameDst());
  Fill<uint16_t>();
  asc_brcb_sync(UbAt<uint16_t>(kDstC), UbAt<uint16_t>(kSrc0), 1, 9, 4);
  AscendC::Brcb(TensorAt<uint16_t>(kDstCpp), TensorAt<uint16_t>(kSrc0), 4,
                AscendC::BrcbRepeatParams(1, 9));
  EXPECT_TRUE(SameDst());
  EXPECT_TRUE(FailsWith(
      [] { asc_brcb(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc0), 1, 8, 1); },
      "asc_brcb<int16_t>: element type int16_t is not supported on profile "
      "Atlas A2/A3"));
  EXPECT_TRUE(FailsWith(
      [] { asc_brcb(UbAt<uint16_t>(kDstC), UbAt<uint16_t>(kDstC), 1, 8, 1); },
      "asc_brcb<uint16_t>: src and dst overlap"));
}

// The page's example (a reversal by byte offsets), then the C++ Gather on
// random offsets in the count and the high-dimension form.
TEST_F(CapiVector, GatherMatchesPageAndCpp) {
  half* src = UbAt<half>(kSrc0);
  uint32_t* offsets = UbAt<uint32_t>(kSrc1);
  for (uint32_t i = 0; i < 128; ++i) {
    src[i] = static_cast<half>(static_cast<float>(i + 1));
    offsets[i] = 254 - 2 * i;
  }
  asc_gather(UbAt<half>(kDstC), src, offsets, 128);
  for (uint32_t i = 0; i < 128; ++i) {
    EXPECT_EQ(static_cast<float>(UbAt<half>(kDstC)[i]),
              static_cast<float>(128 - i))
        << i;
  }
  std::mt19937 rng(compat_test::Seed<77>());
  auto random_offsets = [&](uint32_t elem_bytes, uint32_t n) {
    std::uniform_int_distribution<uint32_t> pick(0, 1000);
    for (uint32_t i = 0; i < n; ++i) offsets[i] = pick(rng) * elem_bytes;
  };
  // src0 holds 8 KiB: 1001 elements of 4 bytes reach byte 4004.
  Fill<float>();
  random_offsets(4, 300);
  asc_gather(UbAt<float>(kDstC), UbAt<float>(kSrc0), offsets, 300);
  AscendC::Gather(TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0),
                  TensorAt<uint32_t>(kSrc1), 0, 300);
  EXPECT_TRUE(SameDst());
  Fill<int16_t>();
  random_offsets(2, 1000);
  asc_gather_sync(UbAt<int16_t>(kDstC), UbAt<int16_t>(kSrc0), offsets, 999);
  AscendC::Gather(TensorAt<int16_t>(kDstCpp), TensorAt<int16_t>(kSrc0),
                  TensorAt<uint32_t>(kSrc1), 0, 999);
  EXPECT_TRUE(SameDst());
  // The high-dimension form reads the mask register.
  Fill<uint32_t>();
  random_offsets(4, 256);
  const uint64_t mask[2] = {kMaskLow, 0};
  asc_set_vector_mask(0, kMaskLow);
  asc_gather(UbAt<uint32_t>(kDstC), UbAt<uint32_t>(kSrc0), offsets, 10, 3);
  AscendC::Gather(TensorAt<uint32_t>(kDstCpp), TensorAt<uint32_t>(kSrc0),
                  TensorAt<uint32_t>(kSrc1), 0, mask, 3, 10);
  EXPECT_TRUE(SameDst());
  offsets[5] = 3;
  EXPECT_TRUE(FailsWith(
      [&] { asc_gather(UbAt<float>(kDstC), UbAt<float>(kSrc0), offsets, 8); },
      "asc_gather<float>: lane 5: src_offset 3 (plus base address 0) is byte "
      "3, not a multiple of the element size 4"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_gather(UbAt<int8_t>(kDstC), UbAt<int8_t>(kSrc0), offsets, 8); },
      "asc_gather<int8_t>: element type int8_t is not supported"));
}

// The page's example (blocks in order copy src), then the C++ Gatherb on
// shuffled blocks.
TEST_F(CapiVector, GatherDatablockMatchesPageAndCpp) {
  uint32_t* src = UbAt<uint32_t>(kSrc0);
  uint32_t* offsets = UbAt<uint32_t>(kSrc1);
  for (uint32_t i = 0; i < 128; ++i) src[i] = i + 1;
  for (uint32_t j = 0; j < 16; ++j) offsets[j] = 32 * j;
  asc_gather_datablock(UbAt<uint32_t>(kDstC), src, offsets, 8, 1, 2);
  for (uint32_t i = 0; i < 128; ++i) {
    EXPECT_EQ(UbAt<uint32_t>(kDstC)[i], i + 1) << i;
  }
  Fill<uint16_t>();
  for (uint32_t j = 0; j < 24; ++j) offsets[j] = 32 * ((j * 7) % 24);
  asc_gather_datablock(UbAt<uint16_t>(kDstC), UbAt<uint16_t>(kSrc0), offsets,
                       20, 2, 3);
  AscendC::Gatherb(TensorAt<uint16_t>(kDstCpp), TensorAt<uint16_t>(kSrc0),
                   TensorAt<uint32_t>(kSrc1), 3,
                   AscendC::GatherRepeatParams(2, 20));
  EXPECT_TRUE(SameDst());
  std::memset(UbAt<uint8_t>(kDstC), 0, kRegion);
  std::memset(UbAt<uint8_t>(kDstCpp), 0, kRegion);
  asc_gather_datablock_sync(UbAt<uint32_t>(kDstC), UbAt<uint32_t>(kSrc0),
                            offsets, 8, 1, 3);
  AscendC::Gatherb(TensorAt<uint32_t>(kDstCpp), TensorAt<uint32_t>(kSrc0),
                   TensorAt<uint32_t>(kSrc1), 3,
                   AscendC::GatherRepeatParams(1, 8));
  EXPECT_TRUE(SameDst());
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_gather_datablock(UbAt<half>(kDstC), UbAt<half>(kSrc0), offsets, 8,
                             1, 1);
      },
      "asc_gather_datablock<half>: element type half is not supported"));
}

// asc_reduce against a reference (the page's count form) and against
// GatherMask in every pattern; asc_get_rsvd_count reads the count.
TEST_F(CapiVector, ReduceMatchesReferenceAndGatherMask) {
  Fill<uint16_t>();
  uint16_t* src0 = UbAt<uint16_t>(kSrc0);
  uint16_t* pattern = UbAt<uint16_t>(kSrc1);
  for (uint32_t i = 0; i < 8; ++i) {
    pattern[i] = static_cast<uint16_t>(0x9E37u * (i + 1));
  }
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);  // a block starting afresh
  EXPECT_EQ(asc_get_rsvd_count(), 0);
  asc_set_vector_mask(0x0F, 0xF0);  // the count form keeps the register
  asc_reduce(UbAt<uint16_t>(kDstC), src0, pattern, 128);
  std::vector<uint16_t> kept;
  for (uint32_t k = 0; k < 128; ++k) {
    if ((pattern[k / 16] >> (k % 16) & 1) != 0) kept.push_back(src0[k]);
  }
  EXPECT_EQ(asc_get_rsvd_count(), static_cast<int64_t>(kept.size()));
  for (size_t i = 0; i < kept.size(); ++i) {
    EXPECT_EQ(UbAt<uint16_t>(kDstC)[i], kept[i]) << i;
  }
  const normgrad_ascendc::VectorMask& reg =
      normgrad_ascendc::CurrentCore().vector_mask();
  EXPECT_EQ(reg.low, 0xF0u);
  EXPECT_EQ(reg.high, 0x0Fu);
  uint64_t rsvd = 0;
  AscendC::GatherMask(TensorAt<uint16_t>(kDstCpp), TensorAt<uint16_t>(kSrc0),
                      TensorAt<uint16_t>(kSrc1), true, 128, {1, 1, 8, 8}, rsvd);
  EXPECT_TRUE(SameDst());
  EXPECT_EQ(static_cast<uint64_t>(asc_get_rsvd_count()), rsvd);
  asc_reduce_sync(UbAt<uint16_t>(kDstC), src0, pattern, 77);
  AscendC::GatherMask(TensorAt<uint16_t>(kDstCpp), TensorAt<uint16_t>(kSrc0),
                      TensorAt<uint16_t>(kSrc1), true, 77, {1, 1, 8, 8}, rsvd);
  EXPECT_TRUE(SameDst());
  EXPECT_EQ(static_cast<uint64_t>(asc_get_rsvd_count()), rsvd);
  // The high-dimension form: the user pattern (0) and the built-in ones.
  Fill<uint32_t>();
  for (uint8_t mode = 0; mode <= 7; ++mode) {
    asc_reduce(UbAt<uint32_t>(kDstC), UbAt<uint32_t>(kSrc0),
               UbAt<uint32_t>(kSrc1), 3, 2, mode, 20, 1);
    if (mode == 0) {
      AscendC::GatherMask(TensorAt<uint32_t>(kDstCpp),
                          TensorAt<uint32_t>(kSrc0), TensorAt<uint32_t>(kSrc1),
                          false, 0, {2, 3, 20, 1}, rsvd);
    } else {
      AscendC::GatherMask(TensorAt<uint32_t>(kDstCpp),
                          TensorAt<uint32_t>(kSrc0), mode, false, 0,
                          {2, 3, 20, 1}, rsvd);
    }
    EXPECT_TRUE(SameDst()) << int{mode};
    EXPECT_EQ(static_cast<uint64_t>(asc_get_rsvd_count()), rsvd) << int{mode};
  }
  // A built-in pattern does not read src1.
  asc_reduce<uint32_t>(UbAt<uint32_t>(kDstC), UbAt<uint32_t>(kSrc0), nullptr, 1,
                       1, 7, 8, 8);
  EXPECT_EQ(asc_get_rsvd_count(), 64);
  EXPECT_TRUE(FailsWith(
      [] {
        asc_reduce(UbAt<uint32_t>(kDstC), UbAt<uint32_t>(kSrc0),
                   UbAt<uint32_t>(kSrc1), 1, 1, 8, 8, 8);
      },
      "asc_reduce<uint32_t>: pattern_mode 8 is out of range (1..7 on profile "
      "Atlas A2/A3)"));
  EXPECT_TRUE(FailsWith(
      [] {
        asc_reduce(UbAt<uint32_t>(kDstC), UbAt<uint32_t>(kSrc0),
                   UbAt<uint32_t>(kSrc1), 256, 1, 7, 8, 8);
      },
      "asc_reduce<uint32_t>: repeat 256 is out of range (0..255)"));
  EXPECT_TRUE(FailsWith(
      [] {
        asc_reduce(UbAt<uint16_t>(kDstC), UbAt<uint16_t>(kSrc0),
                   UbAt<uint16_t>(kSrc1), 0u);
      },
      "asc_reduce<uint16_t>: count 0 is out of range (1..4294967295)"));
  EXPECT_TRUE(FailsWith(
      [] {
        asc_reduce<uint32_t>(UbAt<uint32_t>(kDstC), UbAt<uint32_t>(kSrc0),
                             nullptr, 1, 1, 0, 8, 8);
      },
      "asc_reduce<uint32_t>: src1 is a null pointer"));
  EXPECT_TRUE(FailsWith(
      [] {
        asc_reduce(UbAt<half>(kDstC), UbAt<half>(kSrc0), UbAt<half>(kSrc1),
                   64u);
      },
      "asc_reduce<half>: element type half is not supported"));
}

// asc_bitsort against Sort32 and a stable sort written here; asc_mrgsort4
// on the page's example (8 sorted lists merged in two steps) against a
// whole sort, and against MrgSort with asc_get_vms4_sr.
TEST_F(CapiVector, SortsMatchReferenceAndCpp) {
  Fill<half>();
  uint32_t* index = UbAt<uint32_t>(kSrc1);
  for (uint32_t i = 0; i < 256; ++i) {
    index[i] = 1000 + i;
    if (i % 5 == 0) UbAt<half>(kSrc0)[i] = UbAt<half>(kSrc0)[i / 2];  // ties
  }
  asc_bitsort(UbAt<half>(kDstC), UbAt<half>(kSrc0), index, 8);
  AscendC::Sort32(TensorAt<half>(kDstCpp), TensorAt<half>(kSrc0),
                  TensorAt<uint32_t>(kSrc1), 8);
  EXPECT_TRUE(SameDst());
  for (uint32_t r = 0; r < 8; ++r) {
    std::vector<uint32_t> order(32);
    for (uint32_t k = 0; k < 32; ++k) order[k] = 32 * r + k;
    std::stable_sort(order.begin(), order.end(), [](uint32_t a, uint32_t b) {
      return static_cast<float>(UbAt<half>(kSrc0)[a]) >
             static_cast<float>(UbAt<half>(kSrc0)[b]);
    });
    for (uint32_t k = 0; k < 32; ++k) {
      const uint8_t* pair = UbAt<uint8_t>(kDstC) + (32 * r + k) * 8;
      half score;
      uint32_t idx;
      std::memcpy(&score, pair, 2);
      std::memcpy(&idx, pair + 4, 4);
      EXPECT_EQ(idx, 1000 + order[k]) << r << " " << k;
      EXPECT_EQ(static_cast<float>(score),
                static_cast<float>(UbAt<half>(kSrc0)[order[k]]));
    }
  }
  asc_bitsort_sync(UbAt<half>(kDstC), UbAt<half>(kSrc0), index, 2);
  EXPECT_TRUE(SameDst());  // the first two repeats again, the same pairs

  // The page's merge: 8 lists of 32 float pairs, 4 at a time twice, then
  // the two results.
  Fill<float>();
  for (uint32_t i = 0; i < 256; ++i) index[i] = i;
  asc_bitsort(UbAt<float>(kSrc1 + 2048), UbAt<float>(kSrc0), index, 8);
  float* pairs = UbAt<float>(kSrc1 + 2048);
  float* tmp = UbAt<float>(kDstCpp);
  float* src[ASC_C_API_MRGSORT_ELEMENT_LEN] = {pairs, pairs + 64, pairs + 128,
                                               pairs + 192};
  asc_mrgsort4(tmp, src, 2, 32, 32, 32, 32, false, 15);
  src[0] = tmp;
  src[1] = tmp + 4 * 64;
  asc_mrgsort4(UbAt<float>(kDstC), src, 1, 128, 128, 0, 0, false, 3);
  std::vector<uint32_t> order(256);
  for (uint32_t i = 0; i < 256; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [](uint32_t a, uint32_t b) {
    return UbAt<float>(kSrc0)[a] > UbAt<float>(kSrc0)[b];
  });
  for (uint32_t k = 0; k < 256; ++k) {
    EXPECT_EQ(UbAt<float>(kDstC)[2 * k], UbAt<float>(kSrc0)[order[k]]) << k;
  }
  // With suspension, against MrgSort and GetMrgSortResult.
  src[0] = pairs;
  src[1] = pairs + 64;
  src[2] = pairs + 128;
  src[3] = pairs + 192;
  std::memset(UbAt<uint8_t>(kDstC), 0, kRegion);
  std::memset(UbAt<uint8_t>(kDstCpp), 0, kRegion);
  asc_mrgsort4_sync(UbAt<float>(kDstC), src, 1, 32, 20, 32, 32, true, 15);
  uint16_t sorted_num[ASC_C_API_MRGSORT_ELEMENT_LEN] = {};
  asc_get_vms4_sr(sorted_num);
  const uint16_t lengths[4] = {32, 20, 32, 32};
  AscendC::MrgSort(
      TensorAt<float>(kDstCpp),
      AscendC::MrgSortSrcList<float>(
          LocalTensor<float>(TPosition::VECCALC, kSrc1 + 2048, 64),
          LocalTensor<float>(TPosition::VECCALC, kSrc1 + 2048 + 256, 40),
          LocalTensor<float>(TPosition::VECCALC, kSrc1 + 2048 + 512, 64),
          LocalTensor<float>(TPosition::VECCALC, kSrc1 + 2048 + 768, 64)),
      AscendC::MrgSort4Info(lengths, true, 15, 1));
  EXPECT_TRUE(SameDst());
  uint16_t want[4];
  AscendC::GetMrgSortResult(want[0], want[1], want[2], want[3]);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(sorted_num[i], want[i]) << i;
  EXPECT_TRUE(sorted_num[0] == 32 || sorted_num[1] == 20 ||
              sorted_num[2] == 32 || sorted_num[3] == 32);

  asc_mrgsort4(UbAt<float>(kDstC), src, 1, 32, 32, 0, 0, false, 3);
  EXPECT_TRUE(FailsWith(
      [] {
        uint16_t n[4];
        asc_get_vms4_sr(n);
      },
      "asc_get_vms4_sr: the last merge (asc_mrgsort4) ran "
      "with if_exhausted_suspension false"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_mrgsort4(UbAt<float>(kDstC), src, 1, 32, 32, 0, 0, false, 5); },
      "asc_mrgsort4<float>: params.validBit 5 is not 3, 7 or 15"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_bitsort(UbAt<half>(kDstC), UbAt<half>(kSrc0), index, 256); },
      "asc_bitsort<half>: repeatTime 256 is out of range (0..255)"));
  // The lists valid_bit leaves out are not read.
  src[2] = nullptr;
  src[3] = nullptr;
  asc_mrgsort4(UbAt<float>(kDstC), src, 1, 32, 32, 0, 0, false, 3);
  EXPECT_TRUE(FailsWith(
      [&] { asc_mrgsort4(UbAt<float>(kDstC), src, 1, 32, 32, 8, 0, false, 7); },
      "asc_mrgsort4<float>: src[2] is a null pointer"));
}

// The extreme register: the page's example, WholeReduceMax setting it too,
// a reference over random data with ties under a mask, and the misuses.
TEST_F(CapiVector, ReduceExtremeRegister) {
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);  // a block starting afresh
  EXPECT_TRUE(FailsWith(
      [] {
        half v;
        uint32_t i;
        asc_get_reduce_max_cnt(v, i);
      },
      "asc_get_reduce_max_cnt: the last whole-repeat reduction of this block "
      "was none (no max or min reduction ran)"));
  half* src = UbAt<half>(kSrc0);
  for (uint32_t i = 0; i < 256; ++i) {
    src[i] = static_cast<half>(static_cast<float>(i + 1));
  }
  asc_repeat_reduce_max_value_index(UbAt<half>(kDstC), src, 256);
  half max_value;
  uint32_t max_index = 0;
  asc_get_reduce_max_cnt(max_value, max_index);
  EXPECT_EQ(static_cast<float>(max_value), 256.0f);
  EXPECT_EQ(max_index, 255u);

  // Random floats with repeated values, 5 repeats under a mask, strided.
  Fill<float>();
  float* f = UbAt<float>(kSrc0);
  for (uint32_t i = 0; i < 2048; ++i) f[i] = std::round(f[i]);
  asc_set_vector_mask(0, kMaskLow);
  asc_repeat_reduce_min_only_value(UbAt<float>(kDstC), f, 5, 1, 1, 10);
  float best_min = 0, best_max = 0;
  uint32_t at_min = 0, at_max = 0;
  bool any = false;
  for (uint32_t r = 0; r < 5; ++r) {
    for (uint32_t k = 0; k < 64; ++k) {
      if ((kMaskLow >> k & 1) == 0) continue;
      const float v = f[r * 80 + k];
      const uint32_t at = r * 64 + k;
      if (!any || v < best_min) best_min = v, at_min = at;
      if (!any || v > best_max) best_max = v, at_max = at;
      any = true;
    }
  }
  float value = 0;
  uint32_t index = 0;
  asc_get_reduce_min_cnt(value, index);
  EXPECT_EQ(value, best_min);
  EXPECT_EQ(index, at_min);
  // The C++ instruction sets the same register.
  AscendC::WholeReduceMax(TensorAt<float>(kDstCpp), TensorAt<float>(kSrc0),
                          std::vector<uint64_t>{kMaskLow, 0}.data(), 5, 1, 1,
                          10);
  asc_get_reduce_max_cnt(value, index);
  EXPECT_EQ(value, best_max);
  EXPECT_EQ(index, at_max);
  EXPECT_TRUE(FailsWith(
      [] {
        float v;
        uint32_t i;
        asc_get_reduce_min_cnt(v, i);
      },
      "asc_get_reduce_min_cnt: the last whole-repeat reduction of this block "
      "was a maximum (asc_repeat_reduce_max); it reads the extreme the last "
      "asc_repeat_reduce_min left"));
  EXPECT_TRUE(FailsWith(
      [] {
        half v;
        uint32_t i;
        asc_get_reduce_max_cnt(v, i);
      },
      "asc_get_reduce_max_cnt: val is half, but the last "
      "asc_repeat_reduce_max ran on float"));
  asc_set_vector_mask(0, 0);
  asc_repeat_reduce_max_only_index(UbAt<float>(kDstC), f, 1, 1, 1, 8);
  EXPECT_TRUE(FailsWith(
      [] {
        float v;
        uint32_t i;
        asc_get_reduce_max_cnt(v, i);
      },
      "asc_get_reduce_max_cnt: the last asc_repeat_reduce_max selected no "
      "element"));
}

// asc_set_va_reg and asc_transto5hd_b*: the page's first example (a 16×16
// transposition of halves), then TransDataTo5HD with the same address
// lists for every element size, with repeats.
TEST_F(CapiVector, TransTo5hdMatchesPageAndCpp) {
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);  // no register set yet
  Fill<half>();
  half* src = UbAt<half>(kSrc0);
  half* dst = UbAt<half>(kDstC);
  half* src_list[16];
  half* dst_list[16];
  for (int i = 0; i < 16; ++i) {
    src_list[i] = src + 16 * i;
    dst_list[i] = dst + 16 * i;
  }
  asc_set_va_reg(VA0, dst_list);
  asc_set_va_reg(VA1, dst_list + 8);
  asc_set_va_reg(VA2, src_list);
  asc_set_va_reg(VA3, src_list + 8);
  asc_transto5hd_b16(VA0, VA2, 1, 0, 0);
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) {
      EXPECT_EQ(static_cast<float>(dst[16 * r + c]),
                static_cast<float>(src[16 * c + r]))
          << r << " " << c;
    }
  }
  // Every element size, 3 repeats, against the C++ address-list form; the
  // blocks of src 256 bytes apart, of dst 32.
  for (uint32_t bytes : {1u, 2u, 4u}) {
    for (bool high : {false, true}) {
      if (bytes != 1 && high) continue;
      Fill<uint8_t>();
      uint8_t* s8 = UbAt<uint8_t>(kSrc0);
      uint64_t cpp_dst[16], cpp_src[16];
      uint8_t* d_list[16];
      uint8_t* s_list[16];
      for (int i = 0; i < 16; ++i) {
        s_list[i] = s8 + 256 * i;
        d_list[i] = UbAt<uint8_t>(kDstC) + 32 * i;
        cpp_src[i] = reinterpret_cast<uintptr_t>(s_list[i]);
        cpp_dst[i] =
            reinterpret_cast<uintptr_t>(UbAt<uint8_t>(kDstCpp)) + 32 * i;
      }
      asc_set_va_reg(VA4, d_list);
      asc_set_va_reg(VA5, d_list + 8);
      asc_set_va_reg(VA1, s_list);
      asc_set_va_reg(VA2, s_list + 8);
      const AscendC::TransDataTo5HDParams params(high, !high, 3, 16, 1);
      if (bytes == 1) {
        asc_transto5hd_b8(VA4, VA1, 3, 16, 1, high, !high);
        AscendC::TransDataTo5HD<uint8_t>(cpp_dst, cpp_src, params);
      } else if (bytes == 2) {
        asc_transto5hd_b16_sync(VA4, VA1, 3, 16, 1);
        AscendC::TransDataTo5HD<half>(cpp_dst, cpp_src, params);
      } else {
        asc_transto5hd_b32(VA4, VA1, 3, 16, 1);
        AscendC::TransDataTo5HD<float>(cpp_dst, cpp_src, params);
      }
      EXPECT_TRUE(SameDst()) << bytes << " " << high;
    }
  }
  EXPECT_TRUE(FailsWith([] { asc_transto5hd_b16(VA6, VA2, 1, 0, 0); },
                        "asc_transto5hd_b16: dst reads VA6, which "
                        "asc_set_va_reg has not set in this block"));
  EXPECT_TRUE(FailsWith([] { asc_transto5hd_b32(VA0, VA7, 1, 0, 0); },
                        "asc_transto5hd_b32: src VA7 has no next register"));
  EXPECT_TRUE(FailsWith([&] { asc_transto5hd_b16(VA0, VA2, 2, 0, 6100); },
                        "asc_transto5hd_b16: repeat 1 reads or writes"));
  src_list[3] = src + 1;
  EXPECT_TRUE(FailsWith([&] { asc_set_va_reg(VA2, src_list); },
                        "asc_set_va_reg<half>: src_array[3] is at UB byte 2, "
                        "which is not 32-byte aligned"));
  int host[8];
  int* host_list[8] = {host, host, host, host, host, host, host, host};
  EXPECT_TRUE(FailsWith([&] { asc_set_va_reg(VA2, host_list); },
                        "asc_set_va_reg<int32_t>: src_array[0] 0x"));
}

TEST_F(CapiVector, Checks) {
  Fill<float>();
  float* d = UbAt<float>(kDstC);
  float* a = UbAt<float>(kSrc0);
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_add(UbAt<int8_t>(kDstC), UbAt<int8_t>(kSrc0), UbAt<int8_t>(kSrc1),
                32);
      },
      "asc_add<int8_t>: element type int8_t is not supported on profile Atlas "
      "A2/A3 (asc_add takes int16_t, int32_t, half, float there)"));
  EXPECT_TRUE(FailsWith([&] { asc_exp(d, a + 1, 8); },
                        "asc_exp<float>: src is at UB byte 4, which is not "
                        "32-byte aligned"));
  std::vector<float> host(64);
  EXPECT_TRUE(FailsWith([&] { asc_sub(d, a, host.data(), 64); },
                        "asc_sub<float>: src1 "));
  EXPECT_TRUE(FailsWith([&] { asc_sub(d, a, host.data(), 64); },
                        "is not a unified-buffer address (it points outside "
                        "the unified buffer)"));
  EXPECT_TRUE(FailsWith([&] { asc_relu<float>(nullptr, a, 64); },
                        "asc_relu<float>: dst is a null pointer"));
  const uint32_t ub = normgrad_ascendc::CurrentCore().ub_size();
  float* last = UbAt<float>(ub - 256);
  EXPECT_TRUE(FailsWith([&] { asc_add_sync(last, a, a, 65); },
                        "asc_add_sync<float>: dst has 64 elements, fewer than "
                        "count 65"));
  EXPECT_TRUE(FailsWith([&] { asc_abs(last, a, 2, 1, 1, 8, 8); },
                        "asc_abs<float>: dst has 64 elements (256 bytes); 2 "
                        "repeats with block stride 1 and repeat stride 8 "
                        "reach byte 512, past its end"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_add(d, a, d + 8, 2, 1, 1, 1, 8, 8, 8); },
      "asc_add<float>: in repeat 0, dst and src1 share a block without being "
      "the same lanes"));
  {
    compat_test::ProfileScope p950(normgrad_ascendc::Profile::k950);
    EXPECT_TRUE(FailsWith([&] { asc_add(d, a, a, 64); },
                          "asc_add: not available on profile Ascend 950"));
  }
  EXPECT_TRUE(FailsWith(
      [&] { asc_get_phy_buf_addr(ub + 1); },
      "asc_get_phy_buf_addr: offset 196609 is past the unified buffer's "
      "196608 bytes"));
}

}  // namespace
